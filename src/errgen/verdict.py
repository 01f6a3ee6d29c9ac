"""The strict verdict on a raw payload (docs/conformance.md), as pure functions of the contract's
data: the field specs and a lookup of the registry's codes.

This file is errgen's own source and is copied verbatim into every generated Python SDK; `errgen
validate` calls the same functions with the contract view, so the two cannot disagree.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, NamedTuple, Optional, Protocol, Sequence, Tuple


class Spec(NamedTuple):
    """One payload field: canonical name, wire name, JSON type and limits."""

    name: str
    wire: str
    type: str  # string, boolean, integer, enum, string_list, scalar_map
    required: bool
    values: Tuple[str, ...] = ()
    hint: bool = False
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    max_items: Optional[int] = None


class Entry(Protocol):
    """What the registry says about one code (a table row)."""

    @property
    def category(self) -> str: ...
    @property
    def retryable(self) -> bool: ...
    @property
    def scopes(self) -> Sequence[str]: ...
    @property
    def hints(self) -> Sequence[str]: ...


# (stable problem id, message, wire name of the field it concerns or None)
Problem = Tuple[str, str, Optional[str]]


def _integral(value: object) -> bool:
    # JSON Schema counts 2.0 as an integer, and a boolean never.
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def type_ok(spec: Spec, value: object) -> bool:
    """Whether `value` has the field's JSON type and lies within its limits (any value is safe)."""
    kind = spec.type
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "enum":
        return isinstance(value, str) and value in spec.values
    if kind == "integer":
        if not _integral(value):
            return False
        number: Any = value
        return (spec.minimum is None or number >= spec.minimum) and (
            spec.maximum is None or number <= spec.maximum
        )
    if kind == "string_list":
        return (
            isinstance(value, list)
            and all(isinstance(item, str) for item in value)
            and (spec.max_items is None or len(value) <= spec.max_items)
        )
    if kind == "scalar_map":
        return isinstance(value, dict) and all(
            isinstance(item, (str, int, float)) for item in value.values()
        )
    return False


def describe(spec: Spec) -> str:
    """What a field must be, for messages."""
    if spec.type == "enum":
        return "one of " + ", ".join(spec.values)
    if spec.type == "integer":
        return f"an integer from {spec.minimum} to {spec.maximum}"
    if spec.type == "string_list":
        return (
            "a list of strings"
            if spec.max_items is None
            else f"a list of at most {spec.max_items} strings"
        )
    if spec.type == "scalar_map":
        return "an object of names to strings, numbers or booleans"
    return f"a {spec.type}"


def wire_names(fields: Sequence[Spec]) -> dict[str, str]:
    """Canonical name -> wire name."""
    return {spec.name: spec.wire for spec in fields}


def envelope_problems(fields: Sequence[Spec], raw: object) -> list[Problem]:
    """What any payload must satisfy whatever its code: an object of known fields, each of its
    type, the required ones present, and a resource id when the scope is resource."""
    if not isinstance(raw, dict):
        return [("not-an-object", "payload must be a JSON object", None)]
    by_wire = {spec.wire: spec for spec in fields}
    found: list[Problem] = []
    for key, value in raw.items():
        spec = by_wire.get(key)
        if spec is None:
            found.append(("extra-field", f"field {key!r} is not part of the contract", key))
        elif not type_ok(spec, value):
            found.append(("wrong-type", f"field {key!r} must be {describe(spec)}", key))
    for spec in fields:
        if spec.required and spec.wire not in raw:
            found.append(("missing-field", f"required field {spec.wire!r} is missing", None))
    w = wire_names(fields)
    if raw.get(w["scope"]) == "resource" and w["resource_id"] not in raw:
        found.append(
            (
                "resource-id-missing",
                f"{w['scope']} is resource, so {w['resource_id']} is required",
                w["scope"],
            )
        )
    return found


def registry_problems(
    fields: Sequence[Spec],
    categories: Collection[str],
    lookup: Callable[[str], Optional[Entry]],
    raw: dict[str, Any],
) -> list[Problem]:
    """Where a payload's well-typed fields disagree with the registry: an unknown category or
    code, or a known code's contradictions (category, retryable, scope, delay, hints)."""
    w = wire_names(fields)
    code, category, retryable, scope = (
        raw.get(w[k]) for k in ("code", "category", "retryable", "scope")
    )
    found: list[Problem] = []
    if isinstance(category, str) and category not in categories:
        found.append(
            ("unknown-category", f"category {category!r} is not in the registry", w["category"])
        )
    entry = lookup(code) if isinstance(code, str) else None
    if entry is None:
        if isinstance(code, str):
            found.append(("unknown-code", f"code {code!r} is not in the registry", w["code"]))
        return found
    if isinstance(category, str) and category != entry.category:
        found.append(
            (
                "category-mismatch",
                f"{code} has category {entry.category}, not {category!r}",
                w["category"],
            )
        )
    if isinstance(retryable, bool) and retryable != entry.retryable:
        found.append(
            (
                "retryable-mismatch",
                f"{code} has retryable {str(entry.retryable).lower()}",
                w["retryable"],
            )
        )
    if (
        isinstance(scope, str)
        and scope not in entry.scopes
        and type_ok(_spec(fields, "scope"), scope)
    ):
        found.append(
            (
                "scope-not-allowed",
                f"{code} may carry scope {', '.join(entry.scopes)}, not {scope!r}",
                w["scope"],
            )
        )
    if w["retry_after_ms"] in raw and not entry.retryable:
        found.append(
            (
                "retry-after-not-retryable",
                f"{code} is not retryable, so it has no retry_after_ms",
                w["retry_after_ms"],
            )
        )
    for spec in fields:
        if spec.hint and spec.wire in raw and spec.name not in entry.hints:
            found.append(
                (
                    "hint-not-allowed",
                    f"{code} does not carry the hint field {spec.wire!r}",
                    spec.wire,
                )
            )
    return found


def _spec(fields: Sequence[Spec], name: str) -> Spec:
    return next(spec for spec in fields if spec.name == name)


def strict_problems(
    fields: Sequence[Spec],
    categories: Collection[str],
    lookup: Callable[[str], Optional[Entry]],
    raw: object,
) -> list[Problem]:
    """The strict verdict: the envelope's problems, else the registry's (empty: valid)."""
    found = envelope_problems(fields, raw)
    if found or not isinstance(raw, dict):
        return found
    return registry_problems(fields, categories, lookup, raw)
