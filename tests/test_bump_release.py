"""bump across a folder registry's files is all or nothing (issue #24 item 13); its changelog is
written for humans (issue #29 items 6 and 9)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import FIXTURES, run_errgen
from test_compose import code
from test_diff_fragments import repo, write  # noqa: F401  (the fixture)

MINIMAL = (FIXTURES / "valid-minimal.yaml").read_text(encoding="utf-8")


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


def bump_from(tmp_path: Path, old: str, new: str) -> tuple[str, str]:
    (tmp_path / "old.yaml").write_text(old, encoding="utf-8")
    (tmp_path / "errors.yaml").write_text(new, encoding="utf-8")
    done = run_errgen("bump", "--from", "old.yaml", "--registry", "errors.yaml", "--date", "2026-12-01", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return (tmp_path / "errors.yaml").read_text(encoding="utf-8"), done.stdout + done.stderr


@pytest.mark.parametrize("layout", ["block", "flow"])
def test_bump_declares_a_detected_rename_keeps_its_since_and_writes_a_human_changelog(tmp_path: Path, layout: str) -> None:
    old = MINIMAL
    if layout == "flow":
        old = old.replace("  TIMED_OUT:\n    category: transient\n    scope: request\n    http_status: 503\n    description: Timed out.\n    since: 1.0.0\n",
                          "  TIMED_OUT: {category: transient, scope: request, http_status: 503, description: Timed out., since: 1.0.0}\n")
    text, said = bump_from(tmp_path, old, old.replace("TIMED_OUT", "TIMEDOUT"))
    assert "changes: [TIMED_OUT was renamed to TIMEDOUT]" in text
    assert "probably" not in text and "declare it" not in text
    assert 'renamed_from: ["TIMED_OUT"]' in text and "since: 1.0.0" in text and "since: 2.0.0" not in text
    assert "version: 2.0.0" in text
    after = run_errgen("diff", "old.yaml", "errors.yaml", "--format", "json", cwd=tmp_path)
    assert after.returncode == 0, after.stdout
    assert '"rule": "code-renamed"' in after.stdout


def test_bump_declares_a_rename_inside_a_fragment(repo: Path) -> None:  # noqa: F811
    write(repo, "a.yaml", "owner: '@org/a'\ncodes:\n" + code("ALPHA_RENAMED") + code("SHARED"))
    done = run_errgen("bump", "--registry", "registry/errors.yaml", "--date", "2026-12-01", cwd=repo)
    assert done.returncode == 0, done.stderr
    fragment = (repo / "registry" / "teams" / "a.yaml").read_text(encoding="utf-8")
    assert fragment == "owner: '@org/a'\ncodes:\n" + code("ALPHA_RENAMED").replace("    since:", '    renamed_from: ["ALPHA"]\n    since:') + code("SHARED")
    assert "ALPHA was renamed to ALPHA_RENAMED" in (repo / "registry" / "errors.yaml").read_text(encoding="utf-8")


def test_bump_with_nothing_to_do_says_so_plainly(tmp_path: Path) -> None:
    _, said = bump_from(tmp_path, MINIMAL, MINIMAL)
    assert "nothing to do: no contract changes since 1.0.0" in said
    assert "none release" not in said


# --- #42 point 8 in a folder registry: a fragment's new code may leave `since` out too ---------------

def untyped(name: str) -> str:
    """A code as someone types it before bump: no `since` line."""
    return code(name).replace("    since: 1.0.0\n", "")


def test_bump_writes_since_on_a_new_code_in_a_fragment(repo: Path) -> None:  # noqa: F811
    typed = "owner: '@org/b'\ncodes:\n" + code("BETA") + untyped("GAMMA")
    write(repo, "b.yaml", typed)
    lint = run_errgen("lint", "--registry", "registry/errors.yaml", cwd=repo)
    assert lint.returncode == 1 and "missing the required key 'since'" in lint.stderr  # only bump fills it
    done = run_errgen("bump", "--registry", "registry/errors.yaml", "--date", "2026-12-01", cwd=repo)
    assert done.returncode == 0, done.stderr
    fragment = (repo / "registry" / "teams" / "b.yaml").read_text(encoding="utf-8")
    assert fragment == typed.replace("  GAMMA:\n", "  GAMMA:\n    since: 1.1.0\n")  # its first key, as in a single file
    header = (repo / "registry" / "errors.yaml").read_text(encoding="utf-8")
    assert "version: 1.1.0" in header and "{version: 1.1.0, date: 2026-12-01, changes: [GAMMA was added]}" in header
    assert run_errgen("lint", "--registry", "registry/errors.yaml", cwd=repo).returncode == 0
    again = run_errgen("bump", "--registry", "registry/errors.yaml", "--against", "HEAD", cwd=repo)
    assert again.returncode == 0 and "nothing to do" in again.stderr + again.stdout


def test_bump_dry_run_in_a_folder_registry_shows_both_files_and_writes_nothing(repo: Path) -> None:  # noqa: F811
    write(repo, "a.yaml", "owner: '@org/a'\ncodes:\n" + untyped("ALPHA_TWO") + code("ALPHA") + code("SHARED"))
    files = [repo / "registry" / "errors.yaml", *sorted((repo / "registry" / "teams").iterdir())]
    before = {p: p.read_bytes() for p in files}
    done = run_errgen("bump", "--dry-run", "--registry", "registry/errors.yaml", "--date", "2026-12-01", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "--- registry/errors.yaml\n" in done.stdout and "+version: 1.1.0\n" in done.stdout
    assert "--- registry/teams/a.yaml\n" in done.stdout and " ALPHA_TWO:\n+    since: 1.1.0\n" in done.stdout
    assert {p: p.read_bytes() for p in files} == before


def test_a_code_without_since_in_a_linked_fragment_is_refused_and_nothing_is_written(repo: Path) -> None:  # noqa: F811
    shared = repo / "registry" / "shared"
    shared.mkdir()
    (shared / "c.yaml").write_text("owner: '@org/c'\ncodes:\n" + untyped("GAMMA"), encoding="utf-8")
    (repo / "registry" / "teams" / "c.yaml").symlink_to("../shared/c.yaml")
    files = [repo / "registry" / "errors.yaml", shared / "c.yaml", *sorted((repo / "registry" / "teams").iterdir())]
    before = {p: p.read_bytes() for p in files}
    done = run_errgen("bump", "--registry", "registry/errors.yaml", cwd=repo)
    assert done.returncode == 2 and "symbolic link" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert {p: p.read_bytes() for p in files} == before and (repo / "registry" / "teams" / "c.yaml").is_symlink()


def test_a_header_code_and_a_fragment_code_without_since_are_bumped_together(repo: Path) -> None:  # noqa: F811
    header = repo / "registry" / "errors.yaml"
    header.write_text(header.read_text(encoding="utf-8").replace("history:", "codes:\n" + untyped("HEADER_NEW") + "history:"), encoding="utf-8")
    write(repo, "b.yaml", "owner: '@org/b'\ncodes:\n" + code("BETA") + untyped("GAMMA"))
    done = run_errgen("bump", "--registry", "registry/errors.yaml", "--date", "2026-12-01", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "  HEADER_NEW:\n    since: 1.1.0\n    category:" in header.read_text(encoding="utf-8")
    assert "  GAMMA:\n    since: 1.1.0\n    category:" in (repo / "registry" / "teams" / "b.yaml").read_text(encoding="utf-8")
    assert run_errgen("lint", "--registry", "registry/errors.yaml", cwd=repo).returncode == 0


def test_bump_writes_since_on_a_new_code_written_as_a_flow_mapping(tmp_path: Path) -> None:
    """The README's promise holds for a one-line code too: its `since` becomes its first item."""
    added = "  SLOW_DOWN: {category: transient, scope: request, http_status: 429, description: Slow down.}\n"
    text, said = bump_from(tmp_path, MINIMAL, MINIMAL.replace("history:", added + "history:"))
    assert "  SLOW_DOWN: {since: 1.1.0, category: transient, scope: request, http_status: 429, description: Slow down.}\n" in text
    assert "changes: [SLOW_DOWN was added]" in text and "version: 1.1.0" in text, said
    assert run_errgen("lint", "--registry", "errors.yaml", cwd=tmp_path).returncode == 0


def test_bump_writes_since_on_a_flow_mapping_code_in_a_fragment(repo: Path) -> None:  # noqa: F811
    typed = "owner: '@org/b'\ncodes:\n" + code("BETA") + "  GAMMA: {category: transient, scope: request, http_status: 503, description: G.}\n"
    write(repo, "b.yaml", typed)
    done = run_errgen("bump", "--registry", "registry/errors.yaml", "--date", "2026-12-01", cwd=repo)
    assert done.returncode == 0, done.stderr
    fragment = (repo / "registry" / "teams" / "b.yaml").read_text(encoding="utf-8")
    assert fragment == typed.replace("GAMMA: {", "GAMMA: {since: 1.1.0, ")
    assert run_errgen("lint", "--registry", "registry/errors.yaml", cwd=repo).returncode == 0
