"""Real APIs as they are: catalogs with lower_snake, PascalCase, numeric, hyphenated and namespaced
codes, camelCase wire names and an `error` envelope build SDKs that type-check strictly and carry
the exact wire strings through new_error, to_http/from_http, parse, MCP and `errgen validate`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, build_to, load_registry, node_json, run_errgen, tsc
from errgen.contract import view

REGISTRIES = sorted((ROOT / "tests" / "fixtures" / "realworld").glob("*.yaml")) + [ROOT / "examples" / "payments-api.yaml"]

PY_ROUND_TRIP = """
import json, sys
import {pkg} as sdk
out = []
for code, scope in json.loads(sys.argv[1]):
    extra = {{"resource_id": "r-1"}} if scope == "resource" else {{}}
    p = sdk.new_error(code, "c-1", scope=scope, **extra).to_wire()
    http = sdk.to_http(p)
    back = sdk.from_http(http.status, http.headers, http.body)
    parsed = sdk.parse_payload(back)
    sdk.validate_payload(back)
    mcp = sdk.from_mcp_result(json.loads(json.dumps(sdk.to_mcp_result(p))))
    out.append({{"payload": p, "status": http.status, "body": json.loads(http.body), "back": back, "mcp": mcp,
                "parsed": parsed.code.value, "decision": sdk.decide(back).action.value}})
print(json.dumps(out))
"""


@pytest.fixture(scope="module", params=REGISTRIES, ids=lambda p: p.stem)
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp(request.param.stem)
    build_to(request.param, out, "python", "typescript")
    return request.param, out


def codes_and_scopes(registry_path: Path) -> list[tuple[str, str]]:
    return [(row.code, row.scope) for row in view(load_registry(registry_path)).codes]


def test_python_sdk_passes_mypy_strict(built: tuple[Path, Path], tmp_path: Path) -> None:
    registry_path, out = built
    package = view(load_registry(registry_path)).packages["python"]["package"]
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", package],
                          cwd=out / "python", capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_python_sdk_carries_the_exact_wire_strings(built: tuple[Path, Path], tmp_path: Path) -> None:
    registry_path, out = built
    contract = view(load_registry(registry_path))
    pairs = codes_and_scopes(registry_path)
    script = PY_ROUND_TRIP.format(pkg=contract.packages["python"]["package"])
    done = subprocess.run([sys.executable, "-c", script, json.dumps(pairs)], cwd=out / "python", capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    wire = {f.name: f.wire for f in contract.fields}
    results = json.loads(done.stdout)
    for (code, _), got in zip(pairs, results):
        assert got["payload"][wire["code"]] == code and got["parsed"] == code
        # A retryable code's delay comes back from the Retry-After headers.
        delay = got["back"].pop(wire["retry_after_ms"], None)
        assert delay == (contract.code_map[code].retry_after_ms if contract.code_map[code].retryable else None)
        assert got["back"] == got["payload"] and got["mcp"] == got["payload"]
        body = got["body"][contract.envelope] if contract.envelope else got["body"]
        assert body == got["payload"]
        assert got["status"] == contract.code_map[code].http_status
    # errgen validate accepts every payload the SDK wrote, with the registry's wire names.
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(r["payload"]) + "\n" for r in results), encoding="utf-8")
    checked = run_errgen("validate", "--registry", str(registry_path), str(tmp_path / "p.jsonl"))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_typescript_sdk_compiles_strict_and_agrees_with_python(built: tuple[Path, Path], node_bin: Path, tmp_path: Path) -> None:
    registry_path, out = built
    done = tsc(node_bin, out / "typescript", tmp_path / "js")
    assert done.returncode == 0, done.stdout
    pairs = codes_and_scopes(registry_path)
    contract = view(load_registry(registry_path))
    wire = {f.name: f.wire for f in contract.fields}
    script = (
        f"const m = require({json.dumps(str(tmp_path / 'js' / 'index.js'))});"
        f"const out = {json.dumps(pairs)}.map(([code, scope]) => {{"
        f" const extra = scope === 'resource' ? {{{json.dumps(wire['resource_id'])}: 'r-1'}} : {{}};"
        f" const p = m.newError(code, 'c-1', {{{json.dumps(wire['scope'])}: scope, ...extra}});"
        " const http = m.toHttp(p); const back = m.fromHttp(http.status, http.headers, http.body);"
        " const mcp = m.fromMcpResult(JSON.parse(JSON.stringify(m.toMcpResult(p))));"
        " return {payload: p, status: http.status, body: JSON.parse(http.body), back, mcp,"
        " decision: m.decide(back).action}; });"
        "console.log(JSON.stringify(out));"
    )
    got = node_json(script, tmp_path)
    assert isinstance(got, list)
    py = subprocess.run([sys.executable, "-c", PY_ROUND_TRIP.format(pkg=contract.packages["python"]["package"]), json.dumps(pairs)],
                        cwd=out / "python", capture_output=True, text=True, check=True)
    for ts_row, py_row in zip(got, json.loads(py.stdout)):
        for key in ("payload", "status", "body", "back", "mcp", "decision"):
            assert ts_row[key] == py_row[key], key


def test_camel_case_and_envelope_reject_the_snake_case_form(tmp_path: Path) -> None:
    payments = ROOT / "examples" / "payments-api.yaml"
    good = {"code": "card_declined", "errorCategory": "card_error", "isRetryable": False, "scope": "resource",
            "resourceId": "card_1", "correlationId": "c-1"}
    snake = {"code": "card_declined", "category": "card_error", "retryable": False, "scope": "resource",
             "resource_id": "card_1", "correlation_id": "c-1"}
    (tmp_path / "good.json").write_text(json.dumps({"status": 402, "headers": {}, "body": {"error": good}}), encoding="utf-8")
    (tmp_path / "snake.json").write_text(json.dumps({"status": 402, "headers": {}, "body": {"error": snake}}), encoding="utf-8")
    assert run_errgen("validate", "--registry", str(payments), str(tmp_path / "good.json")).returncode == 0
    bad = run_errgen("validate", "--registry", str(payments), str(tmp_path / "snake.json"))
    assert bad.returncode == 1 and "extra-field" in bad.stdout + bad.stderr
