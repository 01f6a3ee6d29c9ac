"""Conformance vectors: raw payloads with the decision the registry prescribes for each.

Both generated SDKs (and every future target) run these against their own `decide()` and must
agree exactly. Expectations come from the registry model and the documented rule, case by case;
nothing here runs generated code.
"""

from __future__ import annotations

from typing import Any, Iterator

from errgen.model import HINTS, SCOPES, Code, Registry, derive_action
from errgen.payload import BACKOFF_BASE_MS, BACKOFF_MAX_MS, header
from errgen.render import to_json

NAME = "conformance"
SUMMARY = "conformance/vectors.json: payloads and the decision each must produce, for every SDK"
MAX_ATTEMPTS = 5
HINT_VALUES: dict[str, Any] = {
    "searched": {"tenant": "wwww", "limit": 10}, "did_you_mean": ["www"], "accepted": ["eq", "ne"],
    "state": "unchanged", "safe_to_replay": True,
}


def render(registry: Registry) -> dict[str, str]:
    vectors = [{"name": n, "payload": p, "attempt": a, "max_attempts": MAX_ATTEMPTS, "expected": e} for n, p, a, e in cases(registry)]
    document = {"$comment": header(registry), "registry": registry.name, "version": registry.version,
                "backoff": {"base_ms": BACKOFF_BASE_MS, "max_ms": BACKOFF_MAX_MS, "formula": "min(base_ms * 2^(attempt-1), max_ms)"},
                "vectors": vectors}
    return {"conformance/vectors.json": to_json(document, indent=2) + "\n"}


def backoff(attempt: int) -> int:
    return min(BACKOFF_BASE_MS * 2 ** (attempt - 1), BACKOFF_MAX_MS)


def expect(action: str, reason: str, payload: dict[str, Any] | None = None, delay: int | None = None) -> dict[str, Any]:
    p = payload or {}
    return {
        "action": action, "reason": reason, "code": p.get("code"), "delay_ms": delay,
        "correlation_id": p.get("correlation_id") if isinstance(p.get("correlation_id"), str) else None,
        "resource_id": p.get("resource_id"), "did_you_mean": p.get("did_you_mean", []),
        "accepted": p.get("accepted", []), "searched": p.get("searched", {}),
    }


def payload_for(code: Code, scope: str, hints: bool = True) -> dict[str, Any]:
    p: dict[str, Any] = {"code": code.name, "category": code.category, "retryable": code.retryable, "scope": scope,
                         "correlation_id": f"c-{code.name.lower()}-{scope}"}
    if scope == "resource":
        p["resource_id"] = "item_4127"
    if hints:
        p.update({h: HINT_VALUES[h] for h in code.hints})
    return p


def _timed(action: str, reason: str, p: dict[str, Any], attempt: int, default: int | None) -> dict[str, Any]:
    """retry and pause wait the payload's delay, else the table's, else the backoff; at the last
    attempt they become escalate (stop, for a pause)."""
    if action in ("retry", "pause"):
        if attempt >= MAX_ATTEMPTS:
            return expect("stop" if action == "pause" else "escalate", "attempts-exhausted", p)
        delay = p.get("retry_after_ms", default)
        return expect(action, reason, p, delay if delay is not None else backoff(attempt))
    return expect(action, reason, p)


Case = tuple[str, Any, int, dict[str, Any]]


def cases(registry: Registry) -> Iterator[Case]:
    yield from article_examples(registry)
    for code in registry.codes:
        yield from code_cases(registry, code)
    yield from unknown_codes(registry)
    yield from invalid_payloads(registry)


def code_cases(registry: Registry, code: Code) -> Iterator[Case]:
    for scope in code.scopes:
        p = payload_for(code, scope)
        action = code.action_for(scope)
        yield f"{code.name}/{scope}", p, 1, _timed(action, "registry", p, 1, code.retry_after_ms)
        if action in ("retry", "pause"):
            yield f"{code.name}/{scope}/last-attempt", p, MAX_ATTEMPTS, _timed(action, "registry", p, MAX_ATTEMPTS, None)
            yield f"{code.name}/{scope}/attempt-3", p, 3, _timed(action, "registry", p, 3, code.retry_after_ms)
            q = {**p, "retry_after_ms": 1234}
            yield f"{code.name}/{scope}/payload-delay", q, 2, _timed(action, "registry", q, 2, code.retry_after_ms)
    base = payload_for(code, code.scope, hints=False)
    other = next((c.name for c in registry.categories if c.name != code.category), None)
    if other:
        q = {**base, "category": other}
        yield f"{code.name}/contradiction/category", q, 1, expect("escalate", "contradicts-registry", q)
    if not code.retryable:
        q = {**base, "retryable": True}
        yield f"{code.name}/contradiction/retryable", q, 1, expect("escalate", "contradicts-registry", q)
    for scope in SCOPES:
        if scope not in code.scopes:
            q = {**base, "scope": scope, "resource_id": "r-1"}
            yield f"{code.name}/contradiction/scope-{scope}", q, 1, expect("escalate", "contradicts-registry", q)
            break
    for hint in HINTS:
        if hint not in code.hints:
            q = {**base, hint: HINT_VALUES[hint]}
            yield f"{code.name}/contradiction/hint-{hint}", q, 1, expect("escalate", "contradicts-registry", q)
            break


