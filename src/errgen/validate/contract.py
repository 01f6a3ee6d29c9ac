"""Contract findings for one payload, checked against the registry model (not a generated SDK, so
any registry can be checked without building it)."""

from __future__ import annotations

import difflib
import math
import re
from typing import Any, Iterator

from errgen.contract import http_status
from errgen.model import HINTS, SCOPES, STATES, Registry
from errgen.payload import MAX_SUGGESTIONS, REQUIRED

Finding = tuple[str, str, str, str | None]  # (rule, severity, message, field it concerns)
PROBLEM_MEMBERS = ("type", "title", "status", "detail", "instance")
FIELDS = set(REQUIRED) | {"retry_after_ms", "resource_id", "message"} | set(HINTS)


def _is_int(v: object) -> bool:
    return not isinstance(v, bool) and (isinstance(v, int) or (isinstance(v, float) and v.is_integer()))


def _scalar_map(v: object) -> bool:
    return isinstance(v, dict) and all(isinstance(x, (str, int, float)) for x in v.values())


def _strings(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


TYPES: dict[str, tuple[Any, str]] = {
    "code": (lambda v: isinstance(v, str), "a string"),
    "category": (lambda v: isinstance(v, str), "a string"),
    "retryable": (lambda v: isinstance(v, bool), "a boolean"),
    "retry_after_ms": (lambda v: _is_int(v) and v >= 0, "an integer >= 0"),
    "scope": (lambda v: v in SCOPES, "one of request, resource, service"),
    "resource_id": (lambda v: isinstance(v, str), "a string"),
    "correlation_id": (lambda v: isinstance(v, str), "a string"),
    "message": (lambda v: isinstance(v, str), "a string"),
    "searched": (_scalar_map, "an object of parameter names to strings, numbers or booleans"),
    "did_you_mean": (lambda v: _strings(v) and len(v) <= MAX_SUGGESTIONS, f"a list of at most {MAX_SUGGESTIONS} strings"),
    "accepted": (_strings, "a list of strings"),
    "state": (lambda v: v in STATES, "one of unchanged, changed, unknown"),
    "safe_to_replay": (lambda v: isinstance(v, bool), "a boolean"),
}


class ContractChecker:
    def __init__(self, registry: Registry) -> None:
        self.codes = registry.code_map
        self.categories = registry.category_map

    def check(self, payload: Any, http: tuple[Any, dict[str, str]] | None) -> Iterator[Finding]:
        if not isinstance(payload, dict):
            yield ("not-an-object", "error", f"payload must be a JSON object, found {type(payload).__name__}", None)
            return
        if http is not None and "title" in payload and "type" in payload:
            payload = {k: v for k, v in payload.items() if k not in PROBLEM_MEMBERS}
        for key, value in payload.items():
            check = TYPES.get(key)
            if check is None:
                yield ("extra-field", "error", f"field {key!r} is not part of the contract (additionalProperties: false)", key)
            elif not check[0](value):
                yield ("wrong-type", "error", f"field {key!r} must be {check[1]}", key)
        missing = [key for key in REQUIRED if key not in payload]
        for key in missing:
            yield ("missing-field", "error", f"required field {key!r} is missing", None)
        if payload.get("scope") == "resource" and "resource_id" not in payload:
            yield ("resource-id-missing", "error", "scope is resource, so resource_id is required (which item to skip?)", "scope")
        code = self.codes.get(payload.get("code")) if isinstance(payload.get("code"), str) else None
        if code is None:
            if isinstance(payload.get("code"), str):
                near = difflib.get_close_matches(payload["code"], self.codes, n=3, cutoff=0.6)
                hint = f"; nearest known: {', '.join(near)}" if near else ""
                yield ("unknown-code", "error", f"code {payload['code']!r} is not in the registry{hint}", "code")
            return
        yield from self._against_registry(code, payload)
        if http is not None:
            yield from self._http(code, payload, http)

    def _against_registry(self, code: Any, payload: dict[str, Any]) -> Iterator[Finding]:
        if "category" in payload and payload["category"] != code.category:
            yield ("category-mismatch", "error", f"{code.name} has category {code.category}, not {payload['category']!r}", "category")
        if "retryable" in payload and payload["retryable"] != code.retryable:
            yield ("retryable-mismatch", "error", f"{code.name} has retryable {str(code.retryable).lower()}", "retryable")
        if payload.get("scope") in SCOPES and payload["scope"] not in code.scopes:
            yield ("scope-not-allowed", "error", f"{code.name} may carry scope {', '.join(code.scopes)}, not {payload['scope']!r}", "scope")
        if "retry_after_ms" in payload and not code.retryable:
            yield ("retry-after-not-retryable", "error", f"{code.name} is not retryable, so it has no retry_after_ms", "retry_after_ms")
        for hint in HINTS:
            if hint in payload and hint not in code.hints:
                yield ("hint-not-allowed", "error", f"{code.name} does not carry the hint field {hint!r}", hint)
        if code.deprecated:
            instead = f"; use {code.deprecated.replaced_by}" if code.deprecated.replaced_by else ""
            yield ("deprecated-code", "warning", f"{code.name} is deprecated since {code.deprecated.since}{instead}", "code")

    def _http(self, code: Any, payload: dict[str, Any], http: tuple[Any, dict[str, str]]) -> Iterator[Finding]:
        status, headers = http
        expected = http_status(code, self.categories.get(code.category))
        if status != expected:
            yield ("http-status-mismatch", "error", f"{code.name} is sent with HTTP {expected}, not {status}", None)
        header = headers.get("retry-after", "").strip()
        delay = payload.get("retry_after_ms")
        if header.isdigit() and _is_int(delay) and int(header) != math.ceil(delay / 1000):
            msg = f"Retry-After: {header} disagrees with retry_after_ms {delay} (expected {math.ceil(delay / 1000)} s)"
            yield ("retry-after-header-mismatch", "error", msg, "retry_after_ms")


# Article 000's fourth leak: prose that carries what a hint field should.
PROSE_HINTS = re.compile(
    r"did you mean|(?:valid|accepted|allowed|supported) (?:values|options|operators|ones) (?:are|include)|must be one of|one of:|expected one of",
    re.IGNORECASE,
)


def prose_findings(payload: dict[str, Any]) -> Iterator[Finding]:
    message = payload.get("message")
    if isinstance(message, str) and PROSE_HINTS.search(message):
        msg = "message lists suggestions or accepted values in prose; put them in did_you_mean / accepted (agents branch on fields, never on prose)"
        yield ("message-carries-hints", "warning", msg, "message")
