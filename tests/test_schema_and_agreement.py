"""The JSON Schema is valid 2020-12, and jsonschema, the generated pydantic model, the generated
Python checker and the generated TypeScript guard give the same verdict on every payload."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conftest import GENERATED, REGISTRY, ROOT, build_to, load_registry, node_json, tsc
from errgen.contract import view
from errgen.payload_checks import ContractChecker, strict_problems
from payload_cases import cases

EXAMPLE = ROOT / "examples" / "refund-tool.yaml"


def schema_of(out: Path) -> dict[str, Any]:
    return json.loads((out / "schema" / "error.schema.json").read_text(encoding="utf-8"))


def test_schema_passes_the_2020_12_metaschema() -> None:
    schema = schema_of(GENERATED)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["code", "category", "retryable", "scope", "correlation_id"]


def test_docs_examples_validate_against_the_schema() -> None:
    validator = Draft202012Validator(schema_of(GENERATED))
    text = (GENERATED / "docs" / "errors.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    assert len(blocks) == len(load_registry().codes)
    for block in blocks:
        validator.validate(json.loads(block))


def python_verdicts(package_dir: Path, package: str, payloads: list[Any]) -> tuple[list[bool], list[bool]]:
    sys.path.insert(0, str(package_dir))
    try:
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]
        module = __import__(package)
        from pydantic import ValidationError

        def model_ok(p: Any) -> bool:
            try:
                module.ErrorPayload.model_validate(p)
                return True
            except ValidationError:
                return False

        checker = sys.modules[f"{package}._validate"]
        return [model_ok(p) for p in payloads], [not checker.problems(p) for p in payloads]
    finally:
        sys.path.remove(str(package_dir))


def ts_verdicts(node_bin: Path, out: Path, payloads: list[Any], tmp_path: Path) -> list[bool]:
    js = tmp_path / "js"
    done = tsc(node_bin, out / "typescript", js)
    assert done.returncode == 0, done.stdout
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps(payloads), encoding="utf-8")
    script = f"const m = require({json.dumps(str(js / 'index.js'))}); const c = require({json.dumps(str(corpus))}); console.log(JSON.stringify(c.map((p) => m.isErrorPayload(p))));"
    return node_json(script, tmp_path)  # type: ignore[return-value]


@pytest.mark.parametrize("registry_path", [REGISTRY, EXAMPLE], ids=["default", "refund-example"])
def test_all_validators_agree_on_every_case(registry_path: Path, node_bin: Path, tmp_path: Path) -> None:
    out = GENERATED if registry_path == REGISTRY else tmp_path / "out"
    if out != GENERATED:
        build_to(registry_path, out)
    registry = load_registry(registry_path)
    corpus = list(cases(registry))
    names = [c[0] for c in corpus]
    payloads = [c[1] for c in corpus]
    intended = [c[2] for c in corpus]
    validator = Draft202012Validator(schema_of(out))
    reference = [validator.is_valid(p) for p in payloads]
    assert dict(zip(names, reference)) == dict(zip(names, intended))
    model, checker = python_verdicts(out / "python", view(registry).packages["python"]["package"], payloads)
    assert dict(zip(names, model)) == dict(zip(names, reference))
    assert dict(zip(names, checker)) == dict(zip(names, reference))
    # errgen validate judges with the registry alone (no SDK built): the same verdicts.
    contract, checker_of_validate = view(registry), ContractChecker(registry)
    assert {n: not strict_problems(contract, p) for n, p in zip(names, payloads)} == dict(zip(names, reference))
    validate_ok = [not any(severity == "error" for _, severity, _, _ in checker_of_validate.check(p, None)) for p in payloads]
    assert dict(zip(names, validate_ok)) == dict(zip(names, reference))
    ts = ts_verdicts(node_bin, out, payloads, tmp_path)
    assert dict(zip(names, ts)) == dict(zip(names, reference))
    assert len(corpus) > 10 * len(registry.codes)
