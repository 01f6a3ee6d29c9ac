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


def test_a_git_tree_tells_a_fragment_it_holds_by_its_object_id(tmp_path: Path) -> None:
    import os
    import subprocess

    from errgen.registry.compose import GitTree

    text = "owner: '@org/a'\ncodes:\n" + code("ALPHA")
    folder(tmp_path, {"a.yaml": text})
    os.symlink("a.yaml", tmp_path / "teams" / "link.yaml")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(git + ["init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(git + ["add", "-A"], cwd=tmp_path, check=True)
    subprocess.run(git + ["commit", "-qm", "one"], cwd=tmp_path, check=True)
    tree = GitTree("HEAD", "", tmp_path)
    try:
        assert tree.holds("teams/a.yaml", text.encode())
        assert not tree.holds("teams/a.yaml", text.encode() + b"\n")
        assert not tree.holds("teams/link.yaml", b"a.yaml")  # a link is never a file it holds: read() refuses it
        assert not tree.holds("teams/none.yaml", b"")
        assert tree._blobs is None  # nothing was read from git to answer
    finally:
        tree.close()


def test_diff_at_a_ref_names_the_ref_for_a_fragment_that_did_not_change(tmp_path: Path) -> None:
    """The header's category turns retryable: the codes of the unchanged fragment change meaning,
    and their place in OLD is the fragment at the ref, though it was copied from the working tree's."""
    import json
    import subprocess

    from conftest import run_errgen

    header = folder(tmp_path, {"a.yaml": "owner: '@org/a'\ncodes:\n" + code("ALPHA")})
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(git + ["init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(git + ["add", "-A"], cwd=tmp_path, check=True)
    subprocess.run(git + ["commit", "-qm", "one"], cwd=tmp_path, check=True)
    header.write_text(header.read_text().replace("validation: {retryable: false, action: fix,", "validation: {retryable: true,"))
    done = run_errgen("diff", "--against", "HEAD", "--registry", "errors.yaml", "--format", "json", cwd=tmp_path)
    report = json.loads(done.stdout)
    olds = {c["old"]["path"] for c in report["changes"] if c["code"] == "ALPHA" and c.get("old")}
    assert olds == {"HEAD:teams/a.yaml"}, report["changes"]
