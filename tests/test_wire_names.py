"""Issue: adopt real APIs as they are. Codes are wire values; identifiers and wire names derive from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT
from errgen import identifiers
from errgen.contract import view
from errgen.registry.lint import lint_path, lint_text

REALWORLD = sorted((ROOT / "tests" / "fixtures" / "realworld").glob("*.yaml")) + [ROOT / "examples" / "payments-api.yaml"]

HEAD = """errgen: 1
name: demo
version: 1.0.0
{extra}categories:
  transient: {{retryable: true, description: Try again later.}}
  validation: {{retryable: false, action: fix, http_status: 422, description: Fix it.}}
codes:
{codes}history:
  - {{version: 1.0.0, date: 2026-01-10, changes: [Initial.]}}
"""


def registry(codes: str, extra: str = "") -> str:
    return HEAD.format(codes=codes, extra=extra)


def code(name: str, category: str = "validation", more: str = "") -> str:
    return f"  {name}:\n    category: {category}\n    scope: request\n    description: A code.\n    since: 1.0.0\n{more}"


@pytest.mark.parametrize("path", REALWORLD, ids=lambda p: p.stem)
def test_real_catalogs_lint_clean(path: Path) -> None:
    result = lint_path(path)
    assert [d.rule for d in result.diagnostics if d.severity == "error"] == []


@pytest.mark.parametrize(
    "name, words",
    [
        ("card_declined", ("card", "declined")),
        ("NoSuchBucket", ("No", "Such", "Bucket")),
        ("HTTPError", ("HTTP", "Error")),
        ("20003", ("20003",)),
        ("out-of-credit", ("out", "of", "credit")),
        ("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
         ("com", "amazonaws", "dynamodb", "v20120810", "Resource", "Not", "Found", "Exception")),
    ],
)
def test_words_keep_the_wire_values_word_boundaries(name: str, words: tuple[str, ...]) -> None:
    assert identifiers.words(name) == words


@pytest.mark.parametrize("pair", [("card-declined", "card_declined"), ("Foo", "FOO"), ("NoSuchBucket", "no_such_bucket")])
def test_names_that_differ_only_in_case_or_separators_collide_naming_both_lines(pair: tuple[str, str]) -> None:
    text = registry(code(pair[0]) + code(pair[1]))
    found = [d for d in lint_text(text, "r.yaml").diagnostics if d.rule == "identifier-collision"]
    assert len(found) == 1
    assert found[0].line == 13 and "(line 8)" in found[0].message and "identifier:" in found[0].message


def test_an_identifier_override_resolves_the_collision() -> None:
    text = registry(code("card-declined") + code("card_declined", more="    identifier: CARD_DECLINED_V2\n"))
    result = lint_text(text, "r.yaml")
    assert result.ok, result.diagnostics
    assert [c.words for c in view(result.registry).codes] == [("card", "declined"), ("CARD", "DECLINED", "V2")]


def test_codes_outside_the_wire_grammar_are_refused_without_a_broken_suggestion() -> None:
    text = registry(code('"bad code!"'))
    found = [d for d in lint_text(text, "r.yaml").diagnostics if d.rule == "code-name"]
    assert len(found) == 1 and "' '" in found[0].message and "'!'" in found[0].message
    assert "like" not in found[0].message


def test_http_status_falls_back_to_category_then_retryable() -> None:
    text = registry(code("a") + code("b", "transient") + code("c", more="    http_status: 409\n"))
    rows = view(lint_text(text, "r.yaml").registry).code_map
    assert (rows["a"].http_status, rows["b"].http_status, rows["c"].http_status) == (422, 503, 409)
    text = registry(code("d", "transient"), extra="").replace("validation: {retryable: false, action: fix, http_status: 422,", "validation: {retryable: false, action: fix,")
    text = text.replace("category: transient", "category: validation")
    assert view(lint_text(text, "r.yaml").registry).code_map["d"].http_status == 400


def test_type_uri_overrides_problem_base_plus_code() -> None:
    text = registry(code("a", more="    type_uri: https://docs.example/errors/a\n") + code("b"))
    rows = view(lint_text(text, "r.yaml").registry).code_map
    assert rows["a"].type_uri == "https://docs.example/errors/a"
    assert rows["b"].type_uri == "urn:errgen:demo:b"


def test_wire_section_names_every_field_and_the_envelope() -> None:
    extra = "wire:\n  case: camel\n  rename: {category: errorCategory, retryable: isRetryable}\n  envelope: error\n"
    result = lint_text(registry(code("a"), extra), "r.yaml")
    assert result.ok, result.diagnostics
    v = view(result.registry)
    wire = {f.name: f.wire for f in v.fields}
    assert wire["category"] == "errorCategory" and wire["retryable"] == "isRetryable"
    assert wire["retry_after_ms"] == "retryAfterMs" and wire["correlation_id"] == "correlationId"
    assert wire["did_you_mean"] == "didYouMean" and wire["code"] == "code"
    assert v.envelope == "error"


def test_wire_names_must_stay_distinct() -> None:
    extra = "wire:\n  rename: {message: code}\n"
    found = [d.rule for d in lint_text(registry(code("a"), extra), "r.yaml").diagnostics]
    assert "wire-rename" in found


def test_nearest_suggestion_ignores_case_and_separators() -> None:
    text = registry(code("a", more="    deprecated: {since: 1.0.0, replaced_by: CARD_DECLINED}\n") + code("card_declined"))
    found = [d for d in lint_text(text, "r.yaml").diagnostics if d.rule == "replaced-by-unknown"]
    assert found and "did you mean 'card_declined'" in found[0].message


def test_every_language_names_codes_after_the_identifier_override(tmp_path: Path) -> None:
    from conftest import run_errgen

    text = registry(code("card-declined") + code("card_declined", more="    identifier: CARD_DECLINED_V2\n"))
    (tmp_path / "r.yaml").write_text(text, encoding="utf-8")
    done = run_errgen("build", "--registry", str(tmp_path / "r.yaml"), "--out", str(tmp_path / "out"),
                      "--target", "python", "--target", "go", "--target", "rust", "--target", "java")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    assert 'CARD_DECLINED_V2 = "card_declined"' in (out / "python" / "demo_errors" / "enums.py").read_text()
    assert "CodeCardDeclinedV2" in (out / "go" / "table.go").read_text()
    assert "CardDeclinedV2," in (out / "rust" / "src" / "data.rs").read_text()
    assert 'CARD_DECLINED_V2("card_declined")' in next(out.glob("java/src/main/java/**/Code.java")).read_text()


def test_an_array_envelope_is_its_key_and_reads_each_entry_by_default() -> None:
    """SPEC E: `errors[*]` (OCI, JSON:API): the view's envelope is the key, envelope_array says the
    key holds an array, and the default sources read every entry's fields (the ANY step)."""
    result = lint_text(registry(code("a"), "wire:\n  envelope: errors[*]\n"), "r.yaml")
    assert result.ok, result.diagnostics
    v = view(result.registry)
    assert (v.envelope, v.envelope_array) == ("errors", True)
    assert v.response["code"] == [{"in": "body", "path": ["errors", -1, "code"]}]
    plain = view(lint_text(registry(code("a"), "wire:\n  envelope: error\n"), "r.yaml").registry)
    assert (plain.envelope, plain.envelope_array) == ("error", False)
    assert plain.response["code"] == [{"in": "body", "path": ["error", "code"]}]


