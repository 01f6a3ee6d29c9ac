"""The recovery benchmark: every agent, inside the same job, on the same faulty service.

Every agent enriches the same contacts through the same service (errors built by the simulation
registry's generated Python SDK, a proxy and a gateway in front, dropped and hung connections;
real HTTP on loopback, virtual time), with the same operator; one table, one chart, optionally
every number as JSON.

    python -m bench.recovery_sim [--seeds 41,42,43,44,45] [--items 2000] [--runs errgen,anthropic,...]
                                 [--fault NAME=RATE ...] [--sweep NAME=R1,R2,...]
                                 [--chart bench/out/recovery-simulation.png] [--json PATH] [--markdown]

The runs (an agent, and the retry header its service sends): errgen; anthropic and openai (the
real client libraries) without and with x-should-retry; stripe-style (Stripe-Should-Retry); plain
(a hand-written client on an ordinary error body); tenacity; oracle; errgen-guess (the agent this
benchmark used to run: the first suggestion, the accepted version without a re-read).

--fault NAME=RATE sets one fault's rate (repeat it for more): a per-item fault's share of items
(typo, stale, malformed, upstream-timeout, outcome-unknown, backend-down, backend-busy,
registry-wrong, registry-stale, proxy-502, proxy-503, bare-429, reset-before, reset-after,
timeout; reset sets both resets), or an episode's scale (rate-limit, tenant-quota; outage and
credential-expiry take 0 or 1). --sweep NAME=R1,R2,... runs the whole grid once per rate and
prints harm and hand-offs per agent and rate (with --json, every number of every point).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from bench.recovery_sim.agents import AGENTS, Env, Operator, Report
from bench.recovery_sim.service import OUT, Service, Write, load_sdk, serve
from bench.recovery_sim.world import EPISODES, GROUPS, RATES, World, make_world, parse_rates, parse_sweep

# Each row of the table: an agent, and the header (if any) by which its service passes on the
# registry's `retryable`.
RUNS: dict[str, tuple[str, str | None]] = {
    "errgen": ("errgen", "x-should-retry"),
    "anthropic": ("anthropic", None),
    "anthropic + x-should-retry": ("anthropic", "x-should-retry"),
    "openai": ("openai", None),
    "openai + x-should-retry": ("openai", "x-should-retry"),
    "stripe-style": ("stripe-style", "Stripe-Should-Retry"),
    "plain": ("plain", None),
    "tenacity": ("tenacity", None),
    "oracle": ("oracle", "x-should-retry"),
    "errgen-guess": ("errgen-guess", "x-should-retry"),
}
REAL_CLIENTS = ("anthropic", "anthropic + x-should-retry", "openai", "openai + x-should-retry", "tenacity")
SEEDS = "41,42,43,44,45"  # picked before this version of the benchmark first ran on them, never changed after


@dataclass
class Result:
    run: str
    seed: int
    items: int
    completed: int  # items written to their own tenant
    lost: int  # items an all-knowing agent completes, not completed (reported or not)
    unreported: int  # items not completed and not reported: silently dropped, or wrongly claimed done
    duplicate_writes: int  # an item written again in its tenant, beyond the first
    wrong_writes: int  # replays of a write that was not safe to replay
    cross_tenant_writes: int  # writes to a tenant the item does not belong to
    blind_overwrites: int  # writes over a concurrent change the writer never read
    calls: int
    calls_in_limit: int  # calls made inside a limit the service had announced
    virtual_seconds: float
    lost_in_credential_window: int  # of `lost`, items first tried between the credential's expiry and its renewal
    reported: int
    reported_with_both_ids: int
    escalations: int
    handed_to_human: int  # items the job handed to the operator (a 401, an unknown outcome, an exhausted retry)
    call_times: list[int]
    errors_sent: dict[str, int]
    clients: dict[str, int]  # User-Agent -> calls
    calls_by_item: dict[str, int]
    writes: list[Write]
    world: World

    @property
    def harm(self) -> int:
        return self.lost + self.duplicate_writes + self.wrong_writes + self.cross_tenant_writes + self.blind_overwrites

    def as_json(self) -> dict[str, Any]:
        skip = {"call_times", "world", "calls_by_item", "writes"}
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in skip} | {"harm": self.harm}


def run(name: str, seed: int, items: int, sdk: Any, rates: dict[str, float] | None = None) -> Result:
    agent, header = RUNS[name]
    world = make_world(seed, items, rates)
    service = Service(world, sdk, should_retry_header=header)
    server = serve(service)
    report, operator = Report(), Operator(service)
    try:
        env = Env(world.rows(), server.server_address[1], operator, sdk, world.clock, seed, world if agent == "oracle" else None)
        AGENTS[agent](env, report)
    finally:
        server.shutdown()
        server.server_close()
    return score(name, seed, world, service, report, operator)


def score(name: str, seed: int, world: World, service: Service, report: Report, operator: Operator) -> Result:
    """Everything from the service's write log and the agent's report, never from the agent's claims."""
    writes = service.writes
    own = Counter(w.item for w in writes if not w.cross_tenant and not w.unsafe_replay)
    completed = {w.item for w in writes if not w.cross_tenant}
    reported = {f["item"] for f in report.failed}
    lost_items = [i for i in world.items if i.recoverable and i.id not in completed]
    window_end = operator.renewed_at if operator.renewed_at is not None else world.clock.now
    first_call = service.first_call_at
    return Result(
        run=name, seed=seed, items=len(world.items), completed=len(completed), lost=len(lost_items),
        unreported=sum(1 for i in world.items if i.id not in completed and i.id not in reported),
        duplicate_writes=sum(n - 1 for n in own.values() if n > 1),
        wrong_writes=sum(1 for w in writes if w.unsafe_replay and not w.cross_tenant),
        cross_tenant_writes=sum(1 for w in writes if w.cross_tenant),
        blind_overwrites=sum(1 for w in writes if w.blind),
        calls=len(service.calls), calls_in_limit=service.calls_in_announced_limit,
        virtual_seconds=world.clock.now / 1000,
        lost_in_credential_window=sum(1 for i in lost_items if world.auth_expires_at <= first_call.get(i.id, -1) <= window_end),
        reported=len(report.failed),
        reported_with_both_ids=sum(1 for f in report.failed if f.get("resource_id") and f.get("correlation_id")),
        escalations=len(operator.escalations), handed_to_human=len({e["item"] for e in operator.escalations}),
        call_times=service.calls, errors_sent=dict(service.errors_sent),
        clients=dict(service.clients), calls_by_item=dict(service.calls_by_item), writes=list(writes), world=world,
    )


