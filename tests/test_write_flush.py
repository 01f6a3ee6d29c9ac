"""The writer's cost grows with the bytes written, not with a disk round trip per file: files
bound for folders the output has are staged flat (no folder per output folder; new folders are
staged as trees that move in whole, tests/test_write_new_folders.py), and all are made durable
by one flush of the file system before the commit, where a per-file fsync used to be; where the
file system cannot be flushed whole, every staged file is still fsynced before the commit."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from errgen.emit import commit as write

FILES = 300


def plan(tag: str) -> dict[str, write.Plan]:
    return {"site": {f"site/CODE_{i:04d}/index.html": f"<p>{tag} {i}</p>\n" for i in range(FILES)}}


class Calls:
    """Records the disk calls of one commit, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.log: list[tuple[str, str]] = []
        for name in ("fsync", "mkdir", "replace", "rmdir"):
            monkeypatch.setattr(os, name, self._wrap(name, getattr(os, name)))
        real = write._syncfs
        monkeypatch.setattr(write, "_syncfs", lambda fd: self._note("syncfs", fd) or real(fd))

    def _note(self, name: str, arg: Any) -> None:
        self.log.append((name, str(arg)))

    def _wrap(self, name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self._note(name, args[0])
            return real(*args, **kwargs)
        return call

    def count(self, name: str, under: str = "") -> int:
        return sum(1 for n, arg in self.log if n == name and under in arg)


def test_a_commit_flushes_once_not_per_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if write._libc() is None:
        pytest.skip("no syncfs here: the per-file fallback is tested below")
    out = tmp_path / "out"
    calls = Calls(monkeypatch)
    changes = write.commit(out, plan("new"))
    assert len(changes.written) == FILES + 1  # and the .gitignore
    assert calls.count("syncfs") == 1
    assert calls.count("fsync") <= 2  # OUT after the commit rename, and after the manifest moved
    # the flush comes before the rename that commits to the staged files
    names = [n for n, arg in calls.log if n == "syncfs" or (n == "replace" and write.COMMIT in arg)]
    assert names[0] == "syncfs"


def test_staging_makes_no_folder_per_output_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    write.commit(out, plan("old"))
    calls = Calls(monkeypatch)
    write.commit(out, plan("new"))
    # The staging folder and its files/ (mkdir(parents=True) may try files/ twice), not one per
    # output folder; and each output folder at most once.
    assert calls.count("mkdir", write.STAGING) <= 3
    made = [arg for name, arg in calls.log if name == "mkdir" and write.STAGING not in arg]
    assert len(made) == len(set(made))
    assert calls.count("rmdir") <= 3  # the emptied staging tree is two folders, not one per output folder
    assert (out / "site/CODE_0007/index.html").read_text() == "<p>new 7</p>\n"
    assert not write.compare(out, {t: write.hashes(p) for t, p in plan("new").items()})


def test_without_syncfs_every_staged_file_is_fsynced_before_the_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    monkeypatch.setattr(write, "_libc", lambda: None)
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    committed: list[int] = []
    real_replace = os.replace

    def replace(src: Any, dest: Any) -> None:
        if str(dest).endswith(write.COMMIT):
            committed.append(len(synced))
        real_replace(src, dest)
    monkeypatch.setattr(os, "replace", replace)
    write.commit(out, plan("new"))
    assert committed and committed[0] >= FILES + 1 + 2  # each staged file, the journal and the manifest
