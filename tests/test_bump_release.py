"""bump across a folder registry's files is all or nothing (issue #24 item 13); its changelog is
written for humans (issue #29 items 6 and 9)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import run_errgen
from test_compose import code
from test_diff_fragments import repo, write  # noqa: F401  (the fixture)


def test_a_failed_fragment_write_leaves_every_file_unchanged(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    from errgen import bump
    from errgen.cli import main

    write(repo, "b.yaml", "owner: '@org/b'\ncodes:\n" + code("BETA") + code("GAMMA"))
    files = [repo / "registry" / "errors.yaml", *sorted((repo / "registry" / "teams").iterdir())]
    before = {p: p.read_bytes() for p in files}
    real = bump._write_all

    def unwritable_fragments(fd: int, data: bytes, mode: int) -> None:
        if f"{os.sep}teams" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.EACCES, "Permission denied")
        real(fd, data, mode)

    monkeypatch.setattr(bump, "_write_all", unwritable_fragments)
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(main, ["bump", "--registry", "registry/errors.yaml", "--date", "2026-12-01"])
    assert result.exit_code == 2, result.output
    assert "no file was changed" in result.output
    assert {p: p.read_bytes() for p in files} == before
    assert sorted(p.name for p in (repo / "registry").rglob("*")) == sorted(["teams", "errors.yaml", "a.yaml", "b.yaml"])
