"""The registry-format schema that ships for editors matches errgen's own checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from conftest import FIXTURES, REGISTRY, ROOT
from errgen.registry import registry_schema
from errgen.resources import registry_schema_path


def _load(path: Path) -> object:
    # Editors read YAML 1.2, where 2026-01-10 is a string; PyYAML (1.1) makes it a date.
    return json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")), default=str))


def test_shipped_schema_is_the_derived_one() -> None:
    assert json.loads(registry_schema_path().read_text()) == registry_schema.schema()
    Draft202012Validator.check_schema(registry_schema.schema())


@pytest.mark.parametrize("path", [REGISTRY, ROOT / "examples" / "refund-tool.yaml", FIXTURES / "valid-minimal.yaml"], ids=lambda p: p.name)
def test_valid_registries_pass_the_schema(path: Path) -> None:
    errors = list(Draft202012Validator(registry_schema.schema()).iter_errors(_load(path)))
    assert errors == []


@pytest.mark.parametrize("rule", ["unknown-key", "missing-key", "wrong-type", "unknown-scope", "unknown-hint", "http-status-range", "unknown-action", "code-name", "category-name", "format-version"])
def test_structural_fixtures_fail_the_schema(rule: str) -> None:
    assert not Draft202012Validator(registry_schema.schema()).is_valid(_load(FIXTURES / "lint" / f"{rule}.yaml"))
