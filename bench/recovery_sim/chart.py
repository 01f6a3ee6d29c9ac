"""The chart: calls per second around each injected event, one row per agent.

A whole run is minutes long for one agent and close to an hour for another, while the events that
tell them apart last seconds; on one shared time axis they would be a few pixels wide. So each
column zooms into one event (the first rate-limit window, the outage, the credential expiring),
every row uses the same windows and every panel the same calls-per-second scale, so panels compare
directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.recovery_sim.world import HUMAN_RENEWAL_MS, World

RATE = "#f2a541"
OUTAGE = "#c0392b"


@dataclass(frozen=True)
class Panel:
    title: str
    start_s: float
    end_s: float
    bin_s: float


def panels(world: World) -> list[Panel]:
    """The zoomed windows: a little before each event, and long enough after it to see the recovery."""
    rate_start, rate_end = (t / 1000 for t in world.rate_windows[0])
    outage_start, outage_end = (t / 1000 for t in world.outage)
    expiry = world.auth_expires_at / 1000
    return [
        Panel("first rate-limit window (orange)", max(0.0, rate_start - 4), rate_end + 4, 0.25),
        Panel("outage (red)", outage_start - 5, outage_end + 10, 0.5),
        Panel("credential expires (dashed); a human renews it after an escalation",
              expiry - 5, expiry + HUMAN_RENEWAL_MS / 1000 + 15, 1.0),
    ]


def draw(results: list[Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    world: World = results[0].world  # the same seed: every agent meets the same events at the same times
    columns = panels(world)
    fig, axes = plt.subplots(len(results), len(columns), figsize=(13, 1.9 * len(results) + 0.8),
                             sharex="col", sharey=True, squeeze=False, gridspec_kw={"width_ratios": [1, 1.3, 2]})
    for row, r in enumerate(results):
        times = [t / 1000 for t in r.call_times]
        for col, panel in enumerate(columns):
            ax = axes[row, col]
            bins = max(1, round((panel.end_s - panel.start_s) / panel.bin_s))
            inside = [t for t in times if panel.start_s <= t < panel.end_s]
            ax.hist(inside, bins=bins, range=(panel.start_s, panel.end_s), weights=[1 / panel.bin_s] * len(inside),
                    color="#3b6ea8")
            for start, end in world.rate_windows:
                ax.axvspan(start / 1000, end / 1000, color=RATE, alpha=0.35, lw=0)
            ax.axvspan(world.outage[0] / 1000, world.outage[1] / 1000, color=OUTAGE, alpha=0.25, lw=0)
            ax.axvline(world.auth_expires_at / 1000, color="#555", lw=1, ls="--")
            ax.set_xlim(panel.start_s, panel.end_s)
            if row == 0:
                ax.set_title(panel.title, fontsize=9)
            if row == len(results) - 1:
                ax.set_xlabel("virtual time (s)")
        axes[row, 0].set_ylabel(f"{r.agent}\ncalls / s")
        axes[row, -1].text(1.01, 0.5, f"{r.completed} done\n{r.lost} lost\n{r.duplicates} dup. writes\n"
                                      f"{r.calls_in_limit} calls in\nannounced limits",
                           transform=axes[row, -1].transAxes, fontsize=8, va="center")
    fig.suptitle("Calls per second around each injected event (same seed for every agent)", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