def unknown_codes(registry: Registry) -> Iterator[Case]:
    category = registry.categories[0].name
    for retryable in (True, False):
        for scope in SCOPES:
            p = {"code": "CODE_FROM_A_NEWER_SERVER", "category": category, "retryable": retryable, "scope": scope, "correlation_id": "c-new"}
            if scope == "resource":
                p["resource_id"] = "item_9"
            action = derive_action(retryable, scope, None)
            yield f"unknown-code/{scope}/{'retryable' if retryable else 'final'}", p, 2, _timed(action, "unknown-code", p, 2, None)
    p = {"code": registry.codes[0].name, "category": "category_from_a_newer_server", "retryable": True, "scope": "request",
         "correlation_id": "c-cat", "retry_after_ms": 750}
    yield "unknown-category", p, 1, _timed("retry", "unknown-code", p, 1, None)
    p = {"code": "CODE_FROM_A_NEWER_SERVER", "category": category, "retryable": True, "scope": "service", "correlation_id": "c-new", "did_you_mean": ["x"]}
    yield "unknown-code/last-attempt", p, MAX_ATTEMPTS, _timed("pause", "unknown-code", p, MAX_ATTEMPTS, None)


def invalid_payloads(registry: Registry) -> Iterator[Case]:
    code = registry.codes[0]
    base = payload_for(code, code.scope, hints=False)
    invalid = expect("escalate", "invalid-payload")
    for name, value in (("array", []), ("string", "RATE_LIMITED"), ("null", None), ("number", 5), ("boolean", True)):
        yield f"invalid/not-an-object/{name}", value, 1, invalid
    for key in ("code", "category", "retryable", "scope", "correlation_id"):
        p = {k: v for k, v in base.items() if k != key}
        yield f"invalid/missing-{key}", p, 1, expect("escalate", "invalid-payload", {"correlation_id": p.get("correlation_id")})
    bad_values = {"retryable": "yes", "scope": "galaxy", "correlation_id": 42, "retry_after_ms": -1, "code": 7, "message": None}
    for key, value in bad_values.items():
        p = {**base, key: value}
        yield f"invalid/{key}-{value!r}", p, 1, expect("escalate", "invalid-payload", {"correlation_id": p.get("correlation_id")})
    p = {**base, "stack_trace": "Traceback (most recent call last): ..."}
    yield "invalid/extra-field", p, 1, expect("escalate", "invalid-payload", {"correlation_id": p["correlation_id"]})
    p = {**base, "scope": "resource"}
    p.pop("resource_id", None)
    yield "invalid/resource-without-id", p, 1, expect("escalate", "invalid-payload", {"correlation_id": p["correlation_id"]})
    p = {"code": "CODE_FROM_A_NEWER_SERVER", "category": code.category, "retryable": False, "retry_after_ms": 100, "scope": "request", "correlation_id": "c-x"}
    yield "invalid/delay-on-non-retryable", p, 1, expect("escalate", "invalid-payload", p)


def article_examples(registry: Registry) -> Iterator[Case]:
    """Article 000's worked examples, when the registry has those codes."""
    codes = registry.code_map
    if "VALIDATION_FAILED" in codes and "resource" in codes["VALIDATION_FAILED"].scopes:
        p = {"code": "VALIDATION_FAILED", "category": codes["VALIDATION_FAILED"].category, "retryable": codes["VALIDATION_FAILED"].retryable,
             "scope": "resource", "resource_id": "contact_4127", "correlation_id": "c-88a1"}
        yield "article-000/validation-failed", p, 1, _timed(codes["VALIDATION_FAILED"].action_for("resource"), "registry", p, 1, None)
    if "RATE_LIMITED" in codes and "service" in codes["RATE_LIMITED"].scopes:
        c = codes["RATE_LIMITED"]
        p = {"code": "RATE_LIMITED", "category": c.category, "retryable": c.retryable, "retry_after_ms": 2000, "scope": "service", "correlation_id": "c-88b2"}
        yield "article-000/rate-limited", p, 1, _timed(c.action_for("service"), "registry", p, 1, c.retry_after_ms)
