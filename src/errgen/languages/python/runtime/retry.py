"""Retrying a call the way the registry prescribes: `retry` and, for coroutines, `retry_async`.

Each APIError the call raises goes through its `decide` (a response without a payload by its
status), each transport failure (`failure_of`: refused, TLS, reset, timeout) through
`decide_failure`; a timed action (retry, pause) waits the decided delay through `sleep` and calls
again, anything else, and the last attempt, re-raises the error. Tests pass their own `sleep`. Any
other exception passes through at once.
"""

from __future__ import annotations

import time
from typing import Awaitable, Callable, Optional, TypeVar

from ._contract import DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS, EXHAUSTED
from ._transport import failure_of
from .errors import APIError
from .runtime import Decision, decide_failure

T = TypeVar("T")


def retry(
    call: Callable[[], T],
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
    jitter: bool = False,
    idempotent: bool = False,
    sleep: Callable[[float], object] = time.sleep,
) -> T:
    """`call()`'s result, calling again after each APIError or transport failure whose decision is
    to wait and retry; `sleep` receives seconds. `idempotent`: the call may be sent twice (a GET,
    or a request carrying an Idempotency-Key), so a connection reset or a timeout after it was
    sent is retried too; otherwise those escalate as `outcome-unknown`."""
    attempt = 1
    while True:
        try:
            return call()
        except Exception as error:
            delay = _wait(error, attempt, max_attempts, max_delay_ms, jitter, idempotent)
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
            delay = _wait(error, attempt, max_attempts, max_delay_ms, jitter, idempotent)
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
) -> Optional[float]:
    """Seconds to wait before the next attempt, or None: the decision is not to try again."""
    decision = decision_for(
        error, attempt, max_attempts, max_delay_ms, jitter=jitter, idempotent=idempotent
    )
    if decision is None or decision.action.value not in EXHAUSTED or decision.delay_ms is None:
        return None
    return decision.delay_ms / 1000
