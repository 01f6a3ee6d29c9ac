"""Calls over virtual time per agent, with the rate-limit windows and the outage shaded."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def draw(results: list[Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    horizon = max(r.virtual_s for r in results)
    fig, axes = plt.subplots(len(results), 1, figsize=(11, 2.1 * len(results)), sharex=True, squeeze=False)
    for ax, r in zip(axes[:, 0], results):
        bins = max(1, int(horizon))
        ax.hist([t / 1000 for t in r.call_times], bins=bins, range=(0, horizon), color="#3b6ea8")
        for start, end in r.world.rate_windows:
            ax.axvspan(start / 1000, end / 1000, color="#f2a541", alpha=0.35, lw=0)
        ax.axvspan(r.world.outage[0] / 1000, r.world.outage[1] / 1000, color="#c0392b", alpha=0.25, lw=0)
        ax.axvline(r.world.auth_expires_at / 1000, color="#555", lw=1, ls="--")
        ax.set_ylabel("calls / s")
        ax.set_title(f"{r.agent}: {r.completed} completed, {r.lost} lost, {r.duplicates} duplicate writes, "
                     f"{r.calls} calls, {r.calls_in_limit} during an announced limit", fontsize=9, loc="left")
    axes[-1, 0].set_xlabel("virtual time (s); orange: rate limited, red: outage, dashed: credential expires")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
