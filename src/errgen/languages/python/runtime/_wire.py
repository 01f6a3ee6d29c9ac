"""Reading and writing the wire, for any input: JSON text with a depth limit, HTTP headers with the
one Retry-After grammar of docs/conformance.md, and MCP tool results. Nothing here raises on what
a server sends; limits come from the contract's data (`_contract`)."""

from __future__ import annotations

import json
import re
from typing import Any, Iterable, Mapping, Optional, Protocol, Tuple, Union

from ._contract import (
    MAX_BODY_BYTES,
    MAX_DELAY_VALUE_MS,
    MAX_HEADER_CHARS,
    MAX_HEADERS,
    MAX_JSON_DEPTH,
    MAX_NUMBER_CHARS,
)


class HeaderItems(Protocol):
    """Anything with `items()` of (name, value) pairs: a dict, requests' and httpx's headers, and
    urllib's `email.message.Message` (`HTTPError.headers`), which is not a Mapping."""

    def items(self) -> Iterable[Tuple[str, str]]: ...


Headers = Union[Mapping[str, str], HeaderItems, Iterable[Tuple[str, str]]]

# A token of interest to the depth scan: a whole string literal (skipped), or a bracket.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _out_of_range(text: str) -> float:
    # A number longer than MAX_NUMBER_CHARS is never converted (no quadratic big-number parsing):
    # it is out of range for every field, like 1e400.
    return float("-inf") if text.startswith("-") else float("inf")


def _integer(text: str) -> Any:
    return int(text) if len(text) <= MAX_NUMBER_CHARS else _out_of_range(text)


def _float(text: str) -> float:
    return float(text) if len(text) <= MAX_NUMBER_CHARS else _out_of_range(text)


def too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether arrays and objects nest deeper than `limit` (strings skipped); linear time."""
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return True
        elif token in "]}":
            depth -= 1
    return False


def read_json(text: str) -> Tuple[bool, object]:
    """(True, value) when `text` is exactly one JSON value nested at most MAX_JSON_DEPTH deep,
    else (False, None): trailing garbage, NaN and Infinity are not JSON."""
    if too_deep(text):
        return False, None
    try:
        value = json.loads(
            text, parse_constant=_reject_constant, parse_int=_integer, parse_float=_float
        )
    except (ValueError, RecursionError):
        return False, None
    return True, (mended(value) if _MAY_HOLD_LONE.search(text) else value)


# Half a surrogate pair, as a JSON escape (`"\ud800"`) or as a character of the text given.
_MAY_HOLD_LONE = re.compile("\\\\u[dD][89a-fA-F]|[\ud800-\udfff]")
_LONE = re.compile("[\ud800-\udfff]")


def mended(value: object) -> object:
    """`value` with every lone surrogate in its strings (keys too) replaced by U+FFFD, as every SDK
    reads one (docs/conformance.md, "Reading an HTTP response"): no UTF-8 text can hold it, so
    Python's `.encode()` would raise on it later. A read value nests at most MAX_JSON_DEPTH deep."""
    if isinstance(value, str):
        return _LONE.sub("\ufffd", value)
    if isinstance(value, list):
        return [mended(item) for item in value]
    if isinstance(value, dict):
        return {mended(key): mended(item) for key, item in value.items()}
    return value


def as_text(body: object) -> Tuple[bool, str]:
    """A body as text: (False, the text with replacement characters) when bytes are not UTF-8.
    Anything but text or bytes is an empty body (an int is not a size to allocate)."""
    if isinstance(body, str):
        return True, body
    if not isinstance(body, (bytes, bytearray, memoryview)):
        return True, ""
    try:
        return True, bytes(body).decode("utf-8")
    except UnicodeDecodeError:
        return False, bytes(body).decode("utf-8", "replace")


def body_too_large(body: object) -> bool:
    """Whether a body is longer than MAX_BODY_BYTES in UTF-8 (checked before it is decoded)."""
    if isinstance(body, str):
        # Each character is at least one UTF-8 byte: only a short text needs encoding to count.
        if len(body) > MAX_BODY_BYTES:
            return True
        return len(body.encode("utf-8", "surrogatepass")) > MAX_BODY_BYTES
    if isinstance(body, (bytes, bytearray, memoryview)):
        return len(body) > MAX_BODY_BYTES
    return False


