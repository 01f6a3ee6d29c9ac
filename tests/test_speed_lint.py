"""Lint's fast paths find what the slow ones found (issues 31 item 4 and 32): invisible characters
ruled out from the files' text, suggestions asked once per misspelling, each colliding name
spelt in every language once."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES
from errgen.registry.compose import WorkTree, compose
from errgen.registry.lint import lint_document, lint_text
from errgen.registry.lint import base, names
from errgen.registry.load import load_path
from test_compose import code, folder

MINIMAL = (FIXTURES / "valid-minimal.yaml").read_text(encoding="utf-8")


def found(text: str) -> set[tuple[str, str]]:
    return {(d.rule, d.severity) for d in lint_text(text).diagnostics}


@pytest.mark.parametrize("escape", ["\\u202e", "\\U0000200B", "\\ufeff"])
def test_an_invisible_character_spelt_as_an_escape_is_still_found(escape: str) -> None:
    """The file's text holds no such character, only `\\u202e` in a double-quoted string."""
    text = MINIMAL.replace("version: 1.0.0\n", f'version: 1.0.0\nproblem_base: "https://errors.example.com/{escape}x/"\n', 1)
    assert ("invisible-character", "error") in found(text)


def test_an_invisible_character_in_a_fragment_only_is_found(tmp_path: Path) -> None:
    """The header's text is clean: the fragment's text is what holds the character."""
    header = folder(tmp_path, {"a.yaml": "owner: '@org/a'\ncodes:\n" + code("ALPHA").replace("A code.", "A code\u202e.")})
    result = lint_document(compose(load_path(header, "errors.yaml"), WorkTree(tmp_path)))
    assert [(d.rule, d.severity, d.path) for d in result.diagnostics if d.rule == "invisible-character"] == [
        ("invisible-character", "warning", "teams/a.yaml")]


def test_a_misspelt_hint_carried_by_many_codes_is_matched_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = base.nearest
    monkeypatch.setattr(base, "nearest", lambda word, choices: asked.append(word) or real(word, choices))
    codes = "".join(f"  CODE_{i}:\n    category: validation\n    scope: request\n    description: A code.\n    since: 1.0.0\n"
                    f"    hints: [did_you_meen]\n" for i in range(50))
    text = MINIMAL.split("codes:\n")[0] + "codes:\n" + codes + "history:" + MINIMAL.split("history:")[1]
    messages = [d.message for d in lint_text(text).diagnostics if d.rule == "unknown-hint"]
    assert len(messages) == 50 and all("did you mean 'did_you_mean'?" in m for m in messages)
    assert asked == ["did_you_meen"]


def test_each_colliding_code_is_named_in_every_language_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str | None] = []
    real = names._identifiers
    monkeypatch.setattr(names, "_identifiers", lambda kind, name, identifier: calls.append(identifier) or real(kind, name, identifier))
    pairs = 10
    codes = "".join(f"  {name}:\n    category: validation\n    scope: request\n    description: A code.\n    since: 1.0.0\n"
                    for i in range(pairs) for name in (f"CODE_{i}", f"code_{i}"))
    text = MINIMAL.split("codes:\n")[0] + "codes:\n" + codes + "history:" + MINIMAL.split("history:")[1]
    collisions = [d for d in lint_text(text).diagnostics if d.rule == "identifier-collision"]
    assert len(collisions) == pairs
    assert calls.count(None) == 2 * pairs  # each code's own names once; the rest are the suggestions' candidates
    assert len(calls) == 3 * pairs
