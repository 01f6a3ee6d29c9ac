"""Reading real API responses (docs/registry.md "Reading real responses", docs/conformance.md
"Reading a real response"): the Python SDK of registries that use every wire.response feature,
fed responses as the APIs document them (status, headers, body verbatim)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import FIXTURES, ROOT, build_to, run_errgen

WIRE = FIXTURES / "wire"
# Wed, 21 Oct 2026 07:28:00 GMT
NOW_MS = 1_792_567_680_000


def _sdk(out: Path, registry: Path, package: str) -> ModuleType:
    build_to(registry, out, "python", "conformance")
    sys.path.insert(0, str(out / "python"))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(out / "python"))


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return _sdk(tmp_path_factory.mktemp("real"), WIRE / "real-api.yaml", "realapi_errors")


@pytest.fixture(scope="module")
def s3(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return _sdk(tmp_path_factory.mktemp("s3"), WIRE / "s3.yaml", "s3like_errors")


def decided(sdk: ModuleType, status: int, headers: Any, body: Any) -> tuple[Any, Any]:
    reading = sdk.read_http(status, headers, body, now_ms=NOW_MS)
    return reading, sdk.decide(reading.payload)


# Verbatim from each API's documentation (ids shortened where the docs elide them).
OPENAI_TOKENS = json.dumps({"error": {
    "message": "Rate limit reached for gpt-4 in organization org-exampleorgid123 on tokens per min. Limit: 10000.000000 / min. "
               "Current: 10020.000000 / min. Contact support@openai.com if you continue to have issues.",
    "type": "tokens", "param": None, "code": "rate_limit_exceeded"}})
STRIPE_DECLINED = json.dumps({"error": {
    "charge": "ch_1NirD82eZvKYlo2CIvbtLWuY", "code": "card_declined", "decline_code": "generic_decline",
    "doc_url": "https://stripe.com/docs/error-codes/card-declined", "message": "Your card was declined.", "param": "",
    "request_log_url": "https://dashboard.stripe.com/test/logs/req_Dq1YOLWm3NpSKe?t=1692737566", "type": "card_error"}})
GOOGLE_QUOTA = json.dumps({"error": {
    "code": 429, "message": "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute'.", "status": "RESOURCE_EXHAUSTED",
    "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED", "domain": "googleapis.com",
                 "metadata": {"service": "translate.googleapis.com", "quota_limit": "DefaultRequestsPerMinutePerProject"}},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "30s"}]}})
S3_NO_SUCH_KEY = """<?xml version="1.0" encoding="UTF-8"?>
<Error>
  <Code>NoSuchKey</Code>
  <Message>The resource you requested does not exist</Message>
  <Resource>/mybucket/myfoto.jpg</Resource>
  <RequestId>4442587FB7D0A2F9</RequestId>
