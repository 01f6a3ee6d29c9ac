"""errgen build (all targets, warm formatter cache) beside what a user would otherwise run on the
same N codes: datamodel-codegen (pydantic v2 models) plus json2ts (json-schema-to-typescript) on
the plain payload schema of article 000 (a `code` enum of N values). Wall time and max RSS of
each command, and the ratio errgen / peers' sum (issue 18 target: <= 0.5x).

A second line runs the same peers on errgen's own schema (error.schema.json); it is kept for
comparison only, since the plain schema is what a user of the peers would write.

Run: python -m bench.build_bench [--codes 100 5000 20000] [--repeat 2] [--peer-timeout 1800]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench import synth
from bench.common import NODE_BIN, OUT, ROOT, errgen_cmd, table

Measure = tuple[float, float, str]  # seconds, max RSS in MB, note


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


def run(cmd: list[str], timeout: float) -> Measure:
    """One run: wall seconds and the max RSS of the process (and the children it waited for)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            return timeout, float("nan"), f"timed out after {timeout:.0f} s"
        time.sleep(0.005)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    note = "ok" if proc.returncode == 0 else f"exit {proc.returncode}: {err.strip().splitlines()[-1][:60] if err.strip() else ''}"
    return elapsed, usage.ru_maxrss / 1024, note


def best(cmd_for: object, repeat: int, timeout: float) -> Measure:
    runs = [run(cmd_for(i), timeout) for i in range(repeat)]  # type: ignore[operator]
    return min(runs, key=lambda m: m[0])


def peers(schema: Path, tag: str, timeout: float) -> tuple[Measure, Measure]:
    dcg_bin = shutil.which("datamodel-codegen") or str(Path(sys.executable).parent / "datamodel-codegen")
    dcg = run([dcg_bin, "--input", str(schema), "--input-file-type", "jsonschema", "--output", str(OUT / f"dcg-{tag}.py"),
               "--output-model-type", "pydantic_v2.BaseModel", "--disable-timestamp"], timeout)
    json2ts = run([str(NODE_BIN / "json2ts"), "-i", str(schema), "-o", str(OUT / f"json2ts-{tag}.d.ts")], timeout)
    return dcg, json2ts


def bench(n: int, repeat: int, timeout: float) -> list[list[object]]:
    registry = synth.write(OUT, n)
    base = OUT / f"build-{n}"

    def build(i: int) -> list[str]:
        shutil.rmtree(base / str(i), ignore_errors=True)  # a full build into an empty folder each time
        return errgen_cmd() + ["build", "--registry", str(registry), "--out", str(base / str(i))]

    run(build(99), timeout)  # warms the formatter cache; the timed builds are what a user's next build costs
    errgen = best(build, repeat, timeout)
    check = best(lambda i: errgen_cmd() + ["build", "--check", "--registry", str(registry), "--out", str(base / "0")], repeat, timeout)
    plain = OUT / f"plain-{n}.schema.json"
    plain.write_text(json.dumps(plain_schema([f"CODE_{i:06d}" for i in range(n)], list(synth.CATEGORIES)), indent=2), encoding="utf-8")
    dcg, ts = peers(plain, f"plain-{n}", timeout)
    own_dcg, own_ts = peers(base / "0" / "schema" / "error.schema.json", f"own-{n}", timeout)

    def line(label: str, a: Measure, b: Measure) -> list[object]:
        total = a[0] + b[0]
        return [n, label, f"{errgen[0]:.2f}", f"{a[0]:.2f} + {b[0]:.2f} = {total:.2f}", f"{errgen[0] / total:.2f}x",
                f"{errgen[1]:.0f} / {max(a[1], b[1]):.0f}", "; ".join(sorted({errgen[2], a[2], b[2]}))]

    return [
        line("plain schema (headline)", dcg, ts),
        line("errgen's own schema", own_dcg, own_ts),
        [n, "errgen build --check (no-op)", f"{check[0]:.2f}", "", "", f"{check[1]:.0f}", check[2]],
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codes", type=int, nargs="+", default=[100, 5000])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--peer-timeout", type=float, default=1800)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    rows: list[list[object]] = []
    for n in args.codes:
        rows += bench(n, args.repeat, args.peer_timeout)
        print(table(["codes", "peers' input", "errgen build s", "datamodel-codegen + json2ts s", "ratio", "max RSS MB errgen / peer", "note"], rows), flush=True)
        print()
    print("ratio = errgen build (warm formatter cache) / peers' sum; issue 18 target <= 0.5x on the plain schema")


if __name__ == "__main__":
    sys.exit(main())
