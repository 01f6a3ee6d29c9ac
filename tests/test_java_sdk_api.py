"""Issue 26, Java: what a Java user touches, checked on the rendered sources (fast; the generated
SdkTest exercises the same API under Maven in test_java_sdk.py and test_java_api_sdks.py)."""

from __future__ import annotations

import dataclasses

from conftest import REGISTRY, ROOT
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


def _status_switch(files: dict[str, str]) -> list[str]:
    [text] = [text for path, text in files.items() if path.endswith("/CategoryExceptions.java")]
    body = text.split("static Category ofStatus(int status) {\n", 1)[1].split("\n  }\n", 1)[0]
    return [line.strip() for line in body.splitlines() if line.strip().startswith("case ")]


def test_a_response_without_a_known_category_takes_the_class_of_its_statuss_category() -> None:
    """The status -> category table (contract.status_categories) is in the factory every response
    helper uses; a status two categories share is not. The SDK's JUnit SdkTest and the Clients
    probe (test_java_sdk.py) throw by it."""
    files = _files()
    assert _status_switch(files) == [
        "case 400 -> Category.VALIDATION;", "case 401 -> Category.AUTH;", "case 404 -> Category.VALIDATION;",
        "case 409 -> Category.CONFLICT;", "case 429 -> Category.RATE_LIMIT;", "case 500 -> Category.INTERNAL;",
        "case 503 -> Category.INTERNAL;", "case 504 -> Category.UPSTREAM;"]  # 422: business and validation
    factory = next(text for path, text in files.items() if path.endswith("/CategoryExceptions.java"))
    assert "return switch (ofStatus(reading.status())) {" in factory
    assert "case RATE_LIMIT -> new RateLimitException(reading, headers, problems);" in factory
    assert "default -> new NoPayloadException(reading, headers, problems);" in factory
    errors = _source(files, "Errors")
    assert "return Optional.of(CategoryExceptions.withoutPayload(reading, headers, problems));" in errors
    assert "new NoPayloadException(" not in errors  # the factory's, the one place
    # Stripe declares 400 for two categories (none then) and 402 for card_error, whose codes share
    # it with api_error: the declaring category wins, as in stripe-java.
    stripe = lint_path(ROOT / "examples" / "apis" / "stripe.yaml").registry
    assert stripe is not None
    assert _status_switch(target.render(stripe)) == [
        "case 401 -> Category.AUTHENTICATION_ERROR;", "case 402 -> Category.CARD_ERROR;",
        "case 404 -> Category.INVALID_REQUEST_ERROR;", "case 409 -> Category.RATE_LIMIT_ERROR;",
        "case 429 -> Category.RATE_LIMIT_ERROR;", "case 500 -> Category.API_ERROR;"]


def test_a_registry_without_a_status_table_keeps_the_base_classes() -> None:
    registry = lint_path(REGISTRY).registry
    assert registry is not None
    # Every category declares 418 and every code answers with it: a status the categories share,
    # so no status has a category (the switch would hold no case).
    teapots = tuple(dataclasses.replace(c, http_status=418) for c in registry.categories)
    codes = tuple(dataclasses.replace(c, http_status=418) for c in registry.codes)
    files = target.render(dataclasses.replace(registry, categories=teapots, codes=codes))
    assert view(dataclasses.replace(registry, categories=teapots, codes=codes)).status_categories == ()
    [text] = [text for path, text in files.items() if path.endswith("/CategoryExceptions.java")]
    assert "  static Category ofStatus(int status) {\n    return Category.UNKNOWN_TO_SDK_VERSION;\n  }\n" in text
