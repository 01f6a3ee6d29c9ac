"""The payloads the vectors are made of (vectors.json's reading cases and writing.json's inputs
alike): a code's payload in a scope, an unknown code's, and the hint values they carry."""

from __future__ import annotations

from typing import Any

from errgen.contract import CodeRow, ContractView, FieldSpec

# The hint values the reading vectors have always carried; any other field's value comes from its
# type (`sample_value`), so a new field needs no entry here.
HINT_VALUES: dict[str, Any] = {
    "searched": {"tenant": "wwww", "limit": 10, "exact": True}, "did_you_mean": ["www"], "accepted": ["eq", "ne"],
    "state": "unchanged", "safe_to_replay": True,
}


def sample_value(spec: FieldSpec) -> Any:
    """A valid value of a field, from its type and limits alone (docs/conformance.md, "The writing
    vectors": every optional field goes through every reader and writer)."""
    if spec.type == "boolean":
        return True
    if spec.type == "integer":
        low = spec.minimum if spec.minimum is not None else 0
        return max(low, min(1500, spec.maximum if spec.maximum is not None else 1500))
    if spec.type == "enum":
        return spec.values[0]
    if spec.type == "string_list":
        return ["a", "b"][:spec.max_items]
    if spec.type == "scalar_map":
        return {"text": "x", "count": 2, "flag": False}
    return f"{spec.name}-1"


def value_of(contract: ContractView, name: str) -> Any:
    """The value a vector gives the field `name`."""
    return HINT_VALUES[name] if name in HINT_VALUES else sample_value(contract.field_map[name])


def optional_fields(contract: ContractView) -> tuple[FieldSpec, ...]:
    return tuple(f for f in contract.fields if not f.required)


def _judged(contract: ContractView, payload: dict[str, Any]) -> list[str]:
    from errgen.verdicts import problem_ids

    return problem_ids(contract, payload)


def every_field(contract: ContractView, base: dict[str, Any]) -> dict[str, Any]:
    """`base` with every optional field it may carry without a new problem in the strict verdict,
    each at `sample_value` (kept when `base` has it): judged field by field, so nothing here says
    which field needs what (an unknown code's payload carries them all)."""
    out, before = dict(base), _judged(contract, base)
    for spec in optional_fields(contract):
        if spec.wire not in out and _judged(contract, {**base, spec.wire: sample_value(spec)}) == before:
            out[spec.wire] = sample_value(spec)
    return out


def carrier(contract: ContractView, spec: FieldSpec) -> CodeRow | None:
    """The first code (registry order) whose payload may carry the field `spec`."""
    return next((r for r in contract.codes
                 if not _judged(contract, {**payload_for(contract, r, r.scope, hints=False), spec.wire: sample_value(spec)})), None)


def carriers(contract: ContractView) -> list[CodeRow]:
    """Codes that between them may carry every optional field some code may carry, each once."""
    found: list[CodeRow] = []
    for spec in optional_fields(contract):
        row = carrier(contract, spec)
        if row is not None and row not in found:
            found.append(row)
    return found


def payload_for(contract: ContractView, row: CodeRow, scope: str, hints: bool = True) -> dict[str, Any]:
    """A payload of `row` in `scope`, keyed by wire names, with the code's hints when asked."""
    w = {f.name: f.wire for f in contract.fields}
    p: dict[str, Any] = {w["code"]: row.code, w["category"]: row.category, w["retryable"]: row.retryable, w["scope"]: scope,
                         w["correlation_id"]: f"c-{row.code}-{scope}"}
    if scope == "resource":
        p[w["resource_id"]] = "item_4127"
    if hints:
        p.update({w[h]: value_of(contract, h) for h in row.hints})
    return p


def newer_code(contract: ContractView) -> str:
    """A code this registry does not have: what a newer server may send."""
    name = "CODE_FROM_A_NEWER_SERVER"
    taken = tuple(prefix for prefix, _ in contract.response["prefixes"])
    while name in contract.code_map or name.startswith(taken) and len(name) < 200:
        name = "X" + name + "_X"  # past every prefix (64 characters at most) in a few steps
    return name


def unknown_payload(contract: ContractView, retryable: bool, scope: str, **more: Any) -> dict[str, Any]:
    w = {f.name: f.wire for f in contract.fields}
    p: dict[str, Any] = {w["code"]: newer_code(contract), w["category"]: contract.categories[0].name, w["retryable"]: retryable,
                         w["scope"]: scope, w["correlation_id"]: "c-new"}
    if scope == "resource":
        p[w["resource_id"]] = "item_9"
    p.update({w[k]: v for k, v in more.items()})
    return p
