"""errgen build (all targets, warm formatter cache) beside what a user would otherwise run on the
same N codes: datamodel-codegen (pydantic v2 models) plus json2ts (json-schema-to-typescript) on
the plain payload schema of article 000 (a `code` enum of N values). Wall time and memory of each
command, and the ratio errgen / peers' sum (issue 18 target: <= 0.5x at 100 and 5,000 codes).

The build is of every default target, the site (a page and a folder per code) included, so the
writer's per-file cost shows; `--site` adds a line timing the site target alone beside the
Markdown catalogue (`--target docs`), whole builds into empty folders (issue 30: under 2x and
20 MB: the line also gives the site's bytes and the blocks it takes, as `du -s` counts them).
The builds write under `--dir` (default bench/out): its file system's cost of creating files and
folders is part of every figure (compare `--dir /dev/shm`, a tmpfs, with a disk folder).

Each size also times a bare libyaml compose of the same registry file in its own process (the
issue's bound at 20,000 codes: a build within 4x of it, under 300 MB). Memory is shown twice: the
largest single process's max RSS, and the peak of the whole process tree's summed PSS (a build
that renders in worker processes is charged for all of them).

A second line runs the same peers on errgen's own schema (error.schema.json); it is kept for
comparison only, since the plain schema is what a user of the peers would write.

Run: python -m bench.build_bench [--codes 100 5000 20000 | --registry FILE ...] [--shape plain|prose] [--repeat 2]
     [--no-own-schema] [--site] [--dir FOLDER]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Callable

from bench import synth
from bench.common import NODE_BIN, OUT, Measure, errgen_cmd, measure, table
from bench.site_bench import size as site_size

COMPOSE = "import sys, yaml; yaml.compose(open(sys.argv[1], encoding='utf-8').read(), Loader=yaml.CSafeLoader)"


def plain_schema(codes: list[str], categories: list[str]) -> dict[str, object]:
    """Article 000's payload schema with the registry's codes and categories."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ErrorPayload",
        "type": "object",
        "required": ["code", "category", "retryable", "scope", "correlation_id"],
        "additionalProperties": False,
        "properties": {
            "code": {"type": "string", "enum": codes},
            "category": {"type": "string", "enum": categories},
            "retryable": {"type": "boolean"},
            "retry_after_ms": {"type": "integer", "minimum": 0},
            "scope": {"type": "string", "enum": ["request", "resource", "service"]},
            "resource_id": {"type": "string"},
            "correlation_id": {"type": "string"},
        },
    }


def best(cmd_for: Callable[[int], list[str]], repeat: int, timeout: float) -> Measure:
    """The run of least wall time, carrying the least CPU time of the runs (on a shared machine
    the two minima need not be the same run)."""
    runs = [measure(cmd_for(i), timeout) for i in range(repeat)]
    fastest = min(runs, key=lambda m: m.seconds)
    return Measure(fastest.seconds, fastest.max_rss_mb, fastest.tree_pss_mb, fastest.note, min(m.cpu_seconds for m in runs))


def cpu(m: Measure) -> str:
    return f"{m.seconds:.2f} ({m.cpu_seconds:.2f} CPU)"


def peers(schema: Path, tag: str, repeat: int, timeout: float) -> tuple[Measure, Measure]:
    """Each peer's best of `repeat` runs, as errgen's build is timed."""
    dcg_bin = shutil.which("datamodel-codegen") or str(Path(sys.executable).parent / "datamodel-codegen")
    dcg = best(lambda i: [dcg_bin, "--input", str(schema), "--input-file-type", "jsonschema", "--output", str(OUT / f"dcg-{tag}.py"),
                          "--output-model-type", "pydantic_v2.BaseModel", "--disable-timestamp"], repeat, timeout)
    json2ts = best(lambda i: [str(NODE_BIN / "json2ts"), "-i", str(schema), "-o", str(OUT / f"json2ts-{tag}.d.ts")], repeat, timeout)
    return dcg, json2ts


def edited(registry: Path, run: int) -> Path:
    """The registry with its first description changed (a new word per run), beside the original."""
    text = registry.read_text(encoding="utf-8")
    at = text.index("description: ") + len("description: ")
    path = OUT / f"edited-{run}-{registry.name}"
    path.write_text(f"{text[:at]}Edit {run}, {text[at:]}", encoding="utf-8")
    return path


def names(registry: Path) -> tuple[list[str], list[str]]:
    """A given registry's codes and categories (it must lint clean: the build is what is timed)."""
    from errgen.registry.lint import lint_path

    result = lint_path(registry)
    if not result.ok:
        raise SystemExit(f"{registry} does not lint clean; run errgen lint --registry {registry}")
    return [c.name for c in result.registry.codes], [c.name for c in result.registry.categories]


def memory(m: Measure) -> str:
    return f"{m.max_rss_mb:.0f} / {m.tree_pss_mb:.0f}"


