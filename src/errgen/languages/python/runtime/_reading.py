"""Reading a real API's error response (docs/conformance.md, "Reading a real response"): where the
registry's `wire.response` says each fact is (`RESPONSE`, data from the contract view), in a JSON or
flat-XML body or a header. Nothing here raises on what a server sends; limits come from
`_contract`."""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Mapping, Optional, Tuple

from . import _wire
from ._contract import MAX_DELAY_VALUE_MS, MAX_XML_DEPTH, RESPONSE
from ._wire import Headers

Accept = Callable[[object], Optional[Any]]
_ANY = -1  # the `[*]` path step

# ---- values ----------------------------------------------------------------------------------------


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _whole(value: object) -> Optional[int]:
    """A JSON number's value when it is an integer of magnitude at most 2^53 - 1 (1.0 counts)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if abs(value) <= MAX_DELAY_VALUE_MS else None
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_DELAY_VALUE_MS:
        return int(value)
    return None


def code_text(value: object) -> Optional[str]:
    """A code or request id: a non-empty string, or a whole JSON number as its decimal text."""
    if isinstance(value, str):
        return value or None
    whole = _whole(value)
    return None if whole is None else str(whole)


def message_text(value: object) -> Optional[str]:
    return value if isinstance(value, str) else None


# ---- sources ---------------------------------------------------------------------------------------


def _walk(value: object, path: Any, start: int, accept: Accept) -> Optional[Any]:
    for at in range(start, len(path)):
        step = path[at]
        if isinstance(step, str):
            if not isinstance(value, dict) or step not in value:
                return None
            value = value[step]
        elif step == _ANY:
            if not isinstance(value, list):
                return None
            for item in value:
                found = _walk(item, path, at + 1, accept)
                if found is not None:
                    return found
            return None
        else:
            if not isinstance(value, list) or step >= len(value):
                return None
            value = value[step]
    return accept(value)


def read_source(
    source: Mapping[str, Any], document: object, headers: Headers, accept: Accept, status: int = 0
) -> Optional[Any]:
    """What `accept` makes of the value at `source`; None when nothing usable is there."""
    if source["in"] == "status":
        return accept(str(status))
    if source["in"] == "header":
        value = (_wire.header(headers, source["name"]) or "").strip(" \t")
        return accept(value) if value else None
    return _walk(document, source["path"], 0, accept)


def first(
    sources: Any, document: object, headers: Headers, accept: Accept, status: int = 0
) -> Optional[Any]:
    for source in sources:
        found = read_source(source, document, headers, accept, status)
        if found is not None:
            return found
    return None


def read_code(
    sources: Any, document: object, headers: Headers, status: int, known: Callable[[str], bool]
) -> Optional[str]:
    """The code a response carries: the first source whose value is a code `known` accepts (the
    most specific code this SDK knows wins: Microsoft Graph's innerError.code over its outer code,
    the first known entry of an array), else the first usable one."""

    def known_text(value: object) -> Optional[str]:
        code = code_text(value)
        return code if code is not None and known(code) else None

    found = first(sources, document, headers, known_text, status)
    return found if found is not None else first(sources, document, headers, code_text, status)


# ---- conditions ------------------------------------------------------------------------------------


def _equal(a: object, b: object) -> bool:
    if _number(a) and _number(b):
        return a == b
    return type(a) is type(b) and a == b


def holds(condition: Mapping[str, Any], status: int, document: object, headers: Headers) -> bool:
    if "status" in condition:
        return status in condition["status"]
    if "equals" in condition:
        wanted = condition["equals"]
        accept: Accept = lambda value: True if _equal(value, wanted) else None  # noqa: E731
    else:
        accept = lambda value: (  # noqa: E731
            True if isinstance(value, (str, list, dict)) and len(value) > 0 else None
        )
    return read_source(condition["at"], document, headers, accept, status) is not None


def all_hold(conditions: Any, status: int, document: object, headers: Headers) -> bool:
    return all(holds(c, status, document, headers) for c in conditions)


def is_error(status: int, document: object, headers: Headers) -> bool:
    """Any status >= 300, or a 1xx/2xx that an `error_when` condition marks."""
    return status >= 300 or any(holds(c, status, document, headers) for c in RESPONSE["error_when"])


def prefixed(code: str) -> Optional[Any]:
    """The rows of the longest `wire_prefix` `code` starts with (the table is longest first)."""
    for prefix, rows in RESPONSE["prefixes"]:
        if code.startswith(prefix):
            return rows
    return None


def registry_code(
    code: str,
    status: int,
    document: object,
    headers: Headers,
    fits: Callable[[str], bool] = lambda name: True,
    exact: Callable[[str], bool] = lambda name: False,
) -> str:
    """The registry code of a wire code several codes send (`wire_code`/`when`), or, when no wire
    code equals it (`exact`: a registry code), of the longest `wire_prefix` it starts with: the
    first whose conditions hold, else the first; among those that `fits` (a payload's own
    category and scope) when any does. Any other code is itself."""
    rows = RESPONSE["variants"].get(code) or (None if exact(code) else prefixed(code))
    if not rows:
        return code
    rows = [row for row in rows if fits(str(row[0]))] or rows
    for name, conditions in rows:
        if all_hold(conditions, status, document, headers):
            return str(name)
    return str(rows[0][0])


# The wire code each registry code is sent as, when several codes share one.
WIRE_CODE: Mapping[str, str] = {
    str(name): wire for wire, rows in RESPONSE["variants"].items() for name, _ in rows
}


# ---- delays ----------------------------------------------------------------------------------------

_DIGITS = re.compile(r"[0-9]+")
_DURATION = re.compile(r"(?:[0-9]+(?:\.[0-9]{1,9})?(?:h|ms|m|s))+")
_DURATION_PART = re.compile(r"([0-9]+)(?:\.([0-9]{1,9}))?(h|ms|m|s)")
_UNIT_MS = {"h": 3_600_000, "m": 60_000, "s": 1000, "ms": 1}


def _scaled(value: object, factor: int) -> Optional[int]:
    """ASCII digits, or a whole JSON number >= 0 (not one out of range), times `factor`, saturated."""
    if isinstance(value, str):
        return _wire.saturated(value, factor) if _DIGITS.fullmatch(value) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return None
    if isinstance(value, float) and (value == float("inf") or not value.is_integer()):
        return None
    if value > MAX_DELAY_VALUE_MS:
        return MAX_DELAY_VALUE_MS
    return min(int(value) * factor, MAX_DELAY_VALUE_MS)


_DECIMAL = re.compile(r"([0-9]+)\.([0-9]{1,9})")


def _fraction_ms(fraction: str, factor: int) -> int:
    """`0.<fraction>` of `factor` ms, rounded up to a whole ms (exact: no binary floating point)."""
    scale: int = 10 ** len(fraction)
    return -(-int(fraction) * factor // scale)


def seconds_ms(value: object) -> Optional[int]:
    """Seconds as sent (`7`, `2.128` from Microsoft Graph, Discord's JSON `64.57`) in ms, rounded
    up, saturated. A JSON fraction is first rounded to the microsecond, so that 64.57, which binary
    floating point holds as 64.5699..., is 64,570 ms in every language."""
    if isinstance(value, str):
        decimal = _DECIMAL.fullmatch(value)
        if decimal is None:
            return _scaled(value, 1000)
        whole, fraction = decimal.groups()
        return min(_wire.saturated(whole, 1000) + _fraction_ms(fraction, 1000), MAX_DELAY_VALUE_MS)
    if isinstance(value, float) and not value.is_integer() and 0 <= value < float("inf"):
        if value * 1000 > MAX_DELAY_VALUE_MS:
            return MAX_DELAY_VALUE_MS
        micro = math.floor(value * 1_000_000 + 0.5)
        return min(-(-micro // 1000), MAX_DELAY_VALUE_MS)
    return _scaled(value, 1000)


def duration_ms(text: str) -> Optional[int]:
    """`30s`, `1.5s`, `6m0s`, `20ms`: the sum of its parts, each rounded up to whole ms."""
    if not _DURATION.fullmatch(text):
        return None
    total = 0
    for whole, fraction, unit in _DURATION_PART.findall(text):
        factor = _UNIT_MS[unit]
        part = _wire.saturated(whole, factor)
        if fraction:
            part += _fraction_ms(fraction, factor)
        total = min(total + part, MAX_DELAY_VALUE_MS)
    return total


def delay_reader(unit: str, now_ms: int) -> Accept:
    """How a delay source's value becomes milliseconds, by its unit."""

    def read(value: object) -> Optional[int]:
        if unit == "ms":
            return _scaled(value, 1)
        if unit == "seconds":
            return seconds_ms(value)
        if unit == "epoch_seconds":
            when = _scaled(value, 1000)
            return None if when is None else min(max(0, when - now_ms), MAX_DELAY_VALUE_MS)
        if unit == "duration":
            return duration_ms(value) if isinstance(value, str) else None
        seconds = seconds_ms(value)  # "http": (decimal) seconds or an HTTP-date
        if seconds is not None or not isinstance(value, str):
            return seconds
        when = _wire.http_date_ms(value)
        return None if when is None else min(max(0, when - now_ms), MAX_DELAY_VALUE_MS)

    return read


def delay_ms(
    document: object, headers: Headers, now_ms: int, entries: Any = RESPONSE["retry_after"]
) -> Optional[int]:
    for entry in entries:
        found = read_source(entry["at"], document, headers, delay_reader(entry["unit"], now_ms))
        if found is not None:
            return int(found)
    return None


# ---- flat XML --------------------------------------------------------------------------------------

# A name: any characters but white space and / > = < " ' & ! ?
_NAME = r"[^ \t\r\n/>=<\"'&!?]+"
_ATTRIBUTE = rf"[ \t\r\n]+{_NAME}[ \t\r\n]*=[ \t\r\n]*(?:\"[^\"<]*\"|'[^'<]*')"
# One token of a document: misc (comment, processing instruction, white space), an end tag, a
# start tag (its attributes ignored), or text.
_TOKEN = re.compile(
    rf"(<!--.*?-->|<\?.*?\?>)|</({_NAME})[ \t\r\n]*>|<({_NAME})(?:{_ATTRIBUTE})*[ \t\r\n]*(/?)>|([^<]+)",
    re.DOTALL,
)
_ENTITY = re.compile(r"&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
_SPACE = frozenset(" \t\r\n")


class _Unreadable(Exception):
    pass


_BAD_AMPERSAND = re.compile(r"&(?!(?:lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});)")


def _character(match: "re.Match[str]") -> str:
    named, decimal, hexadecimal = match.groups()
    if named:
        return _NAMED[named]
    point = int(decimal) if decimal else int(hexadecimal, 16)
    if point == 0 or 0xD800 <= point <= 0xDFFF or point > 0x10FFFF:
        raise _Unreadable
    return chr(point)


def _decode(text: str) -> str:
    if "&" not in text:
        return text
    if _BAD_AMPERSAND.search(text):
        raise _Unreadable  # an entity other than the predefined ones: never expanded
    return _ENTITY.sub(_character, text)


class _Open:
    """An element being read: its name, its children so far, its text so far."""

    __slots__ = ("name", "children", "texts")

    def __init__(self, name: str) -> None:
        self.name = name
        self.children: dict[str, object] = {}
        self.texts: list[str] = []

    def value(self) -> object:
        return self.children if self.children else _decode("".join(self.texts))


def _parse(text: str) -> Tuple[str, object]:
    """One token at a time, with a stack as deep as the elements (at most MAX_XML_DEPTH)."""
    stack: list[_Open] = []
    root: Optional[Tuple[str, object]] = None
    at = 0
    while at < len(text):
        token = _TOKEN.match(text, at)
        if token is None:
            raise _Unreadable  # <!DOCTYPE, <![CDATA[, a stray < ...
        misc, closing, opening, empty, chars = token.groups()
        at = token.end()
        if misc is not None:
            continue
        if chars is not None:
            if stack:
                stack[-1].texts.append(chars)
            elif not _SPACE.issuperset(chars):
                raise _Unreadable  # text outside the root element
            continue
        if opening is not None:
            if root is not None or len(stack) >= MAX_XML_DEPTH:
                raise _Unreadable  # a second root, or too deep
            element = _Open(opening)
            if not empty:
                stack.append(element)
                continue
            name, value = opening, element.value()
        else:
            if not stack or stack[-1].name != closing:
                raise _Unreadable
            done = stack.pop()
            name, value = done.name, done.value()
        if stack:
            stack[-1].children.setdefault(name, value)
        else:
            root = (name, value)
    if root is None or stack:
        raise _Unreadable
    return root


def read_xml(text: str) -> Tuple[bool, object]:
    """(True, {root: value}) for one XML element (docs/conformance.md, "Flat XML"); (False, None)
    for anything else, and for any DOCTYPE, CDATA or entity declaration (no XXE)."""
    try:
        name, value = _parse(text)
    except _Unreadable:
        return False, None
    return True, {name: value}
