"""A folder the output lacks is staged as a tree and moves into place in one rename (a first
build of a site is one move, not a folder made and a file moved per page), and an interrupted
commit holding such a tree is finished, or refused when it was tampered with, like any other."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from errgen.emit import commit as write

PAGES = 200


def plan(tag: str, pages: range = range(PAGES), extra: dict[str, str] | None = None) -> dict[str, write.Plan]:
    files = {f"site/CODE_{i:04d}/index.html": f"<p>{tag} {i}</p>\n" for i in pages}
    return {"site": {**files, **(extra or {})}}


def on_disk(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): p.read_text() for p in sorted(out.rglob("*")) if p.is_file() and not p.name.startswith(".")}


class Moves:
    """The renames into, and the folders made in, OUT itself (not its staging or commit folder)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, out: Path) -> None:
        self.out = str(out.resolve() if out.exists() else out)
        self.renamed: list[str] = []
        self.made: list[str] = []
        real_replace, real_mkdir = os.replace, os.mkdir

        def replace(src: Any, dest: Any) -> None:
            self._note(self.renamed, dest)
            real_replace(src, dest)

        def mkdir(path: Any, *args: Any, **kwargs: Any) -> None:
            real_mkdir(path, *args, **kwargs)
            self._note(self.made, path)  # made: a folder there already fails harmlessly
        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(os, "mkdir", mkdir)

    def _note(self, log: list[str], path: Any) -> None:
        rel = os.path.relpath(os.fspath(path), self.out)
        if not rel.startswith((write.STAGING, write.COMMIT, "..")):
            log.append(rel)


def test_a_first_build_moves_each_new_folder_in_one_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    moves = Moves(monkeypatch, out)
    write.commit(out, plan("new"))
    assert [rel for rel in moves.renamed if rel.startswith("site")] == ["site"]
    assert not [rel for rel in moves.made if rel.startswith("site")]
    assert on_disk(out) == {rel: text for rel, text in plan("new")["site"].items()}
    assert not write.compare(out, {"site": write.hashes(plan("new")["site"])})


def test_new_folders_inside_existing_ones_move_whole_and_changed_files_one_by_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    write.commit(out, plan("old"))
    extra = {"site/deep/er/page.html": "<p>deep</p>\n", "site/deep/er/other.html": "<p>other</p>\n"}
    new = plan("old", range(PAGES + 3), extra)
    new["site"]["site/CODE_0001/index.html"] = "<p>changed</p>\n"
    moves = Moves(monkeypatch, out)
    changes = write.commit(out, new)
    assert sorted(moves.renamed) == sorted([
        "site/CODE_0001/index.html",  # a changed file, in a folder OUT has
        *(f"site/CODE_{i:04d}" for i in range(PAGES, PAGES + 3)), "site/deep",  # new folders, whole
        write.MANIFEST,
    ])
    assert not moves.made
    assert len(changes.written) == 1 + 3 + 2
    assert on_disk(out) == new["site"]


class Stopped(BaseException):
    pass


def sealed(out: Path, plans: dict[str, write.Plan], monkeypatch: pytest.MonkeyPatch) -> Path:
    """A commit folder a build sealed, then died before moving anything into OUT."""
    real = os.replace

    def replace(src: Any, dest: Any) -> None:
        if write.COMMIT in os.fspath(src):
            raise Stopped()
        real(src, dest)
    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", replace)
        with pytest.raises(Stopped):
            write.commit(out, plans)
    commit = out / write.COMMIT
    assert (commit / "journal.json").is_file()
    return commit


def test_an_interrupted_first_build_is_finished_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    sealed(out, plan("new"), monkeypatch)
    assert not (out / "site").exists()
    assert write.compare(out, {"site": write.hashes(plan("new")["site"])}).leftovers
    write.recover(out)
    assert on_disk(out) == plan("new")["site"]
    assert not write.compare(out, {"site": write.hashes(plan("new")["site"])})


def test_a_folder_made_meanwhile_where_a_new_one_goes_gets_the_files_one_by_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    sealed(out, plan("new"), monkeypatch)
    (out / "site").mkdir()
    (out / "site" / "mine.txt").write_text("mine\n")  # not errgen's: kept, never merged over
    write.recover(out)
    assert on_disk(out) == {**plan("new")["site"], "site/mine.txt": "mine\n"}


def test_a_journal_of_an_older_errgen_without_folders_is_finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    write.commit(out, plan("old"))
    commit = sealed(out, plan("new"), monkeypatch)  # every folder there: all staged flat
    journal = json.loads((commit / "journal.json").read_text())
    assert journal["folders"] == []
    del journal["folders"]
    (commit / "journal.json").write_text(json.dumps(journal))
    write.recover(out)
    assert on_disk(out) == plan("new")["site"]


@pytest.mark.parametrize("tamper, needle", [
    (lambda tree, outside: (tree / "site" / "CODE_0003" / "planted.sh").write_text("x"), "not a regular file its journal lists"),
    (lambda tree, outside: [(tree / "site" / "CODE_0003" / "index.html").unlink(),
                            (tree / "site" / "CODE_0003" / "index.html").symlink_to(outside / "secret.txt")], "not a regular file its journal lists"),
    (lambda tree, outside: (tree / "other").mkdir(), "a folder its journal does not list"),
    (lambda tree, outside: [(tree / "site").rename(outside / "site"), (tree / "site").symlink_to(outside / "site")], "not a regular file"),
])
def test_a_tampered_tree_in_a_commit_is_refused_and_nothing_moves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tamper: Any, needle: str) -> None:
    out = tmp_path / "out"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("precious\n")
    commit = sealed(out, plan("new"), monkeypatch)
    tamper(commit / "tree", outside)
    with pytest.raises(write.WriteError, match=needle):
        write.recover(out)
    assert not (out / "site").exists()
    assert (outside / "secret.txt").read_text() == "precious\n"


@pytest.mark.parametrize("folders, needle", [
    (["site", "site/CODE_0001"], "inside"),
    (["site", "site"], "listed twice"),
    (["../elsewhere"], "not a relative path"),
    ("site", "expected"),
])
def test_a_journal_listing_bad_folders_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folders: Any, needle: str) -> None:
    out = tmp_path / "out"
    commit = sealed(out, plan("new"), monkeypatch)
    journal = json.loads((commit / "journal.json").read_text())
    (commit / "journal.json").write_text(json.dumps({**journal, "folders": folders}))
    with pytest.raises(write.WriteError, match=needle):
        write.recover(out)
    assert not (out / "site").exists()


def test_a_new_folder_through_a_symlink_leading_outside_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    outside = tmp_path / "outside"
    outside.mkdir()
    commit = sealed(out, plan("new", extra={"deep/er/page.html": "<p>deep</p>\n"}), monkeypatch)
    journal = json.loads((commit / "journal.json").read_text())
    assert journal["folders"] == ["deep", "site"]
    (out / "deep").symlink_to(outside)  # planted after the build checked its folders
    journal["folders"] = ["deep/er", "site"]
    (commit / "journal.json").write_text(json.dumps(journal))
    with pytest.raises(write.WriteError, match="leads outside"):
        write.recover(out)
    assert not list(outside.iterdir())
