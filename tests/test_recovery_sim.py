"""End to end: the generated SDK on both sides of a real HTTP service with injected faults, against
the real anthropic and openai client libraries, a Stripe-style policy, a hand-written job, tenacity
and an oracle, all with the same operator. Every harm is counted from the service's own write log
(the tenant and version of every write), never from what an agent claims."""

from __future__ import annotations

import dataclasses
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.recovery_sim import agents
from bench.recovery_sim.__main__ import REAL_CLIENTS, RUNS, SEEDS, Result, simulate, table
from bench.recovery_sim.agents import Client, Env, Operator, Report, unambiguous, virtual_time
from bench.recovery_sim.service import Service, load_sdk, serve
from bench.recovery_sim.world import FORCED, HUMAN_RENEWAL_MS, Row, make_world
from conftest import ROOT

pytest.importorskip("anthropic")
pytest.importorskip("openai")

UNTUNED = [int(s) for s in SEEDS.split(",")]
ITEMS = 120
FAULTS = {"RATE_LIMITED", "SERVICE_UNAVAILABLE", "BACKEND_UNAVAILABLE", "UPSTREAM_TIMEOUT", "WRITE_OUTCOME_UNKNOWN",
          "VERSION_CONFLICT", "VALIDATION_FAILED", "TENANT_UNKNOWN", "AUTH_EXPIRED", "BACKEND_BUSY", "LOCK_TIMEOUT", "SHARD_MOVING"}


@pytest.fixture(scope="module")
def sdk() -> Any:
    return load_sdk()


@pytest.fixture(scope="module")
def results() -> list[Result]:
    return simulate(UNTUNED, ITEMS, list(RUNS))


def by(results: list[Result], run: str, seed: int) -> Result:
    return next(r for r in results if r.run == run and r.seed == seed)


def test_every_kind_of_fault_is_injected_on_every_seed(results: list[Result]) -> None:
    for seed in UNTUNED:
        assert set(by(results, "errgen", seed).errors_sent) == FAULTS
        world = make_world(seed, ITEMS)
        assert all(any(getattr(i, kind) if kind not in ("typo", "stale") else
                       (i.tenant != i.true_tenant if kind == "typo" else i.version != i.true_version) for i in world.items)
                   for kind in FORCED)


@pytest.mark.parametrize("seed", UNTUNED)
def test_errgen_agent_meets_the_done_when_on_untuned_seeds(results: list[Result], seed: int) -> None:
    errgen, oracle = by(results, "errgen", seed), by(results, "oracle", seed)
    harms = (errgen.duplicate_writes, errgen.wrong_writes, errgen.cross_tenant_writes, errgen.blind_overwrites, errgen.unreported)
    assert harms == (0, 0, 0, 0, 0)
    assert errgen.calls_in_limit == 0
    assert errgen.reported > 0 and errgen.reported_with_both_ids == errgen.reported
    for rival in REAL_CLIENTS:
        assert errgen.harm < by(results, rival, seed).harm, rival


def test_errgen_calls_are_within_ten_percent_of_the_oracle() -> None:
    """At 400 items: at the fixture's 120, the one discovery call of each fault forced into every
    seed (a row's typo, a stale version, a malformed row: the oracle knows them without a call)
    is alone 7% of the oracle's calls."""
    results = simulate(UNTUNED, 400, ["errgen", "oracle"])
    for seed in UNTUNED:
        assert by(results, "errgen", seed).calls <= by(results, "oracle", seed).calls * 1.10, seed


def test_every_write_of_errgen_and_the_oracle_lands_in_the_items_own_tenant(results: list[Result]) -> None:
    for r in results:
        if r.run in ("errgen", "oracle"):
            truth = {i.id: i.true_tenant for i in r.world.items}
            assert r.writes and all(w.tenant == truth[w.item] for w in r.writes)


def test_the_oracle_sets_the_floor(results: list[Result]) -> None:
    for seed in UNTUNED:
        oracle = by(results, "oracle", seed)
        assert (oracle.lost, oracle.unreported, oracle.harm) == (0, 0, 0)
        assert oracle.completed == sum(1 for i in oracle.world.items if i.recoverable)


