"""Issue 26 item 6: the version lives in package metadata only, so a release whose only change is
the version (and its history entry) rewrites a handful of generated files, not every one."""

from __future__ import annotations

import filecmp
from pathlib import Path

from conftest import REGISTRY, default_version, next_version
from errgen.emit.build import build
from errgen.registry.lint import lint_text

# What a version-only release may change: each package's metadata, the site's changelog, and the
# build manifest (the hashes of the files above).
EXPECTED = {".errgen-manifest.json", "java/pom.xml", "python/pyproject.toml", "rust/Cargo.toml",
            "typescript/package.json", "site/changelog.html"}


def _released(text: str) -> str:
    assert text.endswith("\n") and f"\nversion: {default_version()}\n" in text
    entry = f"  - version: {next_version()}\n    date: 2026-12-01\n    changes: [\"A release of the same contract.\"]\n"
    return text.replace(f"\nversion: {default_version()}\n", f"\nversion: {next_version()}\n", 1) + entry


def _changed(a: Path, b: Path) -> set[str]:
    files = {p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file()} | {
        p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file()}
    return {f for f in files if not ((a / f).is_file() and (b / f).is_file() and filecmp.cmp(a / f, b / f, shallow=False))}


def test_a_version_only_release_changes_only_the_package_metadata(tmp_path: Path) -> None:
    text = REGISTRY.read_text(encoding="utf-8")
    before, after = lint_text(text).registry, lint_text(_released(text)).registry
    assert before is not None and after is not None and after.version == next_version()
    build(before, tmp_path / "before")
    build(after, tmp_path / "after")
    changed = _changed(tmp_path / "before", tmp_path / "after") - {".errgen-cache.json"}
    assert changed == EXPECTED
    assert len(changed) <= 10
