"""errgen build (all targets) beside the peers on the same schema: datamodel-codegen (Python
models alone) and json2ts (json-schema-to-typescript, TypeScript alone); and a no-op --check.

Run: python -m bench.build_bench [--codes 5000]   Targets (issue 3): errgen's whole build at most
0.5x the peers' sum; a no-op --check on 5,000 codes under 1 s. datamodel-codegen on the full
5,000-code schema takes minutes and several GB of memory here; --peer-timeout bounds it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench import synth
from bench.common import NODE_BIN, OUT, errgen_cmd, table, time_command


def timed(cmd: list[str], timeout: float) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, f"timed out after {timeout:.0f} s"
    note = "ok" if done.returncode == 0 else f"exit {done.returncode}"
    return time.perf_counter() - start, note


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--codes", type=int, default=5000)
    parser.add_argument("--peer-timeout", type=float, default=1800)
    args = parser.parse_args()
    registry = synth.write(OUT, args.codes)
    out = OUT / f"build-{args.codes}"
    shutil.rmtree(out, ignore_errors=True)
    build = time_command(errgen_cmd() + ["build", "--registry", str(registry), "--out", str(out)], repeat=1)
    check = time_command(errgen_cmd() + ["build", "--check", "--registry", str(registry), "--out", str(out)], repeat=3)
    schema = out / "schema" / "error.schema.json"
    dcg_bin = shutil.which("datamodel-codegen") or "datamodel-codegen"
    dcg, dcg_note = timed([dcg_bin, "--input", str(schema), "--input-file-type", "jsonschema", "--output", str(OUT / "dcg_models.py"),
                           "--output-model-type", "pydantic_v2.BaseModel", "--disable-timestamp"], args.peer_timeout)
    json2ts, ts_note = timed([str(NODE_BIN / "json2ts"), "-i", str(schema), "-o", str(OUT / "json2ts.d.ts")], args.peer_timeout)
    peers = dcg + json2ts
    rows = [
        ["errgen build (all targets)", build, "ok"],
        ["datamodel-codegen (Python models)", dcg, dcg_note],
        ["json2ts (TypeScript types)", json2ts, ts_note],
        ["peers' sum", peers, ""],
        ["errgen build --check (no-op)", check, "ok"],
    ]
    print(f"{args.codes} codes")
    print(table(["command", "seconds", "note"], rows))
    print(f"errgen build / peers' sum: {build / peers:.3f}x (target <= 0.5x); no-op --check {check:.2f} s (target < 1 s)")


if __name__ == "__main__":
    sys.exit(main())
