"""errgen diff on how a real response is read (`wire.format`, `wire.response`, a code's
`wire_code` and `when`): where a response carries the code is a break for clients; where it
carries the request id or the delay is not."""

from __future__ import annotations

import copy
from typing import Any

import yaml

from test_diff import BASE, lint_ok
from errgen.diff import classify, diff

VARIANTS = {
    "CONDITION_NOT_MET": {"category": "validation", "scope": "request", "http_status": 412, "description": "A precondition failed.",
                          "since": "1.0.0", "wire_code": "ConditionNotMet", "when": [{"status": [412]}]},
    "NOT_MODIFIED": {"category": "validation", "scope": "request", "http_status": 304, "description": "Nothing changed.",
                     "since": "1.0.0", "wire_code": "ConditionNotMet", "when": [{"status": [304]}]},
}


def rules(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(c.rule, c.code or c.detail, c.bump) for c in classify(lint_ok(old, "old.yaml"), lint_ok(new, "new.yaml"))]


def with_variants() -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["codes"].update(copy.deepcopy(VARIANTS))
    return data


def test_a_changed_condition_is_a_break_of_that_code() -> None:
    old, new = with_variants(), with_variants()
    new["codes"]["NOT_MODIFIED"]["when"] = [{"status": [304, 412]}]
    assert rules(old, new) == [("wire-condition-changed", "NOT_MODIFIED", "major")]


def test_reordered_code_sources_are_a_break() -> None:
    old = copy.deepcopy(BASE)
    old["wire"] = {"envelope": "error", "response": {"code": ["body:error.code", "body:error.type"]}}
    new = copy.deepcopy(old)
    new["wire"]["response"]["code"] = ["body:error.type", "body:error.code"]
    assert rules(old, new) == [("response-reading-changed", "code_source", "major")]


def test_an_envelope_change_is_reported_once_as_a_wire_change() -> None:
    new = copy.deepcopy(BASE)
    new["wire"] = {"envelope": "error"}  # the default code source moves with it: not a second change
    assert [r[0] for r in rules(BASE, new)] == ["wire-changed"]


def test_an_envelope_becoming_an_array_is_a_wire_change_naming_it() -> None:
    """SPEC E: `errors` -> `errors[*]` keeps the key but not the body's shape."""
    old = copy.deepcopy(BASE)
    old["wire"] = {"envelope": "errors"}
    new = copy.deepcopy(BASE)
    new["wire"] = {"envelope": "errors[*]"}
    [change] = classify(lint_ok(old, "old.yaml"), lint_ok(new, "new.yaml"))
    assert (change.rule, change.bump) == ("wire-changed", "major")
    assert "from errors to errors[*]" in change.message


def test_naming_wire_in_the_history_announces_a_registry_level_wire_break() -> None:
    new = copy.deepcopy(BASE)
    new["version"] = "2.0.0"
    new["wire"] = {"case": "camel", "response": {"code": ["header:x-error-code"]}}
    new["history"].append({"version": "2.0.0", "date": "2026-04-01", "changes": ["Fields are camelCase on the wire; the code is a header."]})
    report = diff(lint_ok(BASE, "old.yaml"), lint_ok(yaml.safe_load(yaml.safe_dump(new)), "new.yaml"))
    assert {c.rule for c in report.changes} == {"wire-changed", "response-reading-changed"}
    assert report.ok, [c.message for c in report.checks]
    assert {c.announcement for c in report.changes} == {"announced"}


def test_a_new_registry_for_an_existing_api_needs_no_major_release() -> None:
    """Its wire shape is where the API already is: nothing came before it to break."""
    from pathlib import Path

    from errgen.diff import empty_registry
    from errgen.registry.lint import lint_path

    root = Path(__file__).parent.parent / "examples"
    for path in (root / "payments-api.yaml", root / "apis" / "slack.yaml", root / "apis" / "azure-storage.yaml"):
        new = lint_path(path).registry
        report = diff(empty_registry(new, str(path)), new, new_registry=True)
        assert [c.rule for c in report.changes if c.bump == "major"] == [], path.name


def test_wire_prefix_added_is_minor_changed_or_removed_is_a_break() -> None:
    """SPEC P: a new prefix reads codes old clients decided as unknown; a changed or removed one
    takes from old clients codes they read as this code. A `when` on a code that shared neither a
    wire code nor a prefix selected nothing: adding it with the prefix is no break."""
    old, new = with_variants(), with_variants()
    first = "BAD_INPUT"  # shares neither a wire code nor a prefix in BASE
    new["codes"][first]["wire_prefix"] = "X_"
    new["codes"][first]["when"] = [{"status": [503]}]
    assert rules(old, new) == [("wire-prefix-added", first, "minor")]
    changed = copy.deepcopy(new)
    changed["codes"][first]["wire_prefix"] = "Y_"
    assert rules(new, changed) == [("wire-prefix-changed", first, "major")]
    removed = copy.deepcopy(new)
    del removed["codes"][first]["wire_prefix"]
    assert rules(new, removed) == [("wire-prefix-changed", first, "major")]
