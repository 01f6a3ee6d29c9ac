"""Run the agents side by side on the same seed, print one table, draw one picture.

The picture goes to bench/out/ (not committed); docs/recovery-simulation.png is refreshed by hand,
with --chart, when the documented results change.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.recovery_sim.agents import AGENTS, Client, Report
from bench.recovery_sim.service import Service, serve
from bench.recovery_sim.world import World, make_world

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CHART = ROOT / "bench" / "out" / "recovery-simulation.png"


def load_sdk() -> Any:
    """The generated SDK of the default registry (generated/python), not a copy."""
    sys.path.insert(0, str(ROOT / "generated" / "python"))
    import acme_errors

    return acme_errors


@dataclass
class Result:
    agent: str
    items: int
    completed: int
    lost: int
    duplicates: int
    calls: int
    calls_in_limit: int
    failed_reported: int
    failed_with_both_ids: int
    virtual_s: float
    call_times: list[int]
    world: World
    errors_sent: dict[str, int]

    wasted_vs_oracle: str = "-"


def run(agent: str, seed: int, items: int) -> Result:
    sdk = load_sdk()
    world = make_world(seed, items)
    service = Service(world, sdk)
    server = serve(service)
    report = Report()
    try:
        AGENTS[agent](Client(server.server_address[1], world, sdk), world, report)
    finally:
        server.shutdown()
        server.server_close()
    reported = {f["item"] for f in report.failed}
    completed = {i for i in report.completed if service.applied[i] >= 1}
    lost = [i.id for i in world.items if i.id not in completed and i.id not in reported]
    return Result(
        agent, items, len(completed), len(lost), sum(max(0, n - 1) for n in service.applied.values()), len(service.calls),
        service.calls_in_announced_limit, len(report.failed),
        sum(1 for f in report.failed if f.get("resource_id") and f.get("correlation_id")), world.clock.now / 1000, service.calls, world,
        dict(service.errors_sent),
    )


def simulate(seed: int, items: int, agents: list[str]) -> list[Result]:
    results = [run(agent, seed, items) for agent in agents]
    oracle = next((r for r in results if r.agent == "oracle"), None)
    for r in results:
        if oracle is not None:
            r.wasted_vs_oracle = f"{r.calls - oracle.calls} ({(r.calls - oracle.calls) / oracle.calls:+.1%})"
    return results


def table(results: list[Result]) -> str:
    headers = ["agent", "completed", "lost", "duplicate writes", "calls", "wasted vs oracle", "calls during a limit",
               "failed reported", "with both ids", "virtual time (s)"]
    rows = [[r.agent, r.completed, r.lost, r.duplicates, r.calls, r.wasted_vs_oracle, r.calls_in_limit, r.failed_reported,
             r.failed_with_both_ids, f"{r.virtual_s:,.0f}"] for r in results]
    cells = [headers] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths)) for row in cells]
    lines.insert(1, "-|-".join("-" * w for w in widths))
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--agents", default="errgen,naive,cautious,oracle")
    parser.add_argument("--chart", type=Path, default=DEFAULT_CHART, help="Where to write the chart (PNG). Default: %(default)s")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    unknown = [a for a in agents if a not in AGENTS]
    if unknown:
        parser().error(f"unknown agent(s) {', '.join(unknown)}; choose from {', '.join(AGENTS)}")
    results = simulate(args.seed, args.items, agents)
    print(f"seed {args.seed}, {args.items} items")
    print(table(results))
    try:
        import matplotlib  # noqa: F401  (only the chart needs it)
    except ImportError:
        print("chart: skipped, matplotlib is not installed (pip install matplotlib, or pip install -e '.[test]')")
        return
    from bench.recovery_sim.chart import draw

    draw(results, args.chart)
    print(f"chart: {args.chart}")


if __name__ == "__main__":
    main()
