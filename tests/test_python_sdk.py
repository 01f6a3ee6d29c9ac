"""The Python SDK as its users touch it (issue 26): the typed payload is the currency, APIError is
raised and caught, responses of urllib, requests and httpx become errors, retry applies decide,
and docs/sdk-python.md runs as written under mypy --strict.

The SDK is built from this checkout's sources into a temporary folder, not read from generated/."""

from __future__ import annotations

import asyncio
import email
import importlib
import io
import json
import os
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

from conftest import REGISTRY, ROOT, build_to, load_registry

DOCS = ROOT / "docs" / "sdk-python.md"
RATE_LIMITED = {"code": "RATE_LIMITED", "category": "rate_limit", "retryable": True, "scope": "service",
                "correlation_id": "r-1"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sdk")
    build_to(REGISTRY, out, "python")
    return out / "python"


@pytest.fixture(scope="module")
def sdk(built: Path) -> Iterator[ModuleType]:
    """The freshly built acme_errors, imported in place of any other copy, then put back."""
    saved = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "acme_errors"}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(built))
    try:
        yield importlib.import_module("acme_errors")
    finally:
        sys.path.remove(str(built))
        for name in [n for n in sys.modules if n.split(".")[0] == "acme_errors"]:
            del sys.modules[name]
        sys.modules.update(saved)


