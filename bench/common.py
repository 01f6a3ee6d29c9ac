"""Timing helpers shared by the benchmarks: best-of-N wall time of a command or a function, and
the wall time and memory of one command with every process it starts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from dataclasses import dataclass
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
NODE_BIN = ROOT / "tests" / "ts" / "node_modules" / ".bin"


def errgen_cmd() -> list[str]:
    script = shutil.which("errgen")
    return [script] if script else [sys.executable, "-m", "errgen"]


def time_command(cmd: list[str], repeat: int = 5, ok: tuple[int, ...] = (0,), cwd: Path | None = None) -> float:
    best = float("inf")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, env=env, cwd=cwd)
        elapsed = time.perf_counter() - start
        if done.returncode not in ok:
            raise SystemExit(f"{' '.join(map(str, cmd))} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
        best = min(best, elapsed)
    return best


def time_call(fn: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def table(headers: list[str], rows: list[list[object]]) -> str:
    cells = [headers] + [[f"{c:.3f}" if isinstance(c, float) else str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


@dataclass
class Measure:
    seconds: float
    max_rss_mb: float  # the largest single process (getrusage: the command or any child it waited for)
    tree_pss_mb: float  # the most the whole process tree held at once (sampled PSS: shared pages split)
    note: str = "ok"
    cpu_seconds: float = float("nan")  # user + system of the command and the children it waited for


def measure(cmd: list[str], timeout: float, cwd: Path | None = None) -> Measure:
    """One run of cmd: wall seconds, max RSS, and the peak of its process tree's summed PSS,
    sampled every 10 ms from /proc (a build that forks workers is charged for all of them)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    deadline = start + timeout
    peak = 0.0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            return Measure(timeout, float("nan"), float("nan"), f"timed out after {timeout:.0f} s")
        peak = max(peak, _tree_pss(proc.pid))
        time.sleep(0.01)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
    note = "ok" if code == 0 else f"exit {code}: {err.splitlines()[-1][:60] if err else ''}"
    return Measure(elapsed, usage.ru_maxrss / 1024, max(peak, usage.ru_maxrss / 1024 if peak == 0 else peak), note,
                   usage.ru_utime + usage.ru_stime)


def _tree_pss(root: int) -> float:
    """Summed PSS in MB of root and its descendants (0 where /proc cannot tell)."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1])
                        break
        except (OSError, ValueError):
            pass
    return total / 1024
