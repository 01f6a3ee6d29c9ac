"""Issue 26 item 4: the TypeScript package ships ES modules and CommonJS (conditional exports
`import`/`require`/`types`, `sideEffects: false`) and installs from a plain path with no build and
no TypeScript. errgen writes the registry's data as JavaScript and declarations itself; the runtime
(the same for every registry) is committed compiled in errgen (runtime_compiled/), and must be what
the pinned tsc makes of runtime/."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT, build_to, default_version, load_registry, next_version
from errgen.languages.typescript.compile_runtime import compile_runtime, registry_sources
from errgen.languages.typescript.target import RUNTIME_COMPILED, TYPESCRIPT, compiled_names, compiled_runtime

NPM = ["npm", "--offline", "--no-audit", "--no-fund", "--loglevel=error"]


def test_runtime_compiled_is_what_the_pinned_tsc_makes_of_runtime_today(node_bin: Path) -> None:
    """Edit runtime/*.ts without refreshing runtime_compiled/ and this fails (the command is in
    errgen/languages/typescript/compile_runtime.py). Compiled beside every examples/apis registry's
    data modules, the same bytes: test_api_catalog.py's test_the_runtime_compiles_to_the_same_bytes_against_every_api."""
    assert compile_runtime(node_bin / "tsc", registry_sources(REGISTRY)) == compiled_runtime()


def test_runtime_compiled_holds_only_the_runtime_modules_and_its_readme() -> None:
    """A module removed from runtime/ leaves no stale JavaScript behind, which nothing would read."""
    present = {str(p.relative_to(RUNTIME_COMPILED)) for p in RUNTIME_COMPILED.rglob("*") if p.is_file()}
    assert present == {*compiled_names(), "README.md"}


def test_the_runtime_is_compiled_with_the_tsc_the_package_and_the_test_tools_pin() -> None:
    harness = json.loads((ROOT / "tests" / "ts" / "package.json").read_text(encoding="utf-8"))
    assert harness["devDependencies"]["typescript"] == TYPESCRIPT


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


DOCS = ROOT / "docs" / "sdk-typescript.md"


def doc_blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", DOCS.read_text(encoding="utf-8"), re.S | re.M)


@pytest.fixture(scope="module")
def installed(sdk: Path, node_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A consumer (an ES module package) with the package installed from its folder by `npm install
    path/to/typescript`, nothing installed in the SDK folder (no TypeScript anywhere for npm to run),
    and its TypeScript compiled by one strict tsc run (module node16, resolution traced): a.cts and
    b.mts (both conditions) and invoices.ts, docs/sdk-typescript.md's `ts` blocks in order. The
    folder and tsc's run."""
    assert not (sdk / "node_modules").exists()
    consumer = tmp_path_factory.mktemp("consumer")
    (consumer / "package.json").write_text(json.dumps({"name": "consumer", "version": "1.0.0", "private": True, "type": "module"}))
    done = subprocess.run([*NPM, "install", str(sdk)], cwd=consumer, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (consumer / "a.cts").write_text(CONSUMER_TS)
    (consumer / "b.mts").write_text(CONSUMER_TS)
    (consumer / "invoices.ts").write_text("\n".join(doc_blocks("ts")), encoding="utf-8")
    (consumer / "serve.mjs").write_text(doc_blocks("js")[0], encoding="utf-8")
    (consumer / "tsconfig.json").write_text(json.dumps({"compilerOptions": {
        "strict": True, "module": "node16", "moduleResolution": "node16", "types": [], "target": "ES2022", "lib": ["ES2022", "DOM"],
        "noUncheckedIndexedAccess": True, "exactOptionalPropertyTypes": True, "outDir": "."}, "files": ["a.cts", "b.mts", "invoices.ts"]}))
    typed = subprocess.run([str(node_bin / "tsc"), "-p", str(consumer), "--traceResolution"], capture_output=True, text=True,
                           timeout=300)
    return consumer, typed


def test_the_package_installs_from_a_plain_path_and_runs_as_esm_and_commonjs(installed: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """Installed from a plain path: require and import give the same answers (a payload the
    consumer writes itself, and none at all, included), and a strict TypeScript consumer resolves
    the types of both conditions (module node16, .cts and .mts)."""
    consumer, typed = installed
    use = ('m.decide(m.newError("RATE_LIMITED", "c"), { attempt: 1 }).action + " " + m.decide(m.newError("RATE_LIMITED", "c"),'
           ' { attempt: 5 }).action + " " + (new m.ErrorPayloadError(m.newError("AUTH_EXPIRED", "c")) instanceof Error) + " "'
           ' + m.decide(null).action + " " + m.decide({code: "RATE_LIMITED", category: "rate_limit", retryable: true, scope: "service",'
           ' correlation_id: "c"}).delayMs')
    required = subprocess.run(["node", "-e", f'const m = require("acme-errors"); console.log({use});'], cwd=consumer,
                              capture_output=True, text=True, timeout=120)
    imported = subprocess.run(["node", "--input-type=module", "-e", f'import * as m from "acme-errors"; console.log({use});'],
                              cwd=consumer, capture_output=True, text=True, timeout=120)
    assert required.returncode == 0 and imported.returncode == 0, required.stderr + imported.stderr
    assert required.stdout == imported.stdout == "pause stop true escalate 2000\n"
    assert typed.returncode == 0, typed.stdout[-3000:]
    assert "acme-errors/dist/esm/index.d.ts" in typed.stdout and "acme-errors/dist/cjs/index.d.ts" in typed.stdout


def test_the_docs_page_compiles_strictly_and_runs_against_a_loopback_server(installed: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """docs/sdk-typescript.md runs as written (issue 26, Done when): its `ts` blocks, in order, are
    one module that a consumer compiles against the package installed from its folder, with tsc
    --strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes and no casts or `any`; its `js`
    block serves the page's handler on loopback with Node's http module and runs both clients
    against it (a 429 with Retry-After, decided, waited, retried)."""
    program = "\n".join(doc_blocks("ts"))
    assert "throw new ErrorPayloadError" in program and "toHttp()" in program and "retry(" in program
    assert "readResponse(" in program and "decide(" in program and "toMcpResult(" in program
    # Issue 40: the error hierarchy, the hooks and the client helpers, compiled with the rest.
    assert "instanceof RateLimitError" in program and "instanceof UnknownCode" in program and "error.headers[" in program
    assert "failureOf(" in program and "decideFailure(" in program and "decideResponse(" in program
    assert "onAttempt:" in program and "logger:" in program and "span," in program and "fromAxios(" in program
    assert "fromAxios(error) ?? error" in program  # the interceptor: a catch's unknown, taken as it is
    # No casts, no any, no silenced errors, no non-null assertions.
    assert not re.search(r"\bas\s+(?!const\b)[A-Za-z{(\[]|\bany\b|@ts-|<[A-Za-z]+>\s*\w|\w!\.", program), program
    consumer, typed = installed
    assert typed.returncode == 0, typed.stdout[-3000:]
    run = subprocess.run(["node", "serve.mjs"], cwd=consumer, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    printed = DOCS.read_text(encoding="utf-8").split("It prints:\n\n```\n", 1)[1].split("```", 1)[0]
    assert run.stdout == printed
    # The page's axios interceptor, given the AxiosError axios rejects a 429 with (`status` on the
    # error too, axios 1.7+; `isAxiosError` on its prototype) and one without a response.
    script = """
import { asSdkError } from "./invoices.js";
import { RateLimitError } from "acme-errors";
class AxiosError extends Error {}
AxiosError.prototype.isAxiosError = true;
const data = { code: "RATE_LIMITED", category: "rate_limit", retryable: true, scope: "service", correlation_id: "c-1" };
const limited = Object.assign(new AxiosError("Request failed with status code 429"),
  { status: 429, response: { status: 429, headers: { "retry-after": "3" }, data } });
const refused = Object.assign(new AxiosError("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
const out = [];
for (const error of [limited, refused]) {
  await asSdkError(error).catch((e) => out.push([e instanceof RateLimitError, e.status ?? null, e.headers?.["retry-after"] ?? null,
    e === error]));
}
console.log(JSON.stringify(out));
"""
    (consumer / "axios.mjs").write_text(script, encoding="utf-8")
    ran = subprocess.run(["node", "axios.mjs"], cwd=consumer, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    # The last line: importing the page's module runs its MCP example, which prints first.
    assert json.loads(ran.stdout.splitlines()[-1]) == [[True, 429, "3", False], [False, None, None, True]]


def test_the_docs_page_draws_the_error_hierarchy_of_the_default_registry() -> None:
    """The page's class tree is the package's: one class per category of registry/errors.ts, each
    under ErrorPayloadError with its category."""
    from errgen.languages.typescript import naming

    tree = DOCS.read_text(encoding="utf-8").split("## The error hierarchy\n", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    lines = tree.splitlines()
    # The base class is what is left once neither the payload's category nor the status names a class.
    assert lines[:2] == ["Error", "└── ErrorPayloadError          no category this SDK knows, and a status no single category has"]
    drawn = [tuple(line.split("── ", 1)[1].split()) for line in lines[2:]]
    classes = naming.error_classes([c.name for c in load_registry().categories])
    assert drawn == [(name, category) for category, name in classes.items()]


EXPORTS = """
const show = (m) => JSON.stringify(Object.keys(m).sort().map((k) => [k, typeof m[k] === "function" ? "function"
  : m[k] instanceof Map ? [...m[k].entries()] : m[k]]));
const exported = (dir) => JSON.stringify(["contract.js", "recovery.js", "index.js"].map((name) => show(require(dir + "/" + name))));
console.log(JSON.stringify(JSON.parse(process.argv[1]).filter(([a, b]) => exported(a) !== exported(b))));
"""


def same_exports(pairs: list[tuple[Path, Path]]) -> list[list[str]]:
    """The pairs (a package's dist/cjs, tsc's JavaScript of the same package's src/) whose
    contract.js, recovery.js and index.js export different values, tables or function names, all
    read by one node."""
    done = subprocess.run(["node", "-e", EXPORTS, json.dumps([[str(a), str(b)] for a, b in pairs])], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def declared_consumer(package: Path, copy: Path) -> str:
    """A strict consumer of `package`'s declarations alone: the package is copied to `copy` without
    src/, and the TypeScript returned (to type-check) uses the copy's types and values."""
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("src", "node_modules"))
    return (f'import * as m from {json.dumps(str(copy / "dist" / "cjs" / "index.js"))};\n'
            "export const codes: readonly m.Code[] = m.CODES;\nexport const e = m.recoveryEntry(m.CODES[0]);\n")


# ---- publishing (PACKAGING.md, issue 26 items 5-6) ---------------------------------------------


def rendered(text: str) -> dict[str, str]:
    from errgen.languages.typescript.target import render
    from errgen.registry.lint import lint_text

    result = lint_text(text)
    assert result.registry is not None, [d.text() for d in result.diagnostics]
    return render(result.registry)


def test_the_package_metadata_comes_from_the_registry_exactly() -> None:
    files = rendered(REGISTRY.read_text(encoding="utf-8"))
    package = json.loads(files["typescript/package.json"])
    assert {k: package[k] for k in ("name", "version", "description", "license", "repository", "homepage", "keywords")} == {
        "name": "acme-errors", "version": default_version(),
        "description": "The acme platform's error codes, with typed payloads and recovery decisions for its clients.",
        "license": "Apache-2.0", "repository": {"type": "git", "url": "git+https://github.com/acme/errors.git"},
        "homepage": "https://errors.acme.dev/", "keywords": ["errors", "acme", "api-errors"]}
    assert package["engines"] == {"node": ">=18"} and package["files"] == ["dist", "!dist/*/conformance.*"]
    assert "https://spdx.org/licenses/Apache-2.0.html" in files["typescript/LICENSE"]
    readme = files["typescript/README.md"]
    assert "npm install acme-errors\n" in readme and 'newError("RATE_LIMITED", "req-1")' in readme
    # Issue 40: the example catches the code's category by its class (npm_pack_check compiles it).
    assert 'import { RateLimitError, ErrorPayloadError, newError, retry } from "acme-errors";' in readme
    assert 'if (caught instanceof RateLimitError) console.log(caught.status, caught.code, caught.headers["retry-after"]' in readme
    assert "- Source: <https://github.com/acme/errors>" in readme and "Apache-2.0 (SPDX)" in readme