def to_json(value: Any) -> str:
    """Compact JSON of a payload; a top-level field JSON cannot carry (NaN, a number of thousands
    of digits, a non-JSON object) is left out rather than raising. A lone surrogate in a string
    is written as U+FFFD, so the text always encodes as UTF-8."""
    return _LONE.sub("\ufffd", _dumped(value))


def _dumped(value: Any) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        if not isinstance(value, Mapping):
            return "null"
        kept = {
            key: item for key, item in value.items() if isinstance(key, str) and _serializable(item)
        }
        return json.dumps(kept, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _serializable(value: object) -> bool:
    try:
        json.dumps(value, allow_nan=False)
        return True
    except (ValueError, TypeError, RecursionError):
        return False


_VISIBLE = re.compile("[ -~]*")


def writable(value: str) -> bool:
    """Whether a header value may be written (docs/conformance.md, "Writing"): 1 to MAX_HEADER_CHARS
    characters, each visible ASCII or a space. Anything else (CR, LF, NUL, other controls, non-ASCII,
    a 100 KB message) would split or break the response, or be cut by the reader: the header is
    left out, and the body still carries the value."""
    return 0 < len(value) <= MAX_HEADER_CHARS and _VISIBLE.fullmatch(value) is not None


def header(headers: Headers, name: str) -> Optional[str]:
    """The first value of header `name` (ASCII case-insensitive) among the first MAX_HEADERS;
    None when absent, not text, or longer than MAX_HEADER_CHARS."""
    try:
        # Duck-typed on items(): urllib's Message iterates over names only, so reading it as
        # pairs would silently lose every header.
        items = getattr(headers, "items", None)
        pairs: Iterable[Any] = (
            items() if callable(items) else headers if isinstance(headers, Iterable) else ()
        )
        for count, pair in enumerate(pairs):
            if count >= MAX_HEADERS:
                return None
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                continue
            key, value = pair
            if isinstance(key, str) and key.isascii() and key.lower() == name:
                ok = isinstance(value, str) and len(value) <= MAX_HEADER_CHARS
                return value if ok else None
    except TypeError:
        return None
    return None


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_IMF_FIXDATE = re.compile(
    rf"(?:{'|'.join(_DAYS)}), ([0-9]{{2}}) ({'|'.join(_MONTHS)}) ([0-9]{{4}}) ([0-9]{{2}}):([0-9]{{2}}):([0-9]{{2}}) GMT"
)


def saturated(digits: str, factor: int) -> int:
    significant = digits.lstrip("0") or "0"
    if len(significant) > 16:
        return MAX_DELAY_VALUE_MS
    return min(int(significant) * factor, MAX_DELAY_VALUE_MS)


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 in the proleptic Gregorian calendar (any year 0000-9999)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _month_days(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def http_date_ms(text: str) -> Optional[int]:
    """Milliseconds since the epoch of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or None."""
    match = _IMF_FIXDATE.fullmatch(text)
    if match is None:
        return None
    day, month_name, year, hour, minute, second = match.groups()
    month = _MONTHS.index(month_name) + 1
    d, y, h, mi, s = int(day), int(year), int(hour), int(minute), int(second)
    if not (1 <= d <= _month_days(y, month) and h <= 23 and mi <= 59 and s <= 60):
        return None
    return (_days_from_civil(y, month, d) * 86400 + h * 3600 + mi * 60 + s) * 1000


def mcp_payload(result: object) -> object:
    """The raw payload of an MCP tool result: an object `structuredContent`, else the first text
    item's JSON; None when there is none."""
    if not isinstance(result, Mapping):
        return None
    structured = result.get("structuredContent")
    if isinstance(structured, dict):
        return structured
    content = result.get("content")
    if not isinstance(content, list):
        return None
    for item in content:
        if (
            isinstance(item, Mapping)
            and item.get("type") == "text"
            and isinstance(item.get("text"), str)
        ):
            ok, value = read_json(item["text"])
            return value if ok else None
    return None
