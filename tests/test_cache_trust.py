"""Issue 24 item 1: nothing in a cache folder is trusted by its name. A planted jinja bytecode
file (a pickle), forged formatter entries and a forged `build --check` cache run no code and
change no output; a cache folder another user can write or owns is not used at all."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT
from errgen.emit import toolcache

MARKER_CODE = "import os; os.system('touch {marker}')"


def errgen(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "ERRGEN_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "errgen", *args, "--registry", str(REGISTRY)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def build(cache: Path, out: Path, *more: str) -> None:
    done = errgen(cache, "build", "--target", "python", "--target", "docs", "--out", str(out), *more)
    assert done.returncode == 0, done.stderr


def files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != ".errgen-cache.json"}


class _Boom:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


def plant(cache: Path, marker: Path) -> int:
    """Replace every cache entry with a forgery under its own name (a pickle that runs code for
    jinja, Python that runs code for the formatters), whatever the layout, and add jinja's own
    file name beside each compiled template. Returns how many entries were forged."""
    import jinja2.bccache

    jinja_file = jinja2.bccache.bc_magic + pickle.dumps(_Boom(marker))
    code = MARKER_CODE.format(marker=marker).encode() + b"\n"
    planted = 0
    for entry in [p for p in cache.rglob("*") if p.is_file() and p.name != "key"]:
        kind = entry.relative_to(cache).parts[0]
        if kind == "jinja":
            entry.write_bytes(jinja_file if entry.name.startswith("__jinja2_") else bytes(32) + jinja_file)
            (cache / "jinja" / f"__jinja2_{entry.stem}.cache").write_bytes(jinja_file)
        else:  # the real text (so it still looks like the tool's output) with code appended
            body = entry.read_bytes()[0 if entry.suffix == ".txt" else 32:] + code
            entry.write_bytes(body if entry.suffix == ".txt" else bytes(32) + body)
        planted += 1
    return planted


def test_planted_entries_run_no_code_and_change_no_output(tmp_path: Path) -> None:
    cache, marker = tmp_path / "cache", tmp_path / "pwned"
    build(cache, tmp_path / "cold")
    assert plant(cache, marker) >= 5
    build(cache, tmp_path / "planted")
    (tmp_path / "a-file").write_text("a file where the cache folder would be: no cache\n")
    build(tmp_path / "a-file", tmp_path / "uncached")
    assert not marker.exists()
    assert files(tmp_path / "planted") == files(tmp_path / "cold") == files(tmp_path / "uncached")
    assert MARKER_CODE.split(";")[0].encode() not in b"".join(files(tmp_path / "planted").values())


def test_check_is_not_fooled_by_a_forged_formatter_entry_or_check_cache(tmp_path: Path) -> None:
    cache, out, marker = tmp_path / "cache", tmp_path / "out", tmp_path / "pwned"
    build(cache, out)
    plant(cache, marker)
    contract = next(out.rglob("_contract.py"))
    contract.write_text(MARKER_CODE.format(marker=marker) + "\n")  # the file a forged entry would have made
    # a check cache that vouches for the tampered file as it is now (inode, size, times)
    import json
    st = contract.lstat()
    rel = contract.relative_to(out).as_posix()
    forged = {"python": {"key": "x", "files": {rel: ["0" * 64, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]}}}
    (out / ".errgen-cache.json").write_text(json.dumps({"entries": forged, "mac": "0" * 64}))
    done = errgen(cache, "build", "--check", "--target", "python", "--target", "docs", "--out", str(out))
    assert done.returncode == 1 and rel in done.stdout + done.stderr, done.stdout + done.stderr
    assert not marker.exists()


@pytest.mark.parametrize("unsafe", ["world-writable", "someone-else's", "a symlink"])
def test_an_unsafe_cache_folder_is_not_used(tmp_path: Path, monkeypatch, unsafe: str) -> None:  # type: ignore[no-untyped-def]
    real = tmp_path / "real"
    monkeypatch.setenv("ERRGEN_CACHE_DIR", str(real))
    toolcache.save("black", "k" * 64, b"signed while the folder was private\n")
    assert toolcache.load("black", "k" * 64) is not None
    folder = real
    if unsafe == "world-writable":
        real.chmod(0o777)
    elif unsafe == "someone-else's":
        if os.getuid() != 0:
            pytest.skip("needs root to give the folder away")
        os.chown(real, 12345, 12345)
    else:
        folder = tmp_path / "link"
        folder.symlink_to(real)
        monkeypatch.setenv("ERRGEN_CACHE_DIR", str(folder))
    toolcache._secret.cache_clear()
    assert toolcache.secret() is None and toolcache.private_folder("cargo-target") is None
    assert toolcache.load("black", "k" * 64) is None


def test_a_key_file_others_can_read_turns_the_cache_off(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ERRGEN_CACHE_DIR", str(tmp_path / "c"))
    assert toolcache.secret() is not None
    (tmp_path / "c" / "key").chmod(0o644)
    toolcache._secret.cache_clear()
    assert toolcache.secret() is None
    shutil.rmtree(tmp_path / "c")