def test_without_a_licence_the_package_says_unlicensed_and_ships_no_licence_file() -> None:
    text = (ROOT / "tests" / "fixtures" / "valid-minimal.yaml").read_text(encoding="utf-8")
    files = rendered(text)
    package = json.loads(files["typescript/package.json"])
    assert package["license"] == "UNLICENSED" and "repository" not in package and "homepage" not in package
    assert package["keywords"] == [] and package["description"].startswith("The demo error contract")
    assert "typescript/LICENSE" not in files and "No licence is declared" in files["typescript/README.md"]


def test_a_release_changes_only_package_json() -> None:
    text = REGISTRY.read_text(encoding="utf-8")
    before = rendered(text)
    release = next_version()
    after = rendered(text.replace(f"\nversion: {default_version()}\n", f"\nversion: {release}\n", 1).replace(
        "\nhistory:\n", f"\nhistory:\n  - version: {release}\n    date: 2026-12-01\n    changes: [A release.]\n", 1))
    assert set(before) == set(after)
    assert [name for name in before if before[name] != after[name]] == ["typescript/package.json"]


def expected_files(sdk: Path) -> set[str]:
    """What npm should pack: package.json, README, LICENSE when there is one, and dist/ without the
    conformance runner (a test tool, not the package's API); no sources, no tsconfig."""
    dist = {str(p.relative_to(sdk)) for p in (sdk / "dist").rglob("*") if p.is_file() and not p.name.startswith("conformance.")}
    return dist | {"package.json", "README.md"} | ({"LICENSE"} if (sdk / "LICENSE").exists() else set())


