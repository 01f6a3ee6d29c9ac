"""Include patterns with many `**` segments: the time to expand `**/d*/**/d*/...` (12 pairs)
over a folder chain 12 deep, the case tests/test_include_links.py checks by counting folder
listings (a clock there failed on a loaded machine). The target: well under a second.

Run: python -m bench.pattern_bench [--depth 12]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.common import table, time_call
from errgen.registry.compose import WorkTree, expand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, nargs="+", default=[6, 12, 18])
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for depth in args.depth:
            root = Path(tmp) / f"reg{depth}"
            deep = root
            for i in range(depth):
                deep = deep / f"d{i}"
            deep.mkdir(parents=True)
            (deep / "x.yaml").write_text("codes: {}\n")
            pattern = "/".join(["**", "d*"] * depth) + "/*.yaml"
            seconds = time_call(lambda: expand(pattern, WorkTree(root)), repeat=3)
            rows.append([depth, f"{seconds * 1000:.1f} ms"])
    print(table(["folders deep, ** pairs", "expand (best of 3)"], rows))


if __name__ == "__main__":
    main()
