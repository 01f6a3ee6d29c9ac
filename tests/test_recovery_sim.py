"""End to end: the generated SDK on both sides of a real HTTP service with injected faults. The
errgen agent must meet its targets exactly, so a regression in decide(), the SDK or the HTTP
mapping fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.recovery_sim.__main__ import simulate
from conftest import ROOT

FAULTS = {"RATE_LIMITED", "UPSTREAM_TIMEOUT", "VALIDATION_FAILED", "TENANT_UNKNOWN", "AUTH_EXPIRED", "SERVICE_UNAVAILABLE"}


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    return {r.agent: r for r in simulate(seed=11, items=400, agents=["errgen", "naive", "oracle"])}


def test_every_kind_of_fault_was_injected(results: dict[str, object]) -> None:
    assert set(results["errgen"].errors_sent) >= FAULTS  # type: ignore[attr-defined]


def test_errgen_agent_meets_its_targets(results: dict[str, object]) -> None:
    errgen, oracle = results["errgen"], results["oracle"]
    assert errgen.lost == 0  # type: ignore[attr-defined]
    assert errgen.duplicates == 0  # type: ignore[attr-defined]
    assert errgen.calls_in_limit == 0  # type: ignore[attr-defined]
    assert errgen.failed_reported > 0 and errgen.failed_with_both_ids == errgen.failed_reported  # type: ignore[attr-defined]
    assert errgen.completed == oracle.completed  # type: ignore[attr-defined]
    assert errgen.calls <= oracle.calls * 1.10  # type: ignore[attr-defined]


def test_the_naive_agent_shows_what_the_contract_prevents(results: dict[str, object]) -> None:
    naive = results["naive"]
    assert naive.lost > 0 and naive.calls > results["errgen"].calls  # type: ignore[attr-defined]


# The runner and its chart (bench/recovery_sim/__main__.py, chart.py).

def test_the_chart_goes_to_bench_out_not_over_the_committed_image() -> None:
    from bench.recovery_sim.__main__ import parser

    chart = parser().parse_args([]).chart
    assert chart.parent == ROOT / "bench" / "out"
    assert "bench/out/" in (ROOT / ".gitignore").read_text().splitlines()


def _run(tmp_path: Path, *prelude: str) -> subprocess.CompletedProcess[str]:
    code = "\n".join([*prelude, "import sys, runpy",
                      f"sys.argv = ['recovery_sim', '--items', '200', '--agents', 'errgen,oracle', '--chart', {str(tmp_path / 'c.png')!r}]",
                      "runpy.run_module('bench.recovery_sim', run_name='__main__')"])
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_without_matplotlib_it_prints_the_table_and_how_to_get_the_chart(tmp_path: Path) -> None:
    done = _run(tmp_path, "import sys", "sys.modules['matplotlib'] = None  # as if not installed")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "errgen " in done.stdout and "oracle " in done.stdout
    assert "matplotlib is not installed (pip install matplotlib" in done.stdout
    assert not (tmp_path / "c.png").exists()


def test_the_chart_is_written_where_asked(tmp_path: Path) -> None:
    done = _run(tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")


def test_each_panel_zooms_into_its_event_at_a_readable_scale() -> None:
    """Events last seconds; a panel spanning a whole run (up to an hour) would make them invisible."""
    from bench.recovery_sim.chart import panels
    from bench.recovery_sim.world import make_world

    world = make_world(7, 10_000)
    rate, outage, expiry = panels(world)
    events = [(rate, world.rate_windows[0]), (outage, world.outage), (expiry, (world.auth_expires_at,) * 2)]
    for panel, (start, end) in events:
        assert panel.start_s < start / 1000 <= end / 1000 < panel.end_s
        assert panel.end_s - panel.start_s <= 120
        assert (panel.end_s - panel.start_s) / panel.bin_s <= 120  # each bar several pixels wide
