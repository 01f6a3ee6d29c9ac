"""The developer workflow the README promises (issue 29, item 10): `make test` runs the fast set in
parallel and CI the full set; the benchmarks and the simulation say what they need and `make
bench` installs it."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from importlib import metadata

from conftest import ROOT

OPTIONAL = {"detect_secrets"}  # leak_bench compares with it when installed, and says so
BUILT_BY_THE_BENCHMARKS = {"acme_errors", "enrich_errors"}  # the SDKs they generate


def make_test(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "FULL")}
    done = subprocess.run(["make", "-n", "test"], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    [pytest_line] = [line for line in done.stdout.splitlines() if "-m pytest" in line]
    return pytest_line


def test_make_test_runs_in_parallel_and_skips_slow_tests_unless_full_or_ci() -> None:
    fast = make_test()
    assert f"-n {(os.cpu_count() or 1) + 1} " in fast and '-m "not slow"' in fast  # a worker more than the cores
    assert "-n 7 " in make_test(JOBS="7")
    assert "-m" not in make_test(FULL="1").split("pytest", 1)[1].replace("-n", "")
    assert "not slow" not in make_test(CI="true")
    assert "export CI=true" in (ROOT / ".ci" / "run").read_text()


def third_party_imports() -> set[str]:
    names = set()
    for path in (ROOT / "bench").rglob("*.py"):
        if (ROOT / "bench" / "out") in path.parents:
            continue  # what the benchmarks wrote (ignored): the SDKs they build import each other
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n not in {"errgen", "bench"}} - OPTIONAL - BUILT_BY_THE_BENCHMARKS


def test_the_bench_extra_installs_everything_the_benchmarks_import() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extra = project["optional-dependencies"]
    declared = {req.split("=")[0].split(">")[0].split("<")[0].strip().lower() for req in extra["bench"] + project["dependencies"]}
    providers = metadata.packages_distributions()
    needed = {providers[name][0].lower() for name in third_party_imports()}
    assert needed <= declared, needed - declared
    assert "errgen[bench]" in extra["test"]  # the tests run the simulation too
