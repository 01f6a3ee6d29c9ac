"""The syntax of a response source in the registry (`body:error.details[*].reason`,
`header:x-request-id`, `status`): parsed into plain data, checked by lint (wire-source), and
interpreted by errgen.wire and every SDK. Lives beside the model so that lint needs nothing above it.
"""

from __future__ import annotations

import re
from typing import Any

FORMATS = ("json", "xml")
# How a delay source's text or number becomes milliseconds.
UNITS = ("http", "seconds", "ms", "epoch_seconds", "duration")
ANY = -1
MAX_PATH_STEPS = 16
MAX_KEY_LENGTH = 64
# The largest `[N]`: writing a response pads an array up to it (docs/conformance.md).
MAX_INDEX = 64
# An HTTP field name (RFC 9110 token).
HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
# A key: no dot, bracket, space or control character.
_KEY = re.compile(r"[^.\[\]\x00-\x20\x7f]+")
_PART = re.compile(r"([^.\[\]\x00-\x20\x7f]*)((?:\[(?:[0-9]{1,9}|\*)\])*)")
_INDEX = re.compile(r"\[([0-9]+|\*)\]")

class SourceError(ValueError):
    """A source string that is not `body:PATH` or `header:NAME`; the message says what is expected."""


def parse_path(text: str) -> list[Any]:
    """`error.details[*].retryDelay` -> ["error", "details", ANY, "retryDelay"]."""
    if text == "":
        return []
    steps: list[Any] = []
    for position, part in enumerate(text.split(".")):
        match = _PART.fullmatch(part)
        if match is None:
            raise SourceError(f"path step {part!r} is not a key optionally followed by [N] or [*]")
        key, indexes = match.groups()
        if key:
            if len(key) > MAX_KEY_LENGTH:
                raise SourceError(f"path key {key[:20]!r}... is longer than {MAX_KEY_LENGTH} characters")
            steps.append(key)
        elif position > 0 or not indexes:
            raise SourceError("a path has no empty keys (two dots, or a dot at an end)")
        for index in _INDEX.findall(indexes):
            if index != "*" and int(index) > MAX_INDEX:
                raise SourceError(f"a path index is at most {MAX_INDEX}; [{index}] is not")
            steps.append(ANY if index == "*" else int(index))
    if len(steps) > MAX_PATH_STEPS:
        raise SourceError(f"a path has at most {MAX_PATH_STEPS} steps; this one has {len(steps)}")
    return steps


def parse_source(text: str) -> dict[str, Any]:
    """`body:error.code`, `header:x-request-id` or `status` as plain data; SourceError when malformed."""
    if text == "status":
        return {"in": "status"}
    kind, colon, rest = text.partition(":")
    if not colon or kind not in ("body", "header"):
        raise SourceError(f"source {text!r} must start with 'body:' or 'header:', or be 'status'")
    if kind == "header":
        if not HEADER_NAME.fullmatch(rest):
            raise SourceError(f"header name {rest!r} must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~)")
        return {"in": "header", "name": rest.lower()}
    return {"in": "body", "path": parse_path(rest)}


def source_text(source: dict[str, Any]) -> str:
    """A source as the registry writes it (`body:errors[0].code`, `header:x-request-id`, `status`)."""
    if source["in"] == "header":
        return f"header:{source['name']}"
    if source["in"] == "status":
        return "status"
    steps = "".join(f"[{'*' if s == ANY else s}]" if isinstance(s, int) else f".{s}" for s in source["path"])
    return "body:" + steps.lstrip(".")
