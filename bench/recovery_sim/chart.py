"""Two panels on shared scales: work done over virtual time per agent, and calls per second in a
zoom around the outage, with rate limits, the outage and the credential expiry marked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

COLOURS = {"errgen": "#1b7837", "anthropic": "#c0392b", "anthropic + x-should-retry": "#e67e22", "openai": "#2c7fb8",
           "openai + x-should-retry": "#7fcdbb", "stripe-style": "#6a51a3", "plain": "#8c6d31", "tenacity": "#e7298a",
           "oracle": "#555555", "errgen-guess": "#a6d96a"}


def draw(results: list[Any], path: Path) -> None:
    world = results[0].world
    fig, (top, zoom) = plt.subplots(2, 1, figsize=(11, 7.5), gridspec_kw={"height_ratios": [3, 2]})
    # The x axis ends where the errgen agent ends (plus a margin): a slower agent's tail is named, not drawn.
    errgen = next((r for r in results if r.run == "errgen"), results[0])
    horizon = errgen.virtual_seconds * 1.1
    for r in results:
        times = sorted(r.call_times)
        label = f"{r.run}: {r.calls:,} calls, {r.virtual_seconds:,.0f} s" + (" (off the chart)" if r.virtual_seconds > horizon else "")
        top.plot([t / 1000 for t in times], range(1, len(times) + 1), label=label, color=COLOURS.get(r.run), lw=1.4)
    top.set_xlim(0, horizon)
    start, end = world.outage[0] - 15_000, world.outage[1] + 15_000
    for r in results:
        inside = sorted(t for t in r.call_times if start <= t < end)
        zoom.step([start / 1000] + [t / 1000 for t in inside] + [end / 1000], [0] + list(range(1, len(inside) + 1)) + [len(inside)],
                  where="post", color=COLOURS.get(r.run), lw=1.4, label=r.run)
    for ax in (top, zoom):
        for s, e in world.rate_windows:
            ax.axvspan(s / 1000, e / 1000, color="#f2a541", alpha=0.3, lw=0)
        for s, e, _ in world.tenant_limits:
            ax.axvspan(s / 1000, e / 1000, color="#f7dc6f", alpha=0.35, lw=0)
        ax.axvspan(world.outage[0] / 1000, world.outage[1] / 1000, color="#c0392b", alpha=0.18, lw=0)
        ax.axvline(world.auth_expires_at / 1000, color="#333", lw=1, ls="--")
    top.set_ylabel("calls made")
    top.set_title("Every agent on the same faults (seed %d): orange service limits, yellow one tenant's limit, "
                  "red the outage, dashed the credential expires" % results[0].seed, fontsize=9, loc="left")
    top.legend(fontsize=8, loc="lower right")
    zoom.set_xlim(start / 1000, end / 1000)
    zoom.set_ylabel("calls since the window began")
    zoom.set_xlabel("virtual time (s); below, the outage and 15 s either side: flat is quiet")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
