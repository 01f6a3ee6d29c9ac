"""The scenario: which items are malformed, mistyped, stale, on a broken backend or time out, and
when the service is rate limited (globally or per tenant), down, or sees the credential expire.
All drawn from one seed; time is virtual."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

TENANTS = ("acme-prod", "acme-dev", "acme-eu")  # the caller's own tenants: the only source of suggestions
TYPO = {"acme-prod": "acme-prd", "acme-dev": "acme-dve", "acme-eu": "acme-ue"}
CALL_MS = 20  # virtual latency of one call
HUMAN_RENEWAL_MS = 60_000  # a human renewing the credential after an escalation
ROTATION_MS = 600_000  # unescalated, the expired credential is noticed and rotated by ops after 10 minutes
OUTAGE_MS = 20_000
TENANT_LIMIT_MS = 1_500  # how long a tenant stays limited after its quota runs out


class Clock:
    """Virtual milliseconds shared by the service and the agent."""

    def __init__(self) -> None:
        self.now = 0
        self._lock = threading.Lock()

    def advance(self, ms: int) -> None:
        with self._lock:
            self.now += max(0, int(ms))


@dataclass(frozen=True)
class Item:
    id: str
    tenant: str  # what the agent's input row says (possibly a typo)
    true_tenant: str
    version: int  # the record version the agent's row carries
    true_version: int  # the version the service holds (greater: the row is stale)
    malformed: bool
    times_out: bool  # the first write attempt times out (and is safe to replay with the same key)
    timeout_committed: bool  # ... after the write did commit
    outcome_unknown: bool  # the first write commits, then fails with a 500 that cannot be deduplicated
    backend_down: bool  # the item's storage backend answers 503 for the whole run

    @property
    def recoverable(self) -> bool:
        """Whether an agent that knew everything would complete it."""
        return not (self.malformed or self.backend_down)


@dataclass
class World:
    items: list[Item]
    rate_windows: list[tuple[int, int]]  # service-wide limits
    tenant_limits: list[tuple[int, int, str]]  # (start, end, tenant): one tenant's quota is spent
    outage: tuple[int, int]
    auth_expires_at: int
    clock: Clock = field(default_factory=Clock)


def make_world(seed: int, n: int) -> World:
    rng = random.Random(seed)
    items = [_item(rng, i) for i in range(n)]
    # At least one item of every kind, early in the run (before the outage and the credential
    # expiry) and with no other fault, so every seed exercises every fault on every agent.
    for index, kind in enumerate(("malformed", "times_out", "outcome_unknown", "backend_down", "stale")):
        at = (index * 7919 + seed) % max(1, n // 5)
        items[at] = _item(rng, at, force=kind)
    span = n * CALL_MS  # roughly how long a clean run takes
    # One service-wide limit early (before the outage and the expiry, which stretch the clock past
    # `span` for a short run), the others anywhere.
    starts = [rng.randint(span // 10, span // 4)] + [rng.randint(0, span) for _ in range(max(1, n // 2500))]
    windows = sorted((start, start + rng.randint(2_000, 6_000)) for start in starts)
    tenant_limits = sorted((start, start + TENANT_LIMIT_MS, rng.choice(TENANTS)) for start in (rng.randint(0, span) for _ in range(max(3, n // 500))))
    outage_start = rng.randint(span // 3, span // 2)
    return World(items, _merge(windows), tenant_limits, (outage_start, outage_start + OUTAGE_MS), rng.randint(span // 2, 3 * span // 4))


def _item(rng: random.Random, i: int, force: str = "") -> Item:
    """An item with random faults, or (force) with exactly the one named."""
    tenant = rng.choice(TENANTS)
    drawn = {"typo": rng.random() < 0.02, "times_out": rng.random() < 0.03, "stale": rng.random() < 0.02,
             "outcome_unknown": rng.random() < 0.005, "malformed": rng.random() < 0.02, "backend_down": rng.random() < 0.01}
    committed, version = rng.random() < 0.5, rng.randint(1, 9)
    fault = {k: k == force for k in drawn} if force else drawn
    times_out = fault["times_out"]
    return Item(
        f"contact_{i:05d}", TYPO[tenant] if fault["typo"] else tenant, tenant, version, version + 1 if fault["stale"] else version,
        fault["malformed"], times_out, times_out and committed, fault["outcome_unknown"] and not times_out, fault["backend_down"],
    )


def _merge(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in windows:
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out