def test_the_harms_errgen_avoids_do_happen_to_others(results: list[Result]) -> None:
    """Counted, not assumed: keyless real clients write twice, status-code retries replay unsafe writes."""
    total = {name: sum(by(results, name, s).duplicate_writes + by(results, name, s).wrong_writes for s in UNTUNED)
             for name in RUNS}
    assert total["anthropic"] > 0 and total["openai"] > 0 and total["tenacity"] > 0
    assert sum(by(results, "stripe-style", s).duplicate_writes for s in UNTUNED) == 0  # its automatic keys


def test_the_counts_catch_the_agent_that_guesses(results: list[Result]) -> None:
    """The agent this benchmark used to run (did_you_mean[0], accepted[0] unread) writes to the wrong
    tenant and over concurrent changes; the write log sees both, and its report does not."""
    guess = [by(results, "errgen-guess", s) for s in UNTUNED]
    assert sum(r.cross_tenant_writes for r in guess) > 0 and all(r.blind_overwrites > 0 for r in guess)
    assert sum(r.unreported for r in guess) > 0  # the items it claims done in another tenant


def test_every_agent_gets_the_same_operator_on_a_401(results: list[Result]) -> None:
    for r in results:
        if r.run != "oracle":
            assert r.escalations >= 1, r.run  # each one hit the expired credential and escalated it
            assert r.lost_in_credential_window <= r.lost


def test_the_table_shows_mean_and_worst_per_agent(results: list[Result]) -> None:
    text = table(results)
    assert len(text.splitlines()) == 2 + len(RUNS)
    assert " / " in text.splitlines()[2]
    assert table(results, markdown=True).splitlines()[1].startswith("| --- |")


# The real client libraries


@pytest.mark.parametrize(("run", "product"), [("anthropic", "Anthropic"), ("openai", "OpenAI")])
def test_the_vendor_agents_run_the_real_libraries(results: list[Result], run: str, product: str) -> None:
    library = f"{product}/Python {importlib.import_module(run).__version__}"  # the installed, pinned release
    for name in (run, f"{run} + x-should-retry"):
        clients = by(results, name, UNTUNED[0]).clients
        assert set(clients) == {library}, clients


def _quiet_world(seed: int, **fault: bool) -> Any:
    """One clean item (with the one fault asked for), no limits, no outage, no expiry."""
    world = make_world(seed, 50)
    clean = _clean_item(world)
    world.items = [dataclasses.replace(clean, **fault)]
    world.rate_windows, world.tenant_limits, world.outage, world.auth_expires_at = [], [], (10**9, 10**9), 10**9
    return world


def _clean_item(world: Any) -> Any:
    return next(i for i in world.items if i.recoverable and i.tenant == i.true_tenant and i.version == i.true_version and not (
        i.times_out or i.outcome_unknown or i.backend_busy or i.locked or i.shard_moving))


def _one(sdk: Any, agent: str, world: Any, header: str | None) -> tuple[Service, Report]:
    service = Service(world, sdk, should_retry_header=header)
    server = serve(service)
    report = Report()
    try:
        agents.AGENTS[agent](Env(world.rows(), server.server_address[1], Operator(service), sdk, world.clock, 1), report)
    finally:
        server.shutdown()
        server.server_close()
    return service, report


@pytest.mark.parametrize("run", ["anthropic", "openai"])
def test_the_real_libraries_follow_their_own_retry_policy(sdk: Any, run: str) -> None:
    """Their own policy, observed from the service: status codes without the header, the header when sent."""
    without, _ = _one(sdk, run, _quiet_world(1, outcome_unknown=True), None)
    with_header, report = _one(sdk, run, _quiet_world(1, outcome_unknown=True), "x-should-retry")
    # Replayed: the replay is written again (a wrong write) and answers 200.
    assert (len(without.calls), len(without.writes), sum(w.unsafe_replay for w in without.writes)) == (2, 2, 1)
    assert (len(with_header.calls), len(with_header.writes)) == (1, 1) and len(report.failed) == 1
    # A 503 that stays: max_retries (2) retries without the header, none when it says false.
    assert len(_one(sdk, run, _quiet_world(1, backend_down=True), None)[0].calls) == 3
    assert len(_one(sdk, run, _quiet_world(1, backend_down=True), "x-should-retry")[0].calls) == 1


@pytest.mark.parametrize("run", ["anthropic", "openai"])
def test_the_real_libraries_send_no_idempotency_key_so_a_committed_timeout_is_written_twice(sdk: Any, run: str) -> None:
    service, report = _one(sdk, run, _quiet_world(1, times_out=True, timeout_committed=True), "x-should-retry")
    assert len(service.writes) == 2 and report.completed
    stripe, _ = _one(sdk, "stripe-style", _quiet_world(1, times_out=True, timeout_committed=True), "Stripe-Should-Retry")
    assert len(stripe.writes) == 1  # its automatic key makes the replay harmless


