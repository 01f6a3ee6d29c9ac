"""The loader: every node keeps its position; what PyYAML would silently accept is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from errgen.diagnostics import Fatal
from errgen.registry.load import Map, Seq, load_path, load_text


def fatal(text: str | bytes, tmp_path: Path) -> tuple[str, int, int]:
    path = tmp_path / "r.yaml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    with pytest.raises(Fatal) as info:
        load_path(path)
    d = info.value.diagnostic
    return d.rule, d.line, d.column


def test_every_key_and_value_keeps_line_and_column() -> None:
    doc = load_text("a: 1\nb:\n  - x\n  - {c: true}\n", "t.yaml")
    root = doc.root
    assert isinstance(root, Map) and isinstance(root["b"], Seq)
    assert (root.key_locs["b"].line, root.key_locs["b"].column) == (2, 1)
    assert (root["b"].locs[1].line, root["b"].locs[1].column) == (4, 5)
    inner = root["b"][1]
    assert inner["c"] is True and (inner.locs["c"].line, inner.locs["c"].column) == (4, 9)


def test_duplicate_keys_are_reported_not_silently_overwritten() -> None:
    doc = load_text("codes:\n  A: 1\n  A: 2\n", "t.yaml")
    assert doc.root["codes"]["A"] == 1
    [d] = doc.diagnostics
    assert (d.rule, d.line, d.column) == ("duplicate-key", 3, 3)
    assert "first defined at line 2" in d.message


def test_aliases_are_refused_where_they_are_used() -> None:
    doc = load_text("a: &x {k: 1}\nb: *x\n", "t.yaml")
    assert [(d.rule, d.line) for d in doc.diagnostics] == [("yaml-alias", 2)]


def test_billion_laughs_is_refused_without_expanding() -> None:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 9) + "]" for i in range(1, 10)]
    doc = load_text("\n".join(lines) + "\n", "t.yaml")
    assert {d.rule for d in doc.diagnostics} == {"yaml-alias"}


def test_scalars_follow_yaml_1_1_as_pyyaml_does() -> None:
    root = load_text("i: 0x1F\nj: 1_000\nb: yes\nn: ~\nf: 1.5\nd: 2026-01-10\nv: 1.4.0\n", "t.yaml").root
    assert root == {"i": 31, "j": 1000, "b": True, "n": None, "f": 1.5, "d": "2026-01-10", "v": "1.4.0"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ("yaml-empty", 1, 1)),
        ("# only a comment\n", ("yaml-empty", 1, 1)),
        ("a: [1, 2\nb: 3\n", ("yaml-syntax", 2, 2)),
        ("- a\n- b\n", ("yaml-root", 1, 1)),
        ("just text\n", ("yaml-root", 1, 1)),
        (b"name: caf\xe9\n", ("yaml-encoding", 1, 10)),
    ],
    ids=["empty", "comment-only", "syntax", "sequence-root", "scalar-root", "latin-1"],
)
def test_unloadable_files_get_their_own_diagnostic(text: str | bytes, expected: tuple[str, int, int], tmp_path: Path) -> None:
    assert fatal(text, tmp_path) == expected


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(Fatal) as info:
        load_path(tmp_path / "nope.yaml")
    assert info.value.diagnostic.rule == "file-not-found"


def test_size_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errgen.registry.load

    monkeypatch.setattr(errgen.registry.load, "MAX_BYTES", 10)
    assert fatal("a: 12345678901\n", tmp_path)[0] == "file-too-large"


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert load_path(path).root == {"a": 1}
