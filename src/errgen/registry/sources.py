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
# A key of `wire.statuses`: a status (`404`) or a class (`5xx`).
STATUS_KEY = re.compile(r"[1-5](?:[0-9]{2}|xx)")
# A `wire_prefix`: the characters of a code name (lint's `code-name`), at most 64 of them.
PREFIX = re.compile(r"[A-Za-z0-9_.:#/-]{1,64}")
# An HTTP field name (RFC 9110 token).
HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
# A bare key: no dot, bracket, space or control character. Any other key is written quoted,
# `["key"]` (Dropbox's `error[".tag"]`), with `\"` and `\\` inside.
_KEY = re.compile(r"[^.\[\]\x00-\x20\x7f]+")
_STEP = re.compile(r'(\.?)([^.\[\]\x00-\x20\x7f]+)|\[([0-9]{1,9}|\*)\]|\["((?:[^"\\\x00-\x1f\x7f]|\\["\\])*)"\]')
_ESCAPE = re.compile(r'\\(["\\])')


class SourceError(ValueError):
    """A source string that is not `body:PATH` or `header:NAME`; the message says what is expected."""


def parse_path(text: str) -> list[Any]:
    """`error.details[*].retryDelay` -> ["error", "details", ANY, "retryDelay"];
    `error[".tag"]` -> ["error", ".tag"]."""
    steps: list[Any] = []
    at = 0
    while at < len(text):
        match = _STEP.match(text, at)
        if match is None or match.group(1) == "." and at == 0 or match.group(2) and not match.group(1) and at > 0:
            raise SourceError(f"path step at {text[at:at + 20]!r} is not .KEY, [N], [*] or [\"KEY\"]"
                              " (a key with a dot, a bracket or a space is written quoted: error[\".tag\"])")
        at = match.end()
        bare, index, quoted = match.group(2), match.group(3), match.group(4)
        if index is not None:
            if index != "*" and int(index) > MAX_INDEX:
                raise SourceError(f"a path index is at most {MAX_INDEX}; [{index}] is not")
            steps.append(ANY if index == "*" else int(index))
            continue
        key = bare if bare is not None else _ESCAPE.sub(r"\1", quoted)
        if not key:
            raise SourceError("a path has no empty keys")
        if len(key) > MAX_KEY_LENGTH:
            raise SourceError(f"path key {key[:20]!r}... is longer than {MAX_KEY_LENGTH} characters")
        steps.append(key)
        if len(steps) > MAX_PATH_STEPS:
            break
    if text.endswith("."):
        raise SourceError("a path has no empty keys (two dots, or a dot at an end)")
    if len(steps) > MAX_PATH_STEPS:
        raise SourceError(f"a path has at most {MAX_PATH_STEPS} steps; this one has more")
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
    steps = "".join(f"[{'*' if s == ANY else s}]" if isinstance(s, int) else _key_text(s) for s in source["path"])
    return "body:" + steps.removeprefix(".")


def _key_text(key: str) -> str:
    if _KEY.fullmatch(key):
        return f".{key}"
    return '["' + key.replace("\\", "\\\\").replace('"', '\\"') + '"]'

