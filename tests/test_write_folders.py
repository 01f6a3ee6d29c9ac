"""The writer looks at each destination folder once, however many files it holds, and still
refuses every way out of OUT: a symlinked folder planted anywhere in the tree (not only at the
top) that leads outside, a symlink to a file or to nothing where a folder must be, a symlink
loop, a file in the way, a deletion through a symlink. Nothing changes when it refuses."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from errgen.emit import commit as write

FILES = 40


def plan(tag: str, skip: int | None = None) -> dict[str, write.Plan]:
    return {"site": {f"site/CODE_{i:04d}/index.html": f"<p>{tag} {i}</p>\n" for i in range(FILES) if i != skip}}


def tree(folder: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        found[str(p.relative_to(folder))] = "link" if p.is_symlink() else "dir" if p.is_dir() else p.read_bytes()
    return found


@pytest.fixture
def built(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    write.commit(out, plan("old"))
    return out


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "index.html").write_text("precious\n")
    return folder


def refuses(out: Path, plans: dict[str, write.Plan], *needles: str) -> None:
    before = tree(out)
    with pytest.raises(write.WriteError) as caught:
        write.commit(out, plans, force=True)
    for needle in needles:
        assert needle in str(caught.value), str(caught.value)
    assert tree(out) == before  # nothing changed, no staging left behind


def test_a_symlinked_folder_planted_deep_in_the_tree_is_refused(built: Path, elsewhere: Path) -> None:
    """site/ was checked as a plain folder; the page folder under it is a link leading outside."""
    victim = built / "site" / "CODE_0017"
    for child in victim.iterdir():
        child.unlink()
    victim.rmdir()
    victim.symlink_to(elsewhere)
    refuses(built, plan("new"), "site/CODE_0017/index.html", "leads outside", str(elsewhere))
    assert (elsewhere / "index.html").read_text() == "precious\n" and sorted(os.listdir(elsewhere)) == ["index.html"]


def test_a_symlink_below_a_symlinked_folder_is_followed_again(built: Path, tmp_path: Path, elsewhere: Path) -> None:
    """site -> a folder inside OUT is allowed; a link inside that folder leading out is not."""
    real = built / "real-site"
    (built / "site").rename(real)
    (built / "site").symlink_to(real)
    (real / "CODE_0003" / "index.html").unlink()
    (real / "CODE_0003").rmdir()
    (real / "CODE_0003").symlink_to(elsewhere)
    refuses(built, plan("new"), "site/CODE_0003/index.html", "leads outside")
    assert (elsewhere / "index.html").read_text() == "precious\n"


def test_a_symlinked_folder_inside_out_is_written_through(built: Path) -> None:
    real = built / "real-site"
    (built / "site").rename(real)
    (built / "site").symlink_to("real-site")
    write.commit(built, plan("new"))
    assert (real / "CODE_0005" / "index.html").read_text() == "<p>new 5</p>\n"


@pytest.mark.parametrize("kind", ["file", "nothing", "loop"])
def test_a_symlink_to_no_folder_where_a_folder_must_be_is_refused_before_anything_moves(built: Path, kind: str) -> None:
    folder = built / "site" / "CODE_0009"
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()
    if kind == "file":
        folder.symlink_to(built / "site" / "CODE_0001" / "index.html")
        needle = "symlink to no folder"
    elif kind == "nothing":
        folder.symlink_to(built / "site" / "missing")
        needle = "symlink to no folder"
    else:
        folder.symlink_to(built / "site" / "loop")
        (built / "site" / "loop").symlink_to(folder)
        needle = "cannot resolve its folder"
    refuses(built, plan("new"), "site/CODE_0009", needle)


def test_a_file_in_the_way_of_a_folder_is_named_for_each_file_below_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "site").mkdir(parents=True)
    (out / "site" / "CODE_0002").write_text("mine\n")
    plans = {"site": {"site/CODE_0002/index.html": "a\n", "site/CODE_0002/more/x.html": "b\n", "site/CODE_0003/index.html": "c\n"}}
    before = tree(out)
    with pytest.raises(write.WriteError) as caught:
        write.commit(out, plans)
    message = str(caught.value)
    assert message.count("is a file where errgen needs a folder") == 2, message
    assert "site/CODE_0002/more/x.html" in message and "site/CODE_0003" not in message.replace("CODE_0003/", "")
    assert tree(out) == before


def test_an_orphan_behind_a_symlink_leading_outside_is_not_deleted(built: Path, elsewhere: Path) -> None:
    """The build no longer makes CODE_0004's page, which errgen owns; its folder now leads out."""
    folder = built / "site" / "CODE_0004"
    (folder / "index.html").unlink()
    folder.rmdir()
    folder.symlink_to(elsewhere)
    refuses(built, plan("new", skip=4), "site/CODE_0004/index.html", "leads outside")
    assert (elsewhere / "index.html").read_text() == "precious\n"


