"""Timing helpers shared by the benchmarks: best-of-N wall time of a command or a function."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
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
