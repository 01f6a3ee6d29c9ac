"""Hostile or unlucky output folders and registries: build and build --check end with exit 1 or
2 and a message naming the file and the reason, never a traceback, in bounded time and memory."""

from __future__ import annotations

import errno
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import REGISTRY, ROOT, run_errgen
from errgen.emit import commit as write
from errgen.cli import main


def fails_cleanly(done: subprocess.CompletedProcess[str], code: int, *needles: str) -> None:
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    for needle in needles:
        assert needle in done.stderr, done.stderr


def both(workdir: Path, *args: str) -> list[subprocess.CompletedProcess[str]]:
    return [run_errgen("build", *args, cwd=workdir), run_errgen("build", "--check", *args, cwd=workdir)]


def test_output_folder_inside_a_file(workdir: Path) -> None:
    (workdir / "file").write_text("x\n")
    build, check = both(workdir, "--out", "file/sub")
    fails_cleanly(build, 2, "file/sub", "Not a directory")
    fails_cleanly(check, 1, "missing schema/error.schema.json")


def test_output_folder_is_a_device(workdir: Path) -> None:
    for done in both(workdir, "--out", "/dev/null"):
        fails_cleanly(done, 2, "/dev/null", "not a folder")


def test_output_folder_is_a_dangling_symlink(workdir: Path) -> None:
    (workdir / "generated").symlink_to(workdir / "gone")
    for done in both(workdir):
        fails_cleanly(done, 2, "generated")
    assert not (workdir / "gone").exists()


def test_a_users_file_where_errgen_needs_a_folder(workdir: Path) -> None:
    out = workdir / "generated"
    out.mkdir()
    (out / "python").write_text("mine\n")
    fails_cleanly(run_errgen("build", cwd=workdir), 2, "generated/python is a file where errgen needs a folder", "nothing was changed")
    fails_cleanly(run_errgen("build", "--force", cwd=workdir), 2, "generated/python")
    assert (out / "python").read_text() == "mine\n" and sorted(p.name for p in out.iterdir()) == ["python"]
    fails_cleanly(run_errgen("build", "--check", cwd=workdir), 1, "missing python/acme_errors/models.py")


def test_a_users_folder_where_errgen_writes_a_file(workdir: Path) -> None:
    out = workdir / "generated"
    (out / "recovery.md").mkdir(parents=True)
    (out / "recovery.md" / "notes.txt").write_text("mine\n")
    fails_cleanly(run_errgen("build", cwd=workdir), 2, "generated/recovery.md is a folder")
    assert (out / "recovery.md" / "notes.txt").read_text() == "mine\n"
    fails_cleanly(run_errgen("build", "--check", cwd=workdir), 1, "missing recovery.md")


def test_a_read_only_output_folder(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Root ignores permission bits, so as root the refusal is simulated at the system call."""
    out = workdir / "generated"
    assert run_errgen("build", cwd=workdir).returncode == 0
    (workdir / "registry" / "errors.yaml").write_text(REGISTRY.read_text().replace("name: acme", "name: acme_two"))
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    if os.geteuid() != 0:
        out.chmod(0o555)
        try:
            fails_cleanly(run_errgen("build", cwd=workdir), 2, "Permission denied")
        finally:
            out.chmod(0o755)
    else:
        real_mkdir, real_open = os.mkdir, os.open

        def deny(real):  # type: ignore[no-untyped-def]
            def call(path, *args, **kwargs):  # type: ignore[no-untyped-def]
                if str(out.resolve()) in os.fspath(path) and (real is real_mkdir or args[0] & os.O_CREAT):
                    raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
                return real(path, *args, **kwargs)
            return call

        monkeypatch.setattr(os, "mkdir", deny(real_mkdir))
        monkeypatch.setattr(os, "open", deny(real_open))
        monkeypatch.chdir(workdir)
        result = CliRunner().invoke(main, ["build"])
        assert result.exit_code == 2, result.output
        assert "Permission denied" in result.output and "nothing was changed" in result.output
        assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_file_name_too_long_for_the_file_system_is_exit_2(tmp_path: Path) -> None:
    """Lint keeps registry names short; the writer still turns ENAMETOOLONG into a message."""
    with pytest.raises(write.WriteError, match="File name too long"):
        write.commit(tmp_path / "out", {"t": {"a" * 300 + "/x.txt": "x\n"}})
    assert not (tmp_path / "out").exists()  # the folder this build created is gone again


def registry_named(workdir: Path, name: str) -> Path:
    text = REGISTRY.read_text().replace("name: acme\n", f"name: {name}\n", 1)
    assert name in text
    path = workdir / "registry" / "errors.yaml"
    path.write_text(text)
    return path


def test_a_registry_name_of_250_characters_is_a_lint_error(workdir: Path) -> None:
    registry_named(workdir, "a" * 250)
    for done in both(workdir):
        fails_cleanly(done, 1, "registry/errors.yaml:", "registry-name", "250 characters; at most 50")
    assert not (workdir / "generated").exists()


def test_a_registry_name_of_10_megabytes_is_refused_in_bounded_memory(workdir: Path) -> None:
    """Refused by lint, under an address-space cap of 600 MB, without echoing the name. The time
    beside a clean registry of the same bytes is bench.linear_bench's "10 MB registry name" case
    (a clock here failed on a loaded machine; the timeout is run_errgen's, against a hang)."""
    registry_named(workdir, "a" * 10_000_000)
    limit = 600 * 1024 * 1024

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run([sys.executable, "-m", "errgen", "build"], cwd=workdir, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                          capture_output=True, text=True, timeout=300, preexec_fn=cap)
    fails_cleanly(done, 1, "registry-name", "10000000 characters")
    assert len(done.stderr) < 2000  # the name is not echoed back


def test_a_registry_with_no_codes_builds_without_a_traceback(tmp_path: Path) -> None:
    from conftest import run_errgen

    (tmp_path / "r.yaml").write_text("errgen: 1\nname: empty\nversion: 0.1.0\ncategories: {}\ncodes: {}\nhistory:\n"
                                     "  - {version: 0.1.0, date: 2026-11-30, changes: [Nothing yet.]}\n", encoding="utf-8")
    done = run_errgen("build", "--registry", str(tmp_path / "r.yaml"), "--out", str(tmp_path / "out"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    vectors = json.loads((tmp_path / "out" / "conformance" / "vectors.json").read_text(encoding="utf-8"))
    assert vectors["vectors"] == []
