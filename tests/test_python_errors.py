"""The Python SDK's caught error as issue 40 asks: one APIError subclass per category (named without
a doubled suffix), `code` typed `Code | UnknownCode`, aiohttp's response read without `body=`, and
the hooks of the retry helpers (on_attempt, the package's logger, OpenTelemetry's `error.type`).

The SDK is built from this checkout's sources into a temporary folder, not read from generated/."""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import pickle
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

from conftest import REGISTRY, ROOT, build_to, load_registry
from test_python_sdk import RATE_LIMITED, built, mypy_strict, sdk  # noqa: F401 (fixtures)


def imported(folder: Path, package: str) -> Iterator[ModuleType]:
    """`package` built in `folder`, imported in place of any other copy, then put back."""
    saved = {n: m for n, m in sys.modules.items() if n.split(".")[0] == package}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(package)
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n.split(".")[0] == package]:
            del sys.modules[name]
        sys.modules.update(saved)


@pytest.fixture(scope="module")
def stripe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("stripe")
    build_to(ROOT / "examples" / "apis" / "stripe.yaml", out, "python")
    yield from imported(out / "python", "stripe_errors")


# ---- one class per category ------------------------------------------------------------------------


def test_one_subclass_per_category_in_registry_order(sdk: ModuleType) -> None:
    from errgen.contract import view

    categories = [row.name for row in view(load_registry()).categories]
    assert list(sdk.exceptions.BY_CATEGORY) == categories
    assert [c.__name__ for c in sdk.exceptions.BY_CATEGORY.values()] == [
        "RateLimitError", "ValidationError", "AuthError", "UpstreamError", "ConflictError", "BusinessError",
        "InternalError"]
    for cls in sdk.exceptions.BY_CATEGORY.values():
        assert issubclass(cls, sdk.APIError) and getattr(sdk, cls.__name__) is cls and cls.__name__ in sdk.__all__


def test_stripe_category_names_carry_one_error_suffix(stripe: ModuleType) -> None:
    names = {wire: cls.__name__ for wire, cls in stripe.exceptions.BY_CATEGORY.items()}
    assert names == {"card_error": "CardError", "invalid_request_error": "InvalidRequestError",
                     "idempotency_error": "IdempotencyError", "authentication_error": "AuthenticationError",
                     "rate_limit_error": "RateLimitError",
                     # ApiError would differ from the base APIError only in letter case.
                     "api_error": "ApiCategoryError"}
    body = json.dumps({"error": {"type": "rate_limit_error", "code": "rate_limit", "message": "Slow down"}})
    with pytest.raises(stripe.RateLimitError) as caught:
        stripe.raise_for_response(stripe.HttpResponse(429, {"Request-Id": "req_1"}, body))
    assert caught.value.code is stripe.Code.RATE_LIMIT and caught.value.status == 429


def test_the_response_helpers_raise_the_category_s_class(sdk: ModuleType) -> None:
    limited = sdk.HttpResponse(429, {"Retry-After": "3"}, json.dumps(RATE_LIMITED))
    with pytest.raises(sdk.RateLimitError) as caught:
        sdk.raise_for_response(limited)
    error = caught.value
    assert isinstance(error, sdk.APIError) and error.code is sdk.Code.RATE_LIMITED
    assert error.headers["retry-after"] == "3" and error.decide(1).delay_ms == 3000
    # A code this SDK does not know, in a category it knows: that category's class.
    newer = sdk.error_from_response(sdk.HttpResponse(503, {}, json.dumps({**RATE_LIMITED, "code": "BRAND_NEW"})))
    assert type(newer) is sdk.RateLimitError and newer.code == "BRAND_NEW"
    # An unknown category, or no payload at all, at a status no category has: APIError itself.
    stranger = sdk.error_from_response(sdk.HttpResponse(
        502, {}, json.dumps({**RATE_LIMITED, "code": "BRAND_NEW", "category": "cosmic"})))
    bare = sdk.error_from_response(sdk.HttpResponse(502, {"Content-Type": "text/html"}, "<html>Bad gateway</html>"))
    assert type(stranger) is sdk.APIError and type(bare) is sdk.APIError
    assert type(sdk.APIError.from_raw(sdk.new_error(sdk.Code.AUTH_EXPIRED, "c-1"))) is sdk.AuthError
    assert type(sdk.ConflictError.from_raw(RATE_LIMITED)) is sdk.ConflictError  # a subclass builds its own