@pytest.mark.parametrize("envelope", ["errors[0]", "errors[*][*]", "[*]", "errors []", "errors.items"])
def test_a_bad_envelope_is_reported_at_its_place_saying_what_is_accepted(envelope: str) -> None:
    found = lint_text(registry(code("a"), f'wire:\n  envelope: "{envelope}"\n'), "r.yaml").diagnostics
    [text] = [d.text() for d in found if d.severity == "error"]
    assert text.startswith("r.yaml:5:13: error[wire-rename]: wire envelope "), text
    assert "or a name followed by [*]" in text


def test_a_second_code_sending_the_same_wire_code_without_when_is_refused_where_it_says_so() -> None:
    """#39: among codes sending one wire code, the first without `when` is chosen (errgen.wire
    `variants`): a later one without `when` never is, whether it shares a `wire_code` or sends the
    other's name."""
    shared = code("limited", more="    wire_code: rate_limit\n") + code("limited_tokens", more="    wire_code: rate_limit\n")
    found = [d for d in lint_text(registry(shared), "r.yaml").diagnostics if d.severity == "error"]
    assert [d.text() for d in found] == [
        "r.yaml:19:16: error[wire-code]: 'limited_tokens' and 'limited' both send wire code 'rate_limit' without `when`: "
        "'limited_tokens' is never chosen; give it `when` conditions that tell them apart"]
    told_apart = shared.replace("    wire_code: rate_limit\n", "    wire_code: rate_limit\n    when: [{status: [429]}]\n")
    assert lint_text(registry(told_apart), "r.yaml").ok
    named = code("rate_limit") + code("limited", more="    wire_code: rate_limit\n")
    found = [d for d in lint_text(registry(named), "r.yaml").diagnostics if d.severity == "error"]
    assert [(d.rule, d.message.split(":")[0]) for d in found] == [
        ("wire-code", "'limited' and 'rate_limit' both send wire code 'rate_limit' without `when`")]


def test_errgen_docs_explains_the_wire_code_rule() -> None:
    from conftest import run_errgen

    done = run_errgen("docs", "wire-code")
    assert done.returncode == 0, done.stderr
    assert "only one of them may go without" in done.stdout
