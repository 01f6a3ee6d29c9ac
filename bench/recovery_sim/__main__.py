"""The recovery benchmark: every agent enriches the same contacts through the same faulty service
(errors built by the simulation registry's generated Python SDK, real HTTP on loopback, virtual
time) with the same operator on a 401; one table, one chart, optionally every number as JSON.

    python -m bench.recovery_sim [--seeds 11,12,13,14,15] [--items 2000] [--runs errgen,anthropic,...]
                                 [--chart bench/out/recovery-simulation.png] [--json PATH]

The runs (an agent, and the retry header its service sends): errgen; anthropic and openai (the
real client libraries) without and with x-should-retry; stripe-style (Stripe-Should-Retry); plain
(a hand-written job on an ordinary error body); tenacity; oracle; errgen-guess (the agent this
benchmark used to run: the first suggestion, the accepted version without a re-read).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import statistics
from collections import Counter
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from bench.recovery_sim.agents import AGENTS, Env, Operator, Report
from bench.recovery_sim.service import OUT, Service, Write, load_sdk, serve
from bench.recovery_sim.world import World, make_world

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
SEEDS = "11,12,13,14,15"  # never used while building the agents or the fault mix


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


def run(name: str, seed: int, items: int, sdk: Any) -> Result:
    agent, header = RUNS[name]
    world = make_world(seed, items)
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
        escalations=len(operator.escalations), call_times=service.calls, errors_sent=dict(service.errors_sent),
        clients=dict(service.clients), calls_by_item=dict(service.calls_by_item), writes=list(writes), world=world,
    )


def simulate(seeds: list[int], items: int, runs: list[str]) -> list[Result]:
    sdk = load_sdk()
    return [run(name, seed, items, sdk) for seed in seeds for name in runs]


METRICS = [("completed", "completed"), ("lost", "lost"), ("lost_in_credential_window", "of which in the credential window"),
           ("unreported", "unreported"), ("duplicate_writes", "duplicate writes"), ("wrong_writes", "wrong writes"),
           ("cross_tenant_writes", "cross-tenant writes"), ("blind_overwrites", "blind overwrites"), ("harm", "harm"),
           ("calls", "calls"), ("calls_in_limit", "calls in an announced limit"), ("virtual_seconds", "virtual time (s)")]


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
    if markdown:
        return "\n".join("| " + " | ".join(row) + " |" for row in [headers, ["---"] * len(headers)] + rows)
    widths = [max(len(row[i]) for row in [headers] + rows) for i in range(len(headers))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths)) for row in [headers] + rows]
    lines.insert(1, "-|-".join("-" * w for w in widths))
    return "\n".join(lines)


def write_json(results: list[Result], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([r.as_json() for r in results], indent=2, sort_keys=True) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=SEEDS, help=f"comma-separated seeds (default: {SEEDS})")
    parser.add_argument("--items", type=int, default=2_000)
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma-separated, from: {', '.join(RUNS)}")
    parser.add_argument("--chart", type=Path, default=OUT / "recovery-simulation.png",
                        help="where to draw the chart of the first seed (needs matplotlib)")
    parser.add_argument("--json", type=Path, help="write every number, per run and seed, to this file")
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
    results = simulate(seeds, args.items, runs)
    print(f"seeds {', '.join(map(str, seeds))}; {args.items} items each; mean / worst seed")
    print(table(results, markdown=args.markdown))
    if args.json:
        write_json(results, args.json)
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