def test_a_response_without_a_known_category_gets_the_class_of_its_status(sdk: ModuleType, stripe: ModuleType) -> None:
    """A gateway's bare 429 is a RateLimitError, as in stripe-python and openai-python: without a
    payload naming a category this SDK knows, the class is that of the one category the registry
    gives the HTTP status (the category's `http_status`, else its codes'); none for a shared one."""
    gateway = [("", {}), ('{"message": "Too Many Requests"}', {"Content-Type": "application/json"}),
               ("<html>slow down</html>", {"Content-Type": "text/html"})]
    for body, headers in gateway:
        with pytest.raises(sdk.RateLimitError) as caught:
            sdk.raise_for_response(sdk.HttpResponse(429, headers, body))
        assert caught.value.payload is None and caught.value.code == "" and caught.value.status == 429
        assert caught.value.decide().reason is sdk.Reason.STATUS_FALLBACK  # the decision is unchanged
    assert type(sdk.APIError.from_raw(None, status=429)) is sdk.RateLimitError
    assert type(sdk.APIError.from_raw({**RATE_LIMITED, "code": "NEW", "category": "cosmic"}, 401)) is sdk.AuthError
    assert type(pickle.loads(pickle.dumps(sdk.APIError.from_raw(None, status=429)))) is sdk.RateLimitError
    assert type(sdk.error_from_response(sdk.HttpResponse(502, {}, ""))) is sdk.APIError  # no code answers 502
    assert dict(sdk.exceptions.BY_STATUS) == {
        400: sdk.ValidationError, 401: sdk.AuthError, 404: sdk.ValidationError, 409: sdk.ConflictError,
        429: sdk.RateLimitError, 500: sdk.InternalError, 503: sdk.InternalError, 504: sdk.UpstreamError}
    # Stripe: a 429 that names only its type, a card code newer than the SDK (the categories' own statuses).
    replies = {
        429: ('{"error": {"type": "rate_limit_error", "message": "Too many requests"}}', stripe.RateLimitError),
        402: ('{"error": {"type": "card_error", "code": "card_velocity_exceeded"}}', stripe.CardError),
        400: ("", stripe.APIError),  # invalid_request_error and idempotency_error both declare 400
        503: ("", stripe.APIError),
    }
    for status, (body, cls) in replies.items():
        error = stripe.error_from_response(stripe.HttpResponse(status, {"Request-Id": "req_9"}, body))
        assert type(error) is cls and error.correlation_id == (body and "req_9" or None), status
    assert dict(stripe.exceptions.BY_STATUS) == {
        401: stripe.AuthenticationError, 402: stripe.CardError, 404: stripe.InvalidRequestError,
        409: stripe.RateLimitError, 429: stripe.RateLimitError, 500: stripe.ApiCategoryError}


def test_headers_are_read_in_any_letter_case_and_message_needs_no_payload_type(sdk: ModuleType,
                                                                              stripe: ModuleType) -> None:
    body = json.dumps({"error": {"type": "card_error", "code": "card_velocity_exceeded", "message": "Too fast",
                                 "param": "card"}})
    error = stripe.error_from_response(stripe.HttpResponse(402, {"Request-Id": "req_3", "X-Twice": "a"}, body))
    assert error is not None and error.headers["Request-Id"] == error.headers["request-id"] == "req_3"
    assert "REQUEST-ID" in error.headers and error.headers.get("Stripe-Should-Retry") is None
    assert list(error.headers) == ["request-id", "x-twice"] and error.headers == {"request-id": "req_3", "x-twice": "a"}
    with pytest.raises(TypeError):
        error.headers["request-id"] = "x"  # type: ignore[index]
    assert pickle.loads(pickle.dumps(error)).headers["Request-Id"] == "req_3"
    # A newer server's code (UnknownErrorPayload) and a known one give message and resource_id alike.
    assert (error.message, error.resource_id) == ("Too fast", "card")
    known = sdk.APIError(sdk.new_error(sdk.Code.RESOURCE_NOT_FOUND, "c-4", scope="resource", resource_id="in_1",
                                       message="No such invoice"))
    assert (known.message, known.resource_id) == ("No such invoice", "in_1")
    bare = sdk.error_from_response(sdk.HttpResponse(502, {}, ""))
    assert (bare.message, bare.resource_id, dict(bare.headers)) == (None, None, {})


