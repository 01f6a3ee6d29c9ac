"""Issue 42, "the first afternoon": the next step each message names works, and the docs, site and
tests hold up for a newcomer."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import run_errgen


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                          capture_output=True, text=True)
    return done.stdout


@pytest.fixture()
def repo(workdir: Path) -> Path:
    git(workdir, "init", "-q", "-b", "main")
    git(workdir, "add", ".")
    git(workdir, "commit", "-q", "-m", "release 2.1.0")
    return workdir


# --- point 1: diff's hint names the bump that compares with the same base ---------------------------

@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif", "markdown"])
def test_diff_hint_names_the_base_so_bump_works_after_the_break_is_committed(repo: Path, fmt: str) -> None:
    path = repo / "registry" / "errors.yaml"
    path.write_text(path.read_text().replace("    http_status: 401\n", "    http_status: 403\n", 1))
    git(repo, "commit", "-qam", "break")
    assert "nothing to do" in run_errgen("bump", "--dry-run", cwd=repo).stderr.lower() + run_errgen("bump", "--dry-run", cwd=repo).stdout.lower()
    done = run_errgen("diff", "--against", "HEAD~1", "--format", fmt, cwd=repo)
    assert done.returncode == 1
    shown = done.stdout.replace("\\", "")  # markdown escapes ` and ~; rendered, they read as typed
    assert "errgen bump --against HEAD~1" in shown, done.stdout
    assert "run `errgen bump`" not in shown
    fixed = run_errgen("bump", "--against", "HEAD~1", cwd=repo)
    assert fixed.returncode == 0, fixed.stderr
    assert "version: 3.0.0\n" in path.read_text()


def test_diff_hint_with_merge_base_names_the_fork_commit_and_files_name_from(repo: Path) -> None:
    fork = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-qb", "work")
    path = repo / "registry" / "errors.yaml"
    path.write_text(path.read_text().replace("    http_status: 401\n", "    http_status: 403\n", 1))
    done = run_errgen("diff", "--against", "main", "--merge-base", "--format", "json", cwd=repo)
    messages = [c["message"] for c in json.loads(done.stdout)["checks"]]
    assert any(f"errgen bump --against {fork}" in m for m in messages), messages
    old = repo / "old.yaml"
    old.write_text(git(repo, "show", "HEAD:registry/errors.yaml"))
    done = run_errgen("diff", str(old), str(path), cwd=repo)
    assert f"errgen bump --from {old} --registry {path}" in done.stdout, done.stdout