</Error>"""


def test_openai_rate_limit_on_tokens_is_the_tokens_variant(real: ModuleType) -> None:
    reading, decision = decided(real, 429, {"x-request-id": "req_9f2c", "retry-after-ms": "282"}, OPENAI_TOKENS)
    assert (reading.code, reading.correlation_id, reading.delay_ms) == ("rate_limit_exceeded", "req_9f2c", 282)
    assert (decision.action.value, decision.reason.value, decision.code, decision.delay_ms) == (
        "retry", "registry", "rate_limit_exceeded-tokens", 282)
    assert reading.document["error"]["message"].startswith("Rate limit reached")  # the API's own fields are kept


def test_openai_rate_limit_on_requests_is_the_plain_code(real: ModuleType) -> None:
    body = OPENAI_TOKENS.replace('"type": "tokens"', '"type": "requests"')
    _, decision = decided(real, 429, [("X-Request-Id", "req_1"), ("Retry-After", "2")], body)
    assert (decision.action.value, decision.code, decision.delay_ms) == ("pause", "rate_limit_exceeded", 2000)


def test_openai_invalid_key_never_retries(real: ModuleType) -> None:
    body = '{"error": {"message": "Incorrect API key provided: sk-abc***def.", "type": "invalid_request_error", "param": null, "code": "invalid_api_key"}}'
    _, decision = decided(real, 401, {"x-request-id": "req_2"}, body.encode())
    assert (decision.action.value, decision.reason.value, decision.correlation_id) == ("stop", "registry", "req_2")


def test_stripe_decline_decided_by_the_registry_with_extra_fields_kept(real: ModuleType) -> None:
    reading, decision = decided(real, 402, {"Request-Id": "req_Dq1YOLWm3NpSKe"}, STRIPE_DECLINED)
    assert (decision.action.value, decision.reason.value, decision.correlation_id) == ("fix", "registry", "req_Dq1YOLWm3NpSKe")
    assert real.check_payload(reading.payload).parsed.value == "known"
    assert real.parse_payload(reading.payload).code.value == "card_declined"  # tolerant parse: no extra field fails it
    assert reading.document["error"]["decline_code"] == "generic_decline"


def test_slack_error_with_http_200(real: ModuleType) -> None:
    reading, decision = decided(real, 200, {}, '{"ok": false, "error": "channel_not_found"}')
    assert reading.error and (decision.action.value, decision.code) == ("fix", "channel_not_found")
    assert real.read_http(200, {}, '{"ok": true, "channel": {"id": "C123"}}').error is False
    assert real.from_http(200, {}, '{"ok": true}') is None


def test_slack_rate_limit_waits_what_retry_after_says(real: ModuleType) -> None:
    _, decision = decided(real, 429, {"Retry-After": "30"}, '{"ok": false, "error": "ratelimited"}')
    assert (decision.action.value, decision.delay_ms) == ("pause", 30_000)


def test_github_graphql_errors_array_with_http_200(real: ModuleType) -> None:
    body = '{"data": null, "errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded for user ID 1234567."}]}'
    reading, decision = decided(real, 200, {"X-GitHub-Request-Id": "C3D4:5E6F:1A2B3C:4D5E6F:65B2C3D4"}, body)
    assert (decision.action.value, decision.code, decision.correlation_id) == ("pause", "RATE_LIMITED", "C3D4:5E6F:1A2B3C:4D5E6F:65B2C3D4")
    assert reading.payload["message"] == "API rate limit exceeded for user ID 1234567."


def test_jsonrpc_numeric_code_with_http_200(real: ModuleType) -> None:
    body = '{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}'
    reading, decision = decided(real, 200, {}, body)
    assert (reading.code, reading.correlation_id) == ("-32601", "1")
    assert (decision.action.value, decision.reason.value, decision.code) == ("fix", "registry", "-32601")


def test_google_retry_info_delay_and_error_info_reason(real: ModuleType) -> None:
    reading, decision = decided(real, 429, {}, GOOGLE_QUOTA)
    assert (reading.code, reading.delay_ms) == ("RATE_LIMIT_EXCEEDED", 30_000)
    assert (decision.action.value, decision.reason.value, decision.delay_ms) == ("pause", "registry", 30_000)


def test_azure_code_in_a_header_with_an_empty_body_and_two_statuses(real: ModuleType) -> None:
    headers = {"x-ms-error-code": "ConditionNotMet", "x-ms-request-id": "b1c2"}
    _, on_write = decided(real, 412, headers, b"")
    _, on_read = decided(real, 304, headers, b"")
    assert (on_write.code, on_read.code) == ("ConditionNotMet", "ConditionNotMet-read")
    assert on_write.reason.value == on_read.reason.value == "registry"


def test_unknown_code_decides_by_status(real: ModuleType) -> None:
    _, decision = decided(real, 503, {}, '{"error": {"code": "overloaded_error", "message": "Overloaded"}}')
    assert (decision.action.value, decision.reason.value) == ("pause", "unknown-code")
    _, decision = decided(real, 404, {}, '{"error": {"code": "not_found_error"}}')
    assert (decision.action.value, decision.reason.value) == ("escalate", "unknown-code")


def test_json_body_with_a_byte_order_mark(real: ModuleType) -> None:
    _, decision = decided(real, 402, {}, "\ufeff".encode() + STRIPE_DECLINED.encode())
    assert decision.code == "card_declined"


def test_s3_xml_error_document(s3: ModuleType) -> None:
    reading, decision = decided(s3, 404, {"x-amz-request-id": "4442587FB7D0A2F9"}, S3_NO_SUCH_KEY.encode())
    assert (decision.action.value, decision.reason.value, decision.code) == ("skip", "registry", "NoSuchKey")
    assert reading.payload["message"] == "The resource you requested does not exist"
    assert reading.document["Error"]["Resource"] == "/mybucket/myfoto.jpg"


def test_s3_xml_with_a_doctype_is_never_expanded(s3: ModuleType) -> None:
    xxe = '<?xml version="1.0"?><!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]><Error><Code>&x;</Code></Error>'
    reading = s3.read_http(404, {}, xxe)
    assert reading.document is None and reading.payload == xxe


def test_s3_registry_reads_its_own_json_back(s3: ModuleType) -> None:
    payload = s3.new_error("SlowDown", "c-1").to_wire()
    response = s3.to_http(payload)
    assert s3.from_http(response.status, response.headers, response.body) == {**payload, "retry_after_ms": 1000}


def test_from_http_survives_bodies_that_are_not_text(real: ModuleType) -> None:
    import tracemalloc

    tracemalloc.start()
    try:
        for body in (10**12, None, 3.5, object(), ["x"]):
            assert real.from_http(500, {}, body) == ""
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # an int is not a size: nothing of 10**12 bytes (memory, not a clock: it holds under load)


def test_huge_numbers_are_never_converted_and_huge_bodies_never_read(real: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """A code that is a number of 10,000 digits is no code, and no number longer than
    MAX_NUMBER_CHARS reaches int() (converting one costs the square of its digits); a body past
    MAX_BODY_BYTES is unreadable, but the header still counts. The time beside clean bodies of
    the same size is bench.wire_bench's; a clock here failed on a loaded machine."""
    wire, contract = importlib.import_module(real.__name__ + "._wire"), importlib.import_module(real.__name__ + "._contract")
    converted: list[int] = []

    def counted(value: object = 0, *args: Any) -> int:
        converted.append(len(value) if isinstance(value, str) else 0)
        return int(value, *args)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(wire, "int", counted, raising=False)
    reading = real.read_http(400, {}, '{"error": {"code": ' + "9" * 10_000 + ', "n": 12}}')
    over = real.read_http(400, {"x-ms-error-code": "card_declined"}, " " * (contract.MAX_BODY_BYTES + 1) + STRIPE_DECLINED)
    assert reading.code is None
    assert converted and max(converted) <= contract.MAX_NUMBER_CHARS, converted
    assert over.document is None and over.code == "card_declined"  # unreadable body; the header still counts


