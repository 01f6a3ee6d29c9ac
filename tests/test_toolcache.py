"""black's output and datamodel-code-generator's envelope are cached outside the repository: a warm
build imports neither tool, and the files are byte-identical with a cold, a warm and no cache."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from conftest import EXIT_RETURNS, REGISTRY, ROOT
from errgen.emit import toolcache
from errgen.languages.python import target as python_target

TOOLS = ("black", "datamodel_code_generator")
BUILD = EXIT_RETURNS + """import sys, runpy
sys.argv = ['errgen', 'build', '--target', 'python', '--registry', %r, '--out', %r]
try:
    runpy.run_module('errgen', run_name='__main__')
except SystemExit as exit:
    assert not exit.code, exit.code
print(sorted({m.split('.')[0] for m in sys.modules} & set(%r)))
"""


def build(out: Path, cache_dir: Path) -> list[str]:
    """Build the Python SDK in a fresh interpreter; the formatting tools it imported."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "ERRGEN_CACHE_DIR": str(cache_dir)}
    code = BUILD % (str(REGISTRY), str(out), TOOLS)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


def files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted((out / "python").rglob("*")) if p.is_file()}


def test_warm_build_imports_no_formatter_and_output_is_identical(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert build(tmp_path / "cold", cache) == sorted(TOOLS)
    assert (cache / "black").is_dir() and (cache / "envelope").is_dir()
    assert build(tmp_path / "warm", cache) == []
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be\n")
    assert build(tmp_path / "uncached", blocked) == sorted(TOOLS)  # an unusable cache is ignored
    cold = files(tmp_path / "cold")
    assert cold and cold == files(tmp_path / "warm") == files(tmp_path / "uncached")


def test_a_hit_returns_the_stored_entry_and_a_new_text_misses(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ERRGEN_CACHE_DIR", str(tmp_path))
    source = "x = {'a':1}\n"
    assert python_target.format_python(source) == 'x = {"a": 1}\n'
    entry = toolcache.key(*python_target.black_key(), source)
    assert toolcache.load("black", entry) == b'x = {"a": 1}\n'
    toolcache.save("black", entry, b"stored\n")  # signed with this user's secret: trusted
    assert python_target.format_python(source) == "stored\n"
    assert python_target.format_python("y = (1,)\n") == "y = (1,)\n"


def test_an_entry_not_signed_with_the_users_secret_is_recomputed(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ERRGEN_CACHE_DIR", str(tmp_path))
    source = "x = {'a':1}\n"
    assert python_target.format_python(source) == 'x = {"a": 1}\n'
    stored = next((tmp_path / "black").rglob("*.entry"))
    stored.write_bytes(bytes(32) + b"import os; os.system('id')\n")  # a forged entry under the right name
    assert python_target.format_python(source) == 'x = {"a": 1}\n'
    assert (tmp_path / "key").stat().st_mode & 0o777 == 0o600 and tmp_path.stat().st_mode & 0o777 == 0o700
def test_the_key_covers_every_part() -> None:
    base = toolcache.key("24.1.0", '{"line_length": 100}', "x = 1\n")
    assert base != toolcache.key("24.2.0", '{"line_length": 100}', "x = 1\n")
    assert base != toolcache.key("24.1.0", '{"line_length": 88}', "x = 1\n")
    assert base != toolcache.key("24.1.0", '{"line_length": 100}', "x = 2\n")
    assert toolcache.key("ab", "c") != toolcache.key("a", "bc")


def test_default_folder_is_outside_the_repository(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("ERRGEN_CACHE_DIR", raising=False)
    assert toolcache.folder() == Path.home() / ".cache" / "errgen"
    monkeypatch.setenv("ERRGEN_CACHE_DIR", "/somewhere/else")
    assert toolcache.folder() == Path("/somewhere/else")
