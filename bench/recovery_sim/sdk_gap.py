"""A stand-in for the SDK functions errgen's agent needs and the generated Python SDK does not
have yet: `decide_response`, `decide_failure` and the transport-failure classifier, written from
the spec of this round (the lead's SPEC, sections C and E) on the SDK's public API only
(`read_http`, `decide`, `backoff_ms`, `Action`). `api(sdk)` returns the SDK itself as soon as it
has them, so this file is dead code from then on and is to be deleted; until then the numbers
of errgen's agent on the new faults rest on it, and docs/recovery.md says so."""

from __future__ import annotations

import socket
import ssl
import types
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Tuple

NEEDED = ("decide_response", "decide_failure", "transport_failure")
STATUS_ACTIONS = {"401": "stop", "403": "stop", "404": "skip", "408": "retry", "410": "skip", "425": "retry",
                  "429": "pause", "503": "pause", "3xx": "escalate", "4xx": "fix", "5xx": "retry"}
PAUSED_WITH_DELAY = (403,)
EXHAUSTED = {"retry": "escalate", "pause": "stop"}


def api(sdk: Any) -> Any:
    """The SDK when it has every function errgen's agent uses, else the SDK with the stand-ins."""
    if all(hasattr(sdk, name) for name in NEEDED):
        return sdk
    gap = Gap(sdk)
    names = {name: getattr(sdk, name) for name in dir(sdk) if not name.startswith("__")}
    names.update(read_http=gap.read_http, decide_response=gap.decide_response, decide_failure=gap.decide_failure,
                 transport_failure=transport_failure, stand_in=True)
    return types.SimpleNamespace(**names)


@dataclass(frozen=True)
class Decision:
    """The fields of the SDK's Decision that the agent reads."""

    action: Any
    reason: Any
    code: Optional[str] = None
    delay_ms: Optional[int] = None
    correlation_id: Optional[str] = None
    resource_id: Optional[str] = None
    did_you_mean: Tuple[str, ...] = ()
    accepted: Tuple[str, ...] = ()
    searched: Mapping[str, Any] = field(default_factory=dict)


def _reason(value: str) -> Any:
    return types.SimpleNamespace(value=value)


def status_action(status: object) -> str:
    if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 599:
        return "escalate"
    return STATUS_ACTIONS.get(str(status), STATUS_ACTIONS.get(f"{status // 100}xx", "escalate"))


class Gap:
    def __init__(self, sdk: Any) -> None:
        self.sdk = sdk
        self.max_attempts = sdk.DEFAULT_MAX_ATTEMPTS
        self.max_delay_ms = sdk.DEFAULT_MAX_DELAY_MS

    def read_http(self, status: int, headers: Any, body: object, now_ms: Optional[int] = None) -> Any:
        """The SDK's reading, with the status it was read with (the spec adds it to HttpReading)."""
        reading = self.sdk.read_http(status, headers, body, now_ms)
        return types.SimpleNamespace(**{name: getattr(reading, name) for name in reading.__slots__}, status=status)

    def decide_response(self, reading: Any, attempt: int = 1) -> Any:
        """Spec C: a claimed payload (a code read, or a JSON object with the body's code key) or a
        success goes through `decide`; anything else falls back on the status."""
        document = reading.document
        claimed = reading.code is not None or isinstance(document, dict) and "code" in document
        if not reading.error or claimed:
            return self.sdk.decide(reading.payload, attempt)
        status = reading.status
        action = status_action(status)
        if action not in EXHAUSTED and status in PAUSED_WITH_DELAY and reading.delay_ms is not None:
            action = "pause"
        if action not in EXHAUSTED:
            return Decision(self.sdk.Action(action), _reason("status-fallback"), correlation_id=reading.correlation_id)
        return self._timed(action, "status-fallback", reading.delay_ms, attempt, reading.correlation_id)

    def decide_failure(self, failure: str, idempotent: bool, attempt: int = 1) -> Any:
        """Spec E: the request never left (refused, tls): retry; it may have been applied (reset,
        timeout): retry only an idempotent call, else escalate, the outcome unknown."""
        if failure not in ("refused", "tls") and not idempotent:
            return Decision(self.sdk.Action("escalate"), _reason("outcome-unknown"))
        return self._timed("retry", "transport-failure", None, attempt, None)

    def _timed(self, action: str, reason: str, delay: Optional[int], attempt: int, correlation: Optional[str]) -> Any:
        if attempt >= self.max_attempts:
            return Decision(self.sdk.Action(EXHAUSTED[action]), _reason("attempts-exhausted"), correlation_id=correlation)
        wait = delay if delay is not None else self.sdk.backoff_ms(attempt)
        if wait > self.max_delay_ms:
            return Decision(self.sdk.Action("escalate"), _reason("delay-exceeds-max"), correlation_id=correlation)
        return Decision(self.sdk.Action(action), _reason(reason), delay_ms=wait, correlation_id=correlation)


def transport_failure(error: BaseException) -> Optional[str]:
    """Spec E's Python classifier: the failure kind of an exception, None when it is not one."""
    if isinstance(error, (ConnectionRefusedError, socket.gaierror)):
        return "refused"
    if isinstance(error, ssl.SSLError):
        return "tls"
    if isinstance(error, TimeoutError):
        return "timeout"
    if isinstance(error, (OSError, ConnectionError)):
        return "reset"
    return None
