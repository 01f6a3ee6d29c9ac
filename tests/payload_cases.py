"""A corpus of payloads derived from a registry's rules (not from any generated code): for every
code and allowed scope a valid payload, and one payload per way of contradicting the contract.
Each case says whether the contract must accept it."""

from __future__ import annotations

import copy
from typing import Any, Iterator

from errgen.registry.model import HINTS, SCOPES, Registry

HINT_VALUES: dict[str, Any] = {
    "searched": {"tenant": "wwww", "limit": 10, "exact": True},
    "did_you_mean": ["www"],
    "accepted": ["eq", "ne", "gt"],
    "state": "unchanged",
    "safe_to_replay": True,
}


def valid(registry: Registry, code_name: str, scope: str, hints: bool = False) -> dict[str, Any]:
    code = registry.code_map[code_name]
    out: dict[str, Any] = {"code": code.name, "category": code.category, "retryable": code.retryable, "scope": scope, "correlation_id": "c-88a1"}
    if scope == "resource":
        out["resource_id"] = "contact_4127"
    if hints:
        out.update({h: copy.deepcopy(HINT_VALUES[h]) for h in code.hints})
        out["message"] = "Shown to people only."
        if code.retry_after_ms is not None:
            out["retry_after_ms"] = code.retry_after_ms
    return out


def cases(registry: Registry) -> Iterator[tuple[str, Any, bool]]:
    categories = [c.name for c in registry.categories]
    for code in registry.codes:
        for scope in code.scopes:
            yield f"{code.name}/{scope}", valid(registry, code.name, scope), True
            yield f"{code.name}/{scope}/hints", valid(registry, code.name, scope, hints=True), True
        base = valid(registry, code.name, code.scope)
        other = next((c for c in categories if c != code.category), None)
        if other:
            yield f"{code.name}/other-category", {**base, "category": other}, False
        yield f"{code.name}/flipped-retryable", {**base, "retryable": not code.retryable}, False
        for scope in SCOPES:
            if scope not in code.scopes:
                yield f"{code.name}/scope-{scope}", {**base, "scope": scope, "resource_id": "r1"}, False
        for hint in HINTS:
            if hint not in code.hints:
                yield f"{code.name}/hint-{hint}", {**base, hint: HINT_VALUES[hint]}, False
        if code.retryable:
            yield f"{code.name}/retry-after-0", {**base, "retry_after_ms": 0}, True
        else:
            yield f"{code.name}/retry-after-on-non-retryable", {**base, "retry_after_ms": 100}, False
        if "resource" in code.scopes:
            no_id = valid(registry, code.name, "resource")
            del no_id["resource_id"]
            yield f"{code.name}/resource-without-id", no_id, False
    yield from generic(registry)


def generic(registry: Registry) -> Iterator[tuple[str, Any, bool]]:
    first = registry.codes[0]
    base = valid(registry, first.name, first.scope)
    for key in ("code", "category", "retryable", "scope", "correlation_id"):
        yield f"missing-{key}", {k: v for k, v in base.items() if k != key}, False
    yield "extra-field", {**base, "stack": "Traceback..."}, False
    yield "proto-field", {**base, "__proto__": {"x": 1}}, False
    yield "null-message", {**base, "message": None}, False
    yield "unknown-code", {**base, "code": "BRAND_NEW_CODE"}, False
    yield "constructor-code", {**base, "code": "constructor"}, False
    yield "unknown-category", {**base, "category": "no_such_category"}, False
    yield "code-not-string", {**base, "code": 5}, False
    for value in ("true", 1, None):
        yield f"retryable-{value!r}", {**base, "retryable": value}, False
    for value in ("global", "", None, 1):
        yield f"scope-{value!r}", {**base, "scope": value}, False
    yield "correlation-not-string", {**base, "correlation_id": 42}, False
    yield "resource-id-not-string", {**base, "resource_id": 7}, False
    for payload in ([], "RATE_LIMITED", 5, None, True):
        yield f"not-an-object-{payload!r}", payload, False
    hinted = next((c for c in registry.codes if {"did_you_mean", "searched", "state"} <= set(c.hints)), None)
    if hinted:
        ok = valid(registry, hinted.name, hinted.scope)
        yield "did-you-mean-10", {**ok, "did_you_mean": [f"s{i}" for i in range(10)]}, True
        yield "did-you-mean-11", {**ok, "did_you_mean": [f"s{i}" for i in range(11)]}, False
        yield "did-you-mean-not-strings", {**ok, "did_you_mean": [1]}, False
        yield "did-you-mean-not-list", {**ok, "did_you_mean": "www"}, False
        yield "searched-nested", {**ok, "searched": {"a": {"b": 1}}}, False
        yield "searched-null-value", {**ok, "searched": {"a": None}}, False
        yield "searched-list", {**ok, "searched": ["a"]}, False
        yield "searched-empty", {**ok, "searched": {}}, True
        yield "state-unknown-value", {**ok, "state": "maybe"}, False
    retryable = next((c for c in registry.codes if c.retryable), None)
    if retryable:
        ok = valid(registry, retryable.name, retryable.scope)
        for value, accept in ((-1, False), ("5", False), (1.5, False), (True, False), (86_400_000, True)):
            yield f"retry-after-{value!r}", {**ok, "retry_after_ms": value}, accept
