"""A fragment that reads the same in two compositions (the registry at a git ref and in the working
tree, as `diff --against` and `bump` compose them) is parsed once and copied with its positions
naming the second file (issue 31 item 3); the copy is what a fresh load would give."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errgen.registry import compose as composing
from errgen.registry.compose import WorkTree, compose
from errgen.registry.load import Map, Seq, load_path, load_text, restamped
from test_compose import code, folder

TEXT = """owner: '@org/a'
codes:
  ALPHA:
    category: validation
    scope: request
    scopes: [request, resource]
    hints: [field, 'quoted: yes']
    description: "A code. \\u00e9"
    since: 1.0.0
    deprecated: {since: 1.0.0, replaced_by: BETA}
"""


def shape(value: Any) -> Any:
    """Everything a loaded value holds, positions included (a Map's and Seq's own, and each item's)."""
    if isinstance(value, Map):
        return ("map", value.loc, value.key_locs, value.locs, {k: shape(v) for k, v in value.items()})
    if isinstance(value, Seq):
        return ("seq", value.loc, value.locs, [shape(v) for v in value])
    return (type(value).__name__, value)


def test_a_restamped_document_is_what_loading_it_under_the_new_name_gives() -> None:
    first = load_text(TEXT, "teams/a.yaml", stamp=True)
    again = restamped(first, "HEAD:teams/a.yaml")
    assert shape(again.root) == shape(load_text(TEXT, "HEAD:teams/a.yaml", stamp=True).root)
    assert again.path == "HEAD:teams/a.yaml" and again.text == TEXT
    assert shape(first.root) == shape(load_text(TEXT, "teams/a.yaml", stamp=True).root)  # the original is untouched


def test_a_second_composition_copies_unchanged_fragments_and_names_its_own_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    header = folder(tmp_path, {"a.yaml": "owner: '@org/a'\ncodes:\n" + code("ALPHA"), "b.yaml": "owner: '@org/b'\ncodes:\n" + code("BETA")})
    compose(load_path(header, "errors.yaml"), WorkTree(tmp_path))
    (tmp_path / "teams" / "b.yaml").write_text("owner: '@org/b'\ncodes:\n" + code("GAMMA"), encoding="utf-8")
    parsed: list[str] = []
    real_load = composing.load_text
    monkeypatch.setattr(composing, "load_text", lambda text, shown, stamp=False: parsed.append(shown) or real_load(text, shown, stamp))
    doc = compose(load_path(header, "HEAD:errors.yaml"), WorkTree(tmp_path))
    assert parsed == ["HEAD:teams/b.yaml"]  # a.yaml reads the same: copied, not parsed
    codes = doc.root["codes"]
    assert codes.key_locs["ALPHA"].path == "HEAD:teams/a.yaml" and codes.key_locs["GAMMA"].path == "HEAD:teams/b.yaml"
    assert {at.path for at in codes["ALPHA"].locs.values()} == {"HEAD:teams/a.yaml"}
    assert [f.path for f in doc.fragments] == ["HEAD:teams/a.yaml", "HEAD:teams/b.yaml"]


def test_a_fragment_loading_found_problems_in_is_parsed_again(tmp_path: Path) -> None:
    """Its diagnostics name the file they were found in: never copied from another name."""
    header = folder(tmp_path, {"a.yaml": "owner: '@org/a'\ncodes:\n" + code("ALPHA") + "owner: '@org/c'\n"})
    first = compose(load_path(header, "errors.yaml"), WorkTree(tmp_path))
    second = compose(load_path(header, "HEAD:errors.yaml"), WorkTree(tmp_path))
    assert [d.path for d in first.diagnostics if d.rule == "duplicate-key"] == ["teams/a.yaml"]
    assert [d.path for d in second.diagnostics if d.rule == "duplicate-key"] == ["HEAD:teams/a.yaml"]
