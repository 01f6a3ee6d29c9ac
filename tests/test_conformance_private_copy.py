"""errgen conformance runs each SDK from a private copy of the files the manifest lists, each
checked against its sha256 (issue 38 point 2): a file planted in the output folder is never
compiled or run, a changed one stops the run before any runner starts, and nothing a build
makes (Cargo.lock, issue 42 point 8) is left in the output folder."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GENERATED, ROOT, toolchain

PLANTED_RUNNER = """import pathlib, sys
pathlib.Path({marker!r}).write_text("ran")
print("999 passed, 0 failed")
"""


def errgen(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **(env or {})}
    return subprocess.run([sys.executable, "-m", "errgen", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture()
def out(tmp_path: Path) -> Path:
    """A copy of the golden output folder (what errgen build wrote, manifest included)."""
    copy = tmp_path / "generated"
    shutil.copytree(GENERATED, copy, ignore=shutil.ignore_patterns("target", "Cargo.lock", "node_modules", "__pycache__", "*.egg-info", "build"))
    return copy


def test_a_planted_runner_beside_the_sdk_is_not_run(out: Path, tmp_path: Path) -> None:
    """A second package with a `_conformance.py` sorted before the SDK's own used to be the one
    the Python runner started; a module shadowing `random` used to be importable from the SDK's
    folder. Neither is copied, so neither runs."""
    marker = tmp_path / "ran"
    (out / "python" / "aaa").mkdir()
    (out / "python" / "aaa" / "__init__.py").write_text("")
    (out / "python" / "aaa" / "_conformance.py").write_text(PLANTED_RUNNER.format(marker=str(marker)))
    (out / "python" / "random.py").write_text(f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran')\n")
    done = errgen("conformance", "--out", str(out), "--target", "python", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not marker.exists()
    assert "999 passed" not in done.stdout and re.search(r"^python: [1-9]\d* passed, 0 failed$", done.stdout, re.M), done.stdout


@pytest.mark.parametrize("change", ["edit", "link", "remove"])
def test_a_listed_file_that_is_not_what_errgen_wrote_stops_the_run(out: Path, tmp_path: Path, change: str) -> None:
    """Exit 2 (nothing was checked: the output folder is not errgen's), naming the file; no
    runner started."""
    marker = tmp_path / "ran"
    wire = out / "python" / "acme_errors" / "_wire.py"
    if change == "edit":
        wire.write_text(wire.read_text() + f"\nimport pathlib; pathlib.Path({str(marker)!r}).write_text('ran')\n")
    elif change == "link":
        (tmp_path / "elsewhere.py").write_bytes(wire.read_bytes())
        wire.unlink()
        wire.symlink_to(tmp_path / "elsewhere.py")
    else:
        wire.unlink()
    done = errgen("conformance", "--out", str(out), "--target", "python", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "python/acme_errors/_wire.py" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert "passed" not in done.stdout and not marker.exists()


def test_changed_vectors_stop_the_run(out: Path, tmp_path: Path) -> None:
    vectors = out / "conformance" / "vectors.json"
    vectors.write_text(vectors.read_text().replace('"vectors": [', '"vectors": [ ', 1))
    done = errgen("conformance", "--out", str(out), "--target", "python", cwd=tmp_path)
    assert done.returncode == 2 and "conformance/vectors.json" in done.stderr, done.stdout + done.stderr


def test_the_runner_works_in_a_private_folder_and_leaves_nothing_behind(out: Path, tmp_path: Path) -> None:
    """Issue 42 point 8: `errgen conformance --target rust` left generated/rust/Cargo.lock behind
    (the runner built in the output folder). A stand-in `cargo` records where it ran and leaves a
    Cargo.lock there, as cargo does: the folder is private (0700, outside OUT, holding exactly the
    crate's listed files) and is gone afterwards."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    seen = tmp_path / "seen"
    fake = bin_dir / "cargo"
    fake.write_text(f"#!/bin/sh\n[ -e {seen} ] || {{ pwd; ls -A; stat -c %a ..; }} > {seen}\ntouch Cargo.lock\necho '1 passed, 0 failed'\n")
    fake.chmod(0o755)
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    done = errgen("conformance", "--out", str(out), "--target", "rust", cwd=tmp_path,
                  env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "ERRGEN_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stdout + done.stderr
    where, *listing, mode = seen.read_text().splitlines()
    assert not Path(where).resolve().is_relative_to(out.resolve())
    assert sorted(listing) == sorted(p.name for p in (out / "rust").iterdir())
    assert mode == "700"
    assert not Path(where).exists()
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert not (out / "rust" / "Cargo.lock").exists()


def test_without_a_usable_cache_the_copy_is_a_fresh_temp_folder(out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from errgen import runners as conformance
    from errgen.emit import toolcache

    monkeypatch.setattr(toolcache, "private_folder", lambda kind: None)  # the cache folder is not safe to use
    with conformance.private_copy(out, ["python"]) as copy:
        mode = stat.S_IMODE(copy.stat().st_mode)
        listed = sorted(p.name for p in (copy / "python").iterdir())
    assert listed == ["LICENSE", "README.md", "acme_errors", "pyproject.toml"]
    assert mode == 0o700 and copy.name.startswith("errgen-conformance-") and not copy.exists()


@toolchain(shutil.which("cargo") is None, "needs cargo")
def test_rust_conformance_leaves_no_cargo_lock_in_the_output_folder(out: Path, tmp_path: Path) -> None:
    """The real thing (slow: cargo builds the runner, in the cache)."""
    done = errgen("conformance", "--out", str(out), "--target", "rust", cwd=tmp_path)
    # The runner ran (whether every vector passes is the SDK's business, not this test's).
    assert done.returncode in (0, 1) and re.search(r"^rust: \d+ passed, \d+ failed$", done.stdout, re.M), done.stdout + done.stderr
    assert not (out / "rust" / "Cargo.lock").exists() and not (out / "rust" / "target").exists()