def test_pickling_keeps_the_class(sdk: ModuleType) -> None:
    made = [
        sdk.APIError.from_raw(RATE_LIMITED, 429, {"retry-after": "2"}),
        sdk.APIError(sdk.new_error(sdk.Code.RATE_LIMITED, "c-2")),  # a service may raise the base class
        sdk.InternalError(sdk.new_error(sdk.Code.INTERNAL_ERROR, "c-3")),
        sdk.error_from_response(sdk.HttpResponse(502, {}, "")),
    ]
    for error in made:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and again.code == error.code and again.headers == error.headers
        assert again.decide(1) == error.decide(1)
    assert type(made[0]) is sdk.RateLimitError and type(made[1]) is sdk.APIError


def test_code_is_a_code_or_an_unknown_code_never_none(sdk: ModuleType) -> None:
    assert sdk.APIError.from_raw(RATE_LIMITED).code is sdk.Code.RATE_LIMITED
    newer = sdk.APIError.from_raw({**RATE_LIMITED, "code": "BRAND_NEW"}).code
    assert isinstance(newer, sdk.UnknownCode) and newer == "BRAND_NEW" and repr(newer) == "UnknownCode('BRAND_NEW')"
    none = sdk.APIError.from_raw("<html>", status=502).code
    assert isinstance(none, sdk.UnknownCode) and none == "" and not none
    assert sdk.decide({**RATE_LIMITED, "code": "BRAND_NEW"}).code == newer
    assert pickle.loads(pickle.dumps(newer)) == newer and type(pickle.loads(pickle.dumps(newer))) is sdk.UnknownCode


def test_a_category_class_never_counts_as_a_transport_failure(tmp_path: Path) -> None:
    """A category named `timeout` makes a class TimeoutError: failure_of must not take it for one."""
    text = REGISTRY.read_text(encoding="utf-8").replace("\n  upstream:\n", "\n  timeout:\n").replace(
        "category: upstream", "category: timeout")
    registry = tmp_path / "errors.yaml"
    registry.write_text(text, encoding="utf-8")
    build_to(registry, tmp_path, "python")
    for acme in imported(tmp_path / "python", "acme_errors"):
        error = acme.APIError.from_raw(acme.new_error(acme.Code.UPSTREAM_TIMEOUT, "c-4").to_wire())
        assert type(error).__name__ == "TimeoutError" and acme.failure_of(error) is None
        assert acme.failure_of(TimeoutError()) == "timeout"


def test_a_category_description_cannot_break_the_module(tmp_path: Path) -> None:
    hostile = 'Quotes """ end a docstring, \\ escapes, \x00 and \u2028 do not belong in source'
    plain = "    description: The caller sent more requests than its quota allows.\n"
    text = REGISTRY.read_text(encoding="utf-8")
    assert plain in text
    registry = tmp_path / "errors.yaml"
    registry.write_text(text.replace(plain, f"    description: {json.dumps(hostile)}\n"), encoding="utf-8")
    build_to(registry, tmp_path, "python")
    for acme in imported(tmp_path / "python", "acme_errors"):
        assert acme.RateLimitError.__doc__.startswith('Category "rate_limit": Quotes """ end a docstring, \\ escapes')


