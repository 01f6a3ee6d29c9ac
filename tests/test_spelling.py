"""The codes validate's unknown-code messages offer ("did you mean ...?") (errgen.spelling): the
misspellings people make are found, far words are not, and a file of thousands of unknown codes
against thousands of known ones is answered from an index, never by comparing each unknown code
with every known one (issue 31 item 4: 20,000 such payloads took minutes where clean ones take a
second)."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from errgen.leaks import LeakScanner
from errgen.registry.lint import lint_path
from errgen.spelling import Speller
from errgen.validate import Validator

NAMES = ["card_declined", "card_expired", "channel_not_found", "invalid_auth", "not_authed", "E42", "E43", "a"]


@pytest.mark.parametrize("word, expected", [
    ("channel_not_fund", ["channel_not_found"]),     # a character missing
    ("channel_not_foundd", ["channel_not_found"]),   # one extra
    ("card_declinex", ["card_declined"]),            # one wrong
    ("invalid_atuh", ["invalid_auth"]),              # neighbours swapped
    ("CARD_DECLINED", ["card_declined"]),            # case and separators come first
    ("card-expired", ["card_expired"]),
    ("E44", ["E42", "E43"]),                         # equally near: registry order
    ("b", []),                                       # one edit is the whole word
    ("quota_exceeded", []),                          # nothing near
])
def test_the_misspellings_people_make_are_found(word: str, expected: list[str]) -> None:
    assert Speller(NAMES).nearest(word) == expected


def test_one_edit_ranks_before_two() -> None:
    # CODE_00000x is one character wrong from CODE_000000..09 and two edits from CODE_000010.
    names = [f"CODE_{i:06d}" for i in range(10, 20)] + [f"CODE_{i:06d}" for i in range(10)]
    assert Speller(names).nearest("CODE_00000x") == ["CODE_000000", "CODE_000001", "CODE_000002"]


def test_at_most_n_and_never_the_word_itself() -> None:
    speller = Speller(NAMES)
    assert speller.nearest("E42") == ["E43"]
    assert speller.nearest("E4", n=1) == ["E42"]


def test_a_huge_word_is_not_taken_apart() -> None:
    speller = Speller(NAMES)
    speller.nearest("x")  # the index is built
    lookups: list[str] = []
    index = speller._index
    assert index is not None
    speller._index = type("Counting", (dict,), {"get": lambda self, k, d=None: lookups.append(k) or dict.get(self, k, d)})(index)
    assert speller.nearest("card_declined" * 100_000) == []
    assert lookups == []


def registry(tmp_path: Path, n: int) -> Path:
    lines = ["errgen: 1", "name: many", "version: 1.0.0", "categories:", "  client:", "    retryable: false",
             "    http_status: 400", "    description: A bad request.", "codes:"]
    for i in range(n):
        lines += [f"  CODE_{i:06d}:", "    category: client", "    scope: request", f"    description: Code {i}.", "    since: 1.0.0"]
    path = tmp_path / "errors.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_validate_answers_thousands_of_unknown_codes_from_one_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = lint_path(registry(tmp_path, 3000)).registry
    payloads = tmp_path / "payloads.jsonl"
    with payloads.open("w", encoding="utf-8") as out:
        for i in range(2000):  # each a different code, one character wrong
            out.write(json.dumps({"code": f"CODE_{i:05d}x", "category": "client", "retryable": False,
                                  "scope": "request", "correlation_id": f"req-{i}"}) + "\n")
    built: list[int] = []
    real_build = Speller._build
    monkeypatch.setattr(Speller, "_build", lambda self: built.append(1) or real_build(self))

    def whole_registry(*args: object, **kwargs: object) -> list[str]:
        raise AssertionError("an unknown code was compared with every known code")

    monkeypatch.setattr(difflib, "get_close_matches", whole_registry)
    found = [f for f in Validator(loaded, LeakScanner()).file(str(payloads)) if f.rule == "unknown-code"]
    assert len(found) == 2000
    assert built == [1]
    assert found[0].message.endswith("did you mean 'CODE_000000' or 'CODE_000001' or 'CODE_000002'?")
    assert found[1999].message.endswith("did you mean 'CODE_001999'?")  # CODE_01999x: a 0 missing, an x extra


def test_lint_offers_a_misspelt_key_on_every_code_without_difflib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 31 item 4: 10,000 codes each with `descripton:` cost lint 2.2x a clean registry (difflib
    # per key); the same misspelling is now answered from the shape's speller.
    text = registry(tmp_path, 500).read_text(encoding="utf-8").replace("    description: Code", "    descripton: Code")
    path = tmp_path / "typo.yaml"
    path.write_text(text, encoding="utf-8")

    def whole_list(*args: object, **kwargs: object) -> list[str]:
        raise AssertionError("a misspelt key was compared by difflib")

    monkeypatch.setattr(difflib, "get_close_matches", whole_list)
    messages = [d.message for d in lint_path(path).diagnostics if d.rule == "unknown-key"]
    assert len(messages) == 500
    assert all(m.endswith("; did you mean 'description'?") for m in messages)


def test_an_answer_remembered_for_one_n_is_not_given_for_another() -> None:
    speller = Speller(NAMES)
    assert speller.nearest("E44", n=1) == ["E42"]
    assert speller.nearest("E44") == ["E42", "E43"]


def test_names_past_the_indexed_length_cost_nothing_to_index() -> None:
    """Taking one character out of a name at each place costs its length squared: a registry of
    names a thousand characters long made the index quadratic (issue 38 point 5). Such names
    (no valid code is that long) are found by case and separators only."""
    from errgen.spelling import Speller

    long = [f"C{i:03d}_" + "ABCDEFGHIJ" * 100 for i in range(50)]
    speller = Speller([*long, "CARD_DECLINED"])
    assert speller.nearest("CARD_DECLIND") == ["CARD_DECLINED"]
    assert speller._index is not None and sum(len(v) for v in speller._index.values()) == len("CARD_DECLINED") + 1
    assert speller.nearest(long[3].lower()) == [long[3]]