def test_renamed_fields_called_type_status_detail_read_back(tmp_path: Path) -> None:
    text = (FIXTURES / "valid-minimal.yaml").read_text(encoding="utf-8")
    text = text.replace("errgen: 1\n", "errgen: 1\nwire:\n  rename: {category: type, scope: status, message: detail}\n", 1)
    registry = tmp_path / "renamed.yaml"
    registry.write_text(text.replace("\nname: demo\n", "\nname: renamed\n", 1), encoding="utf-8")
    sdk = _sdk(tmp_path / "out", registry, "renamed_errors")
    payload = sdk.new_error("TIMED_OUT", "c-7", message="Said.").to_wire()
    assert {"type", "status", "detail"} <= payload.keys()
    for problem in (False, True):
        response = sdk.to_http(payload, problem=problem)
        back = sdk.from_http(response.status, response.headers, response.body)
        assert {k: back[k] for k in payload} == payload
        assert sdk.check_payload(back).parsed.value == "known"


def test_python_runner_passes_the_response_vectors(real: ModuleType, s3: ModuleType) -> None:
    for module in (real, s3):
        out = Path(module.__file__).parent.parent.parent
        done = run_errgen("conformance", "--out", str(out), "--target", "python")
        assert done.returncode == 0, done.stdout + done.stderr
        total = len(json.loads((out / "conformance" / "responses.json").read_text(encoding="utf-8"))["vectors"])
        assert f"python responses: {total} passed, 0 failed" in done.stdout