def test_virtual_time_drives_the_real_clients_sleep_and_is_restored(sdk: Any) -> None:
    import anthropic._base_client as base

    real = base.time.sleep
    world = make_world(1, 50)
    world.rate_windows = [(0, 5_000)]  # the first call meets a 5 s limit with retry-after-ms
    world.tenant_limits, world.outage, world.auth_expires_at = [], (10**9, 10**9), 10**9
    service = Service(world, sdk)
    server = serve(service)
    try:
        client = agents.vendor_client("anthropic", server.server_address[1], "token-1")
        with virtual_time(base, world.clock, 1), client:
            client.post(f"/contacts/{world.items[0].id}/enrich", cast_to=object,
                        body={"tenant": world.items[0].tenant, "version": world.items[0].version})
    except Exception:  # the first item may carry a fault; only the clock matters here
        pass
    finally:
        server.shutdown()
        server.server_close()
    assert world.clock.now >= 5_000
    assert base.time.sleep is real


# The service's bookkeeping


def _service(sdk: Any) -> tuple[Service, Any, Env]:
    world = make_world(3, 50)
    world.rate_windows, world.tenant_limits, world.outage, world.auth_expires_at = [], [], (10**9, 10**9), 10**9
    service = Service(world, sdk)
    server = serve(service)
    return service, server, Env(world.rows(), server.server_address[1], Operator(service), sdk, world.clock, 3)


def _clean(service: Service) -> Any:
    return next(i for i in service.world.items if i.recoverable and not (
        i.times_out or i.outcome_unknown or i.backend_busy or i.locked or i.shard_moving) and i.tenant == i.true_tenant)


def test_the_service_records_the_tenant_of_every_write(sdk: Any) -> None:
    service, server, env = _service(sdk)
    try:
        item = _clean(service)
        other = next(t for t in ("acme-prod", "acme-dev", "acme-eu") if t != item.true_tenant)
        client = Client(env)
        assert client.enrich(item.id, other, item.true_version, "k1")[0] == 200  # the service cannot tell
        assert client.enrich(item.id, item.true_tenant, item.true_version, "k2")[0] == 200
    finally:
        server.shutdown()
    assert [(w.tenant, w.cross_tenant) for w in service.writes] == [(other, True), (item.true_tenant, False)]


def test_the_empty_idempotency_key_is_never_cached(sdk: Any) -> None:
    service, server, env = _service(sdk)
    try:
        item = _clean(service)
        client = Client(env)
        for _ in range(2):
            assert client.enrich(item.id, item.true_tenant, item.true_version, "")[0] == 200
        assert client.enrich(item.id, item.true_tenant, item.true_version, "same")[0] == 200
        assert client.enrich(item.id, item.true_tenant, item.true_version, "same")[0] == 200
    finally:
        server.shutdown()
    assert len(service.writes) == 3  # two keyless writes, one keyed (its replay applies nothing)


def test_a_write_over_a_concurrent_change_is_blind_unless_read_first(sdk: Any) -> None:
    service, server, env = _service(sdk)
    try:
        stale = [i for i in service.world.items if i.version != i.true_version and i.recoverable and i.tenant == i.true_tenant
                 and not (i.times_out or i.outcome_unknown or i.backend_busy or i.locked or i.shard_moving)]
        client = Client(env)
        status, _, body = client.enrich(stale[0].id, stale[0].true_tenant, stale[0].version, "a")
        assert status == 409 and json.loads(body)["accepted"] == [str(stale[0].true_version)]
        assert client.enrich(stale[0].id, stale[0].true_tenant, stale[0].true_version, "a")[0] == 200  # accepted[0], blind
        if len(stale) > 1:
            assert client.read(stale[1].id)[0] == 200
            assert client.enrich(stale[1].id, stale[1].true_tenant, stale[1].true_version, "b")[0] == 200
    finally:
        server.shutdown()
    assert [w.blind for w in service.writes] == [True] + ([False] if len(stale) > 1 else [])


