"""Lint on hostile registry text (issue #24 items 5, 7, 12, 14; issue #29 item 7): non-ASCII digits
in versions, invisible characters, owners and package names that would break what they reach, and
messages that stay the same whatever the hash seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from errgen.lint import lint_text

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
    script = ("import sys; from errgen.lint import lint_text; "
              "print([d.message for d in lint_text(sys.stdin.read()).diagnostics if d.rule == 'unknown-category'])")
    outputs = set()
    for seed in ("1", "2", "3", "4", "5", "6"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": SRC}
        done = subprocess.run([sys.executable, "-c", script], input=text, capture_output=True, text=True, env=env, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1, outputs
    assert "expected one of: alpha, beta, kappa, mu, omega, validation, zeta" in outputs.pop()
