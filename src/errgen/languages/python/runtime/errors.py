"""`APIError`: an error payload as a Python exception, which a service raises and a caller catches,
one subclass per category of the registry (`exceptions.py`: `except acme_errors.RateLimitError`),
and the one-call helpers that turn an HTTP response into one (`raise_for_response`,
`error_from_response`) for urllib, requests and httpx alike, and their `_async` forms for
aiohttp's and httpx's async responses, whose bodies must be awaited.

The exception is named as openai-python names its own (`openai.APIError`); the package qualifies
it (`acme_errors.APIError`), so code written against one registry's SDK reads the same against
another's.
"""

from __future__ import annotations

import inspect
from enum import Enum
from typing import Any, Iterator, Mapping, Optional, Tuple, Type, TypeVar, Union

from . import _validate
from ._contract import DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS, MAX_BODY_BYTES, RESPONSE
from ._wire import Headers
from .enums import Code, UnknownCode
from .models import ErrorPayload
from .runtime import (
    Decision,
    HttpReading,
    HttpResponse,
    Payload,
    PayloadError,
    UnknownErrorPayload,
    code_of,
    decide,
    decide_response,
    parse_payload,
    read_http,
    to_http,
)

E = TypeVar("E", bound="APIError")


class ResponseHeaders(Mapping[str, str]):
    """A response's headers, read-only: names in lower case (the first value of a repeated name),
    looked up in any letter case, as HTTP names compare (`error.headers["Request-Id"]`)."""

    __slots__ = ("_items",)

    def __init__(self, headers: Optional[Mapping[str, str]] = None) -> None:
        items: dict[str, str] = {}
        for name, value in (headers or {}).items():
            items.setdefault(name.lower(), value)
        self._items = items

    def __getitem__(self, name: str) -> str:
        if not isinstance(name, str):
            raise KeyError(name)
        return self._items[name.lower()]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"ResponseHeaders({self._items!r})"


class APIError(Exception):
    """An error of this contract. A service raises `APIError(new_error(...))` (or its category's
    class); a caller catches it, as the class of its category (`RateLimitError`...), from
    `raise_for_response` or `retry`. `payload` is the typed payload (None when a response carried
    none that is valid: `raw` keeps what it did carry, and `decide` goes by the status)."""

    payload: Optional[Payload]
    raw: object
    status: Optional[int]
    # The response's headers (`ResponseHeaders`: names in lower case, the first of a repeated
    # name, looked up in any case): empty for an error a service raised itself.
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
        self.headers = ResponseHeaders(headers)
        self.reading = reading
        super().__init__(_message(typed, status))

    @property
    def code(self) -> Union[Code, UnknownCode]:
        """The payload's code: a `Code` member, or an `UnknownCode` holding the text of a code
        this SDK does not know. Without a payload (a proxy's HTML 502), `UnknownCode("")`: empty,
        so falsy, and equal to no `Code`; `status` and `decide()` then say what happened."""
        if self.payload is None:
            return UnknownCode("")
        return code_of(self.payload.code)

    @property
    def retryable(self) -> bool:
        return self.payload.retryable if self.payload is not None else False

    @property
    def correlation_id(self) -> Optional[str]:
        return self.payload.correlation_id if self.payload is not None else None

    @property
    def message(self) -> Optional[str]:
        """The payload's message, for people (branch on `code`), or None: of a known code or of
        a newer server's alike, without telling the two payload types apart."""
        return _text(self.payload, "message")

    @property
    def resource_id(self) -> Optional[str]:
        """The payload's resource id (the resource that failed), or None."""
        return _text(self.payload, "resource_id")

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
        cls: Type[E],
        raw: object,
        status: Optional[int] = None,
        headers: Optional[Mapping[str, str]] = None,
        reading: Optional[HttpReading] = None,
    ) -> E:
        """The error of a payload as received, valid or not (`decide` judges `raw`). Called on
        `APIError`, it is an instance of the subclass of the payload's category
        (`RateLimitError`...); for no valid payload or a category this SDK does not know, of the
        category the registry gives `status` (a bare 429: `RateLimitError`), else `APIError`
        itself; called on a subclass, an instance of that subclass."""
        made = _rebuild(None if cls is APIError else cls, raw, status, headers, reading)
        assert isinstance(made, cls)  # APIError: a subclass; any other class: itself
        return made

    def __reduce__(self) -> Tuple[Any, ...]:
        # Process pools pickle exceptions: rebuild from what was received, not from the message,
        # as an instance of this very class (a service may raise APIError for any category).
        return (_rebuild, (type(self), self.raw, self.status, dict(self.headers), self.reading))

    def to_http(self, problem: bool = False) -> HttpResponse:
        """The response a service sends for this error (`to_http`). Raises PayloadError for an
        error read from a response that carried no valid payload: there is nothing to send."""
        if self.payload is None:
            raise PayloadError([("invalid", "this error carries no valid payload to send")])
        return to_http(self.payload, problem)


