"""errgen diff of two synthetic registries (a few hundred changes of each kind) beside the bare
libyaml compose of one of them; how the whole command scales; errgen bump beside errgen diff
on the same pair (wall time and peak memory); and `diff --against REF` of a folder registry
beside `lint` of the same tree.

Run: python -m bench.diff_bench           everything
     python -m bench.diff_bench --quick   what `make bench` runs: the release pair beside a
                                          compose, and diff at a ref beside lint
Targets: issue 32, the release pair (per 10,000 codes: 200 removed and announced, 200 reworded,
300 added, version bumped) within 1.5x one bare compose of NEW at 10,000 and 20,000 codes, and
the 20,000 ratio within 1.2x the 10,000 one. Issue 31: diff --against at 5,000 fragments within 2x
lint. Issue 4: 1,000 codes under 0.5 s wall. Issue 14: bump on 20,000 codes within 1.5x diff's
time and memory.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

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


def release_pair(n: int) -> tuple[str, str]:
    """A release as issue 32 measures it, per 10,000 codes: 200 codes removed (and named in the new
    history entry), 200 descriptions reworded, 300 codes added (since: the new version), version
    1.0.0 -> 2.0.0. The diff passes: every check holds."""
    scale = n // 10_000
    removed = frozenset(range(0, n, n // (200 * scale)))
    reworded = frozenset(range(1, n, n // (200 * scale)))
    new = synth.registry_text(n + 300 * scale, version="2.0.0", skip=removed)
    lines, number = [], -1
    for line in new.splitlines():
        if line.startswith("  CODE_"):
            number = int(line[7:-1])
        elif number >= n and line == "    since: 1.0.0":
            line = "    since: 2.0.0"
        elif line.startswith("    description: "):
            if number >= n:
                line = f"    description: A new failure, {number}, added in this release."
            elif number in reworded:
                line = line.replace("for load testing.", "for load tests.")
        lines.append(line)
    names = ", ".join(f"CODE_{i:06d}" for i in sorted(removed))
    text = "\n".join(lines) + "\n"
    text = text.replace("changes: [Next.]", f"changes: ['Removed {names}.']")
    return synth.registry_text(n), text


def cpu_command(cmd: list[str], repeat: int = 3, ok: tuple[int, ...] = (0,), cwd: Path | None = None) -> tuple[float, float]:
    """Best wall and best CPU (user + system) seconds of a command: on a shared machine the CPU
    figure moves less with the other load."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    wall = cpu = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = min(wall, time.perf_counter() - start)
        if os.waitstatus_to_exitcode(status) not in ok:
            raise SystemExit(f"{' '.join(map(str, cmd))} failed ({os.waitstatus_to_exitcode(status)})")
        cpu = min(cpu, usage.ru_utime + usage.ru_stime)
    return wall, cpu


def compose_seconds(text: str, repeat: int = 3) -> tuple[float, float]:
    """Best wall and CPU seconds of one bare libyaml compose, in this process."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        yaml.compose(text, Loader=yaml.CSafeLoader)
        wall, cpu = min(wall, time.perf_counter() - start), min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def compiled() -> None:
    """Byte-compile errgen's source first, as installing it does: with PYTHONDONTWRITEBYTECODE set
    (as in some shells and CI images) every run would otherwise compile every module it imports,
    about 0.1 s that no installed errgen pays and that would move the ratio."""
    compileall.compile_dir(str(ROOT / "src"), quiet=1)


def release_beside_compose(sizes: tuple[int, ...] = (10_000, 20_000)) -> str:
    """errgen diff OLD NEW of the release pair, whole process, beside one compose of NEW."""
    OUT.mkdir(parents=True, exist_ok=True)
    compiled()
    rows, ratios, cpu_ratios = [], [], []
    for n in sizes:
        old_text, new_text = release_pair(n)
        old, new = OUT / f"release-old-{n}.yaml", OUT / f"release-new-{n}.yaml"
        old.write_text(old_text)
        new.write_text(new_text)
        compose_wall, compose_cpu = compose_seconds(new_text)
        wall, cpu = cpu_command(errgen_cmd() + ["diff", str(old), str(new)])
        ratios.append(wall / compose_wall)
        cpu_ratios.append(cpu / compose_cpu)
        rows.append([n, compose_wall, wall, f"{wall / compose_wall:.2f}x", compose_cpu, cpu, f"{cpu / compose_cpu:.2f}x", "<= 1.5x"])
    out = table(["codes", "compose (s)", "errgen diff (s)", "diff/compose", "compose CPU (s)", "diff CPU (s)", "CPU ratio", "target"], rows)
    if len(ratios) > 1:
        out += (f"\nlinear: ratio at {sizes[-1]:,} / ratio at {sizes[0]:,} = {ratios[-1] / ratios[0]:.2f} wall, "
                f"{cpu_ratios[-1] / cpu_ratios[0]:.2f} CPU (target <= 1.2)")
    return out


def folder_repo(root: Path, fragments: int, per: int) -> Path:
    """A git repository with a folder registry of `fragments` team files committed, then a
    working tree where a tenth of the fragments changed: codes moved between fragments, a
    fragment deleted, one added. Returns the header's path."""
    from bench.compose_bench import split

    header = split(synth.registry_text(fragments * per), fragments, per, root)
    git = ["git", "-c", "user.email=bench@example.com", "-c", "user.name=bench"]
    subprocess.run(git + ["init", "-q"], cwd=root, check=True)
    subprocess.run(git + ["add", "-A"], cwd=root, check=True)
    subprocess.run(git + ["commit", "-q", "-m", "registry"], cwd=root, check=True)
    teams = root / "teams"
    for f in range(0, fragments, 10):  # a move: the fragment's codes now live in a new file
        (teams / f"team-{f:03d}.yaml").rename(teams / f"moved-{f:03d}.yaml")
    return header


def at_ref_beside_lint(fragments: int = 5_000, per: int = 2) -> str:
    """errgen diff --against HEAD of a folder registry beside errgen lint of the same tree."""
    with tempfile.TemporaryDirectory() as tmp:
        header = folder_repo(Path(tmp), fragments, per)
        lint_wall, lint_cpu = cpu_command(errgen_cmd() + ["lint", "--registry", str(header)], cwd=header.parent)
        wall, cpu = cpu_command(errgen_cmd() + ["diff", "--against", "HEAD", "--registry", str(header)], cwd=header.parent, ok=(0, 1))
    rows = [[f"{fragments:,} x {per}", lint_wall, wall, f"{wall / lint_wall:.2f}x", lint_cpu, cpu, f"{cpu / lint_cpu:.2f}x", "<= 2x"]]
    return table(["fragments x codes", "lint (s)", "diff --against (s)", "diff/lint", "lint CPU (s)", "diff CPU (s)", "CPU ratio", "target"], rows)


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the release pair beside a compose, and diff at a ref beside lint")
    args = parser.parse_args()
    if not args.quick:
        # First, while this process is small: a child's peak RSS counts the parent pages it starts with.
        print(bump_beside_diff(), flush=True)
        print()
    print(release_beside_compose(), flush=True)
    print()
    print(at_ref_beside_lint(), flush=True)
    if args.quick:
        return
    print()
    OUT.mkdir(parents=True, exist_ok=True)
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