def test_the_operator_renews_once_and_takes_the_same_time_for_everyone(sdk: Any) -> None:
    service, server, env = _service(sdk)
    server.shutdown()
    service.world.auth_expires_at = 0
    operator = Operator(service)
    assert operator.escalate(409, "x") is None
    start = service.world.clock.now
    assert operator.escalate(401, "x") == "token-2"
    assert service.world.clock.now - start == HUMAN_RENEWAL_MS
    assert operator.escalate(401, "y") == "token-2" and service.world.clock.now - start == HUMAN_RENEWAL_MS


# errgen's hints


def test_a_hint_is_applied_only_when_unambiguous() -> None:
    assert unambiguous(("acme-prod",), Row("c", "acme-prd", 1, None)) == "acme-prod"
    assert unambiguous(("acme-dev", "acme-eu"), Row("c", "acme-ue", 1, "eu")) == "acme-eu"  # the caller's own data decides
    assert unambiguous(("acme-dev", "acme-eu"), Row("c", "acme-ue", 1, None)) is None
    assert unambiguous(("acme-prod", "acme-dev"), Row("c", "acme-pdv", 1, "us")) is None
    assert unambiguous((), Row("c", "zzz", 1, "us")) is None


def test_errgen_reports_an_ambiguous_typo_instead_of_guessing(sdk: Any) -> None:
    service, server, env = _service(sdk)
    item = _clean(service)
    env.rows = [Row(item.id, "acme-ue", item.version, None)]
    report = Report()
    try:
        agents.errgen_agent(env, report)
    finally:
        server.shutdown()
    assert service.writes == [] and [f["item"] for f in report.failed] == [item.id]
    assert "suggestions ['acme-dev', 'acme-eu']" in report.failed[0]["reason"]


def test_errgen_is_given_no_ground_truth() -> None:
    source = Path(agents.__file__).read_text()
    errgen = source[source.index("def errgen_agent"):source.index("# The real vendor clients")]
    assert "world" not in errgen and "auth_expires_at" not in errgen and "true_" not in errgen


# The runner, its JSON and its chart

def _run(tmp_path: Path, *prelude: str, extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    argv = ["recovery_sim", "--items", "60", "--seeds", "3", "--runs", "errgen,oracle", "--chart", str(tmp_path / "c.png"), *extra]
    code = "\n".join([*prelude, "import sys, runpy", f"sys.argv = {argv!r}", "runpy.run_module('bench.recovery_sim', run_name='__main__')"])
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_json_has_every_number_per_agent_and_seed(tmp_path: Path) -> None:
    done = _run(tmp_path, extra=("--json", str(tmp_path / "r.json")))
    assert done.returncode == 0, done.stderr
    rows = json.loads((tmp_path / "r.json").read_text())
    assert [(r["run"], r["seed"]) for r in rows] == [("errgen", 3), ("oracle", 3)]
    for key in ("completed", "lost", "unreported", "duplicate_writes", "wrong_writes", "cross_tenant_writes",
                "blind_overwrites", "calls", "calls_in_limit", "virtual_seconds"):
        assert all(isinstance(r[key], (int, float)) for r in rows), key
    assert (tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")


def test_without_matplotlib_it_prints_the_table_and_how_to_get_the_chart(tmp_path: Path) -> None:
    done = _run(tmp_path, "import sys", "sys.modules['matplotlib'] = None  # as if not installed")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "errgen " in done.stdout and "oracle " in done.stdout
    assert "matplotlib is not installed: pip install matplotlib" in done.stdout
    assert not (tmp_path / "c.png").exists()


def test_the_chart_goes_to_bench_out_not_over_the_committed_image() -> None:
    from bench.recovery_sim.service import OUT

    assert OUT == ROOT / "bench" / "out"
    assert "bench/out/" in (ROOT / ".gitignore").read_text().splitlines()


def test_the_docstrings_name_the_runs_and_flags_that_exist() -> None:
    import bench.recovery_sim
    import bench.recovery_sim.__main__ as main

    for doc in (main.__doc__ or "", bench.recovery_sim.__doc__ or ""):
        assert "--agents" not in doc and "--json" in doc and "naive" not in doc
        for name in ("anthropic", "openai", "stripe", "tenacity", "oracle"):
            assert name.lower() in doc.lower(), name
        flags = {word.strip("[],.") for word in doc.split() if word.startswith(("--", "[--"))}
        assert {f.lstrip("[") for f in flags} <= {"--seeds", "--items", "--runs", "--chart", "--json", "--markdown"}