def _rebuild(
    cls: Optional[Type[APIError]],
    raw: object,
    status: Optional[int],
    headers: Optional[Mapping[str, str]],
    reading: Optional[HttpReading],
) -> APIError:
    """An error of `raw` as an instance of `cls`, or None: of the class of its category."""
    try:
        typed: Optional[Payload] = parse_payload(raw)
    except PayloadError:
        typed = None
    made = class_of(typed, status) if cls is None else cls
    return made(typed, status=status, raw=raw, headers=headers, reading=reading)


def class_of(payload: Optional[Payload], status: Optional[int] = None) -> Type[APIError]:
    """The exception class of a payload's category; for no payload, or a category this SDK does
    not know, the class of the category the registry gives the HTTP status (a bare 429 is a
    RateLimitError); else APIError itself."""
    from .exceptions import BY_CATEGORY, BY_STATUS  # rendered from the registry; they import this

    if payload is not None:
        category = payload.category
        found = BY_CATEGORY.get(category.value if isinstance(category, Enum) else category)
        if found is not None:
            return found
    return BY_STATUS.get(status, APIError) if status is not None else APIError


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
    text = _text(payload, "message")
    head = f"{payload.code} (correlation id {payload.correlation_id})"
    return f"{head}: {text}" if text is not None else head


def _text(payload: Optional[Payload], field: str) -> Optional[str]:
    """A text field of either payload type (a newer server's by its wire name), or None."""
    if isinstance(payload, UnknownErrorPayload):
        value = payload.raw.get(_validate.WIRE.get(field, field))
    else:
        value = getattr(payload, field, None)
    return value if isinstance(value, str) else None


# ---- responses -------------------------------------------------------------------------------------


def error_from_response(
    response: object, *, body: object = None, now_ms: Optional[int] = None
) -> Optional[APIError]:
    """The APIError an HTTP response carries, or None when it is not an error (`read_http` decides
    both from the registry): an instance of the subclass of the payload's category
    (`APIError.from_raw`). `response`: urllib's HTTPResponse or HTTPError, a requests or httpx
    Response (a streamed one too: `client.stream(...)`) or the exception their
    `raise_for_status()` raised (its `response`), the SDK's own HttpResponse, or anything
    with a status (`status_code`, `status` or `code`), `headers`, and a body (`content` or
    `body`, else `read()`); `body` gives the body instead, for a stream already read. A
    success's stream is left unread unless the registry says errors can come with a success
    status (`error_when`). An async response (aiohttp, httpx's AsyncClient) goes through
    `error_from_response_async`, which awaits its body."""
    response = _response_of(response)
    if _unread_success(response, body):
        return None
    text = _body(response) if body is None else body
    return _error(response, text, now_ms)


def raise_for_response(
    response: object, *, body: object = None, now_ms: Optional[int] = None
) -> None:
    """Raise the APIError an HTTP error response carries (`error_from_response`); return for any
    other response."""
    error = error_from_response(response, body=body, now_ms=now_ms)
    if error is not None:
        raise error


async def error_from_response_async(
    response: object, *, body: object = None, now_ms: Optional[int] = None
) -> Optional[APIError]:
    """`error_from_response` for a response whose body is read by awaiting: aiohttp's
    `ClientResponse` (read from its `content` stream, at most the registry's body limit) or
    httpx's response from an `AsyncClient` (`aread()`). A success's body stays unread, as there."""
    response = _response_of(response)
    if _unread_success(response, body):
        return None
    text = await _body_async(response) if body is None else body
    return _error(response, text, now_ms)


