"""The scenario: which items are malformed, mistyped, stale, locked, on a broken or busy backend,
or time out; when the service is rate limited (globally or per tenant), down, or sees the
credential expire. All drawn from one seed; time is virtual.

Agents see only `Item.row()`, what their input file says; the rest is ground truth for the
service and the score (and for the oracle, which exists to set the floor)."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

# The caller's own tenants (the only source of suggestions) and, from the caller's own records,
# the region each one lives in: what may disambiguate a hint.
TENANTS = ("acme-prod", "acme-dev", "acme-eu")
REGIONS = {"acme-prod": "us", "acme-dev": "us", "acme-eu": "eu"}
# did_you_mean("acme-ue") is [acme-dev, acme-eu]: ambiguous unless the row's region says "eu".
TYPO = {"acme-prod": "acme-prd", "acme-dev": "acme-dve", "acme-eu": "acme-ue"}
CALL_MS = 20  # virtual latency of one call
HUMAN_RENEWAL_MS = 60_000  # the operator renewing the credential after a 401 reaches them (every agent)
OUTAGE_MS = 20_000
TENANT_LIMIT_MS = 1_500  # how long a tenant stays limited after its quota runs out
BUSY_MS = 2_500  # a busy backend recovers this long after the item's first call
LOCK_MS = 300  # a record lock is released this long after the item's first call
SHARD_MS = 1_500  # a shard move (answered with a code newer than the client's registry) takes this long

# Per-item fault rates (assumptions, see docs/recovery.md for what each models and why).
RATES = {"typo": 0.02, "times_out": 0.03, "stale": 0.02, "outcome_unknown": 0.005, "malformed": 0.02,
         "backend_down": 0.01, "backend_busy": 0.02, "locked": 0.005, "shard_moving": 0.01}
FORCED = ("malformed", "times_out", "outcome_unknown", "backend_down", "stale", "typo", "backend_busy", "locked", "shard_moving")


class Clock:
    """Virtual milliseconds shared by the service and the agent."""

    def __init__(self) -> None:
        self.now = 0
        self._lock = threading.Lock()

    def advance(self, ms: float) -> None:
        with self._lock:
            self.now += max(0, int(ms))


@dataclass(frozen=True)
class Row:
    """One line of the agent's input: all it knows about an item."""

    id: str
    tenant: str  # possibly a typo
    version: int  # the version the row was read at (possibly stale)
    region: str | None  # the contact's region, when the input has it


@dataclass(frozen=True)
class Item:
    id: str
    tenant: str  # what the agent's input row says (possibly a typo)
    true_tenant: str
    version: int  # the record version the agent's row carries
    true_version: int  # the version the service holds (greater: someone changed it concurrently)
    region: str | None
    malformed: bool
    times_out: bool  # the first write attempt times out (and is safe to replay with the same key)
    timeout_committed: bool  # ... after the write did commit
    outcome_unknown: bool  # the first write commits, then fails with a 500 that cannot be deduplicated
    backend_down: bool  # the item's storage backend answers 503 for the whole run
    backend_busy: bool  # the item's backend answers 503 (retryable) for BUSY_MS, then recovers
    locked: bool  # the record is locked for LOCK_MS: 409 LOCK_TIMEOUT, which the registry wrongly calls final
    shard_moving: bool  # 503 with SHARD_MOVING, a code newer than the client's registry, for SHARD_MS

    @property
    def recoverable(self) -> bool:
        """Whether an agent that knew everything would complete it."""
        return not (self.malformed or self.backend_down)

    def row(self) -> Row:
        return Row(self.id, self.tenant, self.version, self.region)


@dataclass
class World:
    items: list[Item]
    rate_windows: list[tuple[int, int]]  # service-wide limits
    tenant_limits: list[tuple[int, int, str]]  # (start, end, tenant): one tenant's quota is spent
    outage: tuple[int, int]
    auth_expires_at: int
    clock: Clock = field(default_factory=Clock)

    def rows(self) -> list[Row]:
        return [item.row() for item in self.items]


def make_world(seed: int, n: int) -> World:
    rng = random.Random(seed)
    items = [_item(rng, i) for i in range(n)]
    # At least one item of every kind, early in the run (before the outage and the credential
    # expiry) and with no other fault, so every seed exercises every fault on every agent.
    head = max(len(FORCED), n // 5)
    for index, kind in enumerate(FORCED):
        at = (seed + index * (head // len(FORCED))) % head  # distinct places, so no kind overwrites another
        items[at] = _item(rng, at, force=kind)
    # Roughly how long a run takes: a call per item, and the waits of busy backends, shard moves and timeouts.
    span = n * (CALL_MS + 80)
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
    drawn = {kind: rng.random() < rate for kind, rate in RATES.items()}
    committed, version, has_region = rng.random() < 0.5, rng.randint(1, 9), rng.random() < 0.5
    fault = {k: k == force for k in drawn} if force else drawn
    times_out = fault["times_out"]
    return Item(
        f"contact_{i:05d}", TYPO[tenant] if fault["typo"] else tenant, tenant, version, version + 1 if fault["stale"] else version,
        REGIONS[tenant] if has_region else None, fault["malformed"], times_out, times_out and committed,
        fault["outcome_unknown"] and not times_out, fault["backend_down"], fault["backend_busy"], fault["locked"], fault["shard_moving"],
    )


def _merge(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in windows:
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out
