"""Retrying a call the way the registry prescribes: `retry` and, for coroutines, `retry_async`.

Each APIError the call raises goes through `decide`; a timed action (retry, pause) waits the
decided delay through `sleep` and calls again, anything else, and the last attempt, re-raises the
error. Tests pass their own `sleep`. Any other exception passes through at once.
"""

from __future__ import annotations

import time
from typing import Awaitable, Callable, Optional, TypeVar

from ._contract import DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS, EXHAUSTED
from .errors import APIError

T = TypeVar("T")


def retry(
    call: Callable[[], T],
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
    jitter: bool = False,
    sleep: Callable[[float], object] = time.sleep,
) -> T:
    """`call()`'s result, calling again after each APIError whose decision is to wait and retry;
    `sleep` receives seconds."""
    attempt = 1
    while True:
        try:
            return call()
        except APIError as error:
            delay = _wait(error, attempt, max_attempts, max_delay_ms, jitter)
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
        except APIError as error:
            delay = _wait(error, attempt, max_attempts, max_delay_ms, jitter)
            if delay is None:
                raise
        await sleep(delay)
        attempt += 1


def _wait(
    error: APIError, attempt: int, max_attempts: int, max_delay_ms: int, jitter: bool
) -> Optional[float]:
    """Seconds to wait before the next attempt, or None: the decision is not to try again."""
    decision = error.decide(attempt, max_attempts, max_delay_ms, jitter=jitter)
    if decision.action.value not in EXHAUSTED or decision.delay_ms is None:
        return None
    return decision.delay_ms / 1000
