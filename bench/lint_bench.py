"""errgen lint (whole process) beside the bare libyaml compose of the same file.

Run: python -m bench.lint_bench   Targets (issue 2): 10,000 codes within 1.25x the bare compose;
1,000 codes under 0.3 s wall including interpreter start.
"""

from __future__ import annotations

import sys

import yaml

from bench import synth
from bench.common import OUT, errgen_cmd, table, time_call, time_command


def main() -> None:
    rows = []
    for n in (1_000, 10_000):
        path = synth.write(OUT, n)
        text = path.read_text(encoding="utf-8")
        compose = time_call(lambda: yaml.compose(text, Loader=yaml.CSafeLoader))
        compose_proc = time_command([sys.executable, "-c", f"import yaml; yaml.compose(open({str(path)!r}).read(), Loader=yaml.CSafeLoader)"])
        lint = time_command(errgen_cmd() + ["lint", "--registry", str(path)])
        rows.append([n, text.count("\n"), compose, compose_proc, lint, f"{lint / compose:.2f}x"])
    print(table(["codes", "lines", "compose (s)", "compose+python (s)", "errgen lint (s)", "lint/compose"], rows))


if __name__ == "__main__":
    main()