def npm_pack_check(sdk: Path, node_bin: Path, tmp_path: Path) -> dict[str, object]:
    """npm's own view of the package: the files it packs, its metadata already in npm's normal form
    (`npm pkg fix` changes nothing), and the packed tarball installed in a consumer whose strict
    TypeScript compiles the README's example through both conditions (ES module and CommonJS)."""
    packed = subprocess.run([*NPM, "pack", "--json", "--pack-destination", str(tmp_path)], cwd=sdk, capture_output=True,
                            text=True, timeout=300)
    assert packed.returncode == 0, packed.stderr
    report = json.loads(packed.stdout)[0]
    shipped = {f["path"] for f in report["files"]}
    assert shipped == expected_files(sdk), sorted(shipped ^ expected_files(sdk))
    fixed = tmp_path / "fixed"
    fixed.mkdir()
    shutil.copy(sdk / "package.json", fixed / "package.json")
    assert subprocess.run([*NPM, "pkg", "fix"], cwd=fixed, capture_output=True, timeout=120).returncode == 0
    assert json.loads((fixed / "package.json").read_text()) == json.loads((sdk / "package.json").read_text())
    consumer = tmp_path / "consumer"
    consumer.mkdir()
    (consumer / "package.json").write_text(json.dumps({"name": "consumer", "version": "1.0.0", "private": True}))
    done = subprocess.run([*NPM, "install", str(tmp_path / report["filename"])], cwd=consumer, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    name = json.loads((sdk / "package.json").read_text())["name"]
    example = (consumer / "node_modules" / name / "README.md").read_text(encoding="utf-8").split("```ts\n", 1)[1].split("```", 1)[0]
    (consumer / "readme.mts").write_text(example)
    # The same names through require: top-level await is ES-module only, so the CommonJS side wraps it.
    imports, body = example.split("\n", 1)
    (consumer / "readme.cts").write_text(f"{imports}\nexport async function main(): Promise<string> {{\n"
                                         + body.replace("const data = await retry", "return retry") + "}\n")
    (consumer / "tsconfig.json").write_text(json.dumps({"compilerOptions": {
        "strict": True, "noEmit": True, "module": "nodenext", "moduleResolution": "nodenext", "types": [], "target": "ES2022",
        "lib": ["ES2022", "DOM"], "noUncheckedIndexedAccess": True, "exactOptionalPropertyTypes": True},
        "files": ["readme.mts", "readme.cts"]}))
    typed = subprocess.run([str(node_bin / "tsc"), "-p", str(consumer), "--traceResolution"], capture_output=True, text=True,
                           timeout=600)
    assert typed.returncode == 0, typed.stdout[-3000:]
    assert f"{name}/dist/esm/index.d.ts" in typed.stdout and f"{name}/dist/cjs/index.d.ts" in typed.stdout
    ran = subprocess.run(["node", "-e", f"const m = require({json.dumps(name)}); console.log(m.CODES.length, typeof m.retry)"],
                         cwd=consumer, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    return {"shipped": shipped, "size": report["size"], "unpacked": report["unpackedSize"], "ran": ran.stdout}


def test_npm_pack_ships_dist_readme_and_licence_and_nothing_else(sdk: Path, node_bin: Path, tmp_path: Path) -> None:
    got = npm_pack_check(sdk, node_bin, tmp_path)
    assert {"LICENSE", "README.md", "dist/esm/retry.js", "dist/cjs/index.d.ts"} <= got["shipped"]  # type: ignore[operator]
    assert not any(p.startswith("src/") or "conformance" in p for p in got["shipped"])  # type: ignore[attr-defined]
    assert got["ran"] == f"{len(load_registry().codes)} function\n"