def test_python_runner_survives_lone_surrogates(real: ModuleType, tmp_path: Path) -> None:
    vectors = tmp_path / "v.json"
    vectors.write_text('{"vectors": [{"name": "lone \\ud800", "input": {"payload": {"code": "\\udc00"}}, '
                       '"expected": {"parsed": "known"}}]}', encoding="utf-8")
    package = Path(real.__file__).parent
    for mode, code in (("emit", 0), ("check", 1)):
        done = subprocess.run([sys.executable, "-m", package.name + "._conformance", mode, str(vectors)], cwd=package.parent,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == code, done.stderr
        assert "\\ud800" in done.stdout and "Traceback" not in done.stderr


def test_variants_round_trip_through_to_http(real: ModuleType) -> None:
    """to_http sends the API's wire code; from_http reads it back as the same registry code."""
    for code, status in (("ConditionNotMet-read", 304), ("ConditionNotMet", 412), ("rate_limit_exceeded-tokens", 429)):
        payload = real.new_error(code, "c-9").to_wire()
        response = real.to_http(payload)
        assert response.status == status
        assert json.loads(response.body)["error"]["code"] == code.split("-")[0]
        back = real.from_http(response.status, response.headers, response.body)
        assert back["code"] == code and real.decide(back).reason.value == "registry"


def test_to_http_writes_the_code_and_request_id_headers_where_the_api_does(tmp_path: Path) -> None:
    text = (WIRE / "real-api.yaml").read_text(encoding="utf-8").replace("name: realapi", "name: headerapi")
    text = text.replace('    code:\n      - "body:error.details[*].reason"', '    code:\n      - "header:x-ms-error-code"\n      - "body:error.details[*].reason"')
    registry = tmp_path / "headerapi.yaml"
    registry.write_text(text, encoding="utf-8")
    sdk = _sdk(tmp_path / "out", registry, "headerapi_errors")
    response = sdk.to_http(sdk.new_error("ConditionNotMet-read", "req-5"))
    assert (response.headers["x-ms-error-code"], response.headers["x-request-id"]) == ("ConditionNotMet", "req-5")
    reading = sdk.read_http(response.status, response.headers, "")  # a HEAD response: no body
    assert (reading.code, reading.correlation_id, reading.payload["code"]) == ("ConditionNotMet", "req-5", "ConditionNotMet-read")


@pytest.mark.parametrize(("text", "steps"), [
    ("", []), ("error.code", ["error", "code"]), ("errors[0].extensions.code", ["errors", 0, "extensions", "code"]),
    ("error.details[*].retryDelay", ["error", "details", -1, "retryDelay"]), ("[0].error", [0, "error"]),
    ("@type", ["@type"]), ("a[1][*]", ["a", 1, -1]), ('error[".tag"]', ["error", ".tag"]),
    ('["a.b"]["c d"].e', ["a.b", "c d", "e"]), ('x["q\\"\\\\"]', ["x", 'q"\\']), ('["[*]"][*]', ["[*]", -1]),
])
def test_body_paths_parse_to_steps(text: str, steps: list[Any]) -> None:
    from errgen.wire import parse_source

    assert parse_source("body:" + text) == {"in": "body", "path": steps}


def test_a_quoted_key_round_trips_through_its_text() -> None:
    from errgen.wire import parse_source, source_text

    for text in ('body:error[".tag"]', 'body:["a.b"]["c d"].e[*]', 'body:x["q\\"\\\\"]', "body:error.details[0].reason"):
        assert parse_source(source_text(parse_source(text))) == parse_source(text)


def test_a_key_holding_a_dot_is_read_where_the_api_puts_it(tmp_path: Path) -> None:
    """Dropbox's tagged unions: the code is error.path[".tag"], else error[".tag"]."""
    sdk = _sdk(tmp_path, WIRE / "dropbox.yaml", "dropboxlike_errors")
    body = json.dumps({"error_summary": "path/not_found/..", "error": {".tag": "path", "path": {".tag": "not_found"}}})
    reading, decision = decided(sdk, 409, {}, body)
    assert (reading.code, decision.code, decision.action.value) == ("not_found", "not_found", "skip")
    _, limited = decided(sdk, 429, {"Retry-After": "3"}, json.dumps({"error": {".tag": "too_many_requests"}}))
    assert (limited.code, limited.action.value, limited.delay_ms) == ("too_many_requests", "pause", 3000)


@pytest.mark.parametrize("text", ['body:a["x]', 'body:a[""]', 'body:a."b"c.[0]', "body:a[\"\\n\"]"])
def test_malformed_quoted_keys_are_refused(text: str) -> None:
    from errgen.wire import SourceError, parse_source

    with pytest.raises(SourceError):
        parse_source(text)


@pytest.mark.parametrize("text", ["body:a..b", "body:a.", "body:.a", "body:a[x]", "body:a[-1]", "body:a b", "body:a[0]b",
                                  "head:x", "header:", "header:x y", "body:" + ".".join("k" * 17), "error.code"])
def test_malformed_sources_are_refused(text: str) -> None:
    from errgen.wire import SourceError, parse_source

    with pytest.raises(SourceError):
        parse_source(text)


def test_without_a_response_spec_the_payload_is_read_where_to_http_writes_it() -> None:
    from conftest import load_registry
    from errgen.contract import view

    spec = view(load_registry(FIXTURES.parent.parent / "examples" / "payments-api.yaml")).response
    assert spec["code"] == [{"in": "body", "path": ["error", "code"]}]
    assert spec["correlation_id"] == [{"in": "body", "path": ["error", "correlationId"]}]
    assert [e["unit"] for e in spec["retry_after"]] == ["ms", "http"] and spec["error_when"] == [] and spec["variants"] == {}


def test_github_rest_status_as_code_and_rate_limit_variant(tmp_path: Path) -> None:
    sdk = _sdk(tmp_path, WIRE / "github-rest.yaml", "ghrest_errors")
    body = '{"message": "API rate limit exceeded for 203.0.113.7.", "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}'
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(NOW_MS // 1000 + 90), "X-GitHub-Request-Id": "CB0A:1F2E:3D4C"}
    reading, decision = decided(sdk, 403, headers, body)
    assert (reading.code, reading.correlation_id, reading.delay_ms) == ("403", "CB0A:1F2E:3D4C", 90_000)
    assert (decision.action.value, decision.code, decision.delay_ms) == ("pause", "403-rate-limited", 90_000)
    _, forbidden = decided(sdk, 403, {"x-ratelimit-remaining": "4999"}, '{"message": "Must have admin rights to Repository."}')
    _, missing = decided(sdk, 404, {}, '{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}')
    assert (forbidden.code, forbidden.action.value, missing.code, missing.reason.value) == ("403", "escalate", "404", "registry")
    done = run_errgen("conformance", "--out", str(tmp_path), "--target", "python")
    assert done.returncode == 0 and "python responses:" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("path", sorted((FIXTURES.parent.parent / "examples" / "apis").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_api_registry_passes_its_own_vectors_and_responses(path: Path, tmp_path: Path) -> None:
    """The vectors are generated for whatever registry is built: each real API's reading spec
    (status-coded, header-coded, XML, numeric codes) yields vectors its Python SDK passes."""
    build_to(path, tmp_path, "python", "conformance")
    done = run_errgen("conformance", "--out", str(tmp_path), "--target", "python")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "python responses:" in done.stdout and " 0 failed" in done.stdout.splitlines()[-1]


def test_a_payload_with_a_non_text_scope_and_a_shared_wire_code_reads_as_invalid(tmp_path: Path) -> None:
    """GitHub REST's 403 is two registry codes (a rate-limit variant by header, else permission).
    An errgen-shaped body whose scope is a list must not crash the variant choice (it hashed the
    scope); it reads as sent and decides as an invalid payload, as the other SDKs do."""
    sdk = _sdk(tmp_path, ROOT / "examples" / "apis" / "github-rest.yaml", "github_rest_errors")
    body = sdk.new_error("403", "c-1", resource_id="repo-1").to_wire()
    body["scope"] = ["request"]
    reading, decision = decided(sdk, 403, {}, json.dumps(body))
    assert reading.payload["scope"] == ["request"]
    assert (decision.action.value, decision.reason) == ("escalate", "invalid-payload")
