"""The recovery runtime in both SDKs: every conformance vector gives the same decision in Python
and TypeScript; MCP results satisfy the official SDKs' types; HTTP mapping round-trips."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import GENERATED, REGISTRY, build_to, load_registry, node_json, run_errgen, tsc

VECTORS = GENERATED / "conformance" / "vectors.json"
sys.path.insert(0, str(GENERATED / "python"))
import acme_errors as sdk  # noqa: E402


def as_dict(decision: sdk.Decision) -> dict[str, Any]:
    out = {f.name: getattr(decision, f.name) for f in dataclasses.fields(decision)}
    out["action"] = decision.action.value
    out["did_you_mean"], out["accepted"], out["searched"] = list(decision.did_you_mean), list(decision.accepted), dict(decision.searched)
    return out


@pytest.fixture(scope="module")
def ts_sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated package as installed: it runs from the JavaScript it ships (dist/cjs/), no build."""
    package = tmp_path_factory.mktemp("out") / "typescript"
    shutil.copytree(GENERATED / "typescript", package)
    return package / "dist" / "cjs" / "index.js"


def node(ts_sdk: Path, body: str) -> Any:
    return node_json(f"const m = require({json.dumps(str(ts_sdk))});\n{body}", ts_sdk.parent)


def payload_vectors() -> list[dict[str, Any]]:
    return [v for v in json.loads(VECTORS.read_text())["vectors"] if "payload" in v["input"]]


def test_vectors_cover_every_code_scope_and_case_kind() -> None:
    registry = load_registry()
    vectors = json.loads(VECTORS.read_text())["vectors"]
    names = {v["name"] for v in vectors}
    assert {f"{c.name}/{s}" for c in registry.codes for s in c.scopes} <= names
    for kind in ("unknown-code/", "unknown-category/", "invalid/not-an-object", "invalid/missing-", "invalid/extra-field",
                 "/contradiction/", "/last-attempt", "article-000/", "backoff/", "max-delay/", "http/header/date",
                 "http/header/ignored/superscript-two", "http/not-json/1000-brackets", "mcp/no-payload/content-true"):
        assert any(kind in n for n in names), kind
    assert {next(iter(v["input"])) for v in vectors} == {"payload", "http", "transport", "mcp"}
    reasons = {v["expected"]["decision"]["reason"] for v in vectors}
    assert reasons == {"registry", "unknown-code", "invalid-payload", "contradicts-registry", "attempts-exhausted", "delay-exceeds-max",
                       "status-fallback", "transport-failure", "outcome-unknown"}
    assert {v["expected"]["parsed"] for v in vectors if "parsed" in v["expected"]} == {"known", "unknown", "invalid"}


