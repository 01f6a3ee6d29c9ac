"""How a real API's response maps to the contract (docs/registry.md, "Reading real responses"):
the registry's `wire.format`, `wire.response` and the codes' `wire_code`/`when`, parsed once into
plain data (`response_spec`) that every runtime interprets the same way (docs/conformance.md,
"Reading a real response"); the conformance vectors pin the interpretation.

Plain data, so each language renders it as a literal: a source is `{"in": "header", "name": n}`
(lower case) or `{"in": "body", "path": steps}`, a step being a key (a string), an index (an int
>= 0) or ANY (-1, the `[*]` step).
"""

from __future__ import annotations

import re
from typing import Any

from errgen.registry.model import Condition, Registry, Response

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

# An unknown code's retryable and scope come from its status (docs/registry.md).
RETRYABLE_STATUSES = (408, 425, 429, 500, 502, 503, 504)
SERVICE_STATUSES = (429, 503)
DEFAULT_DELAY_SOURCES: tuple[dict[str, Any], ...] = (
    {"at": {"in": "header", "name": "retry-after-ms"}, "unit": "ms"},
    {"at": {"in": "header", "name": "retry-after"}, "unit": "http"},
)


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


def condition(cond: Condition) -> dict[str, Any] | None:
    """A condition as data; None when malformed (lint reports it: wire-condition, wire-source)."""
    if cond.op == "status":
        return {"status": list(cond.value)}
    at = _source(cond.at or "")
    return None if at is None else {"at": at, cond.op: cond.value}


def _source(text: str) -> dict[str, Any] | None:
    try:
        return parse_source(text)
    except SourceError:
        return None


def response_spec(registry: Registry, wire_names: dict[str, str]) -> dict[str, Any]:
    """The reading of a response as data. `wire_names`: each payload field's name on the wire.
    A malformed source or condition is left out: lint reports it (wire-source, wire-condition)."""
    response = registry.wire.response or Response()
    envelope = [registry.wire.envelope] if registry.wire.envelope and registry.wire.format == "json" else []

    def sources(given: tuple[str, ...], field: str) -> list[dict[str, Any]]:
        if given or registry.wire.response is not None and registry.wire.format == "xml":
            return [found for found in map(_source, given) if found is not None]
        return [{"in": "body", "path": [*envelope, wire_names[field]]}]

    if response.retry_after is None:
        delays = [dict(d) for d in DEFAULT_DELAY_SOURCES]
    else:
        delays = [{"at": at, "unit": d.unit} for d in response.retry_after
                  if (at := _source(d.at)) is not None and d.unit in UNITS]
    return {
        "format": registry.wire.format,
        "error_when": _conditions(response.error_when),
        "code": sources(response.code, "code"),
        "message": sources(response.message, "message"),
        "correlation_id": sources(response.correlation_id, "correlation_id"),
        "resource_id": sources(response.resource_id, "resource_id"),
        "retry_after": delays,
        # The delay headers errgen's own to_http writes: read on a payload the body carries itself.
        "own_retry_after": [dict(d) for d in DEFAULT_DELAY_SOURCES],
        "variants": variants(registry),
        "retryable_statuses": list(RETRYABLE_STATUSES),
        "service_statuses": list(SERVICE_STATUSES),
    }


def variants(registry: Registry) -> dict[str, list[list[Any]]]:
    """For each wire code that some code declares with `wire_code`: [code, conditions] of every code
    sending it, those with conditions first, each group in registry order. A runtime takes the
    first whose conditions all hold, else the first of the list."""
    shared = {c.wire_code for c in registry.codes if c.wire_code is not None}
    out: dict[str, list[list[Any]]] = {}
    for code in registry.codes:
        sent = code.wire_code or code.name
        if sent in shared:
            out.setdefault(sent, []).append([code.name, _conditions(code.when)])
    return {sent: sorted(rows, key=lambda row: not row[1]) for sent, rows in out.items()}


def _conditions(conditions: tuple[Condition, ...]) -> list[dict[str, Any]]:
    return [found for found in map(condition, conditions) if found is not None]
