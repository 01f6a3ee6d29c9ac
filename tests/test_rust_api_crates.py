"""The Rust crate's own tests (its runtime's src/tests.rs) hold for registries of real APIs, not only
for errgen-shaped ones: the sample of examples/apis/ (conftest.UNIT_TEST_SAMPLE: one that reads
its code from the status line, an XML one) is built in one temporary cargo workspace and tested by
ONE `cargo test` invocation. Every API's crate still passes clippy and its vectors (tests/test_rust_sdk.py); the
crate's unit tests are the runtime's, and compiling all 14 test binaries cost three minutes.

Issue 25: the crate's tests assumed a code is never read from the status line, so they failed for
GitHub REST and Shopify GraphQL, whose registries read it there.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import APIS, UNIT_TEST_SAMPLE
from test_rust_sdk import CARGO, TARGET_DIR, needs_cargo, registry_of, write_crate



def cargo(root: Path, *args: str, timeout: int) -> subprocess.CompletedProcess[str]:
    """cargo's own lines and the test binaries' in the order printed (one pipe for both)."""
    env = {**os.environ, "CARGO_TARGET_DIR": str(TARGET_DIR), "CARGO_TERM_COLOR": "never"}
    return subprocess.run([CARGO or "cargo", *args], cwd=root, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout)


def cargo_offline_first(root: Path, *args: str, timeout: int = 1800) -> subprocess.CompletedProcess[str]:
    """`cargo ARGS` without the network when every dependency is already in cargo's cache (or
    vendored); with it only when cargo says it needs the registry."""
    done = cargo(root, *args, "--offline", timeout=timeout)
    needs_network = re.search(r"offline|failed to (select|download|load source)|no matching package", done.stdout)
    if done.returncode != 0 and needs_network and "test result:" not in done.stdout:
        done = cargo(root, *args, timeout=timeout)
    return done


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: Any) -> Path:
    root = tmp_path_factory.mktemp("api-crates")
    for path in UNIT_TEST_SAMPLE:
        write_crate(registry_of(path), root / path.stem)
    members = ", ".join(json.dumps(f"{path.stem}/rust") for path in UNIT_TEST_SAMPLE)
    (root / "Cargo.toml").write_text(f'[workspace]\nresolver = "2"\nmembers = [{members}]\n', encoding="utf-8")
    return root


def test_every_real_api_registry_is_covered() -> None:
    assert len(APIS) == 15
    # The two registries that read a code from the status line, which the crate's tests once broke on.
    status_coded = [p.stem for p in APIS if re.search(r'^\s+code: \[.*"status"\]', p.read_text(encoding="utf-8"), re.M)]
    assert status_coded == ["github-rest", "shopify-graphql"]
    # The sample keeps one of them, and an XML API.
    sample = {p.stem for p in UNIT_TEST_SAMPLE}
    assert set(status_coded) & sample
    assert [p.stem for p in UNIT_TEST_SAMPLE if "format: xml" in p.read_text(encoding="utf-8")]


@needs_cargo
def test_each_api_crate_passes_its_own_tests_in_one_cargo_run(workspace: Path) -> None:
    done = cargo_offline_first(workspace, "test", "--workspace", "--no-fail-fast")
    output = done.stdout
    assert done.returncode == 0, output[-6000:]
    # One unit-test binary per crate, every one green, none empty.
    lib_runs = re.findall(r"Running unittests src/lib\.rs \(.*?/deps/([a-z0-9_]+)-[0-9a-f]+\)\n(?:.*\n)*?test result: (\w+)\. (\d+) passed; (\d+) failed", output)
    crates = sorted(name for name, *_ in lib_runs)
    assert crates == sorted(f"{p.stem.replace('-', '_')}_errors" for p in UNIT_TEST_SAMPLE)
    assert all(result == "ok" and int(passed) > 0 and failed == "0" for _, result, passed, failed in lib_runs), lib_runs
