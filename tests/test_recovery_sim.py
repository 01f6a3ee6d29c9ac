"""End to end: the generated SDK on both sides of a real HTTP service with injected faults, against
the retry policies agents actually run. The errgen agent must meet its targets on every seed, so a
regression in decide(), the SDK or the HTTP mapping fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.recovery_sim.__main__ import RUNS, Result, header_effect, simulate, table
from conftest import ROOT

SEEDS = [1, 2, 3, 4, 5]
FAULTS = {"RATE_LIMITED", "SERVICE_UNAVAILABLE", "BACKEND_UNAVAILABLE", "UPSTREAM_TIMEOUT", "WRITE_OUTCOME_UNKNOWN",
          "VERSION_CONFLICT", "VALIDATION_FAILED", "TENANT_UNKNOWN", "AUTH_EXPIRED"}


@pytest.fixture(scope="module")
def results() -> list[Result]:
    return simulate(SEEDS, 800, list(RUNS))


def by(results: list[Result], run: str, seed: int) -> Result:
    return next(r for r in results if r.run == run and r.seed == seed)


def test_every_kind_of_fault_is_injected_on_every_seed(results: list[Result]) -> None:
    for seed in SEEDS:
        assert set(by(results, "errgen", seed).errors_sent) == FAULTS


@pytest.mark.parametrize("seed", SEEDS)
def test_errgen_agent_meets_its_targets(results: list[Result], seed: int) -> None:
    errgen, oracle = by(results, "errgen", seed), by(results, "oracle", seed)
    assert (errgen.lost, errgen.unreported, errgen.duplicates, errgen.wrong_writes, errgen.calls_in_limit) == (0, 0, 0, 0, 0)
    assert errgen.failed_reported > 0 and errgen.failed_with_both_ids == errgen.failed_reported
    assert errgen.completed == oracle.completed
    assert errgen.calls <= oracle.calls * 1.10
    for rival in ("sdk-retry", "sdk-retry + x-should-retry", "tenacity"):
        assert errgen.harm < by(results, rival, seed).harm, rival


def test_status_code_policies_replay_writes_that_were_not_safe_to_replay(results: list[Result]) -> None:
    # Over the seeds (on a seed where the expired credential stops sdk-retry before it reaches
    # such a write, it has none to replay).
    assert sum(by(results, "sdk-retry", s).wrong_writes for s in SEEDS) > 0
    assert all(by(results, "tenacity", s).wrong_writes > 0 for s in SEEDS)


def test_x_should_retry_alone_makes_the_sdk_policy_measurably_better(results: list[Result]) -> None:
    without = [by(results, "sdk-retry", s) for s in SEEDS]
    with_header = [by(results, "sdk-retry + x-should-retry", s) for s in SEEDS]
    assert all(r.wrong_writes == 0 for r in with_header)
    assert sum(r.harm for r in with_header) < sum(r.harm for r in without)
    assert "wrong writes" in (header_effect(results) or "")


def test_the_table_shows_mean_and_worst_per_agent(results: list[Result]) -> None:
    text = table(results)
    assert len(text.splitlines()) == 2 + len(RUNS)
    assert " / " in text.splitlines()[2]


# The runner and its chart.

def _run(tmp_path: Path, *prelude: str) -> subprocess.CompletedProcess[str]:
    code = "\n".join([*prelude, "import sys, runpy",
                      f"sys.argv = ['recovery_sim', '--items', '200', '--seeds', '3', '--runs', 'errgen,oracle', '--chart', {str(tmp_path / 'c.png')!r}]",
                      "runpy.run_module('bench.recovery_sim', run_name='__main__')"])
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_chart_goes_to_bench_out_not_over_the_committed_image() -> None:
    from bench.recovery_sim.__main__ import OUT

    assert OUT == ROOT / "bench" / "out"
    assert "bench/out/" in (ROOT / ".gitignore").read_text().splitlines()


def test_without_matplotlib_it_prints_the_table_and_how_to_get_the_chart(tmp_path: Path) -> None:
    done = _run(tmp_path, "import sys", "sys.modules['matplotlib'] = None  # as if not installed")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "errgen " in done.stdout and "oracle " in done.stdout
    assert "matplotlib is not installed: pip install matplotlib" in done.stdout
    assert not (tmp_path / "c.png").exists()


def test_the_chart_is_written_where_asked(tmp_path: Path) -> None:
    done = _run(tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")
