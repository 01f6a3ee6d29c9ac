"""Retrying a call the way the registry prescribes: `retry` and, for coroutines, `retry_async`.

Each APIError the call raises goes through its `decide` (a response without a payload by its
status), each transport failure (`failure_of`: refused, TLS, reset, timeout) through
`decide_failure`; a timed action (retry, pause) waits the decided delay through `sleep` and calls
again, anything else, and the last attempt, re-raises the error. Tests pass their own `sleep`. Any
other exception passes through at once.

Each decided attempt is observable three ways, none of them a dependency: `on_attempt(attempt,
error, decision)`, the package's logger (`logging.getLogger("<package>")`: INFO for a retry,
DEBUG for a decision not to), and, when the application traces with OpenTelemetry and a span is
recording, the span's `error.type` attribute set to the code (else the HTTP status, else the
transport failure: `timeout`, `reset`...), as OpenTelemetry's semantic conventions name it, once:
for the decided error the call ends with (an attempt that is retried sets nothing; the
conventions set `error.type` only on an operation that failed).
"""

from __future__ import annotations

import sys
import time
from typing import Awaitable, Callable, Optional, TypeVar

from ._contract import DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS, EXHAUSTED
from ._transport import failure_of
from .errors import APIError
from .runtime import Decision, decide_failure

T = TypeVar("T")
# Called once per decided failure, before the wait: attempt (1 first), the error, the decision.
OnAttempt = Callable[[int, BaseException, Decision], object]
_PACKAGE = __name__.split(".")[0]


def retry(
    call: Callable[[], T],
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
    jitter: bool = False,
    idempotent: bool = False,
    sleep: Callable[[float], object] = time.sleep,
    on_attempt: Optional[OnAttempt] = None,
) -> T:
    """`call()`'s result, calling again after each APIError or transport failure whose decision is
    to wait and retry; `sleep` receives seconds. `idempotent`: the call may be sent twice (a GET,
    or a request carrying an Idempotency-Key), so a connection reset or a timeout after it was
    sent is retried too; otherwise those escalate as `outcome-unknown`. `on_attempt(attempt, error,
    decision)` sees each decided failure before the wait (or before the error is re-raised)."""
    attempt = 1
    while True:
        try:
            return call()
        except Exception as error:
            delay = _wait(
                error, attempt, max_attempts, max_delay_ms, jitter, idempotent, on_attempt
            )
            if delay is None:
                raise
        sleep(delay)
        attempt += 1


async def retry_async(
    call: Callable[[], Awaitable[T]],
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
    jitter: bool = False,
    idempotent: bool = False,
    sleep: Optional[Callable[[float], Awaitable[object]]] = None,
    on_attempt: Optional[OnAttempt] = None,
) -> T:
    """`retry` for a coroutine function: `await call()`, waiting with `await sleep(seconds)`
    (asyncio.sleep by default)."""
    if sleep is None:
        import asyncio  # here, not at the top: importing asyncio would triple the SDK's import time

        sleep = asyncio.sleep
    attempt = 1
    while True:
        try:
            return await call()
        except Exception as error:
            delay = _wait(
                error, attempt, max_attempts, max_delay_ms, jitter, idempotent, on_attempt
            )
            if delay is None:
                raise
        await sleep(delay)
        attempt += 1


def decision_for(
    error: BaseException,
    attempt: int,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
    *,
    jitter: bool = False,
    idempotent: bool = False,
) -> Optional[Decision]:
    """The decision about an exception a call raised: an APIError's own, a transport failure's
    (`decide_failure`), or None for any other exception (not ours to retry)."""
    if isinstance(error, APIError):
        return error.decide(attempt, max_attempts, max_delay_ms, jitter=jitter)
    failure = failure_of(error)
    if failure is None:
        return None
    return decide_failure(failure, idempotent, attempt, max_attempts, max_delay_ms, jitter=jitter)


def _wait(
    error: BaseException,
    attempt: int,
    max_attempts: int,
    max_delay_ms: int,
    jitter: bool,
    idempotent: bool,
    on_attempt: Optional[OnAttempt],
) -> Optional[float]:
    """Seconds to wait before the next attempt, or None: the decision is not to try again."""
    decision = decision_for(
        error, attempt, max_attempts, max_delay_ms, jitter=jitter, idempotent=idempotent
    )
    if decision is None:
        return None
    retried = decision.action.value in EXHAUSTED and decision.delay_ms is not None
    _observe(error, attempt, decision, retried)
    if on_attempt is not None:
        on_attempt(attempt, error, decision)
    return decision.delay_ms / 1000 if retried and decision.delay_ms is not None else None


def _observe(error: BaseException, attempt: int, decision: Decision, retried: bool) -> None:
    """The decision to the package's logger; the error the call ends with to the current
    OpenTelemetry span, if any (one a later attempt may recover from is not the call's error)."""
    import logging  # here: a call that never fails never pays for importing logging

    kind = error_type(error)
    logger = logging.getLogger(_PACKAGE)
    if retried:
        logger.info(
            "attempt %d failed (%s): %s, retrying in %d ms",
            attempt,
            kind,
            decision.reason.value,
            decision.delay_ms,
        )
    else:
        logger.debug(
            "attempt %d failed (%s): %s (%s), not retried",
            attempt,
            kind,
            decision.action.value,
            decision.reason.value,
        )
        _span_error_type(kind)


def error_type(error: BaseException) -> str:
    """OpenTelemetry's `error.type` for a failure: the code, else the HTTP status, else the
    transport failure (`refused`, `tls`, `reset`, `timeout`), else the exception's class name."""
    if isinstance(error, APIError):
        if error.code:
            return str(error.code)
        if error.status is not None:
            return str(error.status)
    return failure_of(error) or type(error).__qualname__


def _span_error_type(kind: str) -> None:
    # Only an application that imported OpenTelemetry can have a span recording: the SDK never
    # imports it (no dependency, no import time) and only looks at a module already loaded.
    trace = sys.modules.get("opentelemetry.trace")
    get_current_span = getattr(trace, "get_current_span", None)
    if get_current_span is None:
        return
    span = get_current_span()
    if span.is_recording():
        span.set_attribute("error.type", kind)
