"""SPEC F (issue 43 point 1): every optional payload field goes through every reader and writer
in the writing vectors, derived from `contract.fields` alone, so a new optional field (the
issue's `docs_url`) is carried by the vectors with no edit to the vectors code, and an SDK that
drops it anywhere fails there."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import load_registry

from errgen import contract as contract_module
from errgen.contract import FieldSpec, view
from errgen.emit.targets import _writing_vectors as _writing
from errgen.emit.targets._decisions import expected


def writing_vectors() -> dict[str, dict[str, Any]]:
    contract = view(load_registry())  # a fresh registry object: a fresh view
    return {v["name"]: v for v in _writing.vectors(contract, expected)}


@pytest.fixture
def docs_url(monkeypatch: pytest.MonkeyPatch) -> str:
    """The view's fields with one more optional string field, as the probe of issue 43 added it."""
    original = contract_module.fields

    def fields(policy: Any, wire: Any = contract_module.Wire()) -> tuple[FieldSpec, ...]:
        added = FieldSpec("docs_url", wire.name_of("docs_url"), "string", False, "Where the code is documented.")
        return (*original(policy, wire), added)

    monkeypatch.setattr(contract_module, "fields", fields)
    return "docs_url"


def carries(value: Any, key: str) -> bool:
    return key in json.dumps(value)


def test_every_optional_field_has_its_new_error_vector() -> None:
    vectors = writing_vectors()
    for spec in view(load_registry()).fields:
        if spec.required:
            continue
        case = vectors[f"new_error/field/{spec.name}"]
        assert spec.name in case["input"]["new_error"]["fields"]
        out = case["expected"]
        assert spec.wire in out["payload"] and spec.wire in out["mcp"]["structuredContent"]
        assert carries(out["http"]["body"], spec.wire) and carries(out["http_problem"]["body"], spec.wire)


def test_a_new_optional_field_enters_every_reader_and_writer_without_an_edit(docs_url: str) -> None:
    vectors = writing_vectors()
    made = vectors[f"new_error/field/{docs_url}"]
    assert made["input"]["new_error"]["fields"][docs_url] == "docs_url-1"
    for output in ("payload", "http", "http_problem", "mcp"):
        assert carries(made["expected"][output], docs_url), output
    parsed = [v for name, v in vectors.items() if name.startswith("parse/every-field/")]
    written = [v for name, v in vectors.items() if name.startswith("to_http/every-field/")]
    assert parsed and written
    assert all(docs_url in v["input"]["parse"] and v["expected"]["payload"] == v["input"]["parse"] for v in parsed)
    assert all(carries(v["expected"][k], docs_url) for v in written for k in ("http", "http_problem", "mcp"))


def test_without_the_field_no_vector_names_it() -> None:
    """The honest half: the field above comes from the patched view, not from the vectors code."""
    assert not any("docs_url" in json.dumps(v) for v in writing_vectors().values())