class Counts:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: dict[str, int] = {}
        for module, name in ((os, "lstat"), (os, "stat"), (os.path, "realpath"), (os, "mkdir")):
            monkeypatch.setattr(module, name, self.counted(name, getattr(module, name)))

    def counted(self, name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] = self.calls.get(name, 0) + 1
            return real(*args, **kwargs)
        return call


@pytest.mark.parametrize("fresh", [True, False])
def test_each_folder_is_looked_at_once_and_no_path_is_resolved_per_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: bool) -> None:
    """The per-file cost is bounded: at most an lstat of the file and one of its folder, and
    one mkdir per folder when moving into place; no realpath of a file's folder unless it is a symlink."""
    out = tmp_path / "out"
    if not fresh:
        write.commit(out, plan("old"))
    counts = Counts(monkeypatch)
    changes = write.commit(out, plan("new"))
    assert len(changes.written) == FILES + fresh  # and the .gitignore, the first time
    folders = FILES + 1  # the pages' folders and site/
    assert counts.calls.get("realpath", 0) <= 3, counts.calls  # OUT itself
    assert counts.calls.get("lstat", 0) <= (0 if fresh else 2 * FILES) + 30, counts.calls  # + the staging folder's own
    assert counts.calls.get("stat", 0) <= 10, counts.calls
    assert counts.calls.get("mkdir", 0) <= folders + 5, counts.calls
    assert (out / "site" / "CODE_0011" / "index.html").read_text() == "<p>new 11</p>\n"
    assert not write.compare(out, {t: write.hashes(p) for t, p in plan("new").items()})


def reference_text(manifest: write.Manifest) -> str:
    import json

    targets = {name: {"files": dict(sorted(manifest.targets[name].items()))} for name in sorted(manifest.targets)}
    return json.dumps({"$comment": write.MANIFEST_COMMENT, "targets": targets}, indent=2) + "\n"


@pytest.mark.parametrize("targets", [
    {}, {"site": {}}, {"a": {}, "b": {"x": "0" * 64}},
    {"site": {f"site/C{i}/index.html": f"{i:064x}" for i in range(5)}, "docs": {"docs/errors.md": "f" * 64}},
    {"t": {"é/ünï\u2028cødé.txt": "a" * 64, 'q"uote\\/x': "b" * 64, "\U0001f600/x": "c" * 64}, "\u00e9t\"arget": {"z": "d" * 64}},
])
def test_the_manifest_text_is_json_dumps_with_an_indent_of_two(targets: dict[str, write.Hashes]) -> None:
    manifest = write.Manifest(targets)
    assert manifest.text() == reference_text(manifest)


def test_the_manifest_of_a_real_build_is_json_dumps_with_an_indent_of_two() -> None:
    from conftest import ROOT

    text = (ROOT / "generated" / write.MANIFEST).read_text(encoding="utf-8")
    manifest = write.parse_manifest(text.encode(), "generated")
    assert manifest.text() == reference_text(manifest) == text


def test_a_deep_path_is_checked_and_written_without_recursion(tmp_path: Path) -> None:
    deep = "/".join(["d"] * 1500) + "/x.txt"  # deeper than Python's recursion limit, within PATH_MAX
    out = tmp_path / "out"
    try:
        write.commit(out, {"t": {deep: "x\n"}})
        assert (out / deep).read_text() == "x\n"
    finally:
        # pytest removes old temporary folders with Python 3.11's recursive rmtree, which a tree
        # this deep makes raise (and every later pytest run on the machine exit 1): taken down here.
        (out / deep).unlink(missing_ok=True)
        for depth in range(1500, 0, -1):
            folder = out / "/".join(["d"] * depth)
            if folder.is_dir():
                folder.rmdir()
