"""Reading payloads from the files users have: a JSON document (one payload or an array of them),
JSON Lines (streamed, so memory stays flat on any size), or standard input; each payload possibly
wrapped as an MCP tools/call result or a recorded HTTP response."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from errgen.wire import MAY_HOLD_LONE, mended

JSONL_SUFFIXES = (".jsonl", ".ndjson", ".log")
MAX_INT_DIGITS = 20  # past 64 bits a number is read as a float, as JavaScript reads it


def _number(text: str) -> int | float:
    return int(text) if len(text) <= MAX_INT_DIGITS else float(text)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# Strict JSON: no NaN or Infinity; integers of any length read in linear time.
_DECODER = json.JSONDecoder(parse_int=_number, parse_constant=_constant)


def loads(text: str) -> Any:
    """One JSON value and nothing after it; raises ValueError with a message saying where."""
    value, end = _decode(text, _skip_blank(text, 0))
    end = _skip_blank(text, end)
    if end < len(text):
        raise json.JSONDecodeError("unexpected text after the JSON value", text, end)
    return value


def _decode(text: str, pos: int) -> tuple[Any, int]:
    try:
        value, end = _DECODER.raw_decode(text, pos)
        return (mended(value) if MAY_HOLD_LONE.search(text, pos, end) else value), end
    except RecursionError:
        raise json.JSONDecodeError("JSON nests too deeply to read", text, pos) from None
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # from _constant
        raise json.JSONDecodeError(str(exc), text, pos) from None


def _skip_blank(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _reason(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    return str(exc)


@dataclass(slots=True)
class Record:
    """One payload as found: its index in the file, the line it starts on, and the text it came
    from (to find the line of an offending field); `http` holds a recorded response's status and
    headers; `error` a reason it could not be read."""

    index: int
    line: int
    value: Any = None
    text: str = ""
    offset: int = 0
    http: tuple[Any, dict[str, str]] | None = None
    error: str | None = None
    error_rule: str = "invalid-json"  # the finding `error` is reported as
    _cursor: tuple[int, int] | None = None

    def line_of(self, key: str) -> int:
        """Keys are asked for mostly in the order they are written, so the search goes on from
        the last one found: linear in the payload however many keys it has."""
        needle = json.dumps(key)
        cursor, line = self._cursor if self._cursor is not None else (self.offset, self.line)
        at = self.text.find(needle, cursor)
        if at < 0:
            cursor, line = self.offset, self.line
            at = self.text.find(needle, cursor)
            if at < 0:
                return self.line
        line += self.text.count("\n", cursor, at)
        self._cursor = (at, line)
        return line


class Unreadable(Exception):
    pass


Unwrap = Callable[[Record], Record]


def max_line_bytes() -> int:
    """A JSON Lines line holds one payload: at most the contract's body limit (max_body_bytes,
    what every SDK reads of a response), in UTF-8 bytes."""
    from errgen.contract import Policy

    return Policy().max_body_bytes


class Overlong(str):
    """A line past the limit, never held whole: its text is empty, `size` is the line's length
    in bytes (counted while it was skipped)."""

    size: int = 0


def records(name: str, unwrap: Unwrap | None = None) -> Iterator[Record]:
    """Records of one FILE argument (`-` is standard input); `unwrap` makes each value read into
    a record (default: MCP results and recorded responses opened to the payload inside)."""
    unwrap = unwrap or _unwrap
    try:
        if name == "-":
            yield from _sniffed(sys.stdin.buffer, "-", unwrap)
            return
        path = Path(name)
        try:
            handle = open(path, "rb")
        except OSError as exc:
            raise Unreadable(f"cannot read {name}: {exc.strerror}") from None
        with handle:
            if path.suffix.lower() in JSONL_SUFFIXES:
                yield from _lines(_bounded(handle), 1, unwrap)
            else:
                yield from _sniffed(handle, name, unwrap)
    except UnicodeDecodeError:
        raise Unreadable(f"{name} is not UTF-8 text") from None


def _bounded(handle: IO[bytes], limit: int | None = None) -> Iterator[str]:
    """The file's lines as text, each with its newline; a line longer than `limit` bytes (the
    payload limit) comes as an `Overlong` after the rest of it is skipped a chunk at a time, so
    memory stays at one line's limit however long the line is. A BOM is not part of the JSON."""
    limit = max_line_bytes() if limit is None else limit
    first = True
    while True:
        raw = handle.readline(limit + 2)  # the limit, a CR and the LF
        if not raw:
            return
        if first:
            raw, first = raw.removeprefix(b"\xef\xbb\xbf"), False
        if len(raw.rstrip(b"\r\n")) <= limit:
            yield raw.decode("utf-8")
            continue
        size = len(raw)
        while not raw.endswith(b"\n"):
            raw = handle.readline(1 << 16)
            if not raw:
                break
            size += len(raw)
        long = Overlong("")
        long.size = size - (1 if raw.endswith(b"\n") else 0)
        yield long


