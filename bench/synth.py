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


WORDS = ("the request could not be completed because an upstream dependency rejected it with a message "
         "that names the field account invoice payment token quota region").split()
STYLES = ("card_declined_{}", "NoSuchBucket{}", "E{:05d}", "quota.exceeded.{}")


def prose_text(n: int, seed: int = 5) -> str:
    """A registry heavy in text, as real catalogues are: 40 categories, descriptions of 15 to 40
    words, camelCase wire names under an `error` envelope, codes in four naming styles."""
    rng = random.Random(seed)
    categories = [f"cat_{i}" for i in range(40)]
    lines = ["errgen: 1", "name: prose_api", "version: 3.2.0", "wire:", "  case: camel", "  envelope: error", "categories:"]
    retryable = {}
    for name in categories:
        retryable[name] = rng.random() < 0.3
        lines += [f"  {name}:", f"    retryable: {'true' if retryable[name] else 'false'}",
                  f"    description: Category {name} covers a family of failures with a shared recovery policy."]
        if not retryable[name]:
            lines.append(f"    action: {rng.choice(['fix', 'escalate'])}")
    lines.append("codes:")
    for i in range(n):
        category, scope = rng.choice(categories), rng.choice(["request", "resource", "service"])
        scopes = [scope] + [s for s in sorted(set(rng.sample(["request", "resource", "service"], rng.randint(0, 2)))) if s != scope]
        lines += [f"  {rng.choice(STYLES).format(i)}:", f"    category: {category}", f"    scope: {scope}", f"    scopes: [{', '.join(scopes)}]"]
        if retryable[category]:
            lines.append(f"    retry_after_ms: {rng.randint(1, 100) * 50}")
        lines.append(f"    http_status: {rng.choice([400, 401, 403, 404, 409, 422, 429, 500, 502, 503])}")
        lines.append(f"    description: {' '.join(rng.choice(WORDS) for _ in range(rng.randint(15, 40))).capitalize()}.")
        lines.append(f"    hints: [{', '.join(rng.sample(HINTS, rng.randint(0, 3)))}]")
        lines.append("    since: 1.0.0")
    lines += ["history:", "  - {version: 1.0.0, date: 2026-01-10, changes: [Initial.]}",
              "  - {version: 3.2.0, date: 2026-02-10, changes: [Next.]}"]
    return "\n".join(lines) + "\n"


def write(folder: Path, n: int, shape: str = "plain", **kwargs: object) -> Path:
    """The registry of `n` codes in `shape`: plain (registry_text) or prose (prose_text)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (f"registry-{n}.yaml" if shape == "plain" else f"registry-{n}-{shape}.yaml")
    text = registry_text(n, **kwargs) if shape == "plain" else prose_text(n)  # type: ignore[arg-type]
    path.write_text(text, encoding="utf-8")
    return path
