"""Synthetic registries of any size, shaped like a real one (every feature, realistic text)."""

from __future__ import annotations

import random
from pathlib import Path

CATEGORIES = {
    "rate_limit": (True, None), "validation": (False, "fix"), "auth": (False, None),
    "upstream": (True, None), "conflict": (False, "fix"), "internal": (False, None),
}
HINTS = ["searched", "did_you_mean", "accepted", "state", "safe_to_replay"]


def registry_text(n: int, seed: int = 1, version: str = "1.0.0", skip: frozenset[int] = frozenset(), tweak: dict[int, str] | None = None) -> str:
    lines = ["errgen: 1", "name: synthetic", f"version: {version}", "categories:"]
    for name, (retryable, action) in CATEGORIES.items():
        lines.append(f"  {name}:")
        lines.append(f"    retryable: {'true' if retryable else 'false'}")
        if action:
            lines.append(f"    action: {action}")
        lines.append(f"    description: Failures of class {name}.")
    lines.append("codes:")
    names = list(CATEGORIES)
    for i in range(n):
        if i in skip:
            continue
        rng = random.Random(seed * 1_000_003 + i)  # per code, so skipping one leaves the others alone
        category = names[i % len(names)]
        retryable = CATEGORIES[category][0]
        scope = ["request", "resource", "service"][i % 3]
        lines.append(f"  CODE_{i:06d}:")
        lines.append(f"    category: {(tweak or {}).get(i, category)}")
        lines.append(f"    scope: {scope}")
        lines.append(f"    scopes: [{scope}, request]" if scope != "request" else "    scopes: [request]")
        if retryable:
            lines.append(f"    retry_after_ms: {rng.randint(1, 60) * 100}")
        lines.append(f"    http_status: {rng.choice([400, 404, 409, 422, 429, 500, 503, 504])}")
        lines.append(f"    description: Synthetic failure number {i} for load testing.")
        lines.append(f"    hints: [{', '.join(rng.sample(HINTS, 2))}]")
        lines.append("    since: 1.0.0")
    lines.append("history:")
    lines.append("  - {version: 1.0.0, date: 2026-01-10, changes: [Initial.]}")
    if version != "1.0.0":
        lines.append(f"  - {{version: {version}, date: 2026-02-10, changes: [Next.]}}")
    return "\n".join(lines) + "\n"


def write(folder: Path, n: int, **kwargs: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"registry-{n}.yaml"
    path.write_text(registry_text(n, **kwargs), encoding="utf-8")  # type: ignore[arg-type]
    return path
