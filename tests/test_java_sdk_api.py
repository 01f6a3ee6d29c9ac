"""Issue 26, Java: what a Java user touches, checked on the rendered sources (fast; the generated
SdkTest exercises the same API under Maven in test_java_sdk.py and test_java_api_sdks.py)."""

from __future__ import annotations

from conftest import REGISTRY
from errgen.contract import view
from errgen.languages.java import target
from errgen.registry.lint import lint_path


def _files() -> dict[str, str]:
    registry = lint_path(REGISTRY).registry
    assert registry is not None
    return target.render(registry)


def _source(files: dict[str, str], name: str) -> str:
    [text] = [text for path, text in files.items() if path.endswith(f"/main/java/com/example/acmeerrors/{name}.java")]
    return text


def test_every_field_a_payload_may_leave_out_has_an_optional_accessor() -> None:
    registry = lint_path(REGISTRY).registry
    assert registry is not None
    payload = _source(_files(), "ErrorPayload")
    optional = [f.name for f in view(registry).fields if not f.required]
    assert optional  # retry_after_ms, resource_id, message, the hints
    for name in optional:
        camel = "".join(word.capitalize() for word in name.split("_"))
        assert f"> optional{camel}() {{\n    return Optional.ofNullable(" in payload, name
    assert "public Optional<Duration> retryAfter() {" in payload


def test_the_retrier_takes_a_replaceable_sleeper_and_the_registry_limits() -> None:
    retrier = _source(_files(), "Retrier")
    assert "public interface Sleeper {" in retrier and "public Retrier sleeper(Sleeper sleeper)" in retrier
    assert "C.policy.defaultMaxAttempts(),\n          C.policy.defaultMaxDelayMs()," in retrier
    # Issue 40: an error response decides through its reading (a codeless 502 is retried), a
    # transport failure through decideFailure; an observer and System.Logger hear each attempt.
    assert "e.decide(attempt, maxAttempts, maxDelayMs, jitter)" in retrier
    assert "Errors.decideFailure(f, idempotent, attempt, maxAttempts, maxDelayMs, jitter)" in retrier
    assert "public Retrier onAttempt(Consumer<? super Attempt> observer)" in retrier
    assert "System.getLogger(Retrier.class.getName())" in retrier
    assert "public <T> CompletableFuture<T> callAsync(" in retrier
    assert "public <T> HttpResponse<T> send(" in retrier and "public Retrier idempotent(boolean idempotent)" in retrier


def test_the_caught_error_carries_status_headers_and_reading() -> None:
    files = _files()
    base = _source(files, "ServiceException")
    assert "public int status() {" in base and "public HttpHeaders headers() {" in base
    assert "public Optional<HttpReading> reading() {" in base
    assert "return Errors.decideResponse(reading, attempt, maxAttempts, maxDelayMs, jitter);" in base
    assert "public class ErrorPayloadException extends ServiceException {" in _source(files, "ErrorPayloadException")
    assert "public class NoPayloadException extends ServiceException {" in _source(files, "NoPayloadException")


def test_one_optional_accessor_style() -> None:
    """Issue 40: every record component that may be null has `optional<Component>()`, in the payload,
    the decision and the reading alike (the older names stay, deprecated)."""
    files = _files()
    decision, reading = _source(files, "Decision"), _source(files, "HttpReading")
    for name, kind in (("Code", "String"), ("DelayMs", "Long"), ("CorrelationId", "String"), ("ResourceId", "String")):
        assert f"public Optional<{kind}> optional{name}() {{" in decision, name
    for name, kind in (("Code", "String"), ("CorrelationId", "String"), ("DelayMs", "Long"), ("Document", "JsonNode")):
        assert f"public Optional<{kind}> optional{name}() {{" in reading, name
    assert "@Deprecated\n  public Optional<String> correlation() {" in decision
