"""Issue 38, low: with umask 002 the cache is not silently off (errgen makes its folders 0700 and
-v says once why a cache it cannot trust is off); `conformance --help` names no npm step."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REGISTRY, ROOT, run_errgen


def _build(tmp_path: Path, cache: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "ERRGEN_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "errgen", *flags, "build", "--registry", str(REGISTRY), "--target", "schema",
                           "--out", str(tmp_path / "out")], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300, umask=0o002)


def test_under_umask_002_the_cache_folders_errgen_makes_are_private_and_used(tmp_path: Path) -> None:
    cache = tmp_path / "new" / "parents" / "cache"
    done = _build(tmp_path, cache, "-v")
    assert done.returncode == 0, done.stderr
    assert "cache off" not in done.stderr
    for folder in (cache, cache.parent, cache.parent.parent):
        assert oct(folder.stat().st_mode & 0o777) == "0o700", folder
    assert (cache / "key").is_file()


def test_a_cache_it_cannot_trust_is_off_and_minus_v_says_why_once(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o775)  # as a folder made under umask 002
    done = _build(tmp_path, shared / "cache", "-v")
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("cache off")]
    assert said == [f"cache off for this run (slower, same output): {shared}, above it, can be changed by its group or others "
                    f"(umask 002 makes folders so; chmod go-w {shared} turns the cache on)"]
    quiet = _build(tmp_path, shared / "cache")
    assert "cache off" not in quiet.stderr  # only -v says it


def test_conformance_help_names_no_npm_step() -> None:
    done = run_errgen("conformance", "--help")
    assert done.returncode == 0 and "npm" not in done.stdout
    assert "ships compiled" in done.stdout