async def raise_for_response_async(
    response: object, *, body: object = None, now_ms: Optional[int] = None
) -> None:
    """Raise the APIError an async HTTP response carries (`error_from_response_async`)."""
    error = await error_from_response_async(response, body=body, now_ms=now_ms)
    if error is not None:
        raise error


def _response_of(given: object) -> object:
    """The response an exception carries when given one without a status of its own:
    `requests.HTTPError` (from `raise_for_status()`) and `httpx.HTTPStatusError` hold it in
    `response`."""
    if any(_is_status(getattr(given, name, None)) for name in _STATUS_NAMES):
        return given
    inner = getattr(given, "response", None)
    return inner if inner is not None else given


def _is_status(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _unread_success(response: object, body: object) -> bool:
    """A success whose body need not be read: the registry sends no errors with a 2xx."""
    return body is None and _status(response) < 300 and not RESPONSE["error_when"]


def _error(response: object, body: object, now_ms: Optional[int]) -> Optional[APIError]:
    status = _status(response)
    headers: Headers = getattr(response, "headers", None) or ()
    reading = read_http(status, headers, body, now_ms)
    if not reading.error:
        return None
    return APIError.from_raw(reading.payload, status, _header_map(headers), reading)


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


_STATUS_NAMES = ("status_code", "status", "code")  # requests, httpx; urllib; urllib's HTTPError


def _status(response: object) -> int:
    for name in _STATUS_NAMES:
        value = getattr(response, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    raise TypeError(f"{type(response).__name__} has no HTTP status (status_code, status or code)")


def _body(response: object) -> object:
    # requests, httpx: `content` (httpx's streamed response: `iter_bytes()`); this SDK's
    # HttpResponse (a service's own to_http), Starlette: `body`; urllib: `read()`.
    for name in ("content", "body"):
        try:
            content = getattr(response, name, None)
        except Exception:  # httpx's streamed response (`client.stream(...)`): not read yet
            content = None
        if isinstance(content, (bytes, str)):
            return content
    iter_bytes = getattr(response, "iter_bytes", None)  # httpx: read the stream, to the limit
    if callable(iter_bytes):
        try:
            return _bounded(iter_bytes())
        except RuntimeError as error:
            if type(error) is RuntimeError:  # httpx: an AsyncClient's stream must be awaited
                raise _must_await(response) from None
            return b""  # httpx's StreamConsumed or StreamClosed: gone; the status decides
    read = getattr(response, "read", None)
    if not callable(read):
        return b""
    if inspect.iscoroutinefunction(read):  # aiohttp's read() takes no size: never call it here
        raise _must_await(response)
    # One byte past the limit is enough to know the body is too large to read.
    body = read(MAX_BODY_BYTES + 1)
    if inspect.isawaitable(body):
        _close(body)
        raise _must_await(response)
    return body


def _bounded(chunks: Any) -> bytes:
    """The chunks of a stream joined, stopping one byte past the body limit."""
    out = bytearray()
    for chunk in chunks:
        out += chunk
        if len(out) > MAX_BODY_BYTES:
            break
    return bytes(out)


def _must_await(response: object) -> TypeError:
    return TypeError(
        f"{type(response).__name__}'s body must be awaited: use error_from_response_async or "
        "raise_for_response_async, or pass body="
    )


async def _body_async(response: object) -> object:
    """The body of an async response, at most one byte past the limit read from a stream."""
    aread = getattr(response, "aread", None)  # httpx: the whole body, then `content`
    if callable(aread):
        await aread()
        return getattr(response, "content", b"")
    stream = getattr(response, "content", None)  # aiohttp: a StreamReader
    if callable(getattr(stream, "read", None)):
        return await _read_stream(stream)
    read = getattr(response, "read", None)
    body = read() if callable(read) else getattr(response, "content", b"")
    return await body if inspect.isawaitable(body) else body


async def _read_stream(stream: Any) -> bytes:
    # A stream's read(n) returns what has arrived, up to n: read until the end or past the limit.
    chunks: list[bytes] = []
    size = 0
    while size <= MAX_BODY_BYTES:
        chunk = await stream.read(MAX_BODY_BYTES + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _close(awaitable: object) -> None:
    # A coroutine never awaited warns when collected: close it, it is not going to run.
    close = getattr(awaitable, "close", None)
    if callable(close):
        close()
