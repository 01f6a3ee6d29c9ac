"""Lint on hostile registries: every input ends in diagnostics (exit 1) or a fatal diagnostic
(exit 2), never a traceback, and the work of a did-you-mean stays bounded however many names are wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES, run_errgen
from errgen.diagnostics import Fatal
from errgen.registry.lint import lint_text

MINIMAL = (FIXTURES / "valid-minimal.yaml").read_text()
CODE_LINE = "  C{i}: {{category: {category}, scope: request, http_status: 400, description: x, since: 1.0.0{extra}}}\n"


def rules(text: str) -> set[str]:
    return {d.rule for d in lint_text(text, "r.yaml").diagnostics}


def fatal_rule(text: str) -> str:
    with pytest.raises(Fatal) as info:
        lint_text(text, "r.yaml")
    return info.value.diagnostic.rule


def with_codes(n: int, category: str = "validation", extra: str = "", categories: str = "") -> str:
    codes = "".join(CODE_LINE.format(i=i, category=category.format(i=i), extra=extra.format(i=i)) for i in range(n))
    return MINIMAL.replace("codes:\n", "codes:\n" + codes, 1).replace("categories:\n", "categories:\n" + categories, 1)


def test_a_complex_key_is_a_wrong_type_not_a_crash() -> None:
    assert "wrong-type" in rules("? x:\n")
    assert "wrong-type" in rules(MINIMAL + "? [a, b]: 1\n")


def test_an_explicit_tag_on_a_value_it_does_not_fit_is_reported() -> None:
    assert "yaml-tag" in rules("n: !!bool\n")
    assert "yaml-tag" in rules(MINIMAL.replace("name: demo", "name: !!int twelve"))


def test_deep_nesting_is_refused_with_a_position() -> None:
    assert fatal_rule("a: " + "[" * 500 + "]" * 500 + "\n") == "too-deep"
    assert fatal_rule("a:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(500))) == "too-deep"


def test_a_list_where_a_category_name_belongs() -> None:
    assert "wrong-type" in rules("codes: {Y: {category: [-]}}\n")
    assert "wrong-type" in rules(with_codes(1, category="[a, {{b: c}}]"))


def test_a_malformed_scopes_list_beside_a_bad_scope() -> None:
    text = MINIMAL.replace("    scope: request\n", "    scope: bogus\n    scopes: 5\n", 1)
    assert {"unknown-scope", "wrong-type"} <= rules(text)


@pytest.mark.parametrize("number", ["9" * 5000, "0x" + "f" * 5000, "0b" + "1" * 5000, "0" + "7" * 5000, "9" * 20])
def test_integers_past_64_bits_are_reported_not_parsed(number: str) -> None:
    for text in (MINIMAL.replace("name: demo", f"name: {number}"), MINIMAL.replace("http_status: 503", f"http_status: {number}")):
        assert "number-too-large" in rules(text)


def test_hostile_registries_exit_1_or_2_through_the_cli(tmp_path: Path) -> None:
    for i, text in enumerate(("? x:\n", "n: !!bool\n", "a: " + "[" * 990 + "]" * 990 + "\n", "name: 0x" + "f" * 5000 + "\n")):
        path = tmp_path / f"r{i}.yaml"
        path.write_text(text)
        done = run_errgen("lint", "--registry", str(path))
        assert done.returncode in (1, 2) and "Traceback" not in done.stderr, done.stderr


def _name_comparisons(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts, for every did-you-mean lint asks for, the names it looks at (one identity check
    each) and the characters fuzzy matching compares (the product of the two names' lengths)."""
    import difflib

    from errgen.registry.lint import base

    spent = [0, 0]
    real_nearest, real_close = base.nearest, difflib.get_close_matches

    def nearest(word: str, choices: list[str]) -> str:
        spent[0] += len(choices)
        return real_nearest(word, choices)

    def close(word: str, options: list[str], *args: object, **kwargs: object) -> list[str]:
        spent[1] += len(word) * sum(len(o) for o in options)
        return real_close(word, options, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(base, "nearest", nearest)
    monkeypatch.setattr(base.difflib, "get_close_matches", close)
    return spent


@pytest.mark.parametrize("rule, hostile", [
    ("replaced-by-unknown", with_codes(2_000, extra=", deprecated: {{since: 1.0.0, replaced_by: R{i}}}")),
    ("unknown-category", with_codes(2_000, category="cat{i}", categories="".join(f"  k{i}: {{retryable: true, description: x}}\n" for i in range(2_000)))),
], ids=["2k-unknown-replaced-by", "2k-unknown-categories"])
def test_many_bad_references_cost_a_bounded_amount_of_name_comparison(monkeypatch: pytest.MonkeyPatch, rule: str, hostile: str) -> None:
    """Each bad reference among thousands of names once asked for a did-you-mean over all of
    them (quadratic in the registry's size). Every one is still reported, but lint looks
    at no more names, and compares no more characters, than its budget of 10,000 comparisons of
    short names allows, however many there are (2,000 x 2,000 here; the time beside a clean
    registry is bench.linear_bench's "unknown replaced_by" and "unknown categories" cases)."""
    spent = _name_comparisons(monkeypatch)
    found = [d for d in lint_text(hostile, "r.yaml").diagnostics if d.rule == rule]
    assert len(found) == 2_000, len(found)
    assert spent[0] <= 10_000 * 1.5 and spent[1] <= 10_000 * 20 * 20 * 1.5, spent


def test_secrets_in_registry_text_are_masked_in_lint_output(tmp_path: Path) -> None:
    text = (MINIMAL.replace("description: Timed out.", "description: 'Timed out: postgres://admin:p@ssW0rd1@db.example.com'")
            .replace("  transient:", "  sk_live_4eC39HqLyjWDarjtT1zdp7dc: {retryable: true, description: x}\n  transient:"))
    path = tmp_path / "r.yaml"
    path.write_text(text)
    for fmt in ("text", "json"):
        done = run_errgen("lint", "--registry", str(path), "--format", fmt)
        shown = done.stdout + done.stderr
        assert done.returncode == 1 and "description-leak" in shown, shown
        assert "ssW0rd1" not in shown and "4eC39HqLyjWDarjtT1zdp7dc" not in shown, shown


def test_one_leaking_description_among_many_clean_ones_is_found() -> None:
    """description-leak first rules out all the prose in one pass; a single leak among 300
    clean descriptions still takes the per-description scan and is reported at its line."""
    from bench import synth

    text = synth.registry_text(300).replace("Synthetic failure number 123 for load testing.",
                                           "Failed at /home/deploy/app/server.py line 3.", 1)
    found = [d for d in lint_text(text).diagnostics if d.rule == "description-leak"]
    assert len(found) == 1 and "CODE_000123" in found[0].message, [d.message for d in found]
    assert not [d for d in lint_text(synth.registry_text(300)).diagnostics if d.rule == "description-leak"]


def test_did_you_mean_costs_a_bounded_amount_of_name_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fuzzy matching costs the product of the two names' lengths: 90 codes named with 1,000
    letters, each replaced_by a misspelling of another, once cost 58x a clean registry of the same
    size. However long the names, lint compares no more characters than its budget of comparisons
    of short names allows (and none of a name past FUZZY_CHARS)."""
    import difflib
    import random

    from errgen.registry.lint import base

    spent: list[int] = []
    real = difflib.get_close_matches

    def counted(word: str, options: list[str], *args: object, **kwargs: object) -> list[str]:
        spent.append(len(word) * sum(len(o) for o in options))
        return real(word, options, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(base.difflib, "get_close_matches", counted)
    rng = random.Random(3)
    for length in (150, 1_000):
        spent.clear()
        names = ["C" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(length)) for _ in range(90)]
        extra = ", deprecated: {{since: 1.0.0, replaced_by: {target}}}"
        codes = "".join(CODE_LINE.format(i=i, category="validation", extra=extra.format(target=names[(i + 1) % 90][:-1] + "x"))
                        .replace(f"C{i}:", f"{name}:", 1) for i, name in enumerate(names))
        found = lint_text(MINIMAL.replace("codes:\n", "codes:\n" + codes, 1), "r.yaml").diagnostics
        assert sum(d.rule == "replaced-by-unknown" or "names no other code" in d.message for d in found) >= 90
        assert sum(spent) <= 10_000 * 20 * 20 * 1.5, (length, sum(spent))
    assert base.nearest("Q" * 1_000, ["Q" * 999 + "R"]) in ("", "; expected one of: " + "Q" * 999 + "R")


@pytest.mark.parametrize("spelling", [".nan", ".NaN", ".inf", "-.Inf", "+.inf", "1.0e+400", "-1.0e+999", "190:20:30.15", '!!float "\\x2einf"'])
def test_a_number_that_is_not_finite_is_refused_where_it_stands(spelling: str) -> None:
    """`equals: .nan` passed lint, and the TypeScript, Go and Java SDKs then failed to load and
    conformance/responses.json was not JSON: no number errgen writes may be NaN or infinite."""
    text = MINIMAL.replace("codes:\n", "wire:\n  response:\n    error_when:\n      - {at: 'body:ok', equals: " + spelling + "}\ncodes:\n", 1)
    found = [d for d in lint_text(text, "r.yaml").diagnostics if d.rule == "non-finite-number"]
    line = text.splitlines().index(next(x for x in text.splitlines() if "equals:" in x)) + 1
    assert [(d.line, d.column) for d in found] == [(line, text.splitlines()[line - 1].index(spelling) + 1)], found
    assert "wire.response.error_when[0].equals" in found[0].message and "not finite" in found[0].message


def test_finite_numbers_and_strings_that_look_like_infinity_pass() -> None:
    text = MINIMAL.replace("codes:\n", "wire:\n  response:\n    error_when:\n      - {at: 'body:ok', equals: '.nan'}\n"
                           "      - {at: 'body:n', equals: 1.5e300}\ncodes:\n", 1).replace("description: x", "description: 'see .inf 10:30 e+123'")
    assert "non-finite-number" not in rules(text)


def test_a_non_finite_number_stops_build_and_docs_explain_the_rule(tmp_path: Path) -> None:
    registry = tmp_path / "r.yaml"
    registry.write_text(MINIMAL.replace("codes:\n", "wire:\n  response:\n    error_when: [{at: 'body:ok', equals: .inf}]\ncodes:\n", 1))
    done = run_errgen("build", "--registry", str(registry), "--out", str(tmp_path / "out"))
    assert done.returncode == 1 and "non-finite-number" in done.stdout + done.stderr, done.stdout + done.stderr
    assert not (tmp_path / "out" / "conformance").exists()
    docs = run_errgen("docs", "non-finite-number")
    assert docs.returncode == 0 and "`non-finite-number`" in docs.stdout, docs.stdout + docs.stderr
