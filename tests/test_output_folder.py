"""What the output folder may hold: only what errgen writes (issue 38 point 2), and only the
targets it is told to build (issue 42 point 3).

`build --check` reports every file in OUT that no build writes, so a file planted in a pull
request (a Go `zz_init.go` with an `init()`, a Rust `build.rs`, a Python module shadowing
`random`, a Maven `.mvn/jvm.config`, a second `_conformance.py`) fails the check. Build
leftovers (what the generated .gitignore hides), and whatever else git ignores, are let be only
while git does not track them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REGISTRY, load_registry, run_errgen
from errgen.emit.build import build, check

SDKS = ("go", "rust", "python", "java", "typescript")
# Planted where each language's tools would pick them up.
PLANTED = ("go/zz_init.go", "rust/build.rs", "python/acme_errors/random.py", "java/.mvn/jvm.config",
           "python/other/_conformance.py", "typescript/dist/cjs/evil.js", "schema/extra.json", "stray.txt")
# Paths a leftover pattern of the generated .gitignore hides (rust/target/, python/build/, ...).
HIDDEN = ("rust/target/build.rs", "rust/Cargo.lock", "python/build/lib/acme_errors/random.py",
          "python/acme_errors.egg-info/PKG-INFO", "typescript/node_modules/evil/index.js",
          "python/acme_errors/__pycache__/_conformance.cpython-311.pyc", "java/target/classes/x.class")


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(autouse=True)
def plain_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """git with no user or system settings: a global excludes file must not change what is ignored."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built") / "generated"
    build(load_registry(), out, SDKS)
    return out


@pytest.fixture()
def repo(tmp_path: Path, built: Path) -> Path:
    """A git repository whose committed generated/ is a fresh build of the SDKs."""
    shutil.copytree(built, tmp_path / "generated", symlinks=True)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "build")
    return tmp_path / "generated"


def plant(out: Path, paths: tuple[str, ...]) -> None:
    for rel in paths:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text("planted\n")


def unlisted(out: Path) -> list[str]:
    return check(load_registry(), out, SDKS, trust_cache=False).unlisted


def test_a_fresh_build_holds_nothing_else(repo: Path) -> None:
    assert not check(load_registry(), repo, SDKS, trust_cache=False)


def test_every_planted_file_is_reported_and_fails_the_check(repo: Path) -> None:
    plant(repo, PLANTED)
    (repo / "go" / "zz_link.go").symlink_to("/etc/hostname")
    assert unlisted(repo) == sorted([*PLANTED, "go/zz_link.go"])
    (repo.parent / "errgen.toml").write_text('targets = ["go", "rust", "python", "java", "typescript"]\n')
    shutil.copy(REGISTRY, repo.parent / "errors.yaml")
    done = run_errgen("build", "--check", "--registry", "errors.yaml", cwd=repo.parent)
    assert done.returncode == 1, done.stdout + done.stderr
    for rel in PLANTED:
        assert f"extra {rel} (errgen build does not write it" in done.stderr, done.stderr


def test_untracked_build_leftovers_are_let_be(repo: Path) -> None:
    """What building or installing an SDK by hand leaves (cargo's target/, pip's build/ and
    egg-info, node_modules/, __pycache__/) is hidden by the generated .gitignore and is no
    finding while git does not track it."""
    plant(repo, HIDDEN)
    assert unlisted(repo) == []


def test_what_the_repository_ignores_and_does_not_track_is_let_be(repo: Path) -> None:
    """A type checker's cache in the SDK folder, ignored by the repository's own .gitignore, is
    no finding either; the same file not ignored is (git would commit it)."""
    plant(repo, ("python/.mypy_cache/3.11/x.json",))
    assert unlisted(repo) == ["python/.mypy_cache/3.11/x.json"]
    (repo.parent / ".gitignore").write_text(".mypy_cache/\n")
    assert unlisted(repo) == []


