"""The scenario: which items are malformed, mistyped or time out, and when the service is rate
limited, down, or sees the credential expire. All drawn from one seed; time is virtual."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

TENANTS = ("acme-prod", "acme-dev", "acme-eu")  # the caller's own tenants: the only source of suggestions
TYPO = {"acme-prod": "acme-prd", "acme-dev": "acme-dve", "acme-eu": "acme-ue"}
CALL_MS = 20  # virtual latency of one call
HUMAN_RENEWAL_MS = 60_000  # a human renewing the credential after an escalation
OPERATOR_RESTART_MS = 5_000  # the job restarted after a stop, once the outage is reported
ROTATION_MS = 600_000  # unescalated, the expired credential is noticed and rotated by ops after 10 minutes


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
    malformed: bool
    times_out: bool  # the first write attempt times out
    timeout_committed: bool  # ... after the write did commit


@dataclass
class World:
    items: list[Item]
    rate_windows: list[tuple[int, int]]
    outage: tuple[int, int]
    auth_expires_at: int
    clock: Clock = field(default_factory=Clock)


def make_world(seed: int, n: int) -> World:
    rng = random.Random(seed)
    items = []
    for i in range(n):
        tenant = rng.choice(TENANTS)
        typo = rng.random() < 0.02
        times_out = rng.random() < 0.03
        items.append(Item(f"contact_{i:05d}", TYPO[tenant] if typo else tenant, tenant, rng.random() < 0.02, times_out, times_out and rng.random() < 0.5))
    span = n * CALL_MS  # roughly how long a clean run takes
    windows = sorted((start, start + rng.randint(2_000, 6_000)) for start in (rng.randint(0, span) for _ in range(max(2, n // 2500))))
    outage_start = rng.randint(span // 3, span // 2)
    return World(items, _merge(windows), (outage_start, outage_start + 20_000), rng.randint(span // 2, 3 * span // 4))


def _merge(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in windows:
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out
