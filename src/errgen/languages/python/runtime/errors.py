"""`APIError`: an error payload as a Python exception, which a service raises and a caller catches,
and the one-call helpers that turn an HTTP response into one (`raise_for_response`,
`error_from_response`) for urllib, requests and httpx alike.

The exception is named as openai-python names its own (`openai.APIError`); the package qualifies
it (`acme_errors.APIError`), so code written against one registry's SDK reads the same against
another's.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Optional, Tuple, Union

from . import _validate
from ._contract import DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS, MAX_BODY_BYTES, RESPONSE
from ._wire import Headers
from .enums import Code
from .models import ErrorPayload
from .runtime import (
    Decision,
    HttpReading,
    HttpResponse,
    Payload,
    PayloadError,
    UnknownErrorPayload,
    decide,
    decide_response,
    parse_payload,
    read_http,
    to_http,
)


class APIError(Exception):
    """An error of this contract. A service raises `APIError(new_error(...))`; a caller catches
    it from `raise_for_response` or `retry`. `payload` is the typed payload (None when a response
    carried none that is valid: `raw` keeps what it did carry, and `decide` escalates it)."""

    payload: Optional[Payload]
    raw: object
    status: Optional[int]
    # The response's headers, names in lower case (the first of a repeated name): empty for an
    # error a service raised itself.
    headers: Mapping[str, str]
    # What read_http found, for an error read from a response; decide() then goes by it (a
    # response without a payload is decided by its status).
    reading: Optional[HttpReading]

    def __init__(
        self,
        payload: Union[Payload, Mapping[str, Any], None],
        *,
        status: Optional[int] = None,
        raw: object = None,
        headers: Optional[Mapping[str, str]] = None,
        reading: Optional[HttpReading] = None,
    ) -> None:
        typed = _typed(payload)
        self.payload = typed
        self.raw = raw if raw is not None else _wire_of(typed, payload)
        self.status = status
        self.headers = MappingProxyType(dict(headers or {}))
        self.reading = reading
        super().__init__(_message(typed, status))

    @property
    def code(self) -> Optional[Union[Code, str]]:
        """The payload's code: a `Code` member, or the text of a code this SDK does not know."""
        return self.payload.code if self.payload is not None else None

    @property
    def retryable(self) -> bool:
        return self.payload.retryable if self.payload is not None else False

    @property
    def correlation_id(self) -> Optional[str]:
        return self.payload.correlation_id if self.payload is not None else None

    def decide(
        self,
        attempt: int = 1,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
        *,
        jitter: bool = False,
    ) -> Decision:
        """What to do about this error at `attempt`: `decide_response` on the response it was read
        from (a proxy's HTML 502 is retried by its status), else `decide` on what was received."""
        if self.reading is not None:
            return decide_response(self.reading, attempt, max_attempts, max_delay_ms, jitter=jitter)
        return decide(self.raw, attempt, max_attempts, max_delay_ms, jitter=jitter)

    @classmethod
    def from_raw(
        cls,
        raw: object,
        status: Optional[int] = None,
        headers: Optional[Mapping[str, str]] = None,
        reading: Optional[HttpReading] = None,
    ) -> APIError:
        """The error of a payload as received, valid or not (`decide` judges `raw`)."""
        try:
            typed: Optional[Payload] = parse_payload(raw)
        except PayloadError:
            typed = None
        return cls(typed, status=status, raw=raw, headers=headers, reading=reading)

    def __reduce__(self) -> Tuple[Any, ...]:
        # Process pools pickle exceptions: rebuild from what was received, not from the message.
        return (self.__class__.from_raw, (self.raw, self.status, dict(self.headers), self.reading))

    def to_http(self, problem: bool = False) -> HttpResponse:
        """The response a service sends for this error (`to_http`). Raises PayloadError for an
        error read from a response that carried no valid payload: there is nothing to send."""
        if self.payload is None:
            raise PayloadError([("invalid", "this error carries no valid payload to send")])
        return to_http(self.payload, problem)


def _typed(payload: Union[Payload, Mapping[str, Any], None]) -> Optional[Payload]:
    if payload is None or isinstance(payload, (ErrorPayload, UnknownErrorPayload)):
        return payload
    return parse_payload(dict(payload))


def _wire_of(typed: Optional[Payload], given: object) -> object:
    if isinstance(typed, ErrorPayload):
        return typed.to_wire()
    if isinstance(typed, UnknownErrorPayload):
        return dict(typed.raw)
    return given


def _message(payload: Optional[Payload], status: Optional[int]) -> str:
    if payload is None:
        return (
            f"HTTP {status}: no valid error payload" if status is not None else "no valid payload"
        )
    text = (
        payload.raw.get(_validate.WIRE["message"])
        if isinstance(payload, UnknownErrorPayload)
        else payload.message
    )
    head = f"{payload.code} (correlation id {payload.correlation_id})"
    return f"{head}: {text}" if isinstance(text, str) else head


# ---- responses -------------------------------------------------------------------------------------


def error_from_response(
    response: object, *, body: object = None, now_ms: Optional[int] = None
) -> Optional[APIError]:
    """The APIError an HTTP response carries, or None when it is not an error (`read_http` decides
    both from the registry). `response`: urllib's HTTPResponse or HTTPError, a requests or httpx
    Response, or anything with a status (`status_code`, `status` or `code`), `headers`, and a body
    (`content`, else `read()`); `body` gives the body instead, for a stream already read. A
    success's stream is left unread unless the registry says errors can come with a success
    status (`error_when`)."""
    status = _status(response)
    if body is None and status < 300 and not RESPONSE["error_when"]:
        return None
    headers: Headers = getattr(response, "headers", None) or ()
    text = _body(response) if body is None else body
    reading = read_http(status, headers, text, now_ms)
    if not reading.error:
        return None
    return APIError.from_raw(reading.payload, status, _header_map(headers), reading)


def raise_for_response(
    response: object, *, body: object = None, now_ms: Optional[int] = None
) -> None:
    """Raise the APIError an HTTP error response carries (`error_from_response`); return for any
    other response."""
    error = error_from_response(response, body=body, now_ms=now_ms)
    if error is not None:
        raise error


def _header_map(headers: Headers) -> dict[str, str]:
    """Header names in lower case, the first value of a repeated name, as read_http reads them."""
    items = getattr(headers, "items", None)
    pairs: Any = items() if callable(items) else headers
    out: dict[str, str] = {}
    try:
        for pair in pairs:
            if isinstance(pair, (tuple, list)) and len(pair) == 2:
                name, value = pair
                if isinstance(name, str) and isinstance(value, str):
                    out.setdefault(name.lower(), value)
    except TypeError:
        pass
    return out


def _status(response: object) -> int:
    for name in ("status_code", "status", "code"):  # requests, httpx; urllib; urllib's HTTPError
        value = getattr(response, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    raise TypeError(f"{type(response).__name__} has no HTTP status (status_code, status or code)")


def _body(response: object) -> object:
    content = getattr(response, "content", None)
    if isinstance(content, (bytes, str)):
        return content
    read = getattr(response, "read", None)
    # One byte past the limit is enough to know the body is too large to read.
    return read(MAX_BODY_BYTES + 1) if callable(read) else b""