def bench(n: int, repeat: int, timeout: float, own: bool, given: Path | None = None, shape: str = "plain", site: bool = False,
          folder: Path = OUT) -> list[list[object]]:
    registry = given or synth.write(OUT, n, shape)
    codes, categories = names(registry) if given or shape != "plain" else ([f"CODE_{i:06d}" for i in range(n)], list(synth.CATEGORIES))
    n = len(codes)
    base = folder / f"build-{n}"

    def build(i: int, targets: tuple[str, ...] = ()) -> list[str]:
        folder = base / "-".join((str(i),) + targets)
        shutil.rmtree(folder, ignore_errors=True)  # a full build into an empty folder each time
        return errgen_cmd() + ["build", "--registry", str(edited(registry, i)), "--out", str(folder), *(f"--target={t}" for t in targets)]

    # The first build warms what does not depend on the registry (compiled templates, the envelope
    # model); each timed build is of a registry edited once more, as a user's next build is, so no
    # formatter output of a previous run can be reused.
    measure(build(99), timeout)
    errgen = best(build, repeat, timeout)
    check = best(lambda i: errgen_cmd() + ["build", "--check", "--registry", str(edited(registry, 0)), "--out", str(base / "0")], repeat, timeout)
    compose = best(lambda i: [sys.executable, "-c", COMPOSE, str(registry)], repeat, timeout)
    plain = OUT / f"plain-{n}.schema.json"
    plain.write_text(json.dumps(plain_schema(codes, categories), indent=2), encoding="utf-8")
    dcg, ts = peers(plain, f"plain-{n}", repeat, timeout)

    def line(label: str, a: Measure, b: Measure, target: str) -> list[object]:
        total = a.seconds + b.seconds
        return [n, label, f"{errgen.seconds:.2f}", f"{a.seconds:.2f} + {b.seconds:.2f} = {total:.2f}", f"{errgen.seconds / total:.2f}x",
                target, memory(errgen), f"{max(a.max_rss_mb, b.max_rss_mb):.0f}", "; ".join(sorted({errgen.note, a.note, b.note}))]

    rows = [line("datamodel-codegen + json2ts, plain schema", dcg, ts, "<= 0.5x")]
    if own:
        own_dcg, own_ts = peers(base / "0" / "schema" / "error.schema.json", f"own-{n}", repeat, timeout)
        rows.append(line("same peers on errgen's own schema", own_dcg, own_ts, ""))
    rows.append([n, "bare libyaml compose of the registry", cpu(errgen), cpu(compose),
                 f"{errgen.seconds / compose.seconds:.2f}x ({errgen.cpu_seconds / compose.cpu_seconds:.2f}x CPU)", "<= 4x at 20,000",
                 memory(errgen), f"{compose.max_rss_mb:.0f}", compose.note])
    if site:
        alone = best(lambda i: build(i, ("site",)), repeat, timeout)
        docs = best(lambda i: build(i, ("docs",)), repeat, timeout)
        files, _, apparent, allocated = site_size(base / "0-site" / "site")
        rows.append([n, "--target site beside --target docs (Markdown catalogue)", cpu(alone), cpu(docs),
                     f"{alone.seconds / docs.seconds:.2f}x ({alone.cpu_seconds / docs.cpu_seconds:.2f}x CPU)", "<= 2x, 20 MB (issue 30)",
                     memory(alone), f"{docs.max_rss_mb:.0f}",
                     "; ".join(sorted({alone.note, docs.note}) + [f"site: {files} files, {apparent / 1e6:.1f} MB, du {allocated / 1e6:.1f} MB"])])
    rows.append([n, "errgen build --check (no-op)", f"{check.seconds:.2f}", "", "", "", memory(check), "", check.note])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codes", type=int, nargs="+", default=[100, 5000, 20000])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--peer-timeout", type=float, default=1800)
    parser.add_argument("--registry", type=Path, action="append", default=[],
                        help="time these registry files (repeatable) instead of synthetic ones of --codes sizes")
    parser.add_argument("--shape", choices=["plain", "prose"], default="plain",
                        help="synthetic registries of short descriptions (plain), or text-heavy ones like real catalogues (prose)")
    parser.add_argument("--no-own-schema", dest="own", action="store_false", help="skip the second, own-schema line")
    parser.add_argument("--site", action="store_true", help="add a line: the site target alone beside the Markdown catalogue alone")
    parser.add_argument("--dir", type=Path, default=OUT,
                        help="where the builds write (default bench/out); e.g. /dev/shm to leave the disk out of the figures")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    args.dir.mkdir(parents=True, exist_ok=True)
    rows: list[list[object]] = []
    headers = ["codes", "against", "errgen build s", "peer s", "ratio", "target", "errgen MB: max RSS / tree PSS", "peer max RSS MB", "note"]
    for n, given in [(0, path) for path in args.registry] or [(n, None) for n in args.codes]:
        rows += bench(n, args.repeat, args.peer_timeout, args.own, given, args.shape, args.site, args.dir)
        print(table(headers, rows), flush=True)
        print()
    print("ratio = errgen build (an edited registry each run) / the peer; targets from issue 18 (memory: under 300 MB at 20,000 codes)")


if __name__ == "__main__":
    sys.exit(main())
