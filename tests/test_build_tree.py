"""The repository stays clean: the committed manifest depends only on the outputs (not on tool
versions or errgen's own source), a fresh clone builds to no change, and what building the
generated packages leaves behind is ignored by git. The fast no-op --check trusts only what the
last build in this very folder recorded."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT, build_to, load_registry, run_errgen
from errgen.emit import build as pipeline
from errgen.emit import commit as write


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=cwd,
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_the_manifest_does_not_depend_on_tool_versions_or_errgen_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_to(REGISTRY, tmp_path / "here")
    monkeypatch.setattr(pipeline, "_tooling", lambda: "pydantic==0.0.1\nanother errgen source")
    build_to(REGISTRY, tmp_path / "there")
    assert (tmp_path / "here" / write.MANIFEST).read_bytes() == (tmp_path / "there" / write.MANIFEST).read_bytes()
    assert "fingerprint" not in (tmp_path / "here" / write.MANIFEST).read_text()


def test_a_fresh_clone_is_clean_after_build(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    clone.mkdir()
    for rel in git(ROOT, "ls-files", "-z").split("\0"):
        if rel and (ROOT / rel).is_file():
            (clone / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, clone / rel)
    git(clone, "init", "-q")
    git(clone, "add", "-A")
    git(clone, "commit", "-qm", "clone")
    env_src = clone / "src"
    done = subprocess.run([sys.executable, "-m", "errgen", "build"], cwd=clone, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(env_src), "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "up to date" in done.stderr
    assert git(clone, "status", "--porcelain") == ""


def test_package_build_leftovers_are_ignored_and_generated_files_never_are(tmp_path: Path) -> None:
    repo = tmp_path
    git(repo, "init", "-q")
    (repo / "registry").mkdir()
    shutil.copy(REGISTRY, repo / "registry" / "errors.yaml")
    assert run_errgen("build", cwd=repo).returncode == 0
    out = repo / "generated"
    owned = sorted(write.read_manifest(out).files())
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *(f"generated/{p}" for p in owned)], cwd=repo, capture_output=True, text=True)
    assert ignored.stdout == ""  # no generated file is hidden from git
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "build")
    # What pip, setuptools, npm, cargo and maven leave in a package folder.
    for rel in ("python/build/lib/acme_errors/__init__.py", "python/dist/acme_errors-2.1.0-py3-none-any.whl",
                "python/acme_errors.egg-info/PKG-INFO", "python/acme_errors/__pycache__/enums.cpython-311.pyc",
                "typescript/node_modules/typescript/package.json", "typescript/package-lock.json", "typescript/build/index.js"):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text("leftover\n")
    assert git(repo, "status", "--porcelain") == ""
    assert run_errgen("build", "--check", cwd=repo).returncode == 0


def test_leftover_patterns_are_anchored_per_package_and_skip_generated_paths() -> None:
    text = write.ignore_text(["rust/Cargo.toml", "rust/src/lib.rs", "java/pom.xml", "java/target/keep.txt", "build/x.md"])
    assert "/rust/target/" in text and "/rust/Cargo.lock" in text
    assert "/java/target/" not in text  # a generated file lives there
    assert "\nbuild/" not in text and "\ntarget/" not in text
    named_build = write.ignore_text(["python/pyproject.toml", "python/build_errors/models.py"])
    assert "/python/build/" in named_build  # build_errors/ is not build/
    assert "/python/*.egg-info/" not in write.ignore_text(["python/pyproject.toml", "python/x.egg-info/keep"])


def test_fast_check_answers_from_the_cache_without_rendering(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_to(REGISTRY, tmp_path)
    registry = load_registry()
    monkeypatch.setattr(pipeline, "_render", lambda *a: pytest.fail("rendered although nothing changed"))
    assert not pipeline.check(registry, tmp_path)


def test_a_copied_or_forged_cache_is_not_trusted(tmp_path: Path) -> None:
    """The cache binds each file to its inode and change time: a copy (a checkout, a pull request
    carrying .errgen-cache.json) does not match, so check renders and sees the stale file."""
    build_to(REGISTRY, tmp_path / "a")
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    (tmp_path / "b" / "recovery.md").write_text("stale\n")
    shutil.copy2(tmp_path / "a" / write.CACHE, tmp_path / "b" / write.CACHE)
    assert pipeline.check(load_registry(), tmp_path / "b").stale == ["recovery.md"]


def test_the_cache_key_covers_errgen_and_its_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_to(REGISTRY, tmp_path)
    rendered: list[str] = []
    real = pipeline._render
    monkeypatch.setattr(pipeline, "_render", lambda target, registry: rendered.append(target.NAME) or real(target, registry))
    monkeypatch.setattr(pipeline, "_tooling", lambda: "black==99.0")
    assert not pipeline.check(load_registry(), tmp_path)
    assert "python" in rendered and "schema" in rendered


def test_a_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    build_to(REGISTRY, tmp_path)
    for text in ("[", '{"python": {"key": 1, "files": []}}', '{"python": {"key": "x", "files": {"../x": [1]}}}', "[" * 100_000):
        (tmp_path / write.CACHE).write_text(text)
        assert not pipeline.check(load_registry(), tmp_path)


def test_the_cache_key_reads_every_template_and_errgen_source() -> None:
    from errgen.emit.targets import all_targets
    from errgen.resources import templates_dir

    sources = set(pipeline._sources())
    templates = {p for t in all_targets() for p in templates_dir(t.NAME).rglob("*") if p.is_file()}
    assert templates and templates <= sources
    assert Path(pipeline.__file__).resolve() in sources and Path(write.__file__).resolve() in sources