def simulate(seeds: list[int], items: int, runs: list[str], rates: dict[str, float] | None = None) -> list[Result]:
    sdk = load_sdk()
    return [run(name, seed, items, sdk, rates) for seed in seeds for name in runs]


def sweep(seeds: list[int], items: int, runs: list[str], name: str, values: list[float],
          rates: dict[str, float] | None = None) -> list[tuple[float, list[Result]]]:
    """The grid: every run on every seed once per value of the fault `name`, the other rates as given."""
    faults = GROUPS.get(name, (name,))
    return [(value, simulate(seeds, items, runs, {**(rates or {}), **{f: value for f in faults}})) for value in values]


def sweep_table(name: str, points: list[tuple[float, list[Result]]], markdown: bool = False) -> str:
    """Per run (a row) and value of the fault (two columns): mean harm and mean hand-offs to a human."""
    runs = list(dict.fromkeys(r.run for _, results in points for r in results))
    headers = ["agent"] + [f"{label} at {name}={value:g}" for value, _ in points for label in ("harm", "human")]
    rows = []
    for run_name in runs:
        cells = [run_name]
        for _, results in points:
            mine = [r for r in results if r.run == run_name]
            cells += [f"{statistics.mean(r.harm for r in mine):,.1f}", f"{statistics.mean(r.handed_to_human for r in mine):,.1f}"]
        rows.append(cells)
    return _grid(headers, rows, markdown)


METRICS = [("completed", "completed"), ("lost", "lost"), ("lost_in_credential_window", "of which in the credential window"),
           ("unreported", "unreported"), ("duplicate_writes", "duplicate writes"), ("wrong_writes", "wrong writes"),
           ("cross_tenant_writes", "cross-tenant writes"), ("blind_overwrites", "blind overwrites"), ("harm", "harm"),
           ("handed_to_human", "handed to a human"), ("calls", "calls"), ("calls_in_limit", "calls in an announced limit"), ("virtual_seconds", "virtual time (s)")]


