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

PROXY_MS = 1_000  # a proxy answers an item's calls with its own HTML 502 / 503 page this long after the first
BARE_429_MS = 1_000  # a gateway throttles an item's calls this long after the first (Retry-After: 1)
TIMEOUT_MS = 10_000  # a hung call: every client's read timeout (the same job setting for all), in virtual time

# Per-item fault rates, by the name `--fault NAME=RATE` takes (assumptions; docs/recovery.md gives
# for each what it models, its source and why the rate is what it is). Each maps to the Item field
# that carries it.
RATES = {"typo": 0.02, "upstream-timeout": 0.03, "stale": 0.02, "outcome-unknown": 0.005, "malformed": 0.02,
         "backend-down": 0.01, "backend-busy": 0.02, "registry-wrong": 0.005, "registry-stale": 0.01,
         "proxy-502": 0.01, "proxy-503": 0.005, "bare-429": 0.01, "reset-before": 0.005, "reset-after": 0.005,
         "timeout": 0.005}
FIELD = {"typo": "typo", "upstream-timeout": "times_out", "stale": "stale", "outcome-unknown": "outcome_unknown",
         "malformed": "malformed", "backend-down": "backend_down", "backend-busy": "backend_busy",
         "registry-wrong": "locked", "registry-stale": "shard_moving", "proxy-502": "proxy_502",
         "proxy-503": "proxy_503", "bare-429": "bare_429", "reset-before": "reset_before",
         "reset-after": "reset_after", "timeout": "hangs"}
# The episodes of a run (not per item): RATE scales how many there are; 0 turns one off. The outage
# and the credential expiry happen once or not at all (0 or 1).
EPISODES = {"rate-limit": 1.0, "tenant-quota": 1.0, "outage": 1.0, "credential-expiry": 1.0}
ONCE = ("outage", "credential-expiry")
# Names that set several faults at once.
GROUPS = {"reset": ("reset-before", "reset-after")}
NEVER = 10**12  # an episode turned off: it would start after any run ends


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
    timeout_committed: bool  # ... after the write did commit (also: a hung call that committed)
    outcome_unknown: bool  # the first write commits, then fails with a 500 that cannot be deduplicated
    backend_down: bool  # the item's storage backend answers 503 for the whole run
    backend_busy: bool  # the item's backend answers 503 (retryable) for BUSY_MS, then recovers
    locked: bool  # the record is locked for LOCK_MS: 409 LOCK_TIMEOUT, which the registry wrongly calls final
    shard_moving: bool  # 503 with SHARD_MOVING, a code newer than the client's registry, for SHARD_MS
    proxy_502: bool = False  # a proxy in front answers the item's calls with nginx's HTML 502 page for PROXY_MS
    proxy_503: bool = False  # ... with nginx's HTML 503 page (no Retry-After) for PROXY_MS
    bare_429: bool = False  # a gateway answers 429 {"message":"Too Many Requests"}, Retry-After: 1, for BARE_429_MS
    reset_before: bool = False  # the first write's connection is closed with no response, nothing applied
    reset_after: bool = False  # the first write is applied, then its connection is closed with no response
    hangs: bool = False  # the first write gets no answer: the client's read timeout (committed: timeout_committed)

    @property
    def recoverable(self) -> bool:
        """Whether an agent that knew everything would complete it."""
        return not (self.malformed or self.backend_down)

    def has(self, name: str) -> bool:
        """Whether the item carries the per-item fault `name` (a key of RATES)."""
        if name == "typo":
            return self.tenant != self.true_tenant
        if name == "stale":
            return self.version != self.true_version
        return bool(getattr(self, FIELD[name]))

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