def mypy_strict(built: Path, source: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    program = tmp_path / "program.py"
    program.write_text(source, encoding="utf-8")
    env = {**os.environ, "MYPYPATH": str(built), "PYTHONPATH": str(built)}
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", str(program)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )


# ---- the typed payload is the currency -------------------------------------------------------------


def test_new_error_returns_the_model_and_its_wire_data(sdk: ModuleType) -> None:
    payload = sdk.new_error(sdk.Code.TENANT_UNKNOWN, "c-1", did_you_mean=["www"], state=sdk.State.UNCHANGED)
    assert isinstance(payload, sdk.ErrorPayload)
    assert payload.code is sdk.Code.TENANT_UNKNOWN
    assert payload.to_wire() == {"code": "TENANT_UNKNOWN", "category": "validation", "retryable": False,
                                 "scope": "request", "correlation_id": "c-1", "did_you_mean": ["www"],
                                 "state": "unchanged"}
    assert sdk.validate_payload(payload.to_wire()) == payload


def test_decide_takes_the_model_as_it_takes_the_wire_data(sdk: ModuleType) -> None:
    for entry in sdk.RECOVERY_TABLE.values():
        for scope in entry.scopes:
            extra = {"resource_id": "row_1"} if scope is sdk.Scope.RESOURCE else {}
            payload = sdk.new_error(entry.code, "c-2", scope=scope, **extra)
            by_model, by_data = sdk.decide(payload, 2), sdk.decide(payload.to_wire(), 2)
            assert by_model == by_data
            assert by_model.reason is not sdk.Reason.INVALID_PAYLOAD
            assert sdk.check_payload(payload).parsed is sdk.Parsed.KNOWN


def test_to_http_and_to_mcp_result_take_the_model(sdk: ModuleType) -> None:
    payload = sdk.new_error("RATE_LIMITED", "c-3", retry_after_ms=1500)
    response = sdk.to_http(payload)
    assert response == sdk.to_http(payload.to_wire())
    assert (response.status, response.headers["Retry-After"], json.loads(response.body)) == (429, "2", payload.to_wire())
    assert sdk.to_http(payload, problem=True).headers["Content-Type"] == "application/problem+json"
    assert sdk.to_mcp_result(payload) == sdk.to_mcp_result(payload.to_wire())
    assert sdk.to_mcp_result(payload)["structuredContent"] == payload.to_wire()
    newer = sdk.parse_payload({**RATE_LIMITED, "code": "BRAND_NEW"})
    assert sdk.to_http(newer).status == 500 and sdk.decide(newer).reason is sdk.Reason.UNKNOWN_CODE


def test_the_model_is_frozen(sdk: ModuleType) -> None:
    from pydantic import ValidationError

    payload = sdk.validate_payload(RATE_LIMITED)
    with pytest.raises(ValidationError):
        payload.retryable = False
    assert payload.retryable is True


def test_decision_code_is_a_code_member_and_an_unknown_code_stays_text(sdk: ModuleType) -> None:
    assert sdk.decide(RATE_LIMITED).code is sdk.Code.RATE_LIMITED
    newer = sdk.decide({**RATE_LIMITED, "code": "BRAND_NEW"}).code
    assert newer == "BRAND_NEW" and not isinstance(newer, sdk.Code) and isinstance(newer, sdk.UnknownCode)
    assert sdk.decide("not a payload").code is None


def test_vocabularies_and_limits_are_public(sdk: ModuleType) -> None:
    from errgen.contract import view

    contract = view(load_registry())
    enums = {"Scope": contract.scopes, "Action": contract.actions, "State": contract.states,
             "Hint": contract.hints, "Reason": contract.reasons, "Parsed": contract.parsed}
    for name, values in enums.items():
        assert tuple(member.value for member in getattr(sdk, name)) == values, name
    assert sdk.DEFAULT_MAX_ATTEMPTS == contract.policy.default_max_attempts
    assert sdk.DEFAULT_MAX_DELAY_MS == contract.policy.default_max_delay_ms
    assert {"APIError", "State", "Hint", "DEFAULT_MAX_ATTEMPTS", "retry", "retry_async",
            "raise_for_response", "error_from_response"} <= set(sdk.__all__)


def test_the_types_users_see_under_mypy_strict(built: Path, tmp_path: Path) -> None:
    program = """\
from typing import assert_type
from acme_errors import APIError, Code, Decision, ErrorPayload, Payload, UnknownCode, decide, new_error, to_http

payload = new_error(Code.RATE_LIMITED, "c-1")
assert_type(payload, ErrorPayload)
decision = decide(payload)
assert_type(decision.code, Code | UnknownCode | None)
error = APIError(payload)
assert_type(error.code, Code | UnknownCode)
assert_type(error.payload, Payload | None)
assert_type(error.decide(2), Decision)
to_http(payload)
to_http(payload.to_wire())
"""
    done = mypy_strict(built, program, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


# ---- an exception to raise and catch ---------------------------------------------------------------


def test_a_service_raises_api_error_and_maps_it_to_http(sdk: ModuleType) -> None:
    with pytest.raises(sdk.APIError) as caught:
        raise sdk.APIError(sdk.new_error(sdk.Code.AUTH_EXPIRED, "c-5", message="Log in again."))
    error = caught.value
    assert isinstance(error, Exception)
    assert (error.code, error.retryable, error.correlation_id) == (sdk.Code.AUTH_EXPIRED, False, "c-5")
    assert str(error) == "AUTH_EXPIRED (correlation id c-5): Log in again."
    assert error.decide() == sdk.decide(error.payload)
    assert error.to_http() == sdk.to_http(error.payload)
    assert sdk.APIError(RATE_LIMITED).code is sdk.Code.RATE_LIMITED  # wire data is parsed
    with pytest.raises(sdk.PayloadError):
        sdk.APIError({**RATE_LIMITED, "retryable": False})  # a contradiction is refused


def test_api_error_survives_pickling(sdk: ModuleType) -> None:
    import pickle

    known = sdk.APIError(sdk.new_error("RATE_LIMITED", "c-11", retry_after_ms=900), status=429)
    newer = sdk.APIError.from_raw({**RATE_LIMITED, "code": "BRAND_NEW"}, status=503)
    broken = sdk.APIError.from_raw("<html>", status=502)
    for error in (known, newer, broken):
        again = pickle.loads(pickle.dumps(error))  # process pools send exceptions this way
        assert type(again) is type(error)
        assert (again.payload, again.raw, again.status, str(again)) == (error.payload, error.raw, error.status, str(error))
        assert again.decide(1) == error.decide(1)


class Canned(BaseHTTPRequestHandler):
    """Answers each GET with the next of `replies` (status, headers, body)."""

    replies: list[tuple[int, dict[str, str], bytes]] = []

    def do_GET(self) -> None:
        status, headers, body = self.replies.pop(0)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture()
def server() -> Iterator[tuple[str, list[tuple[int, dict[str, str], bytes]]]]:
    replies: list[tuple[int, dict[str, str], bytes]] = []
    handler = type("Handler", (Canned,), {"replies": replies})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", replies
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_urllib_http_error_keeps_retry_after(sdk: ModuleType, server: Any) -> None:
    url, replies = server
    replies.append((429, {"Retry-After": "7", "Content-Type": "application/json"}, json.dumps(RATE_LIMITED).encode()))
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(url, timeout=10)
    http_error = caught.value
    assert not isinstance(http_error.headers, dict)  # an email.message.Message, which is no Mapping
    body = json.dumps(RATE_LIMITED)
    assert sdk.from_http(429, http_error.headers, body)["retry_after_ms"] == 7000
    with pytest.raises(sdk.APIError) as raised:
        sdk.raise_for_response(http_error)
    assert raised.value.status == 429 and raised.value.decide(1).delay_ms == 7000


def test_a_success_is_no_error_and_its_stream_stays_unread(sdk: ModuleType, server: Any) -> None:
    url, replies = server
    replies.append((200, {"Content-Type": "application/json"}, b'{"id": "in_1"}'))
    with urllib.request.urlopen(url, timeout=10) as response:
        sdk.raise_for_response(response)
        assert response.read() == b'{"id": "in_1"}'


def test_an_error_sent_with_http_200_is_read_from_the_body(tmp_path: Path, server: Any) -> None:
    """Slack answers errors with 200 and `"ok": false` (its registry's `error_when`)."""
    build_to(ROOT / "examples" / "apis" / "slack.yaml", tmp_path, "python")
    sys.path.insert(0, str(tmp_path / "python"))
    saved = {n: m for n, m in sys.modules.items() if n.split(".")[0] == "slack_errors"}
    try:
        for name in saved:
            del sys.modules[name]
        slack = importlib.import_module("slack_errors")
        url, replies = server
        replies.append((200, {"x-slack-req-id": "q-1"}, b'{"ok": false, "error": "channel_not_found"}'))
        with urllib.request.urlopen(url, timeout=10) as response:
            error = slack.error_from_response(response)
        assert error is not None and error.code is slack.Code.CHANNEL_NOT_FOUND and error.correlation_id == "q-1"
    finally:  # another test file may import its own build of slack_errors
        sys.path.remove(str(tmp_path / "python"))
        for name in [n for n in sys.modules if n.split(".")[0] == "slack_errors"]:
            del sys.modules[name]
        sys.modules.update(saved)


def test_from_http_reads_a_message_built_by_the_email_package(sdk: ModuleType) -> None:
    headers = email.message_from_string("Retry-After: 3\nContent-Type: application/json\n\n")
    error = urllib.error.HTTPError("http://x", 429, "Too Many Requests", headers, io.BytesIO(json.dumps(RATE_LIMITED).encode()))
    found = sdk.error_from_response(error)
    assert found is not None and found.decide(1).delay_ms == 3000


def test_requests_and_httpx_shaped_responses(sdk: ModuleType) -> None:
    import requests
    from requests.structures import CaseInsensitiveDict

    response = requests.Response()
    response.status_code, response._content = 429, json.dumps(RATE_LIMITED).encode()
    response.headers = CaseInsensitiveDict({"retry-after": "4"})
    error = sdk.error_from_response(response)
    assert error is not None and (error.code, error.decide(1).delay_ms) == (sdk.Code.RATE_LIMITED, 4000)

    class HttpxLike:  # httpx.Response's shape: status_code, a Mapping of headers, content
        status_code = 200
        headers = {"content-type": "application/json"}
        content = b"{}"

    assert sdk.error_from_response(HttpxLike()) is None
    sdk.raise_for_response(HttpxLike())  # a success raises nothing


def test_httpx_streamed_responses_are_read_by_the_sync_and_async_helpers(sdk: ModuleType, server: Any) -> None:
    """`client.stream(...)` (as openai-python streams): the body is not read yet, so `content`
    raises; the sync helper reads the stream itself, the async one awaits it."""
    httpx = pytest.importorskip("httpx")
    url, replies = server
    body = json.dumps(RATE_LIMITED).encode()
    replies.extend([(429, {"Retry-After": "3", "Content-Length": str(len(body))}, body)] * 3)
    with httpx.Client() as client, client.stream("GET", url) as response:
        with pytest.raises(sdk.RateLimitError) as caught:
            sdk.raise_for_response(response)
    assert (caught.value.code, caught.value.decide(1).delay_ms) == (sdk.Code.RATE_LIMITED, 3000)
    with httpx.Client() as client, client.stream("GET", url) as response:
        response.read()  # read by the caller first: `content` as usual
        assert sdk.error_from_response(response).code is sdk.Code.RATE_LIMITED

    async def streamed() -> Any:
        async with httpx.AsyncClient() as client, client.stream("GET", url) as response:
            with pytest.raises(TypeError, match="error_from_response_async"):
                sdk.error_from_response(response)  # an async stream cannot be read without awaiting
            return await sdk.error_from_response_async(response)

    assert asyncio.run(streamed()).code is sdk.Code.RATE_LIMITED


def test_the_errors_raise_for_status_raises_are_read_through_their_response(sdk: ModuleType, server: Any) -> None:
    """requests' HTTPError and httpx's HTTPStatusError carry the response: the helpers read it."""
    import httpx
    import requests

    url, replies = server
    replies.extend([(429, {"Retry-After": "4"}, json.dumps(RATE_LIMITED).encode())] * 2)
    with pytest.raises(requests.HTTPError) as by_requests:
        requests.get(url, timeout=10).raise_for_status()
    with pytest.raises(httpx.HTTPStatusError) as by_httpx:
        httpx.get(url, timeout=10).raise_for_status()
    for failure in (by_requests.value, by_httpx.value):
        with pytest.raises(sdk.RateLimitError) as caught:
            sdk.raise_for_response(failure)
        assert (caught.value.status, caught.value.decide(1).delay_ms) == (429, 4000)
        assert asyncio.run(sdk.error_from_response_async(failure)).code is sdk.Code.RATE_LIMITED


def test_an_unreadable_error_response_is_an_api_error_without_payload(sdk: ModuleType, server: Any) -> None:
    url, replies = server
    replies.append((502, {"Content-Type": "text/html"}, b"<html>Bad gateway</html>"))
    http_error = _http_error(url)
    error = sdk.error_from_response(http_error)
    http_error.close()
    assert error is not None and error.payload is None and error.status == 502
    assert type(error) is sdk.APIError and error.code == "" and isinstance(error.code, sdk.UnknownCode)
    assert error.headers["content-type"] == "text/html"
    # No payload at all: decided by its status, as the official clients do (a proxy's 502 is retried).
    decision = error.decide(1)
    assert (decision.action, decision.reason, decision.delay_ms) == (sdk.Action.RETRY, sdk.Reason.STATUS_FALLBACK, 500)
    with pytest.raises(sdk.PayloadError):
        error.to_http()


def test_a_json_body_at_the_api_s_shape_that_breaks_the_contract_stays_invalid(sdk: ModuleType) -> None:
    reading = sdk.read_http(502, {}, json.dumps({"code": True, "message": "x"}))
    assert reading.claimed and sdk.decide_response(reading).reason is sdk.Reason.INVALID_PAYLOAD


def test_retry_retries_a_bare_429_and_a_transport_failure_but_not_a_reset_write(sdk: ModuleType) -> None:
    outcomes: list[Any] = [
        sdk.error_from_response(sdk.HttpResponse(429, {"Retry-After": "1.5"}, "")),
        ConnectionRefusedError("refused"),
        TimeoutError("read timed out"),
        "done",
    ]
    waits: list[float] = []

    def call() -> str:
        outcome = outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        return str(outcome)

    assert sdk.retry(call, idempotent=True, sleep=waits.append) == "done"
    assert waits == [1.5, 1.0, 2.0]  # the gateway's 1.5 s, then the backoff of attempts 2 and 3
    outcomes[:] = [ConnectionResetError("reset after the write")]
    with pytest.raises(ConnectionResetError):  # not idempotent: the outcome is unknown, never resent
        sdk.retry(call, sleep=waits.append)
    assert sdk.decide_failure(sdk.failure_of(ConnectionResetError())).reason is sdk.Reason.OUTCOME_UNKNOWN


@pytest.mark.parametrize("failure, kind", [
    (ConnectionRefusedError(), "refused"), (TimeoutError(), "timeout"), (ConnectionResetError(), "reset"),
    (BrokenPipeError(), "reset"), (ValueError("a bug"), None), (FileNotFoundError(), None),
])
def test_failure_of_names_standard_library_failures(sdk: ModuleType, failure: BaseException, kind: Any) -> None:
    assert sdk.failure_of(failure) == kind


def test_failure_of_names_requests_failures(sdk: ModuleType) -> None:
    import requests

    assert sdk.failure_of(requests.exceptions.ReadTimeout()) == "timeout"
    assert sdk.failure_of(requests.exceptions.SSLError()) == "tls"
    try:
        requests.get("http://127.0.0.1:9/", timeout=5)  # the discard port: nothing listens
    except requests.exceptions.ConnectionError as error:
        assert sdk.failure_of(error) == "refused"


def _http_error(url: str) -> urllib.error.HTTPError:
    try:
        urllib.request.urlopen(url, timeout=10)
    except urllib.error.HTTPError as error:
        return error
    raise AssertionError("expected an HTTP error")


def test_an_unknown_code_keeps_its_text(sdk: ModuleType) -> None:
    response = sdk.HttpResponse(503, {}, json.dumps({**RATE_LIMITED, "code": "BRAND_NEW"}))

    class Plain:
        status = response.status
        headers = response.headers
        content = response.body.encode()

    error = sdk.error_from_response(Plain())
    assert error is not None and error.code == "BRAND_NEW" and isinstance(error.payload, sdk.UnknownErrorPayload)
    assert error.retryable is True and error.decide(1).reason is sdk.Reason.UNKNOWN_CODE


# ---- retry -----------------------------------------------------------------------------------------


def failing(sdk: ModuleType, errors: list[Any], result: str = "done") -> Any:
    calls: list[int] = []

    def call() -> str:
        calls.append(1)
        if errors:
            raise errors.pop(0)
        return result

    call.calls = calls  # type: ignore[attr-defined]
    return call


def test_retry_waits_the_decided_delays_then_returns(sdk: ModuleType) -> None:
    limited = sdk.APIError(sdk.new_error("RATE_LIMITED", "c-6", retry_after_ms=2500))
    timeout = sdk.APIError(sdk.new_error("UPSTREAM_TIMEOUT", "c-7"))
    slept: list[float] = []
    call = failing(sdk, [limited, timeout])
    assert sdk.retry(call, sleep=slept.append) == "done"
    assert slept == [2.5, timeout.decide(2).delay_ms / 1000] and len(call.calls) == 3


def test_retry_stops_where_decide_says_so(sdk: ModuleType) -> None:
    final = sdk.APIError(sdk.new_error("AUTH_EXPIRED", "c-8"))
    slept: list[float] = []
    with pytest.raises(sdk.APIError) as caught:
        sdk.retry(failing(sdk, [final]), sleep=slept.append)
    assert caught.value is final and slept == []
    limited = sdk.APIError(sdk.new_error("RATE_LIMITED", "c-9", retry_after_ms=10))
    call = failing(sdk, [limited] * 5)
    with pytest.raises(sdk.APIError):
        sdk.retry(call, max_attempts=3, sleep=slept.append)
    assert len(call.calls) == 3 and slept == [0.01, 0.01]  # the registry's limit: attempts run out
    with pytest.raises(sdk.APIError):  # a delay past max_delay_ms escalates instead of waiting
        sdk.retry(failing(sdk, [limited]), max_delay_ms=5, sleep=slept.append)
    with pytest.raises(ConnectionError):  # anything else is not the contract's to decide
        sdk.retry(failing(sdk, [ConnectionError("down")]), sleep=slept.append)
    assert slept == [0.01, 0.01]


def test_retry_async_awaits_the_injected_sleep(sdk: ModuleType) -> None:
    limited = sdk.APIError(sdk.new_error("RATE_LIMITED", "c-10", retry_after_ms=1200))
    slept: list[float] = []
    errors = [limited]

    async def call() -> str:
        if errors:
            raise errors.pop(0)
        return "done"

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    assert asyncio.run(sdk.retry_async(call, sleep=sleep)) == "done"
    assert slept == [1.2]


# ---- docs/sdk-python.md ----------------------------------------------------------------------------


def doc_program() -> str:
    return "\n\n".join(re.findall(r"^```python\n(.*?)^```", DOCS.read_text(encoding="utf-8"), re.S | re.M))


def test_the_docs_page_type_checks_strictly_without_casts_or_any(built: Path, tmp_path: Path) -> None:
    program = doc_program()
    assert "def refund" in program and "raise_for_response" in program and "retry(" in program
    for used in ("except RateLimitError", "case UnknownCode()", "failure_of(", "decide_failure(", "on_attempt=",
                 'getLogger("acme_errors")', "requests.get(", "httpx.Client(", "aiohttp.ClientSession()",
                 "await raise_for_response_async(response)", "start_as_current_span"):
        assert used in program, used
    assert not re.search(r"\bAny\b|\bcast\(|type: ignore", program)
    done = mypy_strict(built, program, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_docs_page_runs(built: Path, tmp_path: Path) -> None:
    program = tmp_path / "program.py"
    program.write_text(doc_program(), encoding="utf-8")
    done = subprocess.run([sys.executable, str(program)], env={**os.environ, "PYTHONPATH": str(built)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith('429 1 {"code":"RATE_LIMITED"')
    assert lines[1] == "b'{}' b'{}' [429, 200, 429, 200]"
    assert lines[2:] == [
        "RateLimitError 429 2 slow down",
        "RateLimitError 429 None no payload, HTTP 429",
        "APIError no payload, HTTP 502 retry status-fallback",
        "refused retry transport-failure escalate outcome-unknown",
        "b'{}' b'{}' b'{}' " + str(["RateLimitError 1: pause 1000"] * 3),
    ]
    # Each client's 429, logged by the package's logger at INFO (the page sets that level).
    logged = [line for line in done.stderr.splitlines() if line.startswith("acme_errors ")]
    assert logged == ["acme_errors INFO attempt 1 failed (RATE_LIMITED): registry, retrying in 1000 ms"] * 3


def test_lone_surrogates_read_as_replacement_and_to_http_output_always_encodes(sdk: ModuleType) -> None:
    """Issue 38 (SPEC U): a JSON escape of half a surrogate pair reads as U+FFFD (from_http, the
    reading, MCP text), a whole pair as its character; to_http of a str holding a lone surrogate
    writes U+FFFD, so the docs' `.encode()` of its body never raises."""
    body = json.dumps({**RATE_LIMITED, "correlation_id": "c-@", "message": "@"}).replace('"c-@"', '"c-\\ud800"')
    raw = sdk.from_http(429, [], body.replace('"@"', '"\\udc00x"'))
    assert (raw["correlation_id"], raw["message"]) == ("c-\ufffd", "\ufffdx")
    assert sdk.from_http(429, [], body.replace('"@"', '"\\ud83d\\ude00"').encode())["message"] == "\U0001f600"
    assert sdk.read_http(429, [], body).correlation_id == "c-\ufffd"
    text = {"content": [{"type": "text", "text": body.replace('"@"', '"\\ude00\\ud83d"')}]}
    assert sdk.from_mcp_result(text)["message"] == "\ufffd\ufffd"
    for problem in (False, True):
        written = sdk.to_http({**RATE_LIMITED, "message": "a\ud800b", "correlation_id": "\udfff"}, problem=problem)
        assert "a\ufffdb" in written.body.encode("utf-8").decode("utf-8")
    assert "\ufffd" in sdk.to_mcp_result({**RATE_LIMITED, "message": "\ud800"})["content"][0]["text"].encode().decode()