def test_the_hierarchy_and_the_code_type_under_mypy_strict(built: Path, tmp_path: Path) -> None:
    program = """\
from typing import assert_never, assert_type
from acme_errors import (APIError, Code, HttpResponse, RateLimitError, UnknownCode, ValidationError,
                         raise_for_response)


def kind(error: APIError) -> str:
    match error.code:
        case UnknownCode():
            return f"unknown {error.code or error.status}"
        case Code.RATE_LIMITED | Code.SERVICE_UNAVAILABLE:
            return "later"
        case Code():
            return "other"
        case _:
            assert_never(error.code)


try:
    raise_for_response(HttpResponse(429, {}, ""))
except RateLimitError as error:
    assert_type(error, RateLimitError)
    assert_type(error.code, Code | UnknownCode)
    assert_type(error.status, int | None)
    assert_type(error.message, str | None)
    assert_type(error.resource_id, str | None)
    retry_after: str | None = error.headers.get("Retry-After")
    print(kind(error), dict(error.headers))
except ValidationError as error:
    print(error.payload)
except APIError as error:
    print(kind(error))
assert_type(RateLimitError.from_raw({}), RateLimitError)
assert_type(APIError.from_raw({}), APIError)
"""
    done = mypy_strict(built, program, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    # The misspelt code fails: Code has no such member.
    done = mypy_strict(built, program.replace("Code.RATE_LIMITED |", "Code.RATE_LIMTED |"), tmp_path)
    assert done.returncode != 0 and "RATE_LIMTED" in done.stdout


# ---- aiohttp ---------------------------------------------------------------------------------------


aiohttp = pytest.importorskip("aiohttp")


async def _with_server(replies: list[tuple[int, dict[str, str], bytes]], client: Any) -> Any:
    from aiohttp import web

    async def handler(request: web.Request) -> web.Response:
        status, headers, body = replies.pop(0)
        return web.Response(status=status, headers=headers, body=body)

    app = web.Application()
    app.router.add_get("/{tail:.*}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        async with aiohttp.ClientSession() as session:
            return await client(session, f"http://127.0.0.1:{port}")
    finally:
        await runner.cleanup()


def test_aiohttp_responses_are_read_without_body(sdk: ModuleType) -> None:
    big = b"x" * (3 * 1024 * 1024)
    replies = [
        (429, {"Retry-After": "2.5", "Content-Type": "application/json"}, json.dumps(RATE_LIMITED).encode()),
        (200, {"Content-Type": "application/json"}, b'{"id": "in_1"}'),
        (502, {"Content-Type": "text/html"}, b"<html>Bad gateway</html>"),
        (500, {"Content-Type": "application/json"}, big),
    ]

    async def client(session: Any, url: str) -> list[Any]:
        found: list[Any] = []
        async with session.get(url) as response:
            with pytest.raises(sdk.RateLimitError) as caught:
                await sdk.raise_for_response_async(response)
            found.append(caught.value)
        async with session.get(url) as response:
            found.append(await sdk.error_from_response_async(response))
            found.append(await response.read())  # a success's body is left for the caller
        async with session.get(url) as response:
            found.append(await sdk.error_from_response_async(response))
        async with session.get(url) as response:
            found.append(await sdk.error_from_response_async(response))
        return found

    limited, success, body, bare, huge = asyncio.run(_with_server(replies, client))
    assert limited.status == 429 and limited.headers["retry-after"] == "2.5"
    assert limited.decide(1).delay_ms == 2500 and limited.code is sdk.Code.RATE_LIMITED
    assert success is None and body == b'{"id": "in_1"}'
    decision = bare.decide(1)
    assert type(bare) is sdk.APIError and (decision.action, decision.reason) == (sdk.Action.RETRY, sdk.Reason.STATUS_FALLBACK)
    assert huge.payload is None and huge.status == 500  # past the body limit: not read whole


def test_the_sync_helper_says_an_aiohttp_response_must_be_awaited(sdk: ModuleType) -> None:
    async def client(session: Any, url: str) -> str:
        async with session.get(url) as response:
            with pytest.raises(TypeError) as caught:
                sdk.error_from_response(response)
            return str(caught.value)

    message = asyncio.run(_with_server([(503, {}, b"")], client))
    assert "ClientResponse's body must be awaited: use error_from_response_async" in message


def test_retry_async_retries_aiohttp_failures(sdk: ModuleType) -> None:
    replies = [(503, {"Retry-After": "0"}, b""), (200, {}, b"ok")]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def client(session: Any, url: str) -> bytes:
        async def call() -> bytes:
            async with session.get(url) as response:
                await sdk.raise_for_response_async(response)
                data: bytes = await response.read()
                return data

        return await sdk.retry_async(call, sleep=sleep)

    assert asyncio.run(_with_server(replies, client)) == b"ok" and waits == [0.0]

    async def refused() -> None:
        async with aiohttp.ClientSession() as session:
            async with session.get("http://127.0.0.1:9/"):  # the discard port: nothing listens
                pass

    with pytest.raises(aiohttp.ClientConnectorError) as caught:
        asyncio.run(sdk.retry_async(refused, max_attempts=2, sleep=sleep))
    assert sdk.failure_of(caught.value) == "refused" and waits == [0.0, 0.5]


# ---- hooks -----------------------------------------------------------------------------------------


def _calls(outcomes: list[Any]) -> Any:
    def call() -> str:
        outcome = outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        return str(outcome)

    return call


def test_on_attempt_sees_every_decided_failure(sdk: ModuleType) -> None:
    limited = sdk.APIError.from_raw({**RATE_LIMITED, "retry_after_ms": 1000})
    final = sdk.APIError.from_raw(sdk.new_error(sdk.Code.AUTH_EXPIRED, "c-5").to_wire())
    seen: list[tuple[int, BaseException, Any]] = []
    waits: list[float] = []
    hook = lambda attempt, error, decision: seen.append((attempt, error, decision))  # noqa: E731
    outcomes: list[Any] = [limited, ConnectionRefusedError(), ValueError("a bug"), "done"]
    with pytest.raises(ValueError):  # not ours to decide: no decision, no hook
        sdk.retry(_calls(outcomes), sleep=waits.append, on_attempt=hook)
    assert [a for a, _, _ in seen] == [1, 2] and seen[0][1] is limited
    assert isinstance(seen[1][1], ConnectionRefusedError)
    assert seen[0][2] == limited.decide(1) and seen[1][2].reason is sdk.Reason.TRANSPORT_FAILURE
    seen.clear()
    with pytest.raises(sdk.AuthError):  # the last decision is seen too, before the error is raised
        sdk.retry(_calls([final]), sleep=waits.append, on_attempt=hook)
    assert [(a, e, d.action) for a, e, d in seen] == [(1, final, sdk.Action.ESCALATE)]
    seen.clear()
    pending: list[Any] = [limited, "done"]

    async def call() -> str:
        return str(_calls(pending)())

    async def nap(seconds: float) -> None:
        waits.append(seconds)

    assert asyncio.run(sdk.retry_async(call, sleep=nap, on_attempt=hook)) == "done"
    assert [(a, e) for a, e, _ in seen] == [(1, limited)]


def test_decisions_are_logged_to_the_package_logger(sdk: ModuleType, caplog: pytest.LogCaptureFixture) -> None:
    limited = sdk.APIError.from_raw({**RATE_LIMITED, "retry_after_ms": 1000})
    final = sdk.APIError.from_raw(sdk.new_error(sdk.Code.AUTH_EXPIRED, "c-6").to_wire())
    with caplog.at_level(logging.DEBUG, logger="acme_errors"):
        with pytest.raises(sdk.AuthError):
            sdk.retry(_calls([limited, final]), sleep=lambda s: None)
    records = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    assert records == [
        ("acme_errors", logging.INFO, "attempt 1 failed (RATE_LIMITED): registry, retrying in 1000 ms"),
        ("acme_errors", logging.DEBUG, "attempt 2 failed (AUTH_EXPIRED): escalate (registry), not retried"),
    ]


def test_a_recording_span_gets_error_type(sdk: ModuleType) -> None:
    """With opentelemetry-api installed, a recording span; else a stand-in module of the same API."""
    trace = pytest.importorskip("opentelemetry.trace")

    class Recording(trace.NonRecordingSpan):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(trace.INVALID_SPAN_CONTEXT)
            self.attributes: list[tuple[str, object]] = []

        def is_recording(self) -> bool:
            return True

        def set_attribute(self, key: str, value: object) -> None:
            self.attributes.append((key, value))

    span = Recording()
    recovered: list[Any] = [
        sdk.APIError.from_raw(RATE_LIMITED),
        sdk.error_from_response(sdk.HttpResponse(502, {}, "<html>")),
        ConnectionRefusedError(),
        "done",
    ]
    final = sdk.APIError.from_raw(sdk.new_error(sdk.Code.AUTH_EXPIRED, "c-6").to_wire())
    with trace.use_span(span):
        # A call a later attempt recovered from did not fail: no error.type (semantic conventions).
        assert sdk.retry(_calls(recovered), sleep=lambda s: None) == "done"
        assert span.attributes == []
        # The error the call ends with, once: decided not to retry, or the attempts ran out.
        with pytest.raises(sdk.AuthError):
            sdk.retry(_calls([ConnectionRefusedError(), final]), sleep=lambda s: None)
        bare_502 = sdk.error_from_response(sdk.HttpResponse(502, {}, "<html>"))
        with pytest.raises(sdk.APIError):
            sdk.retry(_calls([bare_502, bare_502]), max_attempts=2, sleep=lambda s: None)
    assert span.attributes == [("error.type", "AUTH_EXPIRED"), ("error.type", "502")]
    # No span recording (the API's default): nothing set, nothing raised.
    assert sdk.retry(_calls([ConnectionRefusedError(), "done"]), sleep=lambda s: None) == "done"


def test_the_hooks_under_mypy_strict(built: Path, tmp_path: Path) -> None:
    program = """\
import logging
from acme_errors import Decision, retry

logging.getLogger("acme_errors").setLevel(logging.INFO)


def observe(attempt: int, error: BaseException, decision: Decision) -> None:
    print(attempt, type(error).__name__, decision.action, decision.delay_ms)


def call() -> str:
    return "done"


result: str = retry(call, on_attempt=observe, idempotent=True)
"""
    done = mypy_strict(built, program, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


FAKE_TRACE = '''\
class Span:
    def __init__(self) -> None:
        self.attributes: dict[str, object] = {}

    def is_recording(self) -> bool:
        return True

    def set_attribute(self, key: str, value: object) -> None:
        self.attributes[key] = value


CURRENT = Span()


def get_current_span() -> Span:
    return CURRENT
'''
PROGRAM = '''\
import sys
{setup}
import acme_errors

calls = [acme_errors.APIError.from_raw({limited!r}), acme_errors.APIError.from_raw({limited!r})]


def call() -> str:
    outcome = calls.pop(0)
    if isinstance(outcome, BaseException):
        raise outcome
    return str(outcome)


try:
    acme_errors.retry(call, max_attempts=2, sleep=lambda seconds: None)
except acme_errors.RateLimitError:
    pass  # the second attempt is the last: the call ends with it, so error.type is set
{report}
'''


def test_error_type_on_a_stand_in_opentelemetry_and_no_import_without_one(built: Path, tmp_path: Path) -> None:
    """The SDK needs no OpenTelemetry: a stand-in `opentelemetry.trace` on the path gets the
    attribute; an application that never imported OpenTelemetry makes the SDK import nothing."""
    fake = tmp_path / "fake" / "opentelemetry"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("", encoding="utf-8")
    (fake / "trace.py").write_text(FAKE_TRACE, encoding="utf-8")
    path = f"{built}:{tmp_path / 'fake'}"
    runs = {
        "traced": ("from opentelemetry import trace", "print(trace.CURRENT.attributes)"),
        "untraced": ("", "print(sorted(name for name in sys.modules if name.startswith('opentelemetry')))"),
    }
    out = {}
    for name, (setup, report) in runs.items():
        program = PROGRAM.format(setup=setup, report=report, limited={**RATE_LIMITED, "retry_after_ms": 10})
        done = subprocess.run([sys.executable, "-c", program], env={"PYTHONPATH": path, "PATH": "/usr/bin:/bin"},
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        out[name] = done.stdout.strip()
    assert out == {"traced": "{'error.type': 'RATE_LIMITED'}", "untraced": "[]"}
