"""A folder registry (50 fragments x 200 codes) against the same registry as one file.

    python -m bench.compose_bench [--fragments 50] [--codes 200]

Prints lint and build wall time (whole process, best of 3) for both layouts and their ratio;
the target is at most 1.2x.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.synth import registry_text


def split(single: str, fragments: int, per: int, folder: Path) -> Path:
    """The single file's header (everything but codes) plus one fragment per `per` codes."""
    head, rest = single.split("codes:\n", 1)
    codes, history = rest.split("history:\n", 1)
    blocks = codes.split("\n  CODE_")
    entries = [blocks[0]] + ["  CODE_" + b for b in blocks[1:]]
    (folder / "teams").mkdir(parents=True)
    for f in range(fragments):
        body = "\n".join(e.rstrip("\n") for e in entries[f * per:(f + 1) * per])
        (folder / "teams" / f"team-{f:03d}.yaml").write_text(f"owner: '@org/team-{f}'\ncodes:\n{body}\n", encoding="utf-8")
    header = folder / "errors.yaml"
    header.write_text(f"{head}include: [teams/*.yaml]\nhistory:\n{history}", encoding="utf-8")
    return header


def best(cmd: list[str], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fragments", type=int, default=50)
    parser.add_argument("--codes", type=int, default=200, help="codes per fragment")
    args = parser.parse_args()
    n = args.fragments * args.codes
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        single = root / "single.yaml"
        single.write_text(registry_text(n), encoding="utf-8")
        header = split(single.read_text(encoding="utf-8"), args.fragments, args.codes, root / "folder")
        errgen = [sys.executable, "-m", "errgen"]
        print(f"{args.fragments} fragments x {args.codes} codes = {n} codes")
        print(f"{'step':<8}{'one file':>12}{'folder':>12}{'ratio':>8}")
        for step, extra in (("lint", []), ("build", ["--out"])):
            times = []
            for reg in (single, header):
                cmd = errgen + [step, "--registry", str(reg)]
                if extra:
                    cmd += extra + [str(root / f"out-{reg.stem}")]
                times.append(best(cmd))
            print(f"{step:<8}{times[0]:>11.2f}s{times[1]:>11.2f}s{times[1] / times[0]:>7.2f}x")


if __name__ == "__main__":
    main()
