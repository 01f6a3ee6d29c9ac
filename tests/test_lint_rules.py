"""One failing fixture per lint rule (tests/fixtures/lint/<rule>.yaml), each declaring on its first
line the rule, line and column it must produce: `# expect: rule-id LINE:COL`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import FIXTURES, REGISTRY
from errgen.registry.lint import lint_path
from errgen.registry.lint.base import RULES

CASES = sorted((FIXTURES / "lint").glob("*.yaml"))
EXPECT = re.compile(r"# expect: ([a-z-]+) (\d+):(\d+)")
# Reported while loading or checking shape, not by a rule function.
STRUCTURAL = {"unknown-key", "missing-key", "wrong-type", "duplicate-key", "yaml-alias", "yaml-tag", "format-version"}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_fixture_reports_its_rule_at_its_location(path: Path) -> None:
    match = EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0])
    assert match, f"{path.name} must start with '# expect: rule LINE:COL'"
    rule, line, column = match.group(1), int(match.group(2)), int(match.group(3))
    found = [(d.rule, d.line, d.column) for d in lint_path(path).diagnostics]
    assert (rule, line, column) in found, found


def test_every_rule_has_a_failing_fixture() -> None:
    covered = {p.stem for p in CASES}
    rule_ids = {r.id for r in RULES} | STRUCTURAL
    assert rule_ids - covered == set()


def test_rule_ids_are_unique_and_documented() -> None:
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))
    assert all(r.doc for r in RULES)


def test_valid_fixtures_lint_clean() -> None:
    for path in (FIXTURES / "valid-minimal.yaml", REGISTRY, *sorted((REGISTRY.parent.parent / "examples").glob("*.yaml"))):
        result = lint_path(path)
        assert result.diagnostics == [], [d.text() for d in result.diagnostics]


def test_all_problems_are_reported_in_one_run() -> None:
    text = (FIXTURES / "valid-minimal.yaml").read_text(encoding="utf-8")
    text = text.replace("http_status: 503", "http_status: 200").replace("category: validation", "category: nope")
    text = text.replace("version: 1.0.0\n", "version: 1.0.0\ncolour: blue\n", 1)
    from errgen.registry.lint import lint_text

    rules = {d.rule for d in lint_text(text).diagnostics}
    assert {"http-status-range", "unknown-category", "unknown-key"} <= rules


def test_unknown_category_names_the_nearest_existing_ones() -> None:
    diags = lint_path(FIXTURES / "lint" / "unknown-category.yaml").diagnostics
    message = next(d.message for d in diags if d.rule == "unknown-category")
    assert "did you mean 'validation'" in message


def test_a_contradicted_retryable_is_one_finding_not_two() -> None:
    """`retryable: true` with a retry_after_ms in a non-retryable category: the contradiction is the
    problem; saying the code "is not retryable" as well would contradict what the user wrote."""
    from errgen.registry.lint import lint_text

    text = (FIXTURES / "lint" / "retryable-contradiction.yaml").read_text(encoding="utf-8")
    text = text.replace("    retryable: true\n", "    retryable: true\n    retry_after_ms: 100\n")
    assert [d.rule for d in lint_text(text).diagnostics] == ["retryable-contradiction"]


def test_docs_registry_md_documents_every_rule() -> None:
    """The rule tables in docs/registry.md list exactly the registered rules and the loading and
    shape ids (errgen.rule_ids.LOAD), each in a row of its own (`errgen docs ID` prints it)."""
    from errgen.rule_ids import LOAD

    doc = (REGISTRY.parent.parent / "docs" / "registry.md").read_text(encoding="utf-8")
    section = doc.split("## Lint rules", 1)[1].split("\n## ", 1)[0]
    tabled = set(re.findall(r"^\| `([a-z-]+)` \|", section, flags=re.MULTILINE))
    assert tabled == {r.id for r in RULES} | set(LOAD)
    assert STRUCTURAL <= set(LOAD)
