"""The site target beside the Markdown catalogue on the same registry (issue 30: the site builds in
under 2x the catalogue's time and is under 20 MB).

First the renders alone: wall and CPU, best of --repeat, in this process, the contract view derived
once beforehand, as a build does. With --build, then the whole commands a user runs, each a fresh
process into an empty folder under --dir: `errgen build --target site` beside `--target docs`,
run alternately, with wall, user and system CPU of each (median and best of --repeat), so the
file system's share shows (the site writes 5,005 files in 5,002 folders, the catalogue one file).
Last, the built site's size: apparent (the bytes of its files) and on disk (`du`: the blocks
allocated, at least one per file).

    python -m bench.site_bench [--codes 5000] [--repeat 5] [--shape plain|prose]
    python -m bench.site_bench --build [--dir /dev/shm] [--repeat 5]   # + whole builds, in a folder of that file system
    python -m bench.site_bench --build --src ../other-clone/src          # whole builds of another errgen (before/after)
    python -m bench.site_bench --build --registry bench/out/aws-registry.yaml   # a real catalogue (bench/aws_catalog.py)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import synth
from bench.common import ROOT, errgen_cmd
from errgen.contract import view
from errgen.emit.targets import docs, site
from errgen.registry.lint import lint_text

LIMIT_MB = 20


@dataclass
class Run:
    wall: float
    user: float
    system: float

    @property
    def cpu(self) -> float:
        return self.user + self.system


def renders(text: str, repeat: int) -> None:
    registry = lint_text(text).registry
    view(registry)
    best, best_cpu = {}, {}
    for target in (catalogue, site):
        times, cpu = [], []
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            files = target.render(registry)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        best[target.NAME], best_cpu[target.NAME] = min(times), min(cpu)
        size = sum(len(text.encode()) for text in files.values())
        print(f"  render {target.NAME:<5} {min(times):7.3f} s  CPU {min(cpu):7.3f} s  {size / 1e6:6.2f} MB  {len(files)} files")
    # On a shared machine the wall time moves with everyone else's load; the CPU ratio decides.
    print(f"  render site / docs: {best['site'] / best['docs']:.2f}x wall, {best_cpu['site'] / best_cpu['docs']:.2f}x CPU (target < 2x)")


def build(registry: Path, out: Path, target: str, src: Path) -> Run:
    """One `errgen build --target TARGET` of errgen's code in `src` into the empty folder `out`, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = errgen_cmd() + ["build", "--registry", str(registry), "--out", str(out), f"--target={target}"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err[-2000:]}")
    return Run(wall, usage.ru_utime, usage.ru_stime)


def size(folder: Path) -> tuple[int, int, int, int]:
    """Files, folders, the files' bytes (apparent size), and the blocks allocated to the files and
    folders (what `du -s` counts: at least a block per file, and per folder where it takes one)."""
    files = folders = apparent = allocated = 0
    for where, subfolders, names in os.walk(folder):
        folders += 1
        allocated += os.lstat(where).st_blocks * 512
        for name in names:
            st = os.lstat(os.path.join(where, name))
            files, apparent, allocated = files + 1, apparent + st.st_size, allocated + st.st_blocks * 512
    return files, folders, apparent, allocated


def file_system(folder: Path) -> str:
    """The type of the file system holding folder, from /proc/mounts (the longest mount point above it)."""
    try:
        mounts = [line.split()[1:3] for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "unknown"
    real = str(folder.resolve())
    best = max((m for m in mounts if real == m[0] or real.startswith(m[0].rstrip("/") + "/")), key=lambda m: len(m[0]), default=None)
    return best[1] if best else "unknown"


def _verdict(size: int) -> str:
    return f"{'under' if size < LIMIT_MB * 1e6 else 'OVER'} {LIMIT_MB} MB"


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def builds(text: str, repeat: int, parent: Path, keep: bool, src: Path) -> None:
    work = Path(tempfile.mkdtemp(prefix="site-bench-", dir=parent))
    try:
        registry = work / "registry.yaml"
        registry.write_text(text, encoding="utf-8")
        print(f"  whole builds of {src} in {work} ({file_system(work)}), load average {load()} at the start")
        build(registry, work / "warm-docs", "docs", src)  # compiled templates, bytecode: what any second build finds
        build(registry, work / "warm-site", "site", src)
        runs: dict[str, list[Run]] = {"docs": [], "site": []}
        for i in range(repeat):  # alternately, so both see the same load; a new folder each (no deletion in between)
            for target in runs:
                runs[target].append(build(registry, work / f"{target}-{i}", target, src))
        best, middle = {}, {}
        for target, done in runs.items():
            fastest, least = min(done, key=lambda r: r.wall), min(done, key=lambda r: r.cpu)
            best[target] = fastest.wall, least.cpu
            middle[target] = Run(*(statistics.median(getattr(r, f) for r in done) for f in ("wall", "user", "system")))
            mid = middle[target]
            each = ", ".join(f"{r.wall:.2f}/{r.cpu:.2f}" for r in done)
            print(f"  build  {target:<5} median wall {mid.wall:5.2f} s, user {mid.user:.2f} + sys {mid.system:.2f}; "
                  f"best wall {fastest.wall:.2f} s, CPU {least.cpu:.2f} s   each run wall/CPU: {each}")
        # A disk's cost of making files moves from run to run (this VM's ext4: 0.4-2.5 s for the
        # same 10,000 inodes), so the median run is the figure; the best is beside it.
        print(f"  build  site / docs: {middle['site'].wall / middle['docs'].wall:.2f}x wall, "
              f"{middle['site'].cpu / middle['docs'].cpu:.2f}x CPU, median of {repeat} (target < 2x); "
              f"best of {repeat}: {best['site'][0] / best['docs'][0]:.2f}x wall, {best['site'][1] / best['docs'][1]:.2f}x CPU; "
              f"load average {load()} at the end")
        files, folders, apparent, allocated = size(work / "site-0" / "site")
        print(f"  site size: {files} files in {folders} folders: {apparent / 1e6:.2f} MB apparent ({_verdict(apparent)}), "
              f"{allocated / 1e6:.2f} MB of blocks on {file_system(work)} (du -s; {_verdict(allocated)})")
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codes", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--shape", choices=("plain", "prose"), default="plain",
                        help="short synthetic descriptions, or text-heavy ones like real catalogues")
    parser.add_argument("--build", action="store_true", help="also time whole `errgen build` runs of each target, and the site's size")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the whole builds write (implies --build; default: the temporary folder); its file system's cost is part of the figures")
    parser.add_argument("--keep", action="store_true", help="leave the built folders in place (their path is printed)")
    parser.add_argument("--registry", type=Path, default=None,
                        help="a registry file instead of a synthetic one (a real catalogue: `python -m bench.aws_catalog` writes AWS's 5,898 codes)")
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the errgen source folder the whole builds run (another clone's src: a before/after comparison)")
    args = parser.parse_args()
    if args.registry:
        text = args.registry.read_text(encoding="utf-8")
        print(f"{args.registry}, best of {args.repeat}")
    else:
        text = synth.registry_text(args.codes) if args.shape == "plain" else synth.prose_text(args.codes)
        print(f"{args.codes} codes ({args.shape}), best of {args.repeat}")
    renders(text, args.repeat)
    if args.build or args.dir:
        builds(text, args.repeat, args.dir or Path(tempfile.gettempdir()), args.keep, args.src.resolve())


if __name__ == "__main__":
    main()
