"""Run the agents side by side on the same seeds, print one table, draw one picture.

    python -m bench.recovery_sim [--seeds 1,2,3,4,5] [--items 10000] [--chart bench/out/recovery-simulation.png]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.recovery_sim.agents import AGENTS, Client, Report
from bench.recovery_sim.service import Service, serve
from bench.recovery_sim.world import World, make_world

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = Path(__file__).resolve().parent / "registry.yaml"
OUT = ROOT / "bench" / "out"
# Each row of the table: an agent, and whether its service sends x-should-retry.
RUNS = {
    "errgen": ("errgen", True),
    "sdk-retry": ("sdk-retry", False),
    "sdk-retry + x-should-retry": ("sdk-retry", True),
    "tenacity": ("tenacity", True),
    "oracle": ("oracle", True),
}


def load_sdk() -> Any:
    """The simulation registry's generated Python SDK, built by errgen into bench/out/."""
    out = OUT / "sim-sdk"
    cmd = [sys.executable, "-m", "errgen", "build", "--registry", str(REGISTRY), "--target", "python", "--out", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    if str(out / "python") not in sys.path:
        sys.path.insert(0, str(out / "python"))
    return importlib.import_module("enrich_errors")


@dataclass
class Result:
    run: str
    seed: int
    items: int
    completed: int
    lost: int  # recoverable items never written (whether reported or not)
    unreported: int  # items neither written nor reported: silently dropped
    duplicates: int
    wrong_writes: int
    calls: int
    calls_in_limit: int
    failed_with_both_ids: int
    failed_reported: int
    virtual_s: float
    call_times: list[int]
    world: World
    errors_sent: dict[str, int]

    @property
    def harm(self) -> int:
        return self.lost + self.duplicates + self.wrong_writes


def run(name: str, seed: int, items: int, sdk: Any) -> Result:
    agent, header = RUNS[name]
    world = make_world(seed, items)
    service = Service(world, sdk, should_retry_header=header)
    server = serve(service)
    report = Report()
    try:
        AGENTS[agent](Client(server.server_address[1], world, sdk), world, report)
    finally:
        server.shutdown()
        server.server_close()
    reported = {f["item"] for f in report.failed}
    written = {i.id for i in world.items if service.applied[i.id] >= 1}
    lost = sum(1 for i in world.items if i.recoverable and i.id not in written)
    unreported = sum(1 for i in world.items if i.id not in written and i.id not in reported)
    duplicates = sum(max(0, n - 1) for n in service.applied.values()) - service.wrong_writes
    return Result(
        name, seed, items, len(written), lost, unreported, duplicates, service.wrong_writes, len(service.calls),
        service.calls_in_announced_limit, sum(1 for f in report.failed if f.get("resource_id") and f.get("correlation_id")),
        len(report.failed), world.clock.now / 1000, service.calls, world, dict(service.errors_sent),
    )


def simulate(seeds: list[int], items: int, runs: list[str]) -> list[Result]:
    sdk = load_sdk()
    return [run(name, seed, items, sdk) for seed in seeds for name in runs]


METRICS = [("completed", "completed"), ("lost", "lost"), ("unreported", "unreported"), ("duplicates", "duplicate writes"),
           ("wrong_writes", "wrong writes"), ("calls", "calls"), ("calls_in_limit", "calls in an announced limit"),
           ("virtual_s", "virtual time (s)")]


def table(results: list[Result]) -> str:
    """Per run: the mean over seeds and, after a slash, the worst seed."""
    names = list(dict.fromkeys(r.run for r in results))
    worse_is_lower = {"completed"}
    headers = ["agent"] + [label for _, label in METRICS] + ["lost+dup+wrong"]
    rows = []
    for name in names:
        mine = [r for r in results if r.run == name]
        cells = [name]
        for attr, _ in METRICS + [("harm", "")]:
            values = [getattr(r, attr) for r in mine]
            worst = min(values) if attr in worse_is_lower else max(values)
            cells.append(f"{statistics.mean(values):,.0f} / {worst:,.0f}" if len(values) > 1 else f"{values[0]:,.0f}")
        rows.append(cells)
    widths = [max(len(row[i]) for row in [headers] + rows) for i in range(len(headers))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths)) for row in [headers] + rows]
    lines.insert(1, "-|-".join("-" * w for w in widths))
    return "\n".join(lines)


def header_effect(results: list[Result]) -> str | None:
    """What x-should-retry alone buys a client that never imports errgen's SDK."""
    without = [r for r in results if r.run == "sdk-retry"]
    with_ = [r for r in results if r.run == "sdk-retry + x-should-retry"]
    if not without or not with_:
        return None
    parts = []
    for attr, label in (("wrong_writes", "wrong writes"), ("duplicates", "duplicate writes"), ("calls", "calls"), ("lost", "lost")):
        a, b = (sum(getattr(r, attr) for r in rs) for rs in (without, with_))
        parts.append(f"{label} {a:,} -> {b:,}")
    return f"x-should-retry, summed over the seeds (sdk-retry without -> with the header): {'; '.join(parts)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1,2,3,4,5", help="comma-separated seeds (default: 1,2,3,4,5)")
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma-separated, from: {', '.join(RUNS)}")
    parser.add_argument("--chart", type=Path, default=OUT / "recovery-simulation.png",
                        help="where to draw the chart of the first seed (needs matplotlib)")
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
    results = simulate(seeds, args.items, runs)
    print(f"seeds {', '.join(map(str, seeds))}; {args.items} items each; mean / worst seed")
    print(table(results))
    effect = header_effect(results)
    if effect:
        print(effect)
    try:
        from bench.recovery_sim.chart import draw
    except ImportError:
        print("chart: not drawn (matplotlib is not installed: pip install matplotlib)")
        return
    draw([r for r in results if r.seed == seeds[0]], args.chart)
    print(f"chart: {args.chart}")


if __name__ == "__main__":
    main()
