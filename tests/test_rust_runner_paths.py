"""The Rust conformance runner of one SDK folder never runs another's binary: `errgen conformance
--target rust` of two registries at once shared one cargo target dir, the `conformance` example
landed at one path, and one run could execute the other registry's runner (seen as 89 passed,
157 failed in tests/test_runtime.py). Each SDK folder now gets its own target dir (its runner's
path) under the verified cache, while cargo's build dir (the dependencies, compiled once) stays
shared."""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import ROOT, build_to, load_registry, run_errgen, shared_build, toolchain
from errgen.emit import toolcache
from errgen.languages.rust import target as rust_target

needs_cargo = toolchain(shutil.which("cargo") is None, "needs the Rust toolchain (cargo)")
REFUND = ROOT / "examples" / "refund-tool.yaml"


def _folders(argv: list[str]) -> tuple[Path, Path]:
    """(build dir, target dir) a runner command builds in."""
    [config] = [a for a in argv if a.startswith("build.build-dir=")]
    return Path(json.loads(config.removeprefix("build.build-dir="))), Path(argv[argv.index("--target-dir") + 1])


def test_each_sdk_folder_runs_its_runner_from_its_own_private_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    monkeypatch.setenv("ERRGEN_CACHE_DIR", str(tmp_path / "cache"))
    toolcache._secret.cache_clear()
    one = _folders(rust_target.conformance_command(tmp_path / "a" / "rust", tmp_path / "v.json", "check")[0])
    two = _folders(rust_target.conformance_command(tmp_path / "b" / "rust", tmp_path / "v.json", "check")[0])
    again = _folders(rust_target.conformance_command(tmp_path / "a" / "x" / ".." / "rust", tmp_path / "v.json", "check")[0])
    shared = tmp_path / "cache" / "cargo-target"
    assert one[0] == two[0] == shared and stat.S_IMODE(shared.stat().st_mode) == 0o700
    assert one[1] != two[1] and one[1].parent == two[1].parent == shared / "runners"
    assert again == one  # the same folder, however it is spelled


def test_cargo_target_dir_is_the_shared_build_dir_and_runners_stay_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARGO_TARGET_DIR", str(tmp_path / "ct"))
    one = _folders(rust_target.conformance_command(tmp_path / "a" / "rust", tmp_path / "v.json", "check")[0])
    two = _folders(rust_target.conformance_command(tmp_path / "b" / "rust", tmp_path / "v.json", "check")[0])
    assert one[0] == two[0] == tmp_path / "ct" and one[1] != two[1]


def test_a_build_dir_with_quotes_stays_one_toml_string(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    odd = tmp_path / 'we"ird\\ dir'
    monkeypatch.setenv("CARGO_TARGET_DIR", str(odd))
    assert _folders(rust_target.conformance_command(tmp_path / "rust", tmp_path / "v.json", "check")[0])[0] == odd


@pytest.fixture(scope="module")
def two_sdks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The default registry's shared build (whose runner, built by the same command, the language
    harness and test_rust_sdk.py run too: built once for the suite), and the refund example's."""
    root = tmp_path_factory.mktemp("two-runners")
    build_to(REFUND, root / "refund", "rust", "conformance")
    return shared_build(tmp_path_factory, "default", load_registry), root / "refund"


@needs_cargo
def test_a_runner_built_after_another_registrys_is_still_its_own(two_sdks: tuple[Path, Path]) -> None:
    """Built one after the other, each runner at its command's target dir is its own registry's:
    with one shared target dir the second build replaced the first registry's runner."""
    binaries = []
    for out in two_sdks:
        argv, cwd, _ = rust_target.conformance_command(out / "rust", out / "conformance" / "vectors.json", "check")
        build = [a for a in argv[: argv.index("--")] if a != "--quiet"]
        build[1] = "build"
        done = subprocess.run(build, cwd=cwd, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr
        binaries.append(_folders(argv)[1] / "debug" / "examples" / "conformance")
    for out, binary in zip(two_sdks, binaries):
        done = subprocess.run([str(binary), "check", str(out / "conformance" / "vectors.json")], cwd=out / "rust",
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and done.stdout.rstrip().endswith(" 0 failed"), (out.name, done.stdout[-2000:])


@needs_cargo
def test_two_registries_conformance_at_once_both_pass(two_sdks: tuple[Path, Path]) -> None:
    def run(out: Path) -> subprocess.CompletedProcess[str]:
        return run_errgen("conformance", "--target", "rust", "--out", str(out))

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(run, two_sdks))
    for out, done in zip(two_sdks, results):
        assert done.returncode == 0, (out.name, done.stdout, done.stderr)
        assert all(line.endswith(" 0 failed") for line in done.stdout.splitlines()), done.stdout
