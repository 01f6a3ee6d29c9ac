"""Lint on hostile registry text (issue #24 items 5, 7, 12, 14; issue #29 item 7): non-ASCII digits
in versions, invisible characters, owners and package names that would break what they reach, and
messages that stay the same whatever the hash seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from errgen.registry.lint import lint_text

MINIMAL = (FIXTURES / "valid-minimal.yaml").read_text(encoding="utf-8")
SRC = str(Path(__file__).resolve().parent.parent / "src")


def found(text: str) -> list[tuple[str, str, str]]:
    return [(d.rule, d.severity, d.message) for d in lint_text(text).diagnostics]


def rules(text: str) -> set[str]:
    return {rule for rule, _, _ in found(text)}


def test_a_version_with_a_non_ascii_digit_fails_lint() -> None:
    text = MINIMAL.replace("version: 1.0.0\n", "version: 2.1\u0663.0\n", 1)
    assert "version-semver" in rules(text)


def test_semver_reads_only_ascii_digits() -> None:
    from errgen import semver

    assert semver.parse("2.1\u0663.0") is None
    assert semver.parse("1.0.0-rc.\u0661") is None
    assert semver.parse("2.13.0") == semver.Version(2, 13, 0)


# --- #29.7: messages built from a set come out in one order ------------------------------------

def test_expected_one_of_lists_are_sorted_whatever_the_hash_seed() -> None:
    cats = "".join(f"  {name}: {{retryable: false, description: A category.}}\n" for name in ("zeta", "alpha", "mu", "kappa", "beta", "omega"))
    text = MINIMAL.replace("  transient: {retryable: true, description: Try again later.}\n", cats).replace("category: transient", "category: validation")
    text = text.replace("category: validation\n    scope: request\n    http_status: 400", "category: qqqqqqqq\n    scope: request\n    http_status: 400")
    script = ("import sys; from errgen.registry.lint import lint_text; "
              "print([d.message for d in lint_text(sys.stdin.read()).diagnostics if d.rule == 'unknown-category'])")
    outputs = set()
    for seed in ("1", "2", "3", "4", "5", "6"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": SRC}
        done = subprocess.run([sys.executable, "-c", script], input=text, capture_output=True, text=True, env=env, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1, outputs
    assert "expected one of: alpha, beta, kappa, mu, omega, validation, zeta" in outputs.pop()


# --- #24.7: package settings ---------------------------------------------------------------------

SETTINGS = [("python", "package"), ("python", "distribution"), ("typescript", "package"), ("go", "module"),
            ("go", "package"), ("rust", "crate"), ("java", "group"), ("java", "artifact"), ("java", "package")]


def with_target(lang: str, key: str, value: str) -> str:
    return MINIMAL.replace("categories:\n", f"targets:\n  {lang}: {{{key}: {value!r}}}\ncategories:\n", 1)


@pytest.mark.parametrize("lang,key", SETTINGS)
@pytest.mark.parametrize("value", ["a b", "a/b", "-rf"])
def test_a_package_setting_its_tools_cannot_take_fails_lint(lang: str, key: str, value: str) -> None:
    if (lang, key) == ("go", "module") and value == "a/b":
        pytest.skip("a/b is a valid Go module path")
    assert [r for r, _, m in found(with_target(lang, key, value)) if r == "target-package" and f"targets.{lang}.{key}" in m]


@pytest.mark.parametrize("lang,key,value", [("python", "package", "os"), ("python", "package", "pydantic"),
                                            ("python", "package", "typing"), ("python", "distribution", "pydantic"),
                                            ("go", "package", "os"), ("rust", "crate", "serde"), ("typescript", "package", "fs")])
def test_a_package_name_that_would_shadow_another_fails_lint(lang: str, key: str, value: str) -> None:
    assert "target-package" in rules(with_target(lang, key, value))


def test_good_package_settings_lint_clean() -> None:
    text = MINIMAL.replace("categories:\n", "targets:\n  python: {package: acme_errors, distribution: acme-errors}\n"
                           "  typescript: {package: '@acme/errors'}\n  go: {module: github.com/acme/errors, package: acmeerrors}\n"
                           "  rust: {crate: acme-errors}\n  java: {group: com.acme, artifact: acme-errors, package: com.acme.errors}\n"
                           "categories:\n", 1)
    assert found(text) == []


# --- #24.14: invisible characters -----------------------------------------------------------------

@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\u200f", "\u061c", "\u200b", "\u200d", "\u2060", "\ufeff"])
def test_invisible_characters_in_a_uri_are_errors(char: str) -> None:
    text = MINIMAL.replace("version: 1.0.0\n", f'version: 1.0.0\nproblem_base: "https://errors.example.com/{char}x/"\n', 1)
    assert ("invisible-character", "error") in {(r, s) for r, s, _ in found(text)}


def test_invisible_characters_in_prose_are_warnings_and_named() -> None:
    text = MINIMAL.replace("description: Timed out.", 'description: "Timed out.\\u202e"')
    hits = [(s, m) for r, s, m in found(text) if r == "invisible-character"]
    assert hits == [("warning", hits[0][1])] and "U+202E RIGHT-TO-LEFT OVERRIDE" in hits[0][1]
    assert "\u202e" not in hits[0][1]


def test_invisible_characters_in_a_code_name_key_are_errors() -> None:
    text = MINIMAL.replace("codes:\n  TIMED_OUT:", 'codes:\n  "TIMED_OUT\\u200b":\n    identifier: TIMED_OUT_2\n  X_UNUSED:', 1)
    assert ("invisible-character", "error") in {(r, s) for r, s, _ in found(text)}


@pytest.mark.parametrize("lang,key", SETTINGS)
def test_the_registry_schema_refuses_a_package_setting_with_a_space(lang: str, key: str) -> None:
    """Editors see the same shape rules as lint (the patterns come from lint's table)."""
    import yaml
    from jsonschema import Draft202012Validator

    from errgen.registry import registry_schema

    def load(text: str) -> object:  # as editors read YAML 1.2: a date is a string
        return json.loads(json.dumps(yaml.safe_load(text), default=str))

    validator = Draft202012Validator(registry_schema.schema())
    assert validator.is_valid(load(MINIMAL))
    assert not validator.is_valid(load(with_target(lang, key, "a b")))
