"""Issue 25 item 3: registries of real APIs (examples/apis/) lint and build, and the real responses
copied from each API's documentation (tests/fixtures/responses/<api>/) agree with them.

tests/fixtures/responses-holdout/ is read by no test on purpose: it checks later, on responses
nothing was tuned against, that the SDKs generalise.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench.wire_bench import TS_HOSTILE
from conftest import FIXTURES, ROOT, tsc
from errgen.contract import view
from errgen.languages.typescript.target import compiled_runtime
from errgen.registry.lint import lint_path
from errgen.registry.model import derive_action
from test_ts_packaging import same_exports

APIS = sorted((ROOT / "examples" / "apis").glob("*.yaml"))
RESPONSES = FIXTURES / "responses"
ACTIONS = {"retry", "pause", "fix", "stop", "skip", "escalate"}
def test_every_api_the_issue_names_has_a_registry_and_responses() -> None:
    names = {"openai", "anthropic", "stripe", "slack", "github-rest", "github-graphql", "s3", "azure-storage",
             "google-rpc", "jsonrpc", "paypal", "shopify-graphql", "twilio", "kubernetes", "oci-distribution"}
    assert {p.stem for p in APIS} == names
    assert {p.name for p in RESPONSES.iterdir()} == names
    for api in names:
        assert len(list((RESPONSES / api).glob("*.json"))) >= 4, api


@pytest.mark.parametrize("path", APIS, ids=lambda p: p.stem)
def test_registry_cites_its_sources(path: Path) -> None:
    head = path.read_text(encoding="utf-8").split("\nerrgen:", 1)[0]
    assert "Models:" in head and "https://" in head


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every registry built once for python and typescript, with its conformance vectors."""
    from errgen.emit.build import build

    root = tmp_path_factory.mktemp("apis")
    outs = {}
    for path in APIS:
        result = lint_path(path)
        assert [d.text() for d in result.diagnostics if d.severity == "error"] == [], path.name
        assert result.registry is not None
        build(result.registry, root / path.stem, ["python", "typescript", "conformance"])
        outs[path.stem] = root / path.stem
    return outs


def _packages(built: dict[str, Path]) -> dict[str, tuple[str, str]]:
    """Each API's Python SDK: (the folder to put on sys.path, the package's name)."""
    return {api: (str(out / "python"), next(p.name for p in (out / "python").iterdir() if p.is_dir())) for api, out in built.items()}


# Each API's package imported by one interpreter (their names differ), and the script's answer per API.
IMPORT_EACH = """
import importlib, json, sys
packages = json.loads(sys.argv[1])
def each(folder, name):
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(folder)
"""


