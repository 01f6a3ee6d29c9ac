"""Shared fixtures: paths, the default registry, building into a temporary folder, node tools."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, TypeVar

import pytest
from filelock import FileLock
from hypothesis import settings

T = TypeVar("T")

# CI explores the same examples on every run (a red build is then reproducible); local runs
# explore new ones each time.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Every cargo run of the suite shares one build directory (dependencies, and a crate whose folder
# and sources did not change, compile once), without debug info or incremental state: a test's
# build is compiled once and thrown away. A user's own settings win.
os.environ.setdefault("CARGO_TARGET_DIR", str(Path.home() / ".cache" / "errgen-tests" / "cargo-target"))
for _name in ("CARGO_PROFILE_DEV_DEBUG", "CARGO_PROFILE_TEST_DEBUG", "CARGO_INCREMENTAL"):
    os.environ.setdefault(_name, "0")

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "registry" / "errors.yaml"
GENERATED = ROOT / "generated"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
NODE_BIN = Path(__file__).resolve().parent / "ts" / "node_modules" / ".bin"


# errgen ends with os._exit (no interpreter teardown). Code that runs it in-process, to look at
# the interpreter afterwards, starts with this so that exit returns as SystemExit.
EXIT_RETURNS = "import os\ndef _exit(code):\n    raise SystemExit(code)\nos._exit = _exit\n"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that run a toolchain (marked slow) first: a test file stays on one worker
    (--dist loadfile) and files are handed out in this order, so the long ones start while every
    worker still has work queued behind them, and the run does not end on one worker finishing a
    cargo or Maven build while the others sit idle."""
    heavy = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in heavy)


def repository_files(folder: Path, root: Path = ROOT) -> list[Path]:
    """The files under `folder` that the repository holds: tracked, or new and not ignored. A
    golden test compares these, never the folder listing: following docs/sdk-python.md
    (`pip install ./generated/python`) leaves an ignored `*.egg-info` there that is not output."""
    done = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", str(folder)],
                          cwd=root, capture_output=True, check=True)
    return sorted({p for name in done.stdout.decode().split("\0") if name and (p := root / name).is_file()})


def interruptible() -> None:
    """`preexec_fn` of a process a test interrupts with SIGINT: the default action, even where the
    suite itself runs with SIGINT ignored (a background job of a non-interactive shell, `nohup`),
    which a child inherits and Python then keeps."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_errgen(*args: str, cwd: Path | None = None, input: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "errgen", *args], cwd=cwd or ROOT, env=env, input=input,
        capture_output=True, text=True, timeout=300,
    )


@pytest.fixture(scope="session", autouse=True)
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache per worker for every mypy run of the suite (mypy reads MYPY_CACHE_DIR): the
    standard library's stubs are checked once, not once per test; a module whose file changed
    is checked again."""
    folder = tmp_path_factory.getbasetemp() / "mypy-cache"
    os.environ["MYPY_CACHE_DIR"] = str(folder)
    return folder


@pytest.fixture(scope="session")
def node_bin() -> Path:
    if not (NODE_BIN / "tsc").exists():
        pytest.fail("TypeScript is not installed for the tests; run the README's test command (make test)")
    return NODE_BIN


def tsc(node_bin: Path, project: Path, out_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    args = [str(node_bin / "tsc"), "-p", str(project), "--strict"]
    args += ["--outDir", str(out_dir)] if out_dir else ["--noEmit"]
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


def node_json(script: str, cwd: Path) -> object:
    """Run a node script that prints one JSON document; return it."""
    done = subprocess.run(["node", "-e", script], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def load_registry(path: Path = REGISTRY):  # type: ignore[no-untyped-def]
    from errgen.registry.lint import lint_path

    result = lint_path(path)
    assert result.ok, [d.text() for d in result.diagnostics]
    return result.registry


# Facts of the default registry, read from it: a test that pins "13 codes" or "2.1.0" would fail
# on the next legitimate release of registry/errors.yaml.
def default_version() -> str:
    return str(load_registry().version)


def default_code_count() -> int:
    return len(load_registry().codes)


def next_version(bump: str = "minor") -> str:
    """The default registry's version after a release of that size."""
    from errgen import semver

    parsed = semver.parse(default_version())
    assert parsed is not None
    return str(semver.bumped(parsed, bump))  # type: ignore[arg-type]


# The registries of real APIs errgen ships (examples/apis/), and a sample of them for the checks that
# compile a toolchain's whole project per registry (a crate's or a Maven project's own unit tests, the
# byte-for-byte shape programs): the two that read their code from the status line (issue 25 broke
# the crates' tests on exactly those), an XML API (S3), an envelope (Stripe) and an error sent with
# 200 (Slack's `ok: false`). Every API's SDK still passes its vectors, responses and writing vectors
# in every language (each language's test file); the sample bounds only these per-project programs.
APIS = sorted((ROOT / "examples" / "apis").glob("*.yaml"))
API_SAMPLE = tuple(ROOT / "examples" / "apis" / f"{name}.yaml" for name in ("github-rest", "shopify-graphql", "s3", "slack", "stripe"))
# The runtime's own unit tests (a crate's `cargo test`, a Maven project's JUnit) differ by registry only
# where a registry reads its code from the status line or its body as XML: one of each, not the five.
UNIT_TEST_SAMPLE = tuple(p for p in API_SAMPLE if p.stem in ("github-rest", "s3"))


def shared_build(factory: pytest.TempPathFactory, name: str, registry: Callable[[], object]) -> Path:
    """Every target of one registry, built once per test run into one folder that every test file
    and every xdist worker reads (never writes): a runner or toolchain build keyed by the folder
    (cargo's, the conformance runners') is then compiled once for the whole suite, not once per
    file. The folder is made under the run's own temporary root, so nothing of an earlier run is
    ever read."""
    from errgen.emit.build import build

    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    out = root / f"shared-{name}"
    with FileLock(str(root / f"shared-{name}.lock")):
        if not out.is_dir():
            partial = root / f"shared-{name}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            build(registry(), partial)  # type: ignore[arg-type]
            partial.rename(out)
    return out


def build_to(registry_path: Path, out: Path, *targets: str) -> None:
    from errgen.emit.build import build

    build(load_registry(registry_path), out, targets)


@pytest.fixture()
def workdir(tmp_path: Path) -> Path:
    """A project folder with a copy of the default registry."""
    (tmp_path / "registry").mkdir()
    shutil.copy(REGISTRY, tmp_path / "registry" / "errors.yaml")
    return tmp_path


def toolchain(missing: bool, reason: str) -> Callable[[T], T]:
    """A test that runs a language toolchain (go, cargo, mvn): skipped without it, and marked slow
    (minutes), so `make test` leaves it to FULL=1 and CI."""
    def mark(test: T) -> T:
        return pytest.mark.slow(pytest.mark.skipif(missing, reason=reason)(test))
    return mark
