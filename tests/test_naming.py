"""Naming and escaping per language: identifiers from any wire string, versions, literals; and the
Python package built from a prerelease registry installs under its PEP 440 version (issue 12 bug 3)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from packaging.version import Version

from conftest import REGISTRY, build_to, default_version, next_version
from errgen.languages.python import naming as py
from errgen.languages.typescript import naming as ts

WIRE_CODES = ["RATE_LIMITED", "card_declined", "NoSuchBucket", "20003", "23505", "out-of-credit",
              "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "HTTPError", "class", "None", "", "ünïcødé"]


def test_python_identifiers_from_wire_codes() -> None:
    assert [py.constant(c) for c in WIRE_CODES[:4]] == ["RATE_LIMITED", "CARD_DECLINED", "NO_SUCH_BUCKET", "N_20003"]
    assert py.type_name("rate_limit") == "RateLimit" and py.snake("class") == "class_"
    for code in WIRE_CODES:
        for name in (py.constant(code), py.type_name(code), py.snake(code)):
            assert name.isidentifier() and name.isascii(), (code, name)
    assert py.unique(["A", "A", "A_2", "B"]) == ["A", "A_2", "A_2_2", "B"]


def test_typescript_identifiers_from_wire_codes() -> None:
    assert ts.camel("retry_after_ms") == "retryAfterMs" and ts.camel("20003") == "n20003" and ts.camel("class") == "class_"
    assert ts.constant("NoSuchBucket") == "NO_SUCH_BUCKET" and ts.type_name("out-of-credit") == "OutOfCredit"
    assert ts.package_name("Acme Corp/Errors") == "errors" and ts.package_name("@Acme/My Errors") == "@acme/my-errors"


@pytest.mark.parametrize(("semver", "pep440"), [("1.0.0", "1.0.0"), ("1.0.0-alpha.1", "1.0.0a1"), ("2.0.0-beta.3", "2.0.0b3"),
                                                ("2.0.0-rc.2", "2.0.0rc2"), ("1.0.0-dev.3", "1.0.0.dev3"), ("1.0.0-alpha", "1.0.0a0"),
                                                ("1.0.0-alpha.beta", "1.0.0a0+beta"), ("1.0.0+build.5", "1.0.0+build.5"),
                                                ("1.0.0-x-y.1", "1.0.0.dev0+x.y.1")])
def test_python_versions_are_pep_440(semver: str, pep440: str) -> None:
    assert py.version(semver) == pep440
    assert str(Version(pep440)) == pep440


@given(st.text())
def test_string_literals_carry_any_text_exactly(text: str) -> None:
    assert ast.literal_eval(py.string_literal(text)) == text
    assert json.loads(ts.string_literal(text)) == text  # \u2028 is a JSON escape too
    assert "\u2028" not in ts.string_literal(text) and "\n" not in py.string_literal(text)


def test_prerelease_registry_builds_a_python_package_pip_accepts(tmp_path: Path) -> None:
    preview = next_version()
    text = REGISTRY.read_text().replace(f"\nversion: {default_version()}", f"\nversion: {preview}-alpha.1")
    text += f"  - version: {preview}-alpha.1\n    date: 2026-10-01\n    changes: [\"Preview.\"]\n"
    text = text.replace("problem_base:", "targets:\n  python: {distribution: acme-contract}\nproblem_base:")
    (tmp_path / "r.yaml").write_text(text)
    build_to(tmp_path / "r.yaml", tmp_path / "out", "python")
    pyproject = (tmp_path / "out" / "python" / "pyproject.toml").read_text()
    assert 'name = "acme-contract"' in pyproject and f'version = "{preview}a1"' in pyproject
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target",
                           str(tmp_path / "site"), str(tmp_path / "out" / "python")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "site").glob(f"acme_contract-{preview}a1.dist-info"))