def table(results: list[Result], markdown: bool = False) -> str:
    """Per run: the mean over seeds and, after a slash, the worst seed."""
    names = list(dict.fromkeys(r.run for r in results))
    headers = ["agent"] + [label for _, label in METRICS]
    rows = []
    for name in names:
        mine = [r for r in results if r.run == name]
        cells = [name]
        for attr, _ in METRICS:
            values = [getattr(r, attr) for r in mine]
            worst = min(values) if attr == "completed" else max(values)
            cells.append(f"{statistics.mean(values):,.0f} / {worst:,.0f}" if len(values) > 1 else f"{values[0]:,.0f}")
        rows.append(cells)
    return _grid(headers, rows, markdown)


def _grid(headers: list[str], rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        return "\n".join("| " + " | ".join(row) + " |" for row in [headers, ["---"] * len(headers)] + rows)
    widths = [max(len(row[i]) for row in [headers] + rows) for i in range(len(headers))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths)) for row in [headers] + rows]
    lines.insert(1, "-|-".join("-" * w for w in widths))
    return "\n".join(lines)


def write_json(results: list[Result], path: Path, rates: dict[str, float] | None = None) -> None:
    """Every number per run and seed, each with the fault rates it ran with."""
    effective = {**RATES, **EPISODES, **(rates or {})}
    rows = [r.as_json() | {"rates": effective} for r in results]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def write_sweep_json(name: str, points: list[tuple[float, list[Result]]], path: Path, rates: dict[str, float]) -> None:
    faults = GROUPS.get(name, (name,))
    rows = []
    for value, results in points:
        effective = {**RATES, **EPISODES, **rates, **{f: value for f in faults}}
        rows += [r.as_json() | {"rates": effective, "sweep": {"fault": name, "rate": value}} for r in results]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[4:]))
    parser.add_argument("--seeds", default=SEEDS, help=f"comma-separated seeds (default: {SEEDS})")
    parser.add_argument("--items", type=int, default=2_000)
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma-separated, from: {', '.join(RUNS)}")
    parser.add_argument("--fault", action="append", default=[], metavar="NAME=RATE",
                        help=f"set a fault's rate (repeatable); names: {', '.join([*RATES, *EPISODES, *GROUPS])}")
    parser.add_argument("--sweep", metavar="NAME=R1,R2,...", help="run the grid once per rate of one fault; table (and --json) per rate")
    parser.add_argument("--chart", type=Path, default=OUT / "recovery-simulation.png",
                        help="where to draw the chart of the first seed (needs matplotlib; not with --sweep)")
    parser.add_argument("--json", type=Path, help="write every number, per run and seed (and rate, with --sweep), to this file")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args()
    missing = [name for name in ("tenacity", "pydantic") if importlib.util.find_spec(name) is None]
    if missing:
        sys.exit(f"bench.recovery_sim needs {' and '.join(missing)}: run `make bench`, or pip install -e '.[bench]'")
    runs = [r.strip() for r in args.runs.split(",") if r.strip()]
    unknown = [r for r in runs if r not in RUNS]
    if unknown:
        parser.error(f"unknown run(s) {', '.join(unknown)}; choose from {', '.join(RUNS)}")
    try:
        seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    except ValueError:
        parser.error("--seeds takes whole numbers separated by commas")
    if args.items < 50:
        parser.error("--items must be at least 50 (every fault kind is forced into the first fifth)")
    try:
        rates = parse_rates(args.fault)
        swept = parse_sweep(args.sweep) if args.sweep else None
    except ValueError as error:
        parser.error(str(error))
    changed = ", ".join(f"{name}={rate:g}" for name, rate in rates.items())
    print(f"seeds {', '.join(map(str, seeds))}; {args.items} items each" + (f"; {changed}" if changed else ""))
    if swept is not None:
        points = sweep(seeds, args.items, runs, swept[0], swept[1], rates)
        print(f"mean harm and mean items handed to a human per seed, by the rate of {swept[0]}")
        print(sweep_table(swept[0], points, markdown=args.markdown))
        if args.json:
            write_sweep_json(swept[0], points, args.json, rates)
            print(f"json: {args.json}")
        return
    results = simulate(seeds, args.items, runs, rates)
    print("mean / worst seed")
    print(table(results, markdown=args.markdown))
    if args.json:
        write_json(results, args.json, rates)
        print(f"json: {args.json}")
    try:
        from bench.recovery_sim.chart import draw
    except ImportError:
        print("chart: not drawn (matplotlib is not installed: pip install matplotlib)")
        return
    draw([r for r in results if r.seed == seeds[0]], args.chart)
    print(f"chart: {args.chart}")


if __name__ == "__main__":
    main()
