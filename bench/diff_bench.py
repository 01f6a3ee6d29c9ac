"""errgen diff of two synthetic registries (a few hundred changes of each kind) beside the bare
libyaml compose of one of them; and how the whole command scales.

Run: python -m bench.diff_bench   Targets (issue 4): 10,000 codes within 2.5x one compose;
linear from 1k to 50k; 1,000 codes under 0.5 s wall.
"""

from __future__ import annotations

import yaml

from bench import synth
from bench.common import OUT, errgen_cmd, table, time_call, time_command


def pair(n: int) -> tuple[str, str]:
    """NEW differs from OLD by about n/30 changes of each kind: removals, category moves,
    additions, description edits and delay edits."""
    old = synth.registry_text(n)
    every = 30
    removed = frozenset(range(0, n, every))
    moved = {i: "internal" for i in range(1, n, every)}
    new = synth.registry_text(n + n // every, version="2.0.0", skip=removed, tweak=moved)
    new = new.replace("for load testing.", "for load tests.", n // every)
    new = new.replace("retry_after_ms: 1", "retry_after_ms: 9", n // every)
    return old, new


def main() -> None:
    rows = []
    for n in (1_000, 10_000, 50_000):
        old_text, new_text = pair(n)
        old = OUT / f"diff-old-{n}.yaml"
        new = OUT / f"diff-new-{n}.yaml"
        OUT.mkdir(parents=True, exist_ok=True)
        old.write_text(old_text)
        new.write_text(new_text)
        compose = time_call(lambda: yaml.compose(old_text, Loader=yaml.CSafeLoader), repeat=3)
        run = time_command(errgen_cmd() + ["diff", str(old), str(new), "--format", "json"], repeat=3, ok=(0, 1))
        rows.append([n, compose, run, f"{run / compose:.2f}x", f"{run / n * 1e6:.1f}"])
    print(table(["codes", "compose one (s)", "errgen diff (s)", "diff/compose", "us per code"], rows))


if __name__ == "__main__":
    main()