def test_a_committed_leftover_is_reported_like_any_planted_file(repo: Path) -> None:
    """A pull request can commit an ignored path (`git add -f`): a Rust build.rs under target/,
    a Python module under build/lib (setuptools copies it into the wheel), a package under
    node_modules/ (node's require finds it) are all reported once git tracks them."""
    plant(repo, HIDDEN)
    git(repo.parent, "add", "-f", *[f"generated/{rel}" for rel in HIDDEN])
    assert unlisted(repo) == sorted(HIDDEN)


def test_outside_a_git_work_tree_leftovers_are_reported_too(built: Path, tmp_path: Path) -> None:
    """When git cannot say what it tracks, errgen cannot tell a leftover from a planted file."""
    out = tmp_path / "generated"
    shutil.copytree(built, out, symlinks=True)
    plant(out, HIDDEN[:2])
    assert unlisted(out) == sorted(HIDDEN[:2])


def test_a_manifest_listing_a_planted_file_does_not_make_it_errgens(repo: Path) -> None:
    """The manifest is in the pull request too: listing zz_init.go under the go target (or under a
    made-up target) only makes it an extra file of that target."""
    import json

    plant(repo, ("go/zz_init.go", "python/random.py"))
    manifest = json.loads((repo / ".errgen-manifest.json").read_text())
    manifest["targets"]["go"]["files"]["go/zz_init.go"] = "0" * 64
    manifest["targets"]["zz"] = {"files": {"python/random.py": "0" * 64}}
    (repo / ".errgen-manifest.json").write_text(json.dumps(manifest))
    report = check(load_registry(), repo, SDKS, trust_cache=False, complete=True)
    assert {"go/zz_init.go", "python/random.py"} <= set(report.extra + report.unlisted), report.render()
    assert ".errgen-manifest.json" in report.stale
    # Checking python alone (--target python) still reports a file in python/ listed under another target.
    partial = check(load_registry(), repo, ["python"], trust_cache=False, complete=False)
    assert "python/random.py" in partial.unlisted, partial.render()


def settings(folder: Path, *targets: str) -> None:
    (folder / "errgen.toml").write_text("targets = [" + ", ".join(f'"{t}"' for t in targets) + "]\n")


def test_dropping_a_target_from_the_settings_removes_its_files(tmp_path: Path) -> None:
    """Issue 42 point 3: once `go` left `targets`, generated/go/ stayed committed and stale while
    `build --check` said up to date. The check now names its files as extra, and the build deletes
    them (only files the manifest lists: a build leftover beside them stays)."""
    shutil.copy(REGISTRY, tmp_path / "errors.yaml")
    settings(tmp_path, "python", "go")
    assert run_errgen("build", "--registry", "errors.yaml", cwd=tmp_path).returncode == 0
    out = tmp_path / "generated"
    assert (out / "go" / "go.mod").is_file()
    settings(tmp_path, "python")
    done = run_errgen("build", "--check", "--registry", "errors.yaml", cwd=tmp_path)
    assert done.returncode == 1 and "extra go/go.mod (written by an earlier build, no longer generated)" in done.stderr, done.stderr
    done = run_errgen("build", "--registry", "errors.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (out / "go").exists()
    assert '"go"' not in (out / ".errgen-manifest.json").read_text()
    done = run_errgen("build", "--check", "--registry", "errors.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_a_target_named_on_the_command_line_leaves_the_others_alone(tmp_path: Path) -> None:
    shutil.copy(REGISTRY, tmp_path / "errors.yaml")
    settings(tmp_path, "python", "go")
    assert run_errgen("build", "--registry", "errors.yaml", cwd=tmp_path).returncode == 0
    done = run_errgen("build", "--registry", "errors.yaml", "--target", "python", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "generated" / "go" / "go.mod").is_file()
    assert run_errgen("build", "--check", "--registry", "errors.yaml", "--target", "python", cwd=tmp_path).returncode == 0
    assert run_errgen("build", "--check", "--registry", "errors.yaml", cwd=tmp_path).returncode == 0
