"""errgen diff, table-driven: one pair of registries per kind of change, asserting the rule, the
code, the bump, and the exit code with the version left alone and with the version bumped."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml
from click.testing import CliRunner
from jsonschema import Draft7Validator

from conftest import FIXTURES, REGISTRY
from errgen import semver
from errgen.cli import main
from errgen.diff import classify, diff
from errgen.registry.lint import lint_text

SARIF_SCHEMA = Path(__file__).parent / "ts" / "node_modules" / "@microsoft" / "jest-sarif" / "lib" / "schemas" / "sarif-2.1.0-rtm.5.json"

BASE: dict[str, Any] = {
    "errgen": 1, "name": "demo", "version": "1.2.0",
    "categories": {
        "transient": {"retryable": True, "description": "Try again later."},
        "validation": {"retryable": False, "action": "fix", "description": "Fix the request."},
        "auth": {"retryable": False, "description": "A human must act."},
    },
    "codes": {
        "TIMED_OUT": {"category": "transient", "scope": "request", "scopes": ["request", "service"], "retry_after_ms": 500,
                      "http_status": 504, "description": "The upstream did not answer in time.", "hints": ["state"], "since": "1.0.0",
                      "wire_prefix": "TIMED_OUT_"},
        "BAD_INPUT": {"category": "validation", "scope": "request", "http_status": 400, "description": "The input is malformed.",
                      "hints": ["searched", "accepted"], "since": "1.0.0"},
        "OLD_THING": {"category": "validation", "scope": "request", "http_status": 404, "description": "Gone thing.",
                      "deprecated": {"since": "1.1.0"}, "since": "1.0.0"},
        "TOKEN_EXPIRED": {"category": "auth", "scope": "request", "http_status": 401, "description": "The token expired.", "since": "1.0.0"},
    },
    "history": [
        {"version": "1.0.0", "date": "2026-01-10", "changes": ["Initial."]},
        {"version": "1.1.0", "date": "2026-02-10", "changes": ["Deprecate OLD_THING."]},
        {"version": "1.2.0", "date": "2026-03-10", "changes": ["Tweaks."]},
    ],
}

Mutation = Callable[[dict[str, Any]], None]


def codes(r: dict[str, Any]) -> dict[str, Any]:
    return r["codes"]


def add_code(r: dict[str, Any]) -> None:
    codes(r)["NEW_CODE"] = {"category": "auth", "scope": "request", "http_status": 403, "description": "New.", "since": "1.2.0"}


def rename(old: str, new: str, declared: bool) -> Mutation:
    def apply(r: dict[str, Any]) -> None:
        items = list(codes(r).items())
        entry = copy.deepcopy(dict(items)[old])
        if declared:
            entry["renamed_from"] = [old]
            entry["description"] = "Something else entirely, reworded."
        r["codes"] = {(new if k == old else k): (entry if k == old else v) for k, v in items}
    return apply


def set_code(name: str, key: str, value: Any) -> Mutation:
    return lambda r: codes(r)[name].__setitem__(key, value)


def drop_code_key(name: str, key: str) -> Mutation:
    return lambda r: codes(r)[name].pop(key)


def set_category(name: str, key: str, value: Any) -> Mutation:
    return lambda r: r["categories"][name].__setitem__(key, value)


def remove_category(r: dict[str, Any]) -> None:
    del r["categories"]["auth"]
    del codes(r)["TOKEN_EXPIRED"]


def flip_category_retryable(r: dict[str, Any]) -> None:
    r["categories"]["auth"]["retryable"] = True


def move_to_other_category(r: dict[str, Any]) -> None:
    codes(r)["TOKEN_EXPIRED"]["category"] = "transient"


def edit_history(r: dict[str, Any]) -> None:
    r["history"][0]["changes"] = ["Initial contract."]


# (id, mutation, rule, code or category, bump)
ROWS: list[tuple[str, Mutation, str, str, str]] = [
    ("code added", add_code, "code-added", "NEW_CODE", "minor"),
    ("category added", lambda r: r["categories"].__setitem__("quota", {"retryable": True, "description": "Quota."}), "category-added", "quota", "minor"),
    ("hint allowed", set_code("TIMED_OUT", "hints", ["state", "safe_to_replay"]), "hint-added", "TIMED_OUT", "minor"),
    ("scope added", set_code("BAD_INPUT", "scopes", ["request", "resource"]), "scope-added", "BAD_INPUT", "minor"),
    ("code deprecated", set_code("TOKEN_EXPIRED", "deprecated", {"since": "1.2.0"}), "code-deprecated", "TOKEN_EXPIRED", "minor"),
    ("description", set_code("BAD_INPUT", "description", "The input is not valid."), "description-changed", "BAD_INPUT", "patch"),
    ("category description", set_category("auth", "description", "Someone must act."), "category-description-changed", "auth", "patch"),
    ("history text", edit_history, "history-changed", "", "patch"),
    ("retry delay", set_code("TIMED_OUT", "retry_after_ms", 800), "retry-after-changed", "TIMED_OUT", "patch"),
    ("code removed", lambda r: codes(r).pop("BAD_INPUT"), "code-removed", "BAD_INPUT", "major"),
    ("code renamed", rename("BAD_INPUT", "INPUT_INVALID", declared=True), "code-renamed", "BAD_INPUT", "major"),
    ("probable rename", rename("BAD_INPUT", "INPUT_MALFORMED", declared=False), "code-probably-renamed", "BAD_INPUT", "major"),
    ("underscore-only rename", rename("TIMED_OUT", "TIMEDOUT", declared=False), "code-probably-renamed", "TIMED_OUT", "major"),
    ("category changed", set_code("OLD_THING", "category", "auth"), "category-changed", "OLD_THING", "major"),
    ("retryable changed", move_to_other_category, "retryable-changed", "TOKEN_EXPIRED", "major"),
    ("action changed", set_code("BAD_INPUT", "action", "escalate"), "action-changed", "BAD_INPUT", "major"),
    ("default scope", set_code("TIMED_OUT", "scope", "service"), "default-scope-changed", "TIMED_OUT", "major"),
    ("http status", set_code("TOKEN_EXPIRED", "http_status", 403), "http-status-changed", "TOKEN_EXPIRED", "major"),
    ("scope removed", set_code("TIMED_OUT", "scopes", ["request"]), "scope-removed", "TIMED_OUT", "major"),
    ("hint removed", set_code("BAD_INPUT", "hints", ["searched"]), "hint-removed", "BAD_INPUT", "major"),
    ("category removed", remove_category, "category-removed", "auth", "major"),
    ("category retryable", flip_category_retryable, "category-retryable-changed", "auth", "major"),
    ("category action", set_category("validation", "action", "escalate"), "category-action-changed", "validation", "major"),
    ("deprecated code removed", lambda r: codes(r).pop("OLD_THING"), "code-removed", "OLD_THING", "major"),
    ("problem base", lambda r: r.__setitem__("problem_base", "https://errors.example.com/"), "problem-base-changed", "", "major"),
    ("npm package", lambda r: r.__setitem__("targets", {"typescript": {"package": "@demo/errors"}}), "package-changed", "", "major"),
    ("wire case", lambda r: r.__setitem__("wire", {"case": "camel"}), "wire-changed", "", "major"),
    ("wire envelope", lambda r: r.__setitem__("wire", {"envelope": "error"}), "wire-changed", "", "major"),
    ("problem type", set_code("BAD_INPUT", "type_uri", "https://docs.example/errors/bad-input"), "type-uri-changed", "BAD_INPUT", "major"),
    ("response code source", lambda r: r.__setitem__("wire", {"response": {"code": ["header:x-error-code"]}}), "response-reading-changed", "", "major"),
    ("response format", lambda r: r.__setitem__("wire", {"format": "xml", "response": {"code": ["body:Error.Code"]}}), "response-reading-changed", "", "major"),
    ("response error_when", lambda r: r.__setitem__("wire", {"response": {"error_when": [{"at": "body:ok", "equals": False}]}}),
     "response-reading-changed", "", "major"),
    ("response request id", lambda r: r.__setitem__("wire", {"response": {"correlation_id": ["header:x-request-id"]}}), "response-detail-changed", "", "patch"),
    ("response delay", lambda r: r.__setitem__("wire", {"response": {"retry_after": [{"at": "header:x-ratelimit-reset", "unit": "epoch_seconds"}]}}),
     "response-detail-changed", "", "patch"),
    ("wire code", set_code("BAD_INPUT", "wire_code", "invalid_input"), "wire-code-changed", "BAD_INPUT", "major"),
    ("wire condition", set_code("BAD_INPUT", "when", [{"status": [400]}]), "wire-condition-changed", "BAD_INPUT", "major"),
    ("wire prefix added", set_code("BAD_INPUT", "wire_prefix", "BAD_"), "wire-prefix-added", "BAD_INPUT", "minor"),
    ("wire prefix changed", set_code("TIMED_OUT", "wire_prefix", "TIMEOUT_"), "wire-prefix-changed", "TIMED_OUT", "major"),
]


def lint_ok(data: dict[str, Any], path: str) -> Any:
    result = lint_text(yaml.safe_dump(data, sort_keys=False), path)
    assert result.ok, [d.text() for d in result.diagnostics]
    return result.registry


def announce(data: dict[str, Any], bump: str, mention: list[str]) -> None:
    """What a careful author does: bump the version and name every broken code in the history."""
    version = str(semver.bumped(semver.parse(data["version"]), bump))  # type: ignore[arg-type]
    data["version"] = version
    data["history"].append({"version": version, "date": "2026-04-01", "changes": [f"Changed {', '.join(mention) or 'wording'}."]})
    gone = [c for n, c in BASE["codes"].items() if n not in data["codes"]]
    for name, code in data["codes"].items():
        renamed = code.get("renamed_from") or any(c["description"] == code["description"] for c in gone)
        if name not in BASE["codes"] and not renamed:  # a renamed code keeps the since of the code it renames
            code["since"] = version  # a code's since is the release it first appears in


def run(tmp_path: Path, old: dict[str, Any], new: dict[str, Any], *args: str) -> Any:
    (tmp_path / "old.yaml").write_text(yaml.safe_dump(old, sort_keys=False))
    (tmp_path / "new.yaml").write_text(yaml.safe_dump(new, sort_keys=False))
    return CliRunner().invoke(main, ["diff", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"), *args])


@pytest.mark.parametrize(("mutation", "rule", "subject", "bump"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_each_change_is_classified_and_gated(mutation: Mutation, rule: str, subject: str, bump: str, tmp_path: Path) -> None:
    new = copy.deepcopy(BASE)
    mutation(new)
    changes = classify(lint_ok(BASE, "old.yaml"), lint_ok(new, "new.yaml"))
    match = [c for c in changes if c.rule == rule]
    assert match, [c.rule for c in changes]
    assert (match[0].code or match[0].category or "") == subject
    assert match[0].bump == bump
    # Version left alone: CI fails.
    assert run(tmp_path, BASE, new).exit_code == 1
    # Version bumped as required and the break announced: CI passes.
    announce(new, bump, sorted({code for c in changes for code in c.affects} | {c.detail for c in changes if not c.affects and c.bump == "major"}))
    done = run(tmp_path, BASE, new, "--format", "json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["required_bump"] == bump


def test_deprecated_removal_says_it_was_deprecated() -> None:
    new = copy.deepcopy(BASE)
    del new["codes"]["OLD_THING"]
    [change] = [c for c in classify(lint_ok(BASE, "o"), lint_ok(new, "n")) if c.rule == "code-removed"]
    assert "deprecated since 1.1.0" in change.message


def test_category_retryable_change_lists_every_affected_code() -> None:
    new = copy.deepcopy(BASE)
    new["categories"]["validation"]["retryable"] = True
    del new["categories"]["validation"]["action"]
    [change] = [c for c in classify(lint_ok(BASE, "o"), lint_ok(new, "n")) if c.rule == "category-retryable-changed"]
    assert change.affects == ("BAD_INPUT", "OLD_THING")
    assert "BAD_INPUT" in change.message and "OLD_THING" in change.message


def test_unannounced_break_fails_even_with_a_major_bump(tmp_path: Path) -> None:
    new = copy.deepcopy(BASE)
    del new["codes"]["BAD_INPUT"]
    announce(new, "major", [])
    done = run(tmp_path, BASE, new)
    assert done.exit_code == 1
    assert "break-not-announced" in done.output and "does not mention BAD_INPUT" in done.output


def test_accepted_break_passes_but_is_still_reported(tmp_path: Path) -> None:
    new = copy.deepcopy(BASE)
    del new["codes"]["TOKEN_EXPIRED"]
    new["version"] = "1.3.0"
    new["history"].append({"version": "1.3.0", "date": "2026-04-01", "changes": ["Drop a code."],
                           "accepted_breaks": [{"rule": "code-removed", "code": "TOKEN_EXPIRED", "reason": "never emitted"}]})
    done = run(tmp_path, BASE, new, "--format", "json")
    assert done.exit_code == 0, done.output
    [change] = [c for c in json.loads(done.stdout)["changes"] if c["rule"] == "code-removed"]
    assert change["announcement"] == "accepted" and change["reason"] == "never emitted"
    assert "[accepted: never emitted]" in run(tmp_path, BASE, new).output


def test_a_suppression_never_widens(tmp_path: Path) -> None:
    new = copy.deepcopy(BASE)
    del new["codes"]["TOKEN_EXPIRED"]
    del new["codes"]["BAD_INPUT"]
    new["version"] = "1.3.0"
    new["history"].append({"version": "1.3.0", "date": "2026-04-01", "changes": ["Drop codes TOKEN_EXPIRED BAD_INPUT."],
                           "accepted_breaks": [{"rule": "code-removed", "code": "TOKEN_EXPIRED", "reason": "never emitted"},
                                               {"rule": "http-status-changed", "code": "BAD_INPUT", "reason": "wrong rule"}]})
    report = diff(lint_ok(BASE, "o"), lint_ok(new, "n"))
    by_code = {c.code: c for c in report.changes if c.rule == "code-removed"}
    assert by_code["TOKEN_EXPIRED"].announcement == "accepted" and by_code["BAD_INPUT"].announcement == "announced"
    assert not report.ok
    assert any(c.rule == "accepted-break-unused" and c.code == "BAD_INPUT" for c in report.checks)


def test_version_backwards_and_missing_history_entry() -> None:
    new = copy.deepcopy(BASE)
    new["version"] = "1.1.0"
    new["history"] = new["history"][:2]
    rules = {c.rule for c in diff(lint_ok(BASE, "o"), lint_ok(new, "n")).checks}
    assert "version-backwards" in rules
    newer = copy.deepcopy(BASE)
    add_code(newer)
    newer["version"] = "1.3.0"
    report = diff(lint_ok(BASE, "o"), lint_text(yaml.safe_dump(newer, sort_keys=False), "n").registry)
    assert "history-missing-entry" in {c.rule for c in report.checks}


@pytest.mark.parametrize(("old", "new", "ok"), [("0.3.1", "0.3.2", False), ("0.3.1", "0.4.0", True), ("1.2.0", "1.3.0", False), ("1.2.0", "2.0.0", True)])
def test_zero_major_versions_need_the_minor_bumped_for_a_break(old: str, new: str, ok: bool) -> None:
    before = copy.deepcopy(BASE)
    before["version"] = old
    before["history"] = [{"version": old, "date": "2026-01-10", "changes": ["Initial."]}]
    for code in before["codes"].values():
        code["since"] = old
        code.get("deprecated", {})["since"] = old
    after = copy.deepcopy(before)
    del after["codes"]["BAD_INPUT"]
    after["version"] = new
    after["history"].append({"version": new, "date": "2026-04-01", "changes": ["Remove BAD_INPUT."]})
    assert diff(lint_ok(before, "o"), lint_ok(after, "n")).ok is ok


def _broken_pair() -> tuple[Any, Any]:
    new = copy.deepcopy(BASE)
    del new["codes"]["BAD_INPUT"]
    set_code("TIMED_OUT", "http_status", 503)(new)
    return lint_ok(BASE, "registry/old.yaml"), lint_ok(new, "registry/errors.yaml")


def test_fingerprints_are_stable_and_do_not_depend_on_wording() -> None:
    from dataclasses import replace

    old, new = _broken_pair()
    changes = diff(old, new).changes
    assert len({c.fingerprint for c in changes}) == len(changes)
    assert [replace(c, message="reworded").fingerprint for c in changes] == [c.fingerprint for c in changes]


def test_output_formats(tmp_path: Path) -> None:
    old, new = _broken_pair()
    from errgen.diff.output import FORMATS

    report = diff(old, new)
    body = json.loads(FORMATS["json"](report))
    assert {"old_version", "new_version", "required_bump", "declared_bump", "ok", "changes"} <= set(body)
    removed = next(c for c in body["changes"] if c["rule"] == "code-removed")
    assert removed["code"] == "BAD_INPUT" and removed["bump"] == "major" and removed["old"]["path"] == "registry/old.yaml" and removed["new"] is None
    github = FORMATS["github"](report)
    assert "::warning file=registry/errors.yaml,line=" in github and "title=major code-removed (not announced)::BAD_INPUT was removed" in github
    assert "::error file=registry/errors.yaml,line=3,col=10,title=check version-bump-insufficient::" in github
    sarif = json.loads(FORMATS["sarif"](report))
    Draft7Validator(json.loads(SARIF_SCHEMA.read_text())).validate(sarif)
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"code-removed", "http-status-changed"}
    markdown = FORMATS["markdown"](report)
    assert "| `code-removed` | BAD\\_INPUT | BAD\\_INPUT was removed" in markdown and "not announced |" in markdown
    text = FORMATS["text"](report)
    assert text.index("Breaking changes (major):") < text.index("code-removed") < text.index("Failed checks:")
    assert "FAILED: 1 check(s) failed." in text


def test_default_registry_against_its_previous_release() -> None:
    done = CliRunner().invoke(main, ["diff", str(FIXTURES / "releases" / "errors-2.0.0.yaml"), str(REGISTRY), "--format", "json"])
    assert done.exit_code == 0, done.output
    body = json.loads(done.stdout)
    assert (body["required_bump"], body["declared_bump"]) == ("minor", "minor")
    assert {c["rule"] for c in body["changes"]} == {"code-added", "code-deprecated", "description-changed", "category-added",
                                                    "wire-prefix-added", "response-detail-changed"}


def test_diff_needs_two_files_or_a_ref() -> None:
    done = CliRunner().invoke(main, ["diff", str(REGISTRY)])
    assert done.exit_code == 2 and "--against" in done.output


def test_a_package_change_names_the_language_and_its_setting() -> None:
    """Package settings are each language's declaration (errgen.languages), so the change names
    `language.key` as the registry spells it under `targets:`."""
    new = copy.deepcopy(BASE)
    new["targets"] = {"typescript": {"package": "@demo/errors"}, "java": {"group": "org.demo"}}
    changes = [c for c in classify(lint_ok(BASE, "old.yaml"), lint_ok(new, "new.yaml")) if c.rule == "package-changed"]
    assert [(c.detail, c.message.split(":")[0]) for c in changes] == [
        ("java.group", "package java.group changed from com.example to org.demo"),
        ("typescript.package", "package typescript.package changed from demo-errors to @demo/errors"),
    ]