def _python_each(built: dict[str, Path], script: str, *args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", IMPORT_EACH + script, json.dumps(_packages(built)), *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_python_sdks_import_and_know_every_code(built: dict[str, Path]) -> None:
    got = _python_each(built, "print(json.dumps({api: len(each(*p).RECOVERY_TABLE) for api, p in packages.items()}))")
    assert got == {api: len(_codes(api)) for api in built}


@pytest.fixture(scope="module")
def ts_compiled(built: dict[str, Path], node_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """One tsc run over every SDK (each is standalone), with the SDKs' own compiler options; the
    JavaScript and declarations of API `a` are in `<js>/<a>/typescript/src/`."""
    root = tmp_path_factory.mktemp("ts")
    options = json.loads("\n".join(line for line in (next(iter(built.values())) / "typescript" / "tsconfig.json")
                                   .read_text().splitlines() if not line.lstrip().startswith("//")))["compilerOptions"]
    common = next(iter(built.values())).parent
    project = {"compilerOptions": {**options, "rootDir": str(common), "outDir": str(root / "js")},
               "include": [str(out / "typescript" / "src") for out in built.values()]}
    (root / "tsconfig.json").write_text(json.dumps(project))
    return tsc(node_bin, root, root / "js"), root / "js"


def test_typescript_sdks_compile_strict(ts_compiled: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    done, _ = ts_compiled
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_shipped_data_modules_are_what_tsc_makes_of_the_sources(
        built: dict[str, Path], ts_compiled: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    """test_generated_code.py's check of the default registry's package, for every API's: the data
    modules errgen's templates write export what tsc makes of the same package's src/."""
    done, js = ts_compiled
    assert done.returncode == 0, done.stdout[-3000:]
    assert same_exports([(out / "typescript" / "dist" / "cjs", js / api / "typescript" / "src") for api, out in built.items()]) == []


def test_the_runtime_compiles_to_the_same_bytes_against_every_api(ts_compiled: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    """runtime_compiled/ (committed, shipped with every registry's data modules) is what tsc makes
    of runtime/ beside each API's data modules too, JavaScript and declarations: the runtime's
    output does not depend on the registry (test_ts_packaging.py checks it against the default
    registry with compile_runtime itself, both module forms)."""
    done, js = ts_compiled
    assert done.returncode == 0, done.stdout[-3000:]
    differ = []
    for key, text in compiled_runtime().items():
        form, name = key.split("/")
        if form == "esm":
            continue  # the same program as cjs/ in another module syntax: compile_runtime's own check
        for path in APIS:
            got = (js / path.stem / "typescript" / "src" / name).read_text(encoding="utf-8")
            if re.sub(r"^// Generated by errgen from registry [^\n]*\. Do not edit\.\n", "", got, count=1, flags=re.M) != text:
                differ.append(f"{path.stem}/{key}")
    assert differ == []


def _registry_data(api: str) -> dict[str, Any]:
    return yaml.safe_load((ROOT / "examples" / "apis" / f"{api}.yaml").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _codes(api: str) -> dict[str, Any]:
    return _registry_data(api)["codes"]  # type: ignore[no-any-return]


RESPONSE_FILES = sorted(RESPONSES.glob("*/*.json"))


@pytest.mark.parametrize("path", RESPONSE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_real_response_names_a_registry_code_and_the_action_its_row_decides(path: Path) -> None:
    """Each fixture is a response as documented plus what a careful client does with it; both
    must agree with the registry: the code is the registry's, its wire value is in the response,
    and the action is the one the registry derives for the code's default scope."""
    row = json.loads(path.read_text(encoding="utf-8"))
    assert set(row) - {"note"} == {"source", "status", "headers", "body", "code", "action", "min_delay_ms", "correlation_id"}
    assert row["source"].startswith("https://") and isinstance(row["status"], int) and isinstance(row["body"], str)
    assert all(isinstance(k, str) and isinstance(v, str) and k == k.lower() for k, v in row["headers"].items())
    data = _registry_data(path.parent.name)
    code = data["codes"].get(row["code"])
    assert code is not None, f"{row['code']!r} is not a code of {path.parent.name}"
    wire_code = str(code.get("wire_code", row["code"]))
    seen = row["body"] + "\n" + "\n".join(row["headers"].values())
    assert f'"{wire_code}"' in seen or f">{wire_code}<" in seen or f": {wire_code}," in seen or wire_code in row["headers"].values(), wire_code
    category = data["categories"][code["category"]]
    action = derive_action(category["retryable"], code["scope"], code.get("action", category.get("action")))
    assert row["action"] == action
    if action == "pause":  # a rate limit or an overload: how long the response says to wait, at least
        assert isinstance(row["min_delay_ms"], int) and row["min_delay_ms"] >= 0
    else:
        assert row["min_delay_ms"] is None or action == "retry"
    if row["correlation_id"] is not None:
        assert row["correlation_id"] in seen
    if row["body"].lstrip("\ufeff").startswith("{"):
        json.loads(row["body"].lstrip("\ufeff"))


DECIDE = """
import email.utils
def decided(m, path):
    row = json.load(open(path, encoding="utf-8"))
    date = row["headers"].get("date")  # an epoch reset is read against the response's own clock
    now = int(email.utils.parsedate_to_datetime(date).timestamp() * 1000) if date else None
    d = m.decide(m.from_http(row["status"], row["headers"], row["body"], now_ms=now), 1)
    return [d.code, d.action.value, d.delay_ms, d.correlation_id or None]
files = json.loads(sys.argv[2])
print(json.dumps({api: [decided(each(*p), path) for path in files[api]] for api, p in packages.items()}))
"""


def _response_files() -> dict[str, list[str]]:
    return {p.stem: sorted(map(str, (RESPONSES / p.stem).glob("*.json"))) for p in APIS}


def _careless(decisions: dict[str, list[list[Any]]]) -> list[str]:
    """The responses whose decision is not what a careful client does with them."""
    failures = []
    for api, files in _response_files().items():
        for path, (code, action, delay, correlation_id) in zip(files, decisions[api], strict=True):
            row = json.loads(Path(path).read_text(encoding="utf-8"))
            wanted = [row["code"], row["action"], row["correlation_id"]]
            got = [code, action, correlation_id]
            if got != wanted or (row["min_delay_ms"] is not None and (delay or 0) < row["min_delay_ms"]):
                failures.append(f"{api}/{Path(path).stem}: got {got} delay {delay}, want {wanted} delay >= {row['min_delay_ms']}")
    return failures


def test_the_python_sdk_decides_each_real_response_as_a_careful_client_would(built: dict[str, Path]) -> None:
    """The code is known, a rate limit waits at least what the response says, and the request id is
    the API's own."""
    assert _careless(_python_each(built, DECIDE, json.dumps(_response_files()))) == []


TS_DECIDE = """
const [indexes, files] = process.argv.slice(1).map((arg) => JSON.parse(arg));
const fs = require("fs");
const decided = (m, path) => {
  const row = JSON.parse(fs.readFileSync(path, "utf8"));
  const date = row.headers["date"];  // an epoch reset is read against the response's own clock
  const now = date ? Date.parse(date) : undefined;
  const d = m.decide(m.fromHttp(row.status, row.headers, row.body, now), { attempt: 1 });
  return [d.code, d.action, d.delayMs, d.correlationId || null];
};
console.log(JSON.stringify(Object.fromEntries(Object.entries(indexes).map(([api, js]) => [api, files[api].map((path) => decided(require(js), path))]))));
"""


def _ts_index(js: Path, api: str) -> str:
    return str(js / api / "typescript" / "src" / "index.js")


def test_the_typescript_sdk_decides_each_real_response_as_a_careful_client_would(
        ts_compiled: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    """The same fixtures and the same expectations as the Python test above, through the compiled
    TypeScript SDK of each API (one node loads them all)."""
    done, js = ts_compiled
    assert done.returncode == 0, done.stdout[-3000:]
    indexes = {p.stem: _ts_index(js, p.stem) for p in APIS}
    run = subprocess.run(["node", "-e", TS_DECIDE, json.dumps(indexes), json.dumps(_response_files())],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert _careless(json.loads(run.stdout)) == []


# Each API's conformance runner, all in one process, run as its command line `emit VECTORS.json`
# runs it; each file's [exit status, output].
PYTHON_EMIT = """
import io
out = {}
for api, paths in json.loads(sys.argv[2]).items():
    runner = each(packages[api][0], packages[api][1] + "._conformance")
    for path in paths:
        text = io.StringIO()
        out[path] = [runner.main(["emit", path], text), text.getvalue()]
print(json.dumps(out))
"""
NODE_EMIT = """
const write = process.stdout.write.bind(process.stdout);
const argv = process.argv;
const out = {};
for (const [runner, paths] of JSON.parse(argv[1])) {
  for (const path of paths) {
    let text = "";
    process.stdout.write = (chunk) => { text += chunk; return true; };
    process.argv = [argv[0], runner, "emit", path];
    process.exitCode = undefined;
    delete require.cache[require.resolve(runner)];  // the runner reads its command line when loaded
    try { require(runner); } finally { process.stdout.write = write; }
    out[path] = [process.exitCode ?? 0, text];
  }
}
process.exitCode = undefined;
console.log(JSON.stringify(out));
"""


def test_the_typescript_runner_emits_what_the_python_runner_emits_on_every_api(
        built: dict[str, Path], ts_compiled: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    """Each API's responses.json and vectors.json, read by both SDKs: the same emit lines byte for
    byte (reading, verdicts and decision), so the TypeScript reading is Python's."""
    done, js = ts_compiled
    assert done.returncode == 0, done.stdout[-3000:]
    paths = {api: [str(out / "conformance" / name) for name in ("responses.json", "vectors.json")] for api, out in built.items()}
    python = _python_each(built, PYTHON_EMIT, json.dumps(paths))
    runners = [[str(js / api / "typescript" / "src" / "conformance.js"), files] for api, files in paths.items()]
    run = subprocess.run(["node", "-e", NODE_EMIT, json.dumps(runners)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    node = json.loads(run.stdout)
    every = [path for files in paths.values() for path in files]
    assert sorted(python) == sorted(node) == sorted(every)
    differ = []
    for path in every:
        assert python[path][0] == 0 and node[path][0] == 0, (path, python[path], node[path])
        assert len(node[path][1].splitlines()) == len(json.loads(Path(path).read_text())["vectors"]), path
        if python[path][1] != node[path][1]:
            differ.append(path)
    assert differ == []


@pytest.mark.parametrize("api", ["stripe", "s3"])
def test_the_typescript_sdk_reads_a_megabyte_of_hostile_input_to_nothing_it_cannot_hold(
        api: str, ts_compiled: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    """Issue 24 item 9: deep nesting, a 1 MB number, a 1 MB string of digits, 200,000 headers, an
    over-long header, a body past the size limit, bad UTF-8 and hostile XML are each decided,
    never throwing (JSON registry and XML registry); past a limit nothing is read. How long each
    takes beside a benign body of the same size is bench.wire_bench's TypeScript table (a 1 s
    clock here depended on the machine's load)."""
    done, js = ts_compiled
    assert done.returncode == 0, done.stdout[-3000:]
    run = subprocess.run(["node", "-e", TS_HOSTILE, _ts_index(js, api)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert [name for name, r in got.items() if "threw" in r] == [], got
    for name in ("bigNumberCode", "bigNumberDelay", "manyHeaders", "manyHeadersIterable", "longHeader"):
        assert got[name]["code"] is None and got[name]["delayMs"] is None, (name, got[name])


def test_the_typescript_sdk_reads_fetch_headers_and_bytes(ts_compiled: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    """fetch's `Headers` (iterable, not a plain object: Retry-After used to be dropped), a `Map`, and a
    body as bytes (Uint8Array, ArrayBuffer) read like a plain object and text."""
    done, js = ts_compiled
    assert done.returncode == 0, done.stdout[-3000:]
    script = (
        "const m = require(process.argv[1]); const body = '{\"error\":{\"type\":\"rate_limit_error\"}}';"
        "const bytes = new TextEncoder().encode(body);"
        "const read = (h, b) => { const r = m.readHttp(429, h, b, 0); return [r.code, r.delayMs, m.decide(r.payload, { attempt: 1 }).action]; };"
        "console.log(JSON.stringify([read({'retry-after': '7'}, body), read(new Headers({'Retry-After': '7'}), body),"
        " read(new Map([['Retry-After', '7']]), bytes), read([['retry-after', '7']], bytes.buffer),"
        " m.fromHttp(429, new Headers({'Retry-After': '7'}), body, 0)]));"
    )
    run = subprocess.run(["node", "-e", script, _ts_index(js, "stripe")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    *readings, payload = json.loads(run.stdout)
    assert readings == [["rate_limit_error", 7000, "pause"]] * 4
    assert payload["retry_after_ms"] == 7000


def test_no_test_reads_the_holdout_responses() -> None:
    holdout = FIXTURES / "responses-holdout"
    assert len(list(holdout.glob("*/*.json"))) >= 14
    readers = [p.name for p in (ROOT / "tests").glob("*.py") if "responses-holdout" in p.read_text(encoding="utf-8")
               and p.name != Path(__file__).name]
    assert readers == []


def test_negative_codes_keep_their_sign_in_the_generated_python(built: dict[str, Path]) -> None:
    out = built["jsonrpc"] / "python"
    sys.path.insert(0, str(out))
    try:
        enums = importlib.import_module("jsonrpc_errors").Code
    finally:
        sys.path.remove(str(out))
    assert enums.NEG_32601.value == "-32601" and enums.NEG_32700.value == "-32700"


# ---- toHttp writes the API's own shape (issue 25 item 2) ---------------------------------------
# The TypeScript SDK's `toHttp` writes what the Python SDK (the reference, tests/test_api_shape.py)
# writes, byte for byte: for every code of every registry, the status, the headers in their order
# and the body of to_http(new_error(code, "req-7", message=<hostile text>, resource_id="res/1")),
# plain and as problem+json, and of a payload with no code at all (only the facts and `error_when`).

# Quotes, XML's specials, a tab, a control character and a CDATA end: what each writer must escape alike.
HOSTILE = 'Quota <exceeded> & "more"\t\x01 ]]>'

PYTHON_SHAPE = """
def shown(http):
    return [http.status, [list(h) for h in http.headers.items()], http.body]

def rows(m, case):
    w = case["w"]
    out = []
    for code in case["codes"]:
        sent = m.new_error(code, "req-7", message=case["hostile"], resource_id="res/1")
        out += [shown(m.to_http(sent)), shown(m.to_http(sent, problem=True))]
    out.append(shown(m.to_http({w["message"]: case["hostile"], w["correlation_id"]: "req-7"})))
    return out
cases = json.loads(sys.argv[2])
print(json.dumps({api: rows(each(*p), cases[api]) for api, p in packages.items()}))
"""

# One node process for every registry: the runtime ships compiled (dist/cjs), so no tsc run at all.
NODE_SHAPE = r'''
const cases = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const out = {};
const shown = (http) => [http.status, Object.entries(http.headers), http.body];
for (const [api, c] of Object.entries(cases)) {
  const m = require(c.dir + "/dist/cjs/index.js");
  const w = c.w;
  const rows = [];
  for (const code of c.codes) {
    const sent = m.newError(code, "req-7", { [w.message]: c.hostile, [w.resource_id]: "res/1" });
    rows.push(shown(m.toHttp(sent)), shown(m.toHttp(sent, true)));
  }
  rows.push(shown(m.toHttp({ [w.message]: c.hostile, [w.correlation_id]: "req-7" })));
  out[api] = rows;
}
process.stdout.write(JSON.stringify(out));
'''


@pytest.fixture(scope="module")
def both(built: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[list[Any], list[Any]]]:
    """api -> (Python's responses, TypeScript's responses)."""
    root = tmp_path_factory.mktemp("ts-shape")
    cases: dict[str, dict[str, Any]] = {}
    for path in APIS:
        registry = lint_path(path).registry
        assert registry is not None
        contract = view(registry)
        cases[path.stem] = {"dir": str(built[path.stem] / "typescript"), "codes": list(contract.code_names), "hostile": HOSTILE,
                            "w": {f.name: f.wire for f in contract.fields}}
    python = _python_each(built, PYTHON_SHAPE, json.dumps(cases))
    (root / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    (root / "probe.js").write_text(NODE_SHAPE, encoding="utf-8")
    done = subprocess.run(["node", str(root / "probe.js"), str(root / "cases.json")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    typescript = json.loads(done.stdout)
    return {api: (python[api], typescript[api]) for api in cases}


@pytest.mark.parametrize("api", [p.stem for p in APIS])
def test_typescript_writes_what_python_writes(both: dict[str, tuple[list[Any], list[Any]]], api: str) -> None:
    python, typescript = both[api]
    assert len(typescript) == len(python) > 1
    for mine, reference in zip(typescript, python):
        assert mine == reference, (api, reference[2])


def test_an_xml_api_without_a_code_still_gets_its_request_id_and_message(both: dict[str, Any]) -> None:
    """The last row of S3: no code, so only the message and request id are written (TypeScript
    used to send such a payload as errgen's JSON object under an XML content type)."""
    status, headers, body = both["s3"][1][-1]
    assert (status, dict(headers)["Content-Type"]) == (500, "application/xml")
    assert body == ('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Message>Quota &lt;exceeded&gt; &amp; "more"&#9;&#1; ]]&gt;'
                    "</Message><RequestId>req-7</RequestId></Error>")
