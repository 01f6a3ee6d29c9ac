"""`errgen owners` never writes a CODEOWNERS line that means more than "this file, this owner"
(issue #24 item 5), and registry text reaches terminals and CI logs as text, never as syntax
(item 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_errgen
from errgen.codeowners import CodeownersError, owner_problem, owners_section

HEADER = """errgen: 1
name: demo
version: 1.0.0
categories:
  transient: {retryable: true, description: Try again later.}
include: [teams/*.yaml]
history:
  - {version: 1.0.0, date: 2026-01-10, changes: [Initial.]}
"""
CODE = "codes:\n  {name}:\n    category: transient\n    scope: request\n    description: A code.\n    since: 1.0.0\n"


def folder(tmp_path: Path, fragments: dict[str, str]) -> Path:
    (tmp_path / "teams").mkdir()
    for name, text in fragments.items():
        (tmp_path / "teams" / name).write_text(text, encoding="utf-8")
    (tmp_path / "errors.yaml").write_text(HEADER, encoding="utf-8")
    return tmp_path / "errors.yaml"


@pytest.mark.parametrize("owner", ["@acme/payments\\n/** @attacker", "#x", "@a @b", "payments", "@acme/pay*", "\\e[31m@a"])
def test_an_owner_codeowners_cannot_carry_fails_lint_and_owners_writes_nothing(tmp_path: Path, owner: str) -> None:
    path = folder(tmp_path, {"a.yaml": f'owner: "{owner}"\n' + CODE.format(name="A")})
    linted = run_errgen("lint", "--registry", str(path), cwd=tmp_path)
    assert linted.returncode == 1 and "owner-syntax" in linted.stdout + linted.stderr
    done = run_errgen("owners", "--registry", str(path), "--root", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert "\x1b" not in done.stderr


@pytest.mark.parametrize("owner", ["@octocat", "@acme/payments", "@acme/pay-ments_2", "team@example.com", "@group/sub/team"])
def test_the_codeowners_owner_forms_are_accepted(owner: str) -> None:
    assert owner_problem(owner) is None


@pytest.mark.parametrize("name", ["*.yaml", "#x.yaml", "a b.yaml", "[ab].yaml", "!a.yaml", "a\\b.yaml", "a?.yaml"])
def test_owners_refuses_a_fragment_path_codeowners_reads_as_a_pattern(tmp_path: Path, name: str) -> None:
    path = folder(tmp_path, {name: "owner: '@acme/a'\n" + CODE.format(name="A")})
    done = run_errgen("owners", "--registry", str(path), "--root", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 1, done.stdout
    assert done.stdout == "" and "CODEOWNERS" in done.stderr


def test_owners_section_refuses_a_hostile_owner_whatever_lint_said(tmp_path: Path) -> None:
    with pytest.raises(CodeownersError, match="not a CODEOWNERS owner"):
        owners_section([(str(tmp_path / "a.yaml"), "@a\n/** @attacker")], tmp_path)
    assert owners_section([(str(tmp_path / "a.yaml"), "@a")], tmp_path).splitlines()[1] == "/a.yaml @a"


def test_registry_problems_under_format_github_are_escaped_annotations(tmp_path: Path) -> None:
    """A registry path with a newline cannot add an `::error` line to a CI log (#24.11)."""
    from conftest import FIXTURES

    good = FIXTURES / "valid-minimal.yaml"
    bad = tmp_path / "x\n::error::owned.yaml"
    bad.write_text(good.read_text(encoding="utf-8").replace("category: transient", "category: nope"), encoding="utf-8")
    for args in (["diff", str(good), str(bad)], ["validate", "--registry", str(bad), str(good)]):
        done = run_errgen(*args, "--format", "github", cwd=tmp_path)
        assert done.returncode == 1
        out = (done.stdout + done.stderr).splitlines()
        assert not [line for line in out if line.startswith("::error::owned")], out
        assert any(line.startswith("::error file=") and "%0A%3A%3Aerror%3A%3Aowned.yaml" in line for line in out), out


def test_diff_text_spells_out_control_characters_in_owners(tmp_path: Path) -> None:
    from errgen.diff.output import text
    from errgen.diff.changes import Change, DiffReport

    change = Change(rule="code-added", code="A", bump="minor", message="A was added\x1b[2J", owner="@a\x1b]0;x\x07")
    report = DiffReport(old_version="1.0.0", new_version="1.1.0", changes=[change], header="errors.yaml")
    shown = text(report)
    assert "\x1b" not in shown and "\x07" not in shown and "\\u001b" in shown


def test_text_output_keeps_registry_and_payload_text_on_its_line(tmp_path: Path) -> None:
    """A CI log reads any line starting with `::` as a workflow command, whatever --format says."""
    from conftest import FIXTURES

    bad = tmp_path / "x\n::error::owned.yaml"
    bad.write_text((FIXTURES / "valid-minimal.yaml").read_text(encoding="utf-8").replace("category: transient", "category: nope"), encoding="utf-8")
    linted = run_errgen("lint", "--registry", str(bad), cwd=tmp_path)
    payload = tmp_path / "p.json"
    payload.write_text('{"code": "TIMED_OUT", "x\\n::error::owned\\u001b[2J": 1}', encoding="utf-8")
    validated = run_errgen("validate", "--registry", str(FIXTURES / "valid-minimal.yaml"), str(payload), cwd=tmp_path)
    for done in (linted, validated):
        assert done.returncode == 1
        lines = (done.stdout + done.stderr).splitlines()
        assert not [line for line in lines if line.startswith("::")], lines
        assert "\x1b" not in done.stdout + done.stderr