def _sniffed(handle: IO[bytes], name: str, unwrap: Unwrap) -> Iterator[Record]:
    """JSON Lines when the first line is a complete JSON value (or past the payload limit) and
    more lines follow, else one JSON document. A document with a line past the limit (one long
    line of JSON: an array of payloads, say) is read again from its start, whole."""
    lines = _bounded(handle)
    first, second = next(lines, ""), next(lines, "")
    more = isinstance(second, Overlong) or bool(second.strip())
    if isinstance(first, Overlong):
        is_lines = more
    else:
        try:
            loads(first)
            is_lines = more
        except ValueError:
            is_lines = False
    if is_lines:
        yield from _lines(iter([first, second]), 1, unwrap)
        yield from _lines(lines, 3, unwrap)
    elif isinstance(first, Overlong) or isinstance(second, Overlong):
        if not handle.seekable():
            raise Unreadable(f"{name}: a line of this JSON document is past the payload limit of {max_line_bytes():,} bytes; "
                             "pass the document as a file, or one payload a line (JSON Lines)")
        handle.seek(0)
        yield from _document(handle.read().decode("utf-8-sig"), name, unwrap)
    else:
        yield from _document(first + second + handle.read().decode("utf-8"), name, unwrap)


def _lines(lines: Any, start: int, unwrap: Unwrap) -> Iterator[Record]:
    for number, line in enumerate(lines, start):
        if isinstance(line, Overlong):
            limit = max_line_bytes()
            yield Record(number - 1, number, error=f"line is {line.size:,} bytes, past the payload limit of {limit:,} "
                         "(the contract's max_body_bytes); not read", error_rule="payload-too-large")
            continue
        if not line.strip():
            continue
        try:
            value = loads(line)
        except ValueError as exc:
            yield Record(number - 1, number, error=f"line is not valid JSON: {_reason(exc)}")
            continue
        yield unwrap(Record(number - 1, number, value, line, 0))


def _document(text: str, name: str, unwrap: Unwrap) -> Iterator[Record]:
    """An empty file holds no payloads: an empty log is a clean log."""
    start = _skip_blank(text, 0)
    if start == len(text):
        return
    try:
        if text[start] != "[":
            value = loads(text)
            yield unwrap(Record(0, text.count("\n", 0, start) + 1, value, text, start))
            return
        yield from _array(text, start + 1, unwrap)
    except ValueError as exc:
        raise Unreadable(f"{name} is not valid JSON: {_reason(exc)}") from None


def _array(text: str, pos: int, unwrap: Unwrap) -> Iterator[Record]:
    """Each element of a top-level array, with the line it starts on."""
    index, line, counted = 0, 1, 0
    pos = _skip(text, pos)
    if text[pos] == "]":
        return _end(text, pos)
    while True:
        line += text.count("\n", counted, pos)
        counted = pos
        value, end = _decode(text, pos)
        yield unwrap(Record(index, line, value, text, pos))
        index += 1
        pos = _skip(text, end)
        if text[pos] == "]":
            return _end(text, pos)
        if text[pos] != ",":
            raise json.JSONDecodeError("expected ',' or ']' after an array element", text, pos)
        pos = _skip(text, pos + 1)


def _end(text: str, pos: int) -> None:
    if _skip_blank(text, pos + 1) < len(text):
        raise json.JSONDecodeError("unexpected text after the JSON value", text, _skip_blank(text, pos + 1))


def _skip(text: str, pos: int) -> int:
    pos = _skip_blank(text, pos)
    if pos >= len(text):
        raise json.JSONDecodeError("unexpected end of the array", text, pos)
    return pos


def _unwrap(record: Record) -> Record:
    """MCP tools/call results (bare, or in their JSON-RPC response) and recorded HTTP responses
    carry the payload inside."""
    value = record.value
    if not isinstance(value, dict):
        return record
    if value.get("jsonrpc") == "2.0" and isinstance(value.get("result"), dict):
        value = record.value = value["result"]  # an MCP response as sent: the result inside its JSON-RPC message
    if "isError" in value and ("structuredContent" in value or "content" in value):
        inner = value.get("structuredContent")
        if inner is None:
            content = value.get("content")
            blocks = content if isinstance(content, list) else ()
            texts = [c.get("text") for c in blocks if isinstance(c, dict) and c.get("type") == "text" and isinstance(c.get("text"), str)]
            try:
                inner = loads(texts[0]) if texts else None
            except ValueError:
                inner = texts[0]
        record.value = inner
        return record
    if {"status", "body"} <= set(value) and set(value) <= {"status", "headers", "body"}:
        body = value["body"]
        if isinstance(body, str):
            try:
                body = loads(body)
            except ValueError:
                pass
        headers = value.get("headers") or {}
        record.http = (value["status"], {str(k).lower(): str(v) for k, v in headers.items()} if isinstance(headers, dict) else {})
        record.value = body
    return record
