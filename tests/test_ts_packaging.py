"""Issue 26 item 4: the TypeScript package ships ES modules and CommonJS (conditional exports
`import`/`require`/`types`, `sideEffects: false`) and installs from a plain path with no build and
no TypeScript. errgen writes the registry's data as JavaScript and declarations itself; the runtime
(the same for every registry) is stored compiled in errgen, and must be what tsc makes of it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT, build_to, tsc
from errgen.languages.typescript.compiled import compile_runtime, compiled_files, registry_sources

NPM = ["npm", "--offline", "--no-audit", "--no-fund", "--loglevel=error"]


def test_the_stored_runtime_is_what_tsc_makes_of_the_runtime_today(node_bin: Path) -> None:
    """Edit runtime/*.ts without refreshing compiled/ and this fails (the command is in
    errgen/languages/typescript/compiled.py); compiled against another registry, the same bytes."""
    stored = compiled_files()
    assert compile_runtime(node_bin / "tsc", registry_sources(REGISTRY)) == stored
    assert compile_runtime(node_bin / "tsc", registry_sources(ROOT / "examples" / "apis" / "stripe.yaml")) == stored


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    build_to(REGISTRY, out, "typescript")
    return out / "typescript"


def test_the_package_declares_esm_commonjs_and_no_side_effects(sdk: Path) -> None:
    package = json.loads((sdk / "package.json").read_text())
    assert package["sideEffects"] is False and "dependencies" not in package
    assert "prepare" not in package["scripts"] and "build" not in package["scripts"]
    assert package["exports"]["."] == {
        "import": {"types": "./dist/esm/index.d.ts", "default": "./dist/esm/index.js"},
        "require": {"types": "./dist/cjs/index.d.ts", "default": "./dist/cjs/index.js"},
    }
    assert json.loads((sdk / "dist" / "esm" / "package.json").read_text())["type"] == "module"
    assert json.loads((sdk / "dist" / "cjs" / "package.json").read_text())["type"] == "commonjs"


CONSUMER_TS = """import { decide, ErrorPayloadError, newError, type Decision } from "acme-errors";
const d: Decision = decide(newError("RATE_LIMITED", "c"), { attempt: 1 });
const e = new ErrorPayloadError(newError("AUTH_EXPIRED", "c"));
export const out = [d.action, e.code];
"""


def test_the_package_installs_from_a_plain_path_and_runs_as_esm_and_commonjs(sdk: Path, node_bin: Path, tmp_path: Path) -> None:
    """`npm install path/to/typescript` with nothing installed in the SDK folder (no TypeScript
    anywhere for npm to run): require and import give the same answers, and a strict TypeScript
    consumer resolves the types of both conditions (module node16, .cts and .mts)."""
    assert not (sdk / "node_modules").exists()
    consumer = tmp_path / "consumer"
    consumer.mkdir()
    (consumer / "package.json").write_text(json.dumps({"name": "consumer", "version": "1.0.0", "private": True}))
    done = subprocess.run([*NPM, "install", str(sdk)], cwd=consumer, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    use = ('m.decide(m.newError("RATE_LIMITED", "c"), { attempt: 1 }).action + " " + m.decide(m.newError("RATE_LIMITED", "c"),'
           ' { attempt: 5 }).action + " " + (new m.ErrorPayloadError(m.newError("AUTH_EXPIRED", "c")) instanceof Error)')
    required = subprocess.run(["node", "-e", f'const m = require("acme-errors"); console.log({use});'], cwd=consumer,
                              capture_output=True, text=True, timeout=120)
    imported = subprocess.run(["node", "--input-type=module", "-e", f'import * as m from "acme-errors"; console.log({use});'],
                              cwd=consumer, capture_output=True, text=True, timeout=120)
    assert required.returncode == 0 and imported.returncode == 0, required.stderr + imported.stderr
    assert required.stdout == imported.stdout == "pause stop true\n"
    (consumer / "a.cts").write_text(CONSUMER_TS)
    (consumer / "b.mts").write_text(CONSUMER_TS)
    (consumer / "tsconfig.json").write_text(json.dumps({"compilerOptions": {
        "strict": True, "noEmit": True, "module": "node16", "moduleResolution": "node16", "types": [], "target": "ES2020",
        "noUncheckedIndexedAccess": True, "exactOptionalPropertyTypes": True}, "files": ["a.cts", "b.mts"]}))
    typed = subprocess.run([str(node_bin / "tsc"), "-p", str(consumer), "--traceResolution"], capture_output=True, text=True,
                           timeout=300)
    assert typed.returncode == 0, typed.stdout[-3000:]
    assert "acme-errors/dist/esm/index.d.ts" in typed.stdout and "acme-errors/dist/cjs/index.d.ts" in typed.stdout


def test_npm_pack_ships_both_forms(sdk: Path, tmp_path: Path) -> None:
    packed = subprocess.run([*NPM, "pack", "--dry-run", "--json"], cwd=sdk, capture_output=True, text=True, timeout=300)
    assert packed.returncode == 0, packed.stderr
    shipped = {f["path"] for f in json.loads(packed.stdout)[0]["files"]}
    assert {"dist/esm/index.js", "dist/esm/index.d.ts", "dist/cjs/index.js", "dist/cjs/index.d.ts", "dist/cjs/conformance.js",
            "dist/esm/runtime.js", "src/runtime.ts", "package.json"} <= shipped


EXPORTS = """
const show = (m) => JSON.stringify(Object.keys(m).sort().map((k) => [k, typeof m[k] === "function" ? "function"
  : m[k] instanceof Map ? [...m[k].entries()] : m[k]]));
const [a, b] = process.argv.slice(1);
console.log(JSON.stringify([show(require(a + "/contract.js")), show(require(a + "/recovery.js")), show(require(a + "/index.js"))])
  === JSON.stringify([show(require(b + "/contract.js")), show(require(b + "/recovery.js")), show(require(b + "/index.js"))]));
"""


@pytest.mark.parametrize("registry", [REGISTRY, ROOT / "examples" / "apis" / "stripe.yaml", ROOT / "examples" / "apis" / "s3.yaml"],
                         ids=lambda p: p.stem)
def test_the_shipped_data_modules_are_what_tsc_makes_of_the_sources(registry: Path, node_bin: Path, tmp_path: Path) -> None:
    """contract.js, recovery.js and index.js written by errgen's templates export exactly what tsc
    compiles from the same package's src/ (values, tables, function names)."""
    build_to(registry, tmp_path / "out", "typescript")
    package = tmp_path / "out" / "typescript"
    done = tsc(node_bin, package, tmp_path / "tsc")
    assert done.returncode == 0, done.stdout
    same = subprocess.run(["node", "-e", EXPORTS, str(package / "dist" / "cjs"), str(tmp_path / "tsc")], capture_output=True,
                          text=True, timeout=120)
    assert same.stdout == "true\n", same.stderr
    declared = tmp_path / "declared"
    declared.mkdir()
    (declared / "use.ts").write_text(f'import * as m from {json.dumps(str(package / "dist" / "cjs" / "index.js"))};\n'
                                     "export const codes: readonly m.Code[] = m.CODES;\nexport const e = m.recoveryEntry(m.CODES[0]);\n")
    (declared / "tsconfig.json").write_text(json.dumps({"compilerOptions": {"strict": True, "noEmit": True, "types": [],
                                                                            "module": "commonjs", "target": "ES2020"},
                                                        "files": ["use.ts"]}))
    shutil.rmtree(package / "src")  # only the declarations now
    typed = tsc(node_bin, declared)
    assert typed.returncode == 0, typed.stdout
