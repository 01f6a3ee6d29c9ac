"""The diff report (issue 14): grouped by kind with each break's announcement status, the since
check, category-level announcements, wording, rule declarations and their generated docs; and
the diff comparing derived behaviour (issue 12, bug 1)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from jsonschema import Draft7Validator

from test_diff import BASE, ROWS, SARIF_SCHEMA, lint_ok, run
from errgen.cli import main
from errgen.diff import classify, diff
from errgen.diff.docs import render as render_rule_docs
from errgen.diff.output import FORMATS
from errgen.diff.changes import RULE_SPECS
from errgen import manual

ROOT = Path(__file__).resolve().parent.parent


def release(data: dict[str, Any], version: str, *changes: str, **extra: Any) -> dict[str, Any]:
    data["version"] = version
    data["history"].append({"version": version, "date": "2026-04-01", "changes": list(changes) or ["Release."], **extra})
    return data


def removal(mention: str) -> tuple[dict[str, Any], dict[str, Any]]:
    new = copy.deepcopy(BASE)
    del new["codes"]["BAD_INPUT"]
    return BASE, release(new, "2.0.0", mention)


# --- 1. report structure -------------------------------------------------------------------------

def test_an_unannounced_break_is_never_under_an_announced_heading() -> None:
    report = diff(*(lint_ok(d, "registry/errors.yaml") for d in removal("Cleanup.")))
    text = FORMATS["text"](report)
    assert "announced)" not in text.split("Failed checks:")[0].replace("not announced", "")
    assert "Breaking changes (major):" in text and "code-removed: BAD_INPUT was removed" in text
    assert "[not announced]" in text and "error[break-not-announced]" in text.split("Failed checks:")[1]
    markdown = FORMATS["markdown"](report)
    assert "**Breaking changes (major)**" in markdown and "| not announced |" in markdown and "**Failed checks**" in markdown
    github = FORMATS["github"](report)
    assert "::warning file=registry/errors.yaml" in github and "title=major code-removed (not announced)::" in github
    assert "title=check break-not-announced::" in github
    sarif = json.loads(FORMATS["sarif"](report))
    [removed] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "code-removed"]
    assert removed["properties"]["announcement"] == "not-announced" and removed["level"] == "warning"


def test_announced_and_accepted_breaks_say_so_on_the_change(tmp_path: Path) -> None:
    done = run(tmp_path, *removal("Removed BAD_INPUT: nobody sends it."))
    assert done.exit_code == 0, done.output
    assert "BAD_INPUT was removed: clients and services that use it break [announced in history]" in done.output
    new = copy.deepcopy(BASE)
    del new["codes"]["BAD_INPUT"]
    release(new, "1.3.0", "Cleanup.", accepted_breaks=[{"rule": "code-removed", "code": "BAD_INPUT", "reason": "never emitted"}])
    done = run(tmp_path, BASE, new, "--format", "markdown")
    assert done.exit_code == 0 and "| accepted: never emitted |" in done.output


def test_additions_without_a_version_bump_are_not_errors_the_version_check_is(tmp_path: Path) -> None:
    new = copy.deepcopy(BASE)
    new["codes"]["NEW_CODE"] = {"category": "auth", "scope": "request", "http_status": 403, "description": "New.", "since": "1.2.0"}
    done = run(tmp_path, BASE, new, "--format", "github")
    assert done.exit_code == 1
    errors = [line for line in done.output.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and "title=check version-bump-insufficient::" in errors[0]
    assert "::notice file=" in done.output and "title=minor code-added::NEW_CODE was added" in done.output
    text = run(tmp_path, BASE, new).output
    assert text.index("Minor changes:") < text.index("NEW_CODE was added") < text.index("Failed checks:")


# --- 2. since --------------------------------------------------------------------------------------

def test_an_added_code_must_say_since_the_new_version(tmp_path: Path) -> None:
    new = copy.deepcopy(BASE)
    new["codes"]["NEW_CODE"] = {"category": "auth", "scope": "request", "http_status": 403, "description": "New.", "since": "1.2.0"}
    release(new, "1.3.0", "Add NEW_CODE.")
    done = run(tmp_path, BASE, new)
    assert done.exit_code == 1
    assert "error[since-mismatch]: NEW_CODE first appears in 1.3.0 but says since: 1.2.0; set since: 1.3.0" in done.output
    new["codes"]["NEW_CODE"]["since"] = "1.3.0"
    assert run(tmp_path, BASE, new).exit_code == 0


def test_a_rename_target_keeps_the_since_of_the_code_it_renames(tmp_path: Path) -> None:
    """A renamed code is the same error under a new name: its `since` stays (issue #29 item 6)."""
    new = copy.deepcopy(BASE)
    new["codes"]["INPUT_INVALID"] = dict(new["codes"].pop("BAD_INPUT"), renamed_from=["BAD_INPUT"])
    release(new, "2.0.0", "Rename BAD_INPUT to INPUT_INVALID.")
    new["codes"]["INPUT_INVALID"]["since"] = "2.0.0"
    done = run(tmp_path, BASE, new)
    assert "error[since-mismatch]: INPUT_INVALID renames BAD_INPUT, which says since: 1.0.0; a rename keeps it" in done.output
    new["codes"]["INPUT_INVALID"]["since"] = "1.0.0"
    assert run(tmp_path, BASE, new).exit_code == 0


# --- 3. category-level announcements ---------------------------------------------------------------

def many_codes_in_validation(n: int) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    for i in range(n):
        data["codes"][f"FIELD_{i}_INVALID"] = {"category": "validation", "scope": "request", "http_status": 400,
                                               "description": f"Field {i} is invalid.", "since": "1.0.0"}
    return data


def test_naming_the_category_announces_a_category_level_break(tmp_path: Path) -> None:
    old = many_codes_in_validation(144)
    new = copy.deepcopy(old)
    new["categories"]["validation"]["action"] = "escalate"
    report = diff(lint_ok(old, "o"), lint_ok(release(copy.deepcopy(new), "2.0.0", "Validation failures now escalate."), "n"))
    [change] = [c for c in report.changes if c.rule == "category-action-changed"]
    assert len(change.affects) == 146 and "FIELD_143_INVALID" in change.message  # the report lists the codes
    assert [c.rule for c in report.checks] == ["break-not-announced"]
    assert "name category validation (or the rule category-action-changed)" in report.checks[0].message
    for said in ("The validation category now escalates.", "category-action-changed: fix -> escalate."):
        report = diff(lint_ok(old, "o"), lint_ok(release(copy.deepcopy(new), "2.0.0", said), "n"))
        assert report.ok and report.changes[0].announcement == "announced", [c.message for c in report.checks]
    accepted = release(copy.deepcopy(new), "1.3.0", "Tidy.", accepted_breaks=[
        {"rule": "category-action-changed", "category": "validation", "reason": "no client acts on fix yet"}])
    report = diff(lint_ok(old, "o"), lint_ok(accepted, "n"))
    assert report.ok and report.required_bump == "minor" and report.changes[0].announcement == "accepted"


def test_naming_a_removed_category_announces_the_removal_of_its_codes() -> None:
    new = copy.deepcopy(BASE)
    del new["categories"]["auth"]
    del new["codes"]["TOKEN_EXPIRED"]
    report = diff(lint_ok(BASE, "o"), lint_ok(release(new, "2.0.0", "The auth category is gone."), "n"))
    assert report.ok and {c.rule: c.announcement for c in report.changes} == {"code-removed": "announced", "category-removed": "announced"}
    other = copy.deepcopy(new)
    del other["codes"]["BAD_INPUT"]
    report = diff(lint_ok(BASE, "o"), lint_ok(other, "n"))
    assert [c.code for c in report.checks if c.rule == "break-not-announced"] == ["BAD_INPUT"]


def test_naming_a_renamed_category_announces_its_codes_moving_out() -> None:
    old = many_codes_in_validation(50)
    new = copy.deepcopy(old)
    new["categories"]["input"] = new["categories"].pop("validation")
    for code in new["codes"].values():
        if code["category"] == "validation":
            code["category"] = "input"
    report = diff(lint_ok(old, "o"), lint_ok(release(new, "2.0.0", "Category validation is now called input."), "n"))
    assert report.ok, [c.message for c in report.checks]
    moved = [c for c in report.changes if c.rule == "category-changed"]
    assert len(moved) == 52 and all(c.announcement == "announced" for c in moved)


def test_registry_level_changes_are_announced_by_their_key() -> None:
    new = copy.deepcopy(BASE)
    new["problem_base"] = "https://errors.example.com/"
    report = diff(lint_ok(BASE, "o"), lint_ok(release(copy.deepcopy(new), "2.0.0", "New home."), "n"))
    assert [c.rule for c in report.checks] == ["break-not-announced"] and "say problem_base" in report.checks[0].message
    assert diff(lint_ok(BASE, "o"), lint_ok(release(new, "2.0.0", "Moved problem_base to example.com."), "n")).ok


def test_a_category_accepted_break_does_not_cover_a_code_level_break() -> None:
    new = copy.deepcopy(BASE)
    new["codes"]["BAD_INPUT"]["http_status"] = 422
    release(new, "1.3.0", "Tidy.", accepted_breaks=[{"rule": "http-status-changed", "category": "validation", "reason": "x"}])
    rules = {c.rule for c in diff(lint_ok(BASE, "o"), lint_ok(new, "n")).checks}
    assert {"accepted-break-unused", "version-bump-insufficient", "break-not-announced"} <= rules


# --- 4. wording ---------------------------------------------------------------------------------------

def test_a_downgrade_is_called_a_downgrade() -> None:
    old = copy.deepcopy(BASE)
    release(old, "16.0.0", "Sixteen.")
    new = copy.deepcopy(BASE)
    new["version"] = "9.6.0"
    new["history"].append({"version": "9.6.0", "date": "2026-04-01", "changes": ["Nine six."]})
    report = diff(lint_ok(old, "o"), lint_ok(new, "n"))
    text = FORMATS["text"](report)
    assert "16.0.0 -> 9.6.0: the version went backwards. FAILED" in text
    assert "declares" not in text and "makes a major" not in text
    assert "version went backwards from 16.0.0 to 9.6.0: a release never lowers the version; set it to 16.0.0 or later" in text


def test_no_changes_read_as_no_release_needed() -> None:
    text = FORMATS["text"](diff(lint_ok(BASE, "o"), lint_ok(BASE, "n")))
    assert text.splitlines()[0] == "No contract changes."
    assert "1.2.0 -> 1.2.0: no contract changes; no release is needed. OK." in text
    assert "none" not in text


def test_every_check_message_says_what_to_do_next() -> None:
    new = copy.deepcopy(BASE)
    del new["codes"]["BAD_INPUT"]
    new["codes"]["NEW_CODE"] = {"category": "auth", "scope": "request", "http_status": 403, "description": "New.", "since": "1.2.0"}
    release(new, "1.3.0", "Tidy.", accepted_breaks=[{"rule": "http-status-changed", "code": "TIMED_OUT", "reason": "x"}])
    checks = diff(lint_ok(BASE, "o"), lint_ok(new, "n")).checks
    assert {c.rule for c in checks} == {"version-bump-insufficient", "break-not-announced", "accepted-break-unused", "since-mismatch"}
    for check in checks:
        assert any(verb in check.message for verb in ("run `errgen bump`", "; name ", "remove the item", "; set since")), check.message


# --- issue 12, bug 1: derived behaviour, not raw fields --------------------------------------------

def test_a_resource_only_code_whose_action_field_changes_has_no_change() -> None:
    old = copy.deepcopy(BASE)
    old["codes"]["ROW_SKIPPED"] = {"category": "validation", "scope": "resource", "scopes": ["resource"], "action": "fix",
                                   "http_status": 422, "description": "A row was skipped.", "since": "1.0.0"}
    new = copy.deepcopy(old)
    new["codes"]["ROW_SKIPPED"]["action"] = "escalate"
    assert classify(lint_ok(old, "o"), lint_ok(new, "n")) == []
    both = copy.deepcopy(new)
    both["codes"]["ROW_SKIPPED"]["scopes"] = ["resource", "request"]
    old_both = copy.deepcopy(old)
    old_both["codes"]["ROW_SKIPPED"]["scopes"] = ["resource", "request"]
    [change] = classify(lint_ok(old_both, "o"), lint_ok(both, "n"))
    assert change.rule == "action-changed" and "request: fix -> escalate" in change.message and "resource" not in change.message


def test_a_category_action_change_lists_only_codes_whose_behaviour_changes() -> None:
    old = copy.deepcopy(BASE)
    old["codes"]["ROW_SKIPPED"] = {"category": "validation", "scope": "resource", "http_status": 422, "description": "Skipped.", "since": "1.0.0"}
    new = copy.deepcopy(old)
    new["categories"]["validation"]["action"] = "escalate"
    [change] = classify(lint_ok(old, "o"), lint_ok(new, "n"))
    assert change.rule == "category-action-changed" and change.affects == ("BAD_INPUT", "OLD_THING")


# --- 6. declared rules and their docs ---------------------------------------------------------------

def test_every_reported_rule_is_declared_and_every_change_rule_has_an_example_pair() -> None:
    # Informational rules (moves, owners) need a folder registry: tests/test_diff_fragments.py.
    change_rules = {s.id for s in RULE_SPECS.values() if s.level != "check" and s.bump != "none"}
    assert {row[2] for row in ROWS} == change_rules
    for spec in RULE_SPECS.values():
        assert spec.description.endswith(".") and spec.example and spec.bump in ("major", "minor", "patch", "none")


def test_rules_doc_is_generated_from_the_declarations() -> None:
    committed = (ROOT / "docs" / "diff-rules.md").read_text(encoding="utf-8")
    assert committed == render_rule_docs(), "refresh: python -m errgen.diff.docs > docs/diff-rules.md"
    for rule_id in RULE_SPECS:
        assert f"\n### {rule_id}\n" in committed


def _sarif_rules(report: Any) -> dict[str, Any]:
    sarif = json.loads(FORMATS["sarif"](report))
    Draft7Validator(json.loads(SARIF_SCHEMA.read_text())).validate(sarif)
    rules = {r["id"]: r for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert set(rules) == set(RULE_SPECS)
    for rule_id, rule in rules.items():
        assert rule["fullDescription"]["text"] == RULE_SPECS[rule_id].description
        assert rule["help"]["text"] == f"errgen docs {rule_id}"
    return rules


def test_without_docs_url_outputs_name_each_rule_by_command_and_link_nowhere() -> None:
    # errgen publishes its docs nowhere: a link would be invented, so `errgen docs RULE` instead
    manual.use(None)
    report = diff(*(lint_ok(d, "registry/errors.yaml") for d in removal("Cleanup.")))
    assert all("helpUri" not in rule for rule in _sarif_rules(report).values())
    assert FORMATS["text"](report).endswith("\nRules: errgen docs break-not-announced, errgen docs code-removed")
    assert FORMATS["markdown"](report).endswith("\nRules: `errgen docs break-not-announced`, `errgen docs code-removed`\n")
    change = json.loads(FORMATS["json"](report))["changes"][0]
    assert (change["rule"], change["doc"], change["docs_command"]) == ("code-removed", None, "errgen docs code-removed")
    assert all(re.findall(r"https?://[^\s\"]+", FORMATS[f](report)) in ([], ["https://json.schemastore.org/sarif-2.1.0.json"]) for f in FORMATS)


def test_under_docs_url_outputs_link_each_rule_to_its_anchor() -> None:
    base = "https://docs.example.com/errgen/"
    manual.use(base)
    try:
        report = diff(*(lint_ok(d, "registry/errors.yaml") for d in removal("Cleanup.")))
        rules = _sarif_rules(report)
        text, markdown, as_json = (FORMATS[f](report) for f in ("text", "markdown", "json"))
    finally:
        manual.use(None)
    assert all(rule["helpUri"] == f"{base}diff-rules.md#{rule_id}" for rule_id, rule in rules.items())
    assert text.endswith(f"\nRules (errgen docs RULE prints one): {base}diff-rules.md#break-not-announced, {base}diff-rules.md#code-removed")
    assert markdown.endswith(f"\nRules: [`break-not-announced`]({base}diff-rules.md#break-not-announced), "
                             f"[`code-removed`]({base}diff-rules.md#code-removed)\n")
    change = json.loads(as_json)["changes"][0]
    assert (change["doc"], change["docs_command"]) == (f"{base}diff-rules.md#code-removed", "errgen docs code-removed")


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif", "markdown"])
def test_every_format_exits_by_the_checks(fmt: str, tmp_path: Path) -> None:
    assert run(tmp_path, *removal("Cleanup."), "--format", fmt).exit_code == 1
    assert run(tmp_path, *removal("Removed BAD_INPUT."), "--format", fmt).exit_code == 0
    assert CliRunner().invoke(main, ["diff", "--help"]).exit_code == 0