def test_payload_vectors_agree_with_the_json_schema() -> None:
    """An independent judge of `valid`: the JSON Schema, through the jsonschema library."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(json.loads((GENERATED / "schema" / "error.schema.json").read_text()))
    vectors = payload_vectors()
    assert {v["name"]: validator.is_valid(v["input"]["payload"]) for v in vectors} == {v["name"]: v["expected"]["valid"] for v in vectors}


def test_vectors_are_derived_from_the_registry(tmp_path: Path) -> None:
    """Change the registry, and the expectations change with it (and agree with recovery.json)."""
    text = REGISTRY.read_text().replace("  validation:\n    retryable: false\n    action: fix\n", "  validation:\n    retryable: false\n    action: escalate\n")
    text = text.replace("  RATE_LIMITED:\n    category: rate_limit\n    scope: service\n    scopes: [service, request]\n    retry_after_ms: 2000",
                        "  RATE_LIMITED:\n    category: rate_limit\n    scope: service\n    scopes: [service, request]\n    retry_after_ms: 4500")
    (tmp_path / "r.yaml").write_text(text)
    build_to(tmp_path / "r.yaml", tmp_path / "out", "conformance", "recovery")
    changed = {v["name"]: v["expected"]["decision"] for v in json.loads((tmp_path / "out" / "conformance" / "vectors.json").read_text())["vectors"]}
    original = {v["name"]: v["expected"]["decision"] for v in json.loads(VECTORS.read_text())["vectors"]}
    assert original["OPERATOR_NOT_ALLOWED/request"]["action"] == "fix"
    assert changed["OPERATOR_NOT_ALLOWED/request"]["action"] == "escalate"
    assert (original["RATE_LIMITED/request"]["delay_ms"], changed["RATE_LIMITED/request"]["delay_ms"]) == (2000, 4500)
    table = json.loads((tmp_path / "out" / "recovery.json").read_text())["codes"]
    for row in table:
        for scope, action in row["actions"].items():
            assert changed[f"{row['code']}/{scope}"]["action"] == action


def test_conformance_accepts_a_hand_written_vectors_file(tmp_path: Path) -> None:
    """Only `vectors` with name and input are needed; only the expected outputs given are compared."""
    hand = {"vectors": [
        {"name": "ok", "input": {"payload": {"code": "AUTH_EXPIRED", "category": "auth", "retryable": False, "scope": "request",
                                             "correlation_id": "c"}}, "expected": {"decision": {"action": "escalate", "reason": "registry",
                                             "code": "AUTH_EXPIRED", "wire_code": "AUTH_EXPIRED", "delay_ms": None, "correlation_id": "c", "resource_id": None,
                                             "did_you_mean": [], "accepted": [], "searched": {}}}},
        {"name": "header", "input": {"http": {"status": 503, "headers": [["Retry-After", "2"]],
                                              "body": '{"code":"X","category":"y","retryable":true,"scope":"service","correlation_id":"c"}'}},
         "attempt": 2, "expected": {"valid": False, "problems": ["unknown-category", "unknown-code"], "parsed": "unknown"}},
        {"name": "wrong on purpose", "input": {"payload": 5}, "expected": {"valid": True}},
    ]}
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand))
    done = run_errgen("conformance", "--target", "python", "--vectors", str(path))
    assert done.returncode == 1, done.stderr
    assert "python: 2 passed, 1 failed" in done.stdout
    assert "FAIL wrong on purpose: valid: expected true, got false" in done.stdout


def test_emit_prints_one_json_line_per_input(tmp_path: Path) -> None:
    inputs = {"vectors": [{"name": "a", "input": {"payload": None}},
                          {"name": "b", "input": {"mcp": {"content": [{"type": "text", "text": "[" * 1000}]}}},
                          {"name": "c", "input": {"http": {"status": 429, "headers": [["Retry-After", "\u00b2"]], "body": "{"}}}]}
    path = tmp_path / "inputs.json"
    path.write_text(json.dumps(inputs))
    done = run_errgen("conformance", "--target", "python", "--emit", str(path))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["name"] for line in lines] == ["a", "b", "c"]
    assert all(line["parsed"] == "invalid" for line in lines)
    assert [line["decision"]["reason"] for line in lines] == ["invalid-payload", "invalid-payload", "status-fallback"]


def test_conformance_skips_a_language_whose_tool_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from errgen import runners as conformance
    from errgen.languages.python import target as python

    monkeypatch.setattr(python, "conformance_command", lambda sdk, vectors, mode: (["no-such-tool-errgen"], sdk, "no-such-tool-errgen"))
    lines: list[str] = []
    assert conformance.check(GENERATED, ["python"], None, lines.append, allow_skip=True) == 0
    assert lines == ["python: skipped (needs no-such-tool-errgen)"]


def test_conformance_exit_codes(tmp_path: Path) -> None:
    assert run_errgen("conformance", "--out", str(tmp_path)).returncode == 2
    assert run_errgen("conformance", "--target", "nope").returncode == 2
    assert run_errgen("conformance", "--emit", str(VECTORS)).returncode == 2  # --emit needs one --target


def test_article_examples() -> None:
    skip = sdk.decide({"code": "VALIDATION_FAILED", "category": "validation", "retryable": False, "scope": "resource",
                       "resource_id": "contact_4127", "correlation_id": "c-88a1"})
    assert (skip.action, skip.resource_id, skip.correlation_id) == (sdk.Action.SKIP, "contact_4127", "c-88a1")
    pause = sdk.decide({"code": "RATE_LIMITED", "category": "rate_limit", "retryable": True, "retry_after_ms": 2000,
                        "scope": "service", "correlation_id": "c-88b2"})
    assert (pause.action, pause.delay_ms) == (sdk.Action.PAUSE, 2000)


def test_strict_and_tolerant_parsing() -> None:
    ok = sdk.new_error("TENANT_UNKNOWN", "c-1", did_you_mean=["www"], state="unchanged").to_wire()
    assert sdk.validate_payload(ok).code is sdk.Code.TENANT_UNKNOWN
    assert sdk.validate_payload(ok).to_wire() == ok  # the model writes back exactly what it read, by wire names
    newer = {**ok, "code": "TENANT_SUSPENDED"}
    with pytest.raises(sdk.PayloadError) as info:
        sdk.validate_payload(newer)
    assert info.value.problems[0][0] == "unknown-code"
    parsed = sdk.parse_payload(newer)
    assert isinstance(parsed, sdk.UnknownErrorPayload) and parsed.code == "TENANT_SUSPENDED"
    assert isinstance(sdk.parse_payload(ok), sdk.ErrorPayload)
    with pytest.raises(sdk.PayloadError):
        sdk.parse_payload({**ok, "stack": "at x (y.js:1:2)"})


def test_new_error_fills_from_the_table_and_refuses_contradictions() -> None:
    p = sdk.new_error("VALIDATION_FAILED", "c-9", resource_id="row_1").to_wire()
    assert p == {"code": "VALIDATION_FAILED", "category": "validation", "retryable": False, "scope": "resource", "correlation_id": "c-9", "resource_id": "row_1"}
    for bad in ({"did_you_mean": ["x"]}, {"retry_after_ms": 5}, {"scope": "service"}):
        with pytest.raises(sdk.PayloadError):
            sdk.new_error("VALIDATION_FAILED", "c-9", resource_id="row_1", **bad)
    with pytest.raises(sdk.PayloadError):
        sdk.new_error("VALIDATION_FAILED", "c-9")  # resource scope needs resource_id


def test_mcp_result_validates_against_the_official_python_sdk() -> None:
    from mcp.types import CallToolResult

    payload = sdk.new_error("RESOURCE_NOT_FOUND", "c-3", searched={"name": "x"}, did_you_mean=["y"]).to_wire()
    result = CallToolResult.model_validate(sdk.to_mcp_result(payload))
    assert result.is_error is True and result.structured_content == payload
    assert json.loads(result.content[0].text) == payload
    assert sdk.from_mcp_result(result.model_dump(by_alias=True)) == payload
    assert sdk.from_mcp_result({"content": [{"type": "text", "text": json.dumps(payload)}], "isError": True}) == payload


def test_mcp_result_type_checks_against_the_official_ts_sdk(node_bin: Path, tmp_path: Path) -> None:
    src = GENERATED / "typescript" / "src" / "index"
    (tmp_path / "check.ts").write_text(
        'import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";\n'
        f"import {{ newError, toMcpResult }} from {json.dumps(str(src))};\n"
        'const result: CallToolResult = toMcpResult(newError("AUTH_EXPIRED", "c-1"));\n'
        "void result;\n"
    )
    (tmp_path / "tsconfig.json").write_text(json.dumps({
        "compilerOptions": {"strict": True, "noEmit": True, "target": "ES2022", "module": "node16", "moduleResolution": "node16",
                            "skipLibCheck": True, "typeRoots": [], "baseUrl": str(node_bin.parent.parent / "node_modules")},
        "files": ["check.ts"]}))
    (tmp_path / "node_modules").symlink_to(node_bin.parent)
    done = tsc(node_bin, tmp_path)
    assert done.returncode == 0, done.stdout


def test_http_mapping_round_trips_in_python() -> None:
    p = sdk.new_error("RATE_LIMITED", "c-7", retry_after_ms=1500, message="Slow down.").to_wire()
    plain = sdk.to_http(p)
    assert (plain.status, plain.headers["Retry-After"], plain.headers["Content-Type"]) == (429, "2", "application/json")
    assert sdk.from_http(plain.status, plain.headers, plain.body) == p
    problem = sdk.to_http(p, problem=True)
    body = json.loads(problem.body)
    assert problem.headers["Content-Type"] == "application/problem+json"
    assert (body["type"], body["status"], body["detail"]) == ("https://errors.acme.dev/RATE_LIMITED", 429, "Slow down.")
    assert sdk.from_http(problem.status, problem.headers, problem.body) == p
    # No delay in the body: the headers are authoritative (ms first, then seconds or an HTTP date).
    bare = {k: v for k, v in p.items() if k != "retry_after_ms"}
    assert sdk.from_http(429, {"retry-after-ms": "250", "Retry-After": "9"}, json.dumps(bare))["retry_after_ms"] == 250
    assert sdk.from_http(429, {"Retry-After": "3"}, json.dumps(bare))["retry_after_ms"] == 3000
    when = "Wed, 21 Oct 2026 07:28:05 GMT"
    now = 1792567680_000  # 2026-10-21 07:28:00 UTC
    assert sdk.from_http(429, {"Retry-After": when}, json.dumps(bare), now_ms=now)["retry_after_ms"] == 5000
    default = sdk.to_http(sdk.new_error("UPSTREAM_TIMEOUT", "c-8"))
    assert (default.status, default.headers["Retry-After"]) == (504, "1")  # 500 ms default, rounded up
    assert "Retry-After" not in sdk.to_http(sdk.new_error("AUTH_EXPIRED", "c-9")).headers
    # x-should-retry carries the registry's retryable to clients that never read the body.
    assert plain.headers["x-should-retry"] == "true" and default.headers["x-should-retry"] == "true"
    assert sdk.to_http(sdk.new_error("AUTH_EXPIRED", "c-9")).headers["x-should-retry"] == "false"


def test_http_mapping_is_the_same_in_typescript(ts_sdk: Path) -> None:
    p = sdk.new_error("RATE_LIMITED", "c-7", retry_after_ms=1500, message="Slow down.").to_wire()
    got = node(ts_sdk, f"const p = {json.dumps(p)};\n"
                       "const plain = m.toHttp(p); const problem = m.toHttp(p, true);\n"
                       "const bare = {...p}; delete bare.retry_after_ms;\n"
                       "console.log(JSON.stringify({plain, problem, back: m.fromHttp(problem.status, problem.headers, problem.body),"
                       " ms: m.fromHttp(429, {'Retry-After-Ms': '250'}, JSON.stringify(bare)),"
                       " date: m.fromHttp(429, {'Retry-After': 'Wed, 21 Oct 2026 07:28:05 GMT'}, JSON.stringify(bare), 1792567680000)}));")
    py_plain, py_problem = sdk.to_http(p), sdk.to_http(p, problem=True)
    assert got["plain"] == {"status": py_plain.status, "headers": dict(py_plain.headers), "body": py_plain.body}
    assert got["problem"] == {"status": py_problem.status, "headers": dict(py_problem.headers), "body": py_problem.body}
    assert got["back"] == p
    assert got["ms"]["retry_after_ms"] == 250 and got["date"]["retry_after_ms"] == 5000


def test_did_you_mean_is_the_same_in_both_languages(ts_sdk: Path) -> None:
    cases = [("wwww", ["www", "api", "wwx", "docs", "w"]), ("acme-prod", ["acme-prd", "acme-dev", "acme-prod2", "other"]),
             ("zzzz", ["www"]), ("tenant", ["tenant"]), ("café", ["cafe", "cafés", "tea"])]
    py = [sdk.did_you_mean(v, allowed) for v, allowed in cases]
    ts = node(ts_sdk, f"console.log(JSON.stringify({json.dumps(cases)}.map(([v, a]) => m.didYouMean(v, a))));")
    assert py == ts
    assert py[0] == ["www"] and py[1] == ["acme-prd", "acme-prod2"] and py[2] == [] and py[3] == []


def test_the_sdks_pass_the_vectors_of_another_registry(node_bin: Path, tmp_path: Path) -> None:
    """The vectors follow the registry (article 003's refund categories), through the command a user
    runs. The compiled SDKs run this registry's vectors in their own test files (test_java_sdk.py's
    `example`, test_rust_sdk.py's example crate) and every examples/apis registry's."""
    out = tmp_path / "out"
    build_to(REGISTRY.parent.parent / "examples" / "refund-tool.yaml", out)
    compiled = subprocess.run([str(node_bin / "tsc"), "-p", str(out / "typescript")], capture_output=True, text=True, timeout=300)
    assert compiled.returncode == 0, compiled.stdout
    done = run_errgen("conformance", "--out", str(out), "--target", "python", "--target", "typescript")
    assert done.returncode == 0, done.stdout + done.stderr
    results = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    assert sorted(results) == [f"{sdk}{part}" for sdk in ("python", "typescript") for part in ("", " responses", " writing")]
    assert all(r.endswith(" 0 failed") and not r.startswith("0 passed") for r in results.values()), done.stdout
