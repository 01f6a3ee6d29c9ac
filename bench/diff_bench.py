"""errgen diff of two synthetic registries (a few hundred changes of each kind) beside the bare
libyaml compose of one of them; how the whole command scales; and errgen bump beside errgen diff
on the same pair (wall time and peak memory).

Run: python -m bench.diff_bench   Targets (issue 4): 10,000 codes within 2.5x one compose;
linear from 1k to 50k; 1,000 codes under 0.5 s wall. Issue 14: bump on 20,000 codes within 1.5x
diff's time and memory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import yaml

from bench import synth
from bench.common import OUT, ROOT, errgen_cmd, table, time_call, time_command


def pair(n: int, version: str = "2.0.0") -> tuple[str, str]:
    """NEW differs from OLD by about n/30 changes of each kind: removals, category moves,
    additions, description edits and delay edits."""
    old = synth.registry_text(n)
    every = 30
    removed = frozenset(range(0, n, every))
    moved = {i: "internal" for i in range(1, n, every)}
    new = synth.registry_text(n + n // every, version=version, skip=removed, tweak=moved)
    new = new.replace("for load testing.", "for load tests.", n // every)
    new = new.replace("retry_after_ms: 1", "retry_after_ms: 9", n // every)
    return old, new


def measure(cmd: list[str], ok: tuple[int, ...], before: "callable[[], None] | None" = None, repeat: int = 3) -> tuple[float, float]:  # type: ignore[valid-type]
    """Best wall time (s) and the largest peak RSS (MB) of `repeat` runs of a command."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    best, peak = float("inf"), 0.0
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in ok:
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode})")
        best, peak = min(best, elapsed), max(peak, usage.ru_maxrss / 1024)
    return best, peak


def bump_beside_diff(n: int = 20_000) -> str:
    """The same pair, version not yet bumped: diff finds every change, bump also rewrites the
    version, the new codes' since and appends a history entry of every change."""
    OUT.mkdir(parents=True, exist_ok=True)
    old_text, new_text = pair(n, version="1.0.0")
    old, new, work = OUT / f"bump-old-{n}.yaml", OUT / f"bump-new-{n}.yaml", OUT / f"bump-work-{n}.yaml"
    old.write_text(old_text)
    new.write_text(new_text)
    diff_s, diff_mb = measure(errgen_cmd() + ["diff", str(old), str(new)], ok=(1,))
    bump_s, bump_mb = measure(errgen_cmd() + ["bump", "--from", str(old), "--registry", str(work), "--date", "2026-11-30"],
                              ok=(0,), before=lambda: shutil.copy(new, work))
    done = subprocess.run(errgen_cmd() + ["diff", str(old), str(work)], capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    agree = "yes" if done.returncode == 0 else "NO"
    rows = [["errgen diff", diff_s, f"{diff_mb:.0f}", "1.00x", "1.00x"],
            ["errgen bump", bump_s, f"{bump_mb:.0f}", f"{bump_s / diff_s:.2f}x", f"{bump_mb / diff_mb:.2f}x"]]
    head = f"{n:,} codes, {len(new_text.splitlines()):,} lines; diff after bump passes: {agree}"
    return head + "\n" + table(["command", "wall (s)", "max RSS (MB)", "time vs diff", "memory vs diff"], rows)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    # First, while this process is small: a child's peak RSS counts the parent pages it starts with.
    print(bump_beside_diff())
    print()
    rows = []
    for n in (1_000, 10_000, 50_000):
        old_text, new_text = pair(n)
        old = OUT / f"diff-old-{n}.yaml"
        new = OUT / f"diff-new-{n}.yaml"
        old.write_text(old_text)
        new.write_text(new_text)
        compose = time_call(lambda: yaml.compose(old_text, Loader=yaml.CSafeLoader), repeat=3)
        run = time_command(errgen_cmd() + ["diff", str(old), str(new), "--format", "json"], repeat=3, ok=(0, 1))
        rows.append([n, compose, run, f"{run / compose:.2f}x", f"{run / n * 1e6:.1f}"])
    print(table(["codes", "compose one (s)", "errgen diff (s)", "diff/compose", "us per code"], rows))


if __name__ == "__main__":
    main()