def make_world(seed: int, n: int, rates: dict[str, float] | None = None) -> World:
    """The scenario of one seed. `rates` overrides the default rate of any per-item fault (RATES)
    or the scale of any episode (EPISODES), by name."""
    given = rates or {}
    per_item = {name: given.get(name, rate) for name, rate in RATES.items()}
    episodes = {name: given.get(name, scale) for name, scale in EPISODES.items()}
    rng = random.Random(seed)
    items = [_item(rng, i, per_item) for i in range(n)]
    # At least one item of every kind that is on, early in the run (before the outage and the
    # credential expiry) and with no other fault, so every seed exercises every fault on every agent.
    # Places and draws are the same whichever faults are on, so a sweep changes only what it names.
    head = max(len(RATES), n // 5)
    for index, kind in enumerate(RATES):
        at = (seed + index * (head // len(RATES))) % head  # distinct places, so no kind overwrites another
        forced = _item(rng, at, per_item, force=kind)
        if per_item[kind] > 0:
            items[at] = forced
    # Roughly how long a run takes: a call per item, and the waits of busy backends, shard moves and timeouts.
    span = n * (CALL_MS + 80)
    # One service-wide limit early (before the outage and the expiry, which stretch the clock past
    # `span` for a short run), the others anywhere.
    starts = [rng.randint(span // 10, span // 4)] + [rng.randint(0, span) for _ in range(max(1, n // 2500))]
    windows = sorted((start, start + rng.randint(2_000, 6_000)) for start in starts)
    tenant_limits = sorted((start, start + TENANT_LIMIT_MS, rng.choice(TENANTS)) for start in (rng.randint(0, span) for _ in range(max(3, n // 500))))
    outage_start = rng.randint(span // 3, span // 2)
    expires = rng.randint(span // 2, 3 * span // 4)
    # Every draw above is made whatever the episodes' scales, for the same reason.
    windows = windows[:round(len(windows) * episodes["rate-limit"])]
    tenant_limits = tenant_limits[:round(len(tenant_limits) * episodes["tenant-quota"])]
    outage = (outage_start, outage_start + OUTAGE_MS) if episodes["outage"] else (NEVER, NEVER)
    return World(items, _merge(windows), tenant_limits, outage, expires if episodes["credential-expiry"] else NEVER)


def _item(rng: random.Random, i: int, rates: dict[str, float], force: str = "") -> Item:
    """An item with random faults, or (force) with exactly the one named."""
    tenant = rng.choice(TENANTS)
    drawn = {kind: rng.random() < rate for kind, rate in rates.items()}
    committed, version, has_region = rng.random() < 0.5, rng.randint(1, 9), rng.random() < 0.5
    fault = {k: k == force for k in drawn} if force else drawn
    times_out, hangs = fault["upstream-timeout"], fault["timeout"]
    return Item(
        f"contact_{i:05d}", TYPO[tenant] if fault["typo"] else tenant, tenant, version, version + 1 if fault["stale"] else version,
        REGIONS[tenant] if has_region else None, fault["malformed"], times_out, (times_out or hangs) and committed,
        fault["outcome-unknown"] and not times_out, fault["backend-down"], fault["backend-busy"], fault["registry-wrong"],
        fault["registry-stale"], proxy_502=fault["proxy-502"], proxy_503=fault["proxy-503"], bare_429=fault["bare-429"],
        reset_before=fault["reset-before"], reset_after=fault["reset-after"], hangs=hangs and not times_out,
    )


def parse_rates(pairs: list[str]) -> dict[str, float]:
    """`--fault NAME=RATE` values: {name: rate}, a group name (reset) setting each of its faults.
    Raises ValueError with a message for the user on an unknown name or a bad rate."""
    rates: dict[str, float] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        for fault, rate in zip(*_named(name.strip(), [value] if sep else [])):
            rates[fault] = rate[0]
    return rates


def parse_sweep(text: str) -> tuple[str, list[float]]:
    """`--sweep NAME=R1,R2,...`: the name (a fault, an episode or a group) and its rates."""
    name, sep, values = text.partition("=")
    if not sep:
        raise ValueError(f"--sweep takes NAME=R1,R2,... (got {text!r})")
    names, rates = _named(name.strip(), values.split(","))
    return name.strip(), rates[0]


def _named(name: str, values: list[str]) -> tuple[list[str], list[list[float]]]:
    names = list(GROUPS.get(name, (name,)))
    known = [*RATES, *EPISODES, *GROUPS]
    if names[0] not in RATES and names[0] not in EPISODES:
        raise ValueError(f"unknown fault {name!r}; choose from {', '.join(known)}")
    if not values or not all(v.strip() for v in values):
        raise ValueError(f"fault {name!r} needs a rate: {name}=RATE")
    rates = []
    for value in values:
        try:
            rate = float(value)
        except ValueError:
            raise ValueError(f"the rate of {name!r} must be a number (got {value.strip()!r})") from None
        limit = 1 if name in RATES or name in GROUPS or name in ONCE else 100
        if not 0 <= rate <= limit or name in ONCE and rate not in (0, 1):
            allowed = "0 or 1" if name in ONCE else f"between 0 and {limit}"
            raise ValueError(f"the rate of {name!r} must be {allowed} (got {value.strip()})")
        rates.append(rate)
    return names, [rates] * len(names)


def _merge(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in windows:
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out
