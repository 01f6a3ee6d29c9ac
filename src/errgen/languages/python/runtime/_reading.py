"""Reading a real API's error response (docs/conformance.md, "Reading a real response"): where the
registry's `wire.response` says each fact is (`RESPONSE`, data from the contract view), in a JSON or
flat-XML body or a header. Nothing here raises on what a server sends; limits come from
`_contract`."""

from __future__ import annotations

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
    source: Mapping[str, Any], document: object, headers: Headers, accept: Accept
) -> Optional[Any]:
    """What `accept` makes of the value at `source`; None when nothing usable is there."""
    if source["in"] == "header":
        value = (_wire.header(headers, source["name"]) or "").strip(" \t")
        return accept(value) if value else None
    return _walk(document, source["path"], 0, accept)


def first(
    sources: Any, document: object, headers: Headers, accept: Accept
) -> Optional[Any]:
    for source in sources:
        found = read_source(source, document, headers, accept)
        if found is not None:
            return found
    return None


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
    return read_source(condition["at"], document, headers, accept) is not None


def all_hold(conditions: Any, status: int, document: object, headers: Headers) -> bool:
    return all(holds(c, status, document, headers) for c in conditions)


def is_error(status: int, document: object, headers: Headers) -> bool:
    """Any status >= 300, or a 1xx/2xx that an `error_when` condition marks."""
    return status >= 300 or any(
        holds(c, status, document, headers) for c in RESPONSE["error_when"]
    )


def registry_code(
    code: str,
    status: int,
    document: object,
    headers: Headers,
    fits: Callable[[str], bool] = lambda name: True,
) -> str:
    """The registry code of a wire code several codes send (`wire_code`/`when`): the first whose
    conditions hold, else the first; among those that `fits` (a payload's own category and scope)
    when any does. Any other code is itself."""
    rows = RESPONSE["variants"].get(code)
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


def duration_ms(text: str) -> Optional[int]:
    """`30s`, `1.5s`, `6m0s`, `20ms`: the sum of its parts, each rounded up to whole ms."""
    if not _DURATION.fullmatch(text):
        return None
    total = 0
    for whole, fraction, unit in _DURATION_PART.findall(text):
        factor = _UNIT_MS[unit]
        part = _wire.saturated(whole, factor)
        if fraction:
            scale = 10 ** len(fraction)
            part += -(-int(fraction) * factor // scale)
        total = min(total + part, MAX_DELAY_VALUE_MS)
    return total


def delay_reader(unit: str, now_ms: int) -> Accept:
    """How a delay source's value becomes milliseconds, by its unit."""

    def read(value: object) -> Optional[int]:
        if unit == "ms":
            return _scaled(value, 1)
        if unit == "seconds":
            return _scaled(value, 1000)
        if unit == "epoch_seconds":
            when = _scaled(value, 1000)
            return None if when is None else min(max(0, when - now_ms), MAX_DELAY_VALUE_MS)
        if unit == "duration":
            return duration_ms(value) if isinstance(value, str) else None
        seconds = _scaled(value, 1000)  # "http": delta-seconds or an HTTP-date
        if seconds is not None or not isinstance(value, str):
            return seconds
        when = _wire.http_date_ms(value)
        return None if when is None else min(max(0, when - now_ms), MAX_DELAY_VALUE_MS)

    return read


def delay_ms(document: object, headers: Headers, now_ms: int) -> Optional[int]:
    for entry in RESPONSE["retry_after"]:
        found = read_source(entry["at"], document, headers, delay_reader(entry["unit"], now_ms))
        if found is not None:
            return int(found)
    return None


# ---- flat XML --------------------------------------------------------------------------------------

# A name: any characters but white space and / > = < " ' & ! ?
_NAME = r"[^ \t\r\n/>=<\"'&!?]+"
_WS = re.compile(r"[ \t\r\n]*")
_MISC = re.compile(r"<!--.*?-->|<\?.*?\?>", re.DOTALL)
_START = re.compile(rf"<({_NAME})((?:[ \t\r\n]+{_NAME}[ \t\r\n]*=[ \t\r\n]*(?:\"[^\"<]*\"|'[^'<]*'))*)[ \t\r\n]*(/?)>")
_TEXT = re.compile(r"[^<]+")
_ENTITY = re.compile(r"&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}


class _Unreadable(Exception):
    pass


def _decode(text: str) -> str:
    out = []
    at = 0
    while True:
        amp = text.find("&", at)
        if amp < 0:
            out.append(text[at:])
            return "".join(out)
        match = _ENTITY.match(text, amp)
        if match is None:
            raise _Unreadable  # an entity other than the predefined ones: never expanded
        named, decimal, hexadecimal = match.groups()
        if named:
            char = _NAMED[named]
        else:
            point = int(decimal) if decimal else int(hexadecimal, 16)
            if point == 0 or 0xD800 <= point <= 0xDFFF or point > 0x10FFFF:
                raise _Unreadable
            char = chr(point)
        out.append(text[at:amp])
        out.append(char)
        at = match.end()


def _skip(text: str, at: int) -> int:
    """Past white space, comments and processing instructions."""
    while True:
        at = _WS.match(text, at).end()  # type: ignore[union-attr]
        misc = _MISC.match(text, at)
        if misc is None:
            return at
        at = misc.end()


def _element(text: str, at: int, depth: int) -> Tuple[str, object, int]:
    if depth > MAX_XML_DEPTH:
        raise _Unreadable
    start = _START.match(text, at)
    if start is None:
        raise _Unreadable
    name, _, empty = start.groups()
    at = start.end()
    if empty:
        return name, "", at
    children: dict[str, object] = {}
    texts: list[str] = []
    while True:
        if text.startswith("</", at):
            close = re.compile(rf"</{re.escape(name)}[ \t\r\n]*>").match(text, at)
            if close is None:
                raise _Unreadable
            value = children if children else _decode("".join(texts))
            return name, value, close.end()
        misc = _MISC.match(text, at)
        if misc is not None:
            at = misc.end()
        elif text.startswith("<", at):
            child, inner, at = _element(text, at, depth + 1)
            children.setdefault(child, inner)
        else:
            chunk = _TEXT.match(text, at)
            if chunk is None:
                raise _Unreadable  # the end of the text inside an element
            texts.append(chunk.group())
            at = chunk.end()


def read_xml(text: str) -> Tuple[bool, object]:
    """(True, {root: value}) for one XML element (docs/conformance.md, "Flat XML"); (False, None)
    for anything else, and for any DOCTYPE, CDATA or entity declaration (no XXE)."""
    try:
        at = _skip(text, 0)
        name, value, at = _element(text, at, 1)
        if _skip(text, at) != len(text):
            return False, None
        return True, {name: value}
    except _Unreadable:
        return False, None
