"""End to end: the generated SDK on both sides of a real HTTP service with injected faults. The
errgen agent must meet its targets exactly, so a regression in decide(), the SDK or the HTTP
mapping fails here."""

from __future__ import annotations

import pytest

from bench.recovery_sim.__main__ import simulate

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
