"""errgen diff --against a git ref, and errgen bump (comments kept byte for byte, idempotent)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURES, REGISTRY, ROOT, default_version, load_registry, next_version, run_errgen


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture()
def repo(workdir: Path) -> Path:
    git(workdir, "init", "-q", "-b", "main")
    git(workdir, "add", ".")
    git(workdir, "commit", "-q", "-m", "release 2.1.0")
    return workdir


def edit(repo: Path, old: str, new: str) -> Path:
    path = repo / "registry" / "errors.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_against_head_flags_an_unannounced_break(repo: Path) -> None:
    edit(repo, "    http_status: 401\n", "    http_status: 403\n")
    done = run_errgen("diff", "--against", "HEAD", cwd=repo)
    assert done.returncode == 1
    assert "http-status-changed" in done.stdout
    assert "the changes need a major release (version 3.0.0)" in done.stdout


def test_against_head_is_clean_without_changes(repo: Path) -> None:
    done = run_errgen("diff", "--against", "HEAD", "--format", "github", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr


def test_unknown_ref_and_missing_file_and_no_repo_exit_2(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    done = run_errgen("diff", "--against", "no-such-branch", cwd=repo)
    assert done.returncode == 2 and "git has no commit 'no-such-branch'" in done.stderr
    lonely = tmp_path_factory.mktemp("norepo")
    (lonely / "r.yaml").write_text(REGISTRY.read_text())
    done = run_errgen("diff", "--against", "HEAD", "--registry", str(lonely / "r.yaml"), cwd=lonely)
    assert done.returncode == 2 and "not inside a git repository" in done.stderr
    assert "pass OLD and NEW registry files instead of --against" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_registry_new_on_the_branch_is_everything_added(repo: Path) -> None:
    (repo / "other.yaml").write_text(REGISTRY.read_text())
    done = run_errgen("diff", "--against", "HEAD", "--registry", "other.yaml", "--format", "json", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    body = json.loads(done.stdout)
    assert body["new_registry"] and body["ok"] and {c["rule"] for c in body["changes"]} == {"code-added", "category-added"}
    assert body["verdict"].startswith(f"New registry at version {default_version()}: everything in it is added.")
    # Its version rules still apply: a version without a history entry fails (exit 1, not 2).
    text = REGISTRY.read_text().replace(f"version: {default_version()}\n", f"version: {next_version()}\n", 1)
    (repo / "other.yaml").write_text(text)
    done = run_errgen("diff", "--against", "HEAD", "--registry", "other.yaml", cwd=repo)
    assert done.returncode == 1 and "history-current" in done.stderr


COMMENTED = FIXTURES / "valid-minimal.yaml"


def commented_registry(tmp_path: Path) -> Path:
    text = COMMENTED.read_text(encoding="utf-8")
    text = "# Our contract. Keep codes stable!\n" + text.replace("codes:\n", "codes:   # in release order\n")
    text = text.replace("    since: 1.0.0\n  BAD_INPUT:", "    since: 1.0.0   # shipped day one\n\n  # Validation failures below.\n  BAD_INPUT:")
    path = tmp_path / "registry.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_bump_keeps_comments_and_layout_byte_for_byte(tmp_path: Path) -> None:
    old = commented_registry(tmp_path)
    new = tmp_path / "new.yaml"
    original = old.read_text().replace("    http_status: 503\n", "    http_status: 504\n")
    new.write_text(original)
    done = run_errgen("bump", "--from", str(old), "--registry", str(new), "--date", "2026-11-30")
    assert done.returncode == 0, done.stderr
    assert "1.0.0 -> 2.0.0 (major release)" in done.stderr
    bumped = new.read_text()
    expected = original.replace("version: 1.0.0\n", "version: 2.0.0\n", 1) + (
        "  - {version: 2.0.0, date: 2026-11-30, changes: [TIMED_OUT's HTTP status changed from 503 to 504]}\n"
    )
    assert bumped == expected
    assert run_errgen("lint", "--registry", str(new)).returncode == 0
    assert run_errgen("diff", str(old), str(new)).returncode == 0
    again = run_errgen("bump", "--from", str(old), "--registry", str(new))
    assert again.returncode == 0 and "nothing to do" in again.stderr
    assert new.read_text() == bumped


def test_bump_dry_run_prints_and_writes_nothing(tmp_path: Path) -> None:
    old = commented_registry(tmp_path)
    new = tmp_path / "new.yaml"
    new.write_text(old.read_text().replace("history:", "  EXTRA_CODE:\n    category: transient\n    scope: request\n    http_status: 503\n    description: More.\n    since: 1.0.0\nhistory:"))
    before = new.read_text()
    done = run_errgen("bump", "--from", str(old), "--registry", str(new), "--dry-run", "--date", "2026-11-30")
    assert done.returncode == 0
    assert "+version: 1.1.0" in done.stdout and "EXTRA_CODE was added" in done.stdout
    assert new.read_text() == before


def test_bump_against_git_head(repo: Path) -> None:
    edit(repo, "  INTERNAL_ERROR:\n", "  QUOTA_EXCEEDED:\n    category: rate_limit\n    scope: request\n    http_status: 429\n    description: Quota used up.\n"
         f"    since: {default_version()}\n\n  INTERNAL_ERROR:\n")
    done = run_errgen("bump", "--date", "2026-11-30", cwd=repo)
    assert done.returncode == 0, done.stderr
    text = (repo / "registry" / "errors.yaml").read_text()
    assert f"version: {next_version()}\n" in text
    assert f'  - version: {next_version()}\n    date: 2026-11-30\n    changes: ["QUOTA_EXCEEDED was added"]\n' in text
    assert run_errgen("diff", "--against", "HEAD", cwd=repo).returncode == 0


@pytest.mark.parametrize("folder", [b"caf\xe9", b"ends-in-newline\n"], ids=["not-utf8", "newline"])
def test_against_head_in_any_repository_path(tmp_path: Path, folder: bytes) -> None:
    import os
    import shutil
    import sys

    from conftest import ROOT

    root = os.path.join(os.fsencode(tmp_path), folder)
    os.makedirs(os.path.join(root, b"registry"))
    shutil.copy(REGISTRY, os.path.join(root, b"registry", b"errors.yaml"))
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True)
    done = subprocess.run([sys.executable, "-m", "errgen", "diff", "--against", "HEAD"], cwd=root, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0, done.stderr
    assert b"no contract changes" in done.stdout


def test_a_code_added_in_a_release_between_old_and_new_keeps_its_since(tmp_path: Path) -> None:
    """Diffing across two releases (2.0.0 -> 2.2.0 with 2.1.0 in NEW's history): a code added in
    2.1.0 says since: 2.1.0, and that is right; a since at or before OLD's version is not."""
    text = REGISTRY.read_text()
    version = load_registry().version
    later = text.replace(f"\nversion: {version}\n", "\nversion: 99.1.0\n", 1).rstrip("\n") + (
        "\n  - version: 99.1.0\n    date: 2026-12-03\n    changes: [\"Add LATE_CODE.\"]\n")
    later = later.replace("\ncodes:\n", "\ncodes:\n  LATE_CODE:\n    category: internal\n    scope: request\n"
                          "    description: A code added in the latest release.\n    since: 99.1.0\n\n", 1)
    path = tmp_path / "errors.yaml"
    path.write_text(later)
    done = run_errgen("diff", str(ROOT / "tests" / "fixtures" / "releases" / "errors-2.0.0.yaml"), str(path))
    assert "since-mismatch" not in done.stdout, done.stdout
    path.write_text(later.replace("    since: 99.1.0\n\n", "    since: 2.0.0\n\n", 1))
    done = run_errgen("diff", str(ROOT / "tests" / "fixtures" / "releases" / "errors-2.0.0.yaml"), str(path))
    assert "LATE_CODE first appears in 99.1.0 but says since: 2.0.0" in done.stdout, done.stdout
