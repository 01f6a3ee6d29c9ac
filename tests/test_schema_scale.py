"""The payload schema groups codes by their pinned facts: its branches grow with distinct fact
combinations, not with codes, it gives exactly the verdicts of one branch per code, and standard
validators handle it at registry sizes where a per-code `oneOf` breaks them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from bench import synth
from conftest import REGISTRY, ROOT, load_registry, node_json
from errgen import payload_schema
from errgen.contract import ContractView, view
from payload_cases import cases

EXAMPLE = ROOT / "examples" / "refund-tool.yaml"


def per_code_schema(contract: ContractView) -> dict[str, Any]:
    """The previous design, one branch per code, as the reference the grouped schema must equal."""
    out = payload_schema.schema(contract)
    w = {spec.name: spec.wire for spec in contract.fields}
    defs = {}
    for row in contract.codes:
        props: dict[str, Any] = {
            w["code"]: {"const": row.code},
            w["category"]: {"const": row.category},
            w["retryable"]: {"const": row.retryable},
            w["scope"]: {"enum": list(row.scopes)},
        }
        if not row.retryable:
            props[w["retry_after_ms"]] = False
        props.update({w[h]: False for h in contract.hints if h not in row.hints})
        defs[row.code] = {"properties": props}
    del out["allOf"]
    out["$defs"] = defs
    out["oneOf"] = [{"$ref": f"#/$defs/{code}"} for code in defs]
    return out


def synth_contract(tmp_path: Path, n: int) -> ContractView:
    return view(load_registry(synth.write(tmp_path, n)))


def branches(schema: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The branches each category's dispatch lets a payload match, by category."""
    out = {}
    for dispatch in schema["allOf"]:
        category = next(iter(dispatch["if"]["properties"].values()))["const"]
        out[category] = dispatch["then"]["anyOf"] if dispatch["then"] is not False else []
    return out


def test_branches_follow_fact_combinations_not_codes() -> None:
    contract = view(load_registry(REGISTRY))
    by_category = branches(payload_schema.schema(contract))
    assert list(by_category) == list(contract.category_names)
    code_wire = contract.field_map["code"].wire
    for category, group in by_category.items():  # every code in exactly one branch, under its category
        listed = [code for b in group for code in b["properties"][code_wire]["enum"]]
        assert listed == [row.code for row in contract.codes if row.category == category]
    distinct = {payload_schema.facts(contract, row) for row in contract.codes}
    assert sum(map(len, by_category.values())) == len(distinct)


@pytest.mark.parametrize("registry_path", [REGISTRY, EXAMPLE], ids=["default", "refund-example"])
def test_grouped_verdicts_equal_per_code_verdicts(registry_path: Path) -> None:
    registry = load_registry(registry_path)
    contract = view(registry)
    grouped = Draft202012Validator(payload_schema.schema(contract))
    reference = Draft202012Validator(per_code_schema(contract))
    corpus = list(cases(registry))
    assert any(ok for _, _, ok in corpus) and any(not ok for _, _, ok in corpus)
    for name, p, ok in corpus:
        assert grouped.is_valid(p) == reference.is_valid(p) == ok, name


def test_5000_codes_make_few_branches_and_a_quick_metaschema_check(tmp_path: Path) -> None:
    contract = synth_contract(tmp_path, 5000)
    schema = payload_schema.schema(contract)
    assert sum(len(d["then"]["anyOf"]) for d in schema["allOf"]) == len({payload_schema.facts(contract, row) for row in contract.codes}) <= 200
    Draft202012Validator.check_schema(schema)  # quick because of the few branches above (bench.timing_bench times it)
    row = contract.codes[4321]  # a valid payload, and one with a hint its code does not allow
    w = {spec.name: spec.wire for spec in contract.fields}
    ok = payload_schema.example(contract, row)
    validator = Draft202012Validator(schema)
    assert validator.is_valid(ok)
    banned = next(h for h in contract.hints if h not in row.hints)
    assert not validator.is_valid({**ok, w[banned]: payload_schema.EXAMPLE_HINTS[banned]})


def test_ajv_compiles_the_schema_of_20000_codes(tmp_path: Path, node_bin: Path) -> None:
    contract = synth_contract(tmp_path, 20000)
    schema_path = tmp_path / "schema.json"
    schema_path.write_text(json.dumps(payload_schema.schema(contract)), encoding="utf-8")
    row = contract.codes[19999]
    ok = payload_schema.example(contract, row)
    wrong = {**ok, contract.field_map["category"].wire: contract.codes[19998].category}
    script = (
        'const Ajv2020 = require("ajv/dist/2020").default;'
        f"const v = new Ajv2020({{strict: false}}).compile(require({json.dumps(str(schema_path))}));"
        f"console.log(JSON.stringify([v({json.dumps(ok)}), v({json.dumps(wrong)})]));"
    )
    assert node_json(script, node_bin.parent.parent) == [True, False]


def test_a_category_without_codes_matches_no_payload(tmp_path: Path) -> None:
    text = synth.registry_text(6).replace("codes:\n", "  spare:\n    retryable: false\n    description: No code uses this.\ncodes:\n", 1)
    path = tmp_path / "errors.yaml"
    path.write_text(text, encoding="utf-8")
    contract = view(load_registry(path))
    assert "spare" in contract.category_names
    schema = payload_schema.schema(contract)
    ok = payload_schema.example(contract, contract.codes[2])
    claimed = {**ok, contract.field_map["category"].wire: "spare", contract.field_map["retryable"].wire: False}
    claimed.pop(contract.field_map["retry_after_ms"].wire, None)
    assert Draft202012Validator(schema).is_valid(ok)
    assert not Draft202012Validator(per_code_schema(contract)).is_valid(claimed)
    assert not Draft202012Validator(schema).is_valid(claimed)
