"""The error payload contract as JSON Schema, and example payloads, rendered from the contract view.

Every target derives its payload shape from the view's field specs, so the schema, the Python
model, the TypeScript guard and `errgen validate` cannot drift apart.
"""

from __future__ import annotations

from typing import Any

from errgen.contract import CodeRow, ContractView, FieldSpec

_SCALARS = ["string", "number", "boolean"]


def field_schema(spec: FieldSpec) -> dict[str, Any]:
    """One field's JSON Schema, from its spec."""
    out: dict[str, Any]
    if spec.type == "enum":
        out = {"type": "string", "enum": list(spec.values)}
    elif spec.type == "integer":
        out = {"type": "integer"}
        out.update({k: v for k, v in (("minimum", spec.minimum), ("maximum", spec.maximum)) if v is not None})
    elif spec.type == "string_list":
        out = {"type": "array", "items": {"type": "string"}}
        if spec.max_items is not None:
            out["maxItems"] = spec.max_items
    elif spec.type == "scalar_map":
        out = {"type": "object", "additionalProperties": {"type": _SCALARS}}
    else:
        out = {"type": spec.type}
    out["description"] = spec.description
    return out


def envelope_properties(contract: ContractView) -> dict[str, Any]:
    """Field schemas by wire name, the category an enum of the registry's categories. The codes
    are listed in the category branches (see `schema`): a top-level enum of every code would say
    nothing more, and validators scan an enum element by element on every payload."""
    props = {spec.wire: field_schema(spec) for spec in contract.fields}
    props[contract.field_map["category"].wire]["enum"] = list(contract.category_names)
    return props


def facts(contract: ContractView, row: CodeRow) -> tuple[Any, ...]:
    """What the schema pins for a code besides its name; codes with equal facts share a branch.
    Scopes and hints are sets to a validator, so they are keyed (and listed) in vocabulary order."""
    return (
        row.category,
        row.retryable,
        tuple(s for s in contract.scopes if s in row.scopes),
        tuple(h for h in contract.hints if h in row.hints),
    )


def group_schema(contract: ContractView, codes: list[str], key: tuple[Any, ...]) -> dict[str, Any]:
    """One branch: the codes sharing `key`, their retryable, their scopes, and the hints they may
    carry (retry_after_ms only when retryable); the category's dispatch (see `schema`) pins the
    category."""
    _category, retryable, scopes, hints = key
    w = {spec.name: spec.wire for spec in contract.fields}
    props: dict[str, Any] = {
        w["code"]: {"enum": codes},
        w["retryable"]: {"const": retryable},
        w["scope"]: {"enum": list(scopes)},
    }
    if not retryable:
        props[w["retry_after_ms"]] = False
    for hint in contract.hints:
        if hint not in hints:
            props[w[hint]] = False
    return {"properties": props}


def groups(contract: ContractView) -> dict[tuple[Any, ...], list[str]]:
    """Codes by their facts, both in registry order (first appearance), so output is stable."""
    out: dict[tuple[Any, ...], list[str]] = {}
    for row in contract.codes:
        out.setdefault(facts(contract, row), []).append(row.code)
    return out


def schema(contract: ContractView) -> dict[str, Any]:
    """The payload schema. Codes with identical pinned facts share one branch whose code is an
    enum, so branches grow with distinct fact combinations, not with codes; a payload's category
    picks the branches it may match (a cheap `const` test), so a validator scans only that
    category's codes. Standard validators (ajv, jsonschema, fastjsonschema) stay fast and within
    their stack at any registry size. This accepts exactly what one `oneOf` branch per code would:
    the category must be a known one, and its branches hold only its own codes, so an unknown
    code, or a code under another category, matches no branch."""
    w = {spec.name: spec.wire for spec in contract.fields}
    by_facts = groups(contract)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": contract.header,
        "title": f"{contract.name} error payload",
        "description": f"One error payload of the {contract.name} error contract.",
        "type": "object",
        "required": [w[name] for name in contract.required],
        "additionalProperties": False,
        "properties": envelope_properties(contract),
        "if": {"properties": {w["scope"]: {"const": "resource"}}, "required": [w["scope"]]},
        "then": {"required": [w["resource_id"]]},
        "allOf": [
            category_dispatch(contract, category, [group_schema(contract, codes, key) for key, codes in by_facts.items() if key[0] == category])
            for category in contract.category_names
        ],
    }


def body_schema(contract: ContractView) -> dict[str, Any] | None:
    """The HTTP body's shape when the payload sits under an envelope (`{"error": {...}}`): the
    payload schema under that key, self-contained (the payload in `$defs`) so any validator
    takes the file alone. The envelope's siblings are the API's own and not constrained: the SDKs
    and `errgen validate` read the payload under the envelope and leave the rest. An array
    envelope (`errors[*]`) holds at least one payload among entries of the API's own: the first
    entry holding every required field is the one read. None without an envelope, or for an XML
    body: then the body is the payload (error.schema.json)."""
    if contract.envelope is None or contract.response["format"] != "json":
        return None
    inner = {key: value for key, value in schema(contract).items() if key not in ("$schema", "$comment")}
    payload: dict[str, Any] = {"$ref": "#/$defs/payload"}
    where = f"the error payload under {contract.envelope!r}"
    if contract.envelope_array:
        payload = {"type": "array", "minItems": 1, "contains": payload}
        where = (f"an array under {contract.envelope!r} holding the error payload; the first entry holding every "
                 "required field is the payload read, the other entries are the API's own")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": contract.header,
        "title": f"{contract.name} error response body",
        "description": f"The HTTP body of an error response of the {contract.name} error contract: {where}.",
        "type": "object",
        "required": [contract.envelope],
        "properties": {contract.envelope: payload},
        "$defs": {"payload": inner},
    }


def category_dispatch(contract: ContractView, category: str, branches: list[dict[str, Any]]) -> dict[str, Any]:
    """A payload of `category` matches one of its branches; of a category without codes, none.
    The branches sit inline: a `$ref` per branch costs validators a lookup on every payload."""
    wire = contract.field_map["category"].wire
    then: Any = {"anyOf": branches} if branches else False
    return {"if": {"properties": {wire: {"const": category}}, "required": [wire]}, "then": then}


def envelope_schema(contract: ContractView, title: str) -> dict[str, Any]:
    """The registry-independent envelope by canonical field names, small on purpose:
    datamodel-code-generator's input for the Python model, whose attributes are the canonical
    names whatever the wire calls them (the model translates at its edges)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        "type": "object",
        "required": list(contract.required),
        "additionalProperties": False,
        "properties": {spec.name: field_schema(spec) for spec in contract.fields},
    }


EXAMPLE_HINTS: dict[str, Any] = {
    "searched": {"name": "wwww"},
    "did_you_mean": ["www"],
    "accepted": ["eq", "ne"],
    "state": "unchanged",
    "safe_to_replay": True,
}


def example(contract: ContractView, row: CodeRow, scope: str | None = None) -> dict[str, Any]:
    """A payload for `row` that the schema accepts; the docs show it, the tests validate it."""
    w = {spec.name: spec.wire for spec in contract.fields}
    scope = scope or row.scope
    out: dict[str, Any] = {w["code"]: row.code, w["category"]: row.category, w["retryable"]: row.retryable}
    if row.retry_after_ms is not None:
        out[w["retry_after_ms"]] = row.retry_after_ms
    out[w["scope"]] = scope
    if scope == "resource":
        out[w["resource_id"]] = "item_4127"
    out[w["correlation_id"]] = "c-88a1"
    out.update({w[hint]: EXAMPLE_HINTS[hint] for hint in row.hints})
    return out
