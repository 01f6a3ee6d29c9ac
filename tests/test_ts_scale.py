"""A large registry's TypeScript SDK type-checks, and its recovery table keeps every code. (Issue 31
item 5: every SDK compiles at scale.)

- The recovery table of 5,000 codes used to be an array literal tsc refused as a union "too complex
  to represent" (TS2590), so `npm run typecheck` and every consumer compiling the sources failed.
- At 20,000 codes tsc then took 80 s of CPU: it walks the `Code` union member by member for every
  value typed against it (each code of the table) and for a conditional type distributed over it
  (`PayloadOf`). The table is now keyed by code and `PayloadOf` a lookup: 20,000 codes type-check
  in about 15 s of CPU (`python -m bench.compile_bench --codes 20000 --langs typescript`; 70 s of
  wall time on a loaded machine, too slow for this file). A table keyed by code must still hold
  codes that are special as object keys."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bench.synth import registry_text
from errgen.emit.build import build
from errgen.registry.lint import lint_text
from test_ts_packaging import npm_pack_check


@pytest.fixture(scope="module")
def sdk_5000(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The TypeScript package of a 5,000-code registry, built once for the tests below (reading it
    is a third of each)."""
    out = tmp_path_factory.mktemp("sdk-5000")
    registry = lint_text(registry_text(5000)).registry
    assert registry is not None
    build(registry, out, ["typescript"])
    return out / "typescript"


@pytest.mark.slow
def test_a_5000_code_sdk_type_checks(sdk_5000: Path, node_bin: Path) -> None:
    checked = subprocess.run([str(node_bin / "tsc"), "-p", str(sdk_5000), "--noEmit"],
                             capture_output=True, text=True, timeout=900)
    assert checked.returncode == 0, checked.stdout[-2000:]


@pytest.mark.slow
def test_npm_pack_of_a_5000_code_registry_installs_and_type_checks(sdk_5000: Path, node_bin: Path, tmp_path: Path) -> None:
    assert json.loads((sdk_5000 / "package.json").read_text())["license"] == "UNLICENSED"  # the synthetic registry declares none
    assert not (sdk_5000 / "LICENSE").exists()
    got = npm_pack_check(sdk_5000, node_bin, tmp_path)
    assert got["ran"] == "5000 function\n"


# Codes in an order no object keeps by itself (an integer-like key goes first), and names an
# object literal or a lookup could take for something else (`"__proto__": {...}` sets a prototype).
KEYS = ["ZED", "23505", "__proto__", "constructor"]

READ = """
const table = [...m.RECOVERY_TABLE.entries()].map(([code, entry]) => [code, entry.code, entry.category]);
const proto = m.recoveryEntry("__proto__");
console.log(JSON.stringify({ table, proto: proto && proto.code, own: proto && Object.getPrototypeOf(proto) === Object.prototype,
                             toString: m.recoveryEntry("toString") === undefined, hasOwn: m.recoveryEntry("hasOwnProperty") === undefined }));
"""


def test_the_recovery_table_holds_codes_that_are_special_as_object_keys(tmp_path: Path, node_bin: Path) -> None:
    text = registry_text(len(KEYS))
    for i, name in enumerate(KEYS):
        text = text.replace(f"CODE_{i:06d}:", f"{name}:")
    registry = lint_text(text).registry
    assert registry is not None and [c.name for c in registry.codes] == KEYS
    build(registry, tmp_path, ["typescript"])
    sdk = tmp_path / "typescript"
    checked = subprocess.run([str(node_bin / "tsc"), "-p", str(sdk), "--noEmit"], capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout[-2000:]
    categories = [c.category for c in registry.codes]
    expected = {"table": [[k, k, c] for k, c in zip(KEYS, categories)], "proto": "__proto__", "own": True,
                "toString": True, "hasOwn": True}
    cjs = subprocess.run(["node", "-e", f"const m = require({json.dumps(str(sdk / 'dist' / 'cjs' / 'index.js'))});{READ}"],
                         capture_output=True, text=True, timeout=120)
    assert cjs.returncode == 0, cjs.stderr
    assert json.loads(cjs.stdout) == expected
    esm = subprocess.run(["node", "--input-type=module", "-e",
                          f"import * as m from {json.dumps((sdk / 'dist' / 'esm' / 'index.js').as_uri())};{READ}"],
                         capture_output=True, text=True, timeout=120)
    assert esm.returncode == 0, esm.stderr
    assert json.loads(esm.stdout) == expected
