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

from errgen.registry.model import ACTIONS, Condition, DelaySource, Registry, Response
from errgen.registry.sources import (  # noqa: F401  (re-exported: the source syntax)
    ANY, FORMATS, MAX_INDEX, MAX_KEY_LENGTH, MAX_PATH_STEPS, PREFIX, STATUS_KEY, UNITS, SourceError, parse_path, parse_source,
    source_text,
)

# An unknown code's retryable and scope come from its status (docs/registry.md).
RETRYABLE_STATUSES = (408, 425, 429, 500, 502, 503, 504)
SERVICE_STATUSES = (429, 503)
# How a response with no readable code is decided, as the official API clients do (Stripe's,
# OpenAI's, AWS's): by its status ("404"), else its class ("4xx"), else escalate. A registry's
# `wire.statuses` overrides entries. A 403 that names a delay is a rate limit (GitHub's secondary
# limits): PAUSED_WITH_DELAY.
STATUS_ACTIONS: dict[str, str] = {
    "401": "stop", "403": "stop", "404": "skip", "408": "retry", "410": "skip", "425": "retry", "429": "pause",
    "503": "pause", "3xx": "escalate", "4xx": "fix", "5xx": "retry",
}
PAUSED_WITH_DELAY = (403,)
DEFAULT_DELAY_SOURCES: tuple[dict[str, Any], ...] = (
    {"at": {"in": "header", "name": "retry-after-ms"}, "unit": "ms"},
    {"at": {"in": "header", "name": "retry-after"}, "unit": "http"},
)


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
    envelope: list[Any] = []
    if registry.wire.envelope_key and registry.wire.format == "json":
        # An array envelope's payload may be any entry: the default sources read each in turn.
        envelope = [registry.wire.envelope_key, ANY] if registry.wire.envelope_array else [registry.wire.envelope_key]

    def sources(given: tuple[str, ...], field: str) -> list[dict[str, Any]]:
        if given or registry.wire.response is not None and registry.wire.format == "xml":
            return [found for found in map(_source, given) if found is not None]
        return [{"in": "body", "path": [*envelope, wire_names[field]]}]

    if response.retry_after is None:
        delays = [dict(d) for d in DEFAULT_DELAY_SOURCES]
    else:
        delays = [{"at": at, "unit": d.unit, **_filters(d)} for d in response.retry_after
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
        "prefixes": prefixes(registry),
        "retryable_statuses": list(RETRYABLE_STATUSES),
        "service_statuses": list(SERVICE_STATUSES),
        "status_actions": status_actions(registry),
        "paused_with_delay": list(PAUSED_WITH_DELAY),
    }


def _filters(delay: DelaySource) -> dict[str, list[str]]:
    """An entry's `codes` and `categories`, only those given: an entry with none applies to every
    code, as before filters existed (SPEC D)."""
    return {key: list(names) for key, names in (("codes", delay.codes), ("categories", delay.categories)) if names}


def status_actions(registry: Registry) -> dict[str, str]:
    """STATUS_ACTIONS with the registry's `wire.statuses` over it, keys sorted (lint reports a bad
    key or action; those are left out)."""
    merged = dict(STATUS_ACTIONS)
    merged.update({k: v for k, v in registry.wire.statuses.items() if STATUS_KEY.fullmatch(k) and v in ACTIONS})
    return dict(sorted(merged.items()))


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




def prefixes(registry: Registry) -> list[list[Any]]:
    """[prefix, rows] for each valid `wire_prefix`, the longest prefix first (ties: registry order);
    rows as in `variants`: [code, conditions], those with conditions first. A code read that no
    wire code equals is matched against the first prefix it starts with, then as a variant."""
    found: dict[str, list[list[Any]]] = {}
    for code in registry.codes:
        if code.wire_prefix is not None and PREFIX.fullmatch(code.wire_prefix):
            found.setdefault(code.wire_prefix, []).append([code.name, _conditions(code.when)])
    ordered = sorted(found.items(), key=lambda item: -len(item[0]))  # stable: registry order on ties
    return [[prefix, sorted(rows, key=lambda row: not row[1])] for prefix, rows in ordered]


def _conditions(conditions: tuple[Condition, ...]) -> list[dict[str, Any]]:
    return [found for found in map(condition, conditions) if found is not None]


# Half a surrogate pair, as a JSON escape (`"\ud800"`) or as a character of the text.
MAY_HOLD_LONE = re.compile("\\\\u[dD][89a-fA-F]|[\ud800-\udfff]")
_LONE = re.compile("[\ud800-\udfff]")


def mended(value: Any) -> Any:
    """`value` with each lone surrogate in its strings (keys too) read as U+FFFD, as every SDK
    reads it (docs/conformance.md, "Reading an HTTP response"): no UTF-8 text holds one, so a
    report or a vector quoting it would raise.
    Iterative: a document read here may nest as deep as the decoder allows."""
    if isinstance(value, str):
        return _LONE.sub("\ufffd", value)
    if not isinstance(value, (list, dict)):
        return value
    root: list[Any] = [value]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, value)]
    while stack:
        parent, slot, item = stack.pop()
        if isinstance(item, list):
            copy: Any = list(item)
            stack.extend((copy, i, inner) for i, inner in enumerate(copy))
        elif isinstance(item, dict):
            copy = {}
            for key, inner in item.items():
                fixed = _LONE.sub("\ufffd", key)
                copy[fixed] = inner
                stack.append((copy, fixed, inner))
        else:
            copy = _LONE.sub("\ufffd", item) if isinstance(item, str) else item
        parent[slot] = copy
    return root[0]
