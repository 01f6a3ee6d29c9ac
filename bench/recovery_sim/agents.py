"""The agents compared. Each enriches every row of its input through the service over HTTP on
loopback and keeps a report of the items it could not complete, with the reason. Every agent
gets the same `Operator` on a 401, and sees only its rows and the responses (the oracle alone
reads the world, to set the floor).

- errgen: `decide()` and the response, nothing else, for control flow.
- anthropic, openai: the real client libraries (`anthropic.Anthropic`, `openai.OpenAI`) with their
  default retry policy, pointed at the service with `base_url`, their sleep and clock virtual.
  A job around them catches `AuthenticationError` (escalates) and any other `APIStatusError`
  (reports the item).
- stripe-style: stripe-python's retry policy, re-implemented: `Stripe-Should-Retry`, else 409 and
  5xx; two retries; an automatic idempotency key per request, reused between its retries.
- plain: a careful hand-written job reading an ordinary error body (status, `code`, `message`):
  honours Retry-After, retries 5xx with backoff, re-reads on 409, reports every other 4xx.
- tenacity: the real library, as its documentation configures it, one key per item.
- oracle: knows every injected fault; its calls are the floor.
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import importlib
import json
import random
import socket
import types
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from bench.recovery_sim.service import Service
from bench.recovery_sim.world import BUSY_MS, CALL_MS, HUMAN_RENEWAL_MS, LOCK_MS, REGIONS, SHARD_MS, Clock, Row, World

MAX_CALLS_PER_ITEM = 60  # every loop is bounded, whatever the agent's policy
EPOCH_S = 1_800_000_000  # the virtual clock's wall time at 0, for Retry-After dates


@dataclass
class Report:
    completed: set[str] = field(default_factory=set)
    failed: list[dict[str, Any]] = field(default_factory=list)  # {item, resource_id, correlation_id, reason}

    def fail(self, item: str, reason: str, body: str = "", resource_id: str | None = None, correlation_id: str | None = None) -> None:
        payload = _json(body)
        self.failed.append({"item": item, "resource_id": resource_id or payload.get("resource_id"),
                            "correlation_id": correlation_id or payload.get("correlation_id"), "reason": reason})


class Operator:
    """The escalation path every agent gets, the same for all: a 401 reaches a human who renews
    the credential (HUMAN_RENEWAL_MS, once); any other escalation is queued for a human to
    reconcile later, and the job goes on. The operator knows its own credential; the agents don't."""

    def __init__(self, service: Service) -> None:
        self.service, self.clock = service, service.world.clock
        self.token = "token-1"
        self.renewed_at: int | None = None
        self.escalations: list[dict[str, Any]] = []

    def escalate(self, status: int, item: str, correlation_id: str | None = None) -> str | None:
        """The credential to go on with after a 401 (None: not a credential problem)."""
        self.escalations.append({"status": status, "item": item, "correlation_id": correlation_id})
        if status != 401:
            return None
        if not self.service.credential_valid(self.token, self.clock.now):
            self.clock.advance(HUMAN_RENEWAL_MS)
            self.token, self.renewed_at = "token-2", self.clock.now
        return self.token


@dataclass
class Env:
    """What an agent is given: its input rows, the service's port, the operator, the SDK and a
    way to sleep in virtual time."""

    rows: list[Row]
    port: int
    operator: Operator
    sdk: Any
    clock: Clock
    seed: int
    world: World | None = None  # the oracle's alone


class Client:
    """A plain HTTP/1.1 connection for the agents that are not a vendor SDK."""

    def __init__(self, env: Env) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", env.port)
        self.conn.connect()
        # Without this, Nagle's algorithm and delayed ACKs add 40 ms of real time to every call.
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.clock = env.clock
        self.token = "token-1"

    def enrich(self, item: str, tenant: str, version: int, key: str) -> tuple[int, dict[str, str], str]:
        body = json.dumps({"tenant": tenant, "version": version, "fields": ["email", "name"]})
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"}
        if key:
            headers["Idempotency-Key"] = key
        return self._call("POST", f"/contacts/{item}/enrich", body, headers)

    def read(self, item: str) -> tuple[int, dict[str, str], str]:
        return self._call("GET", f"/contacts/{item}", None, {"Authorization": f"Bearer {self.token}"})

    def _call(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode("utf-8")

    def sleep(self, ms: float) -> None:
        self.clock.advance(ms)


def _json(body: str) -> dict[str, Any]:
    try:
        payload = json.loads(body)
    except ValueError:
        return {}
    return payload if isinstance(payload, dict) else {}


# errgen


def unambiguous(suggestions: tuple[str, ...], row: Row) -> str | None:
    """The one suggestion the hint and the caller's own data agree on, or None: a guess between
    two tenants is a write to the wrong customer half the time."""
    if len(suggestions) == 1:
        return suggestions[0]
    narrowed = [s for s in suggestions if row.region is not None and REGIONS.get(s) == row.region]
    return narrowed[0] if len(narrowed) == 1 else None


def errgen_agent(env: Env, report: Report, guess: bool = False) -> None:
    """decide() and the response, nothing else, for control flow: every branch is an action and its
    hints, never a code or a status (the operator is handed the status, as for every agent).
    `guess` is the agent this benchmark used to run, kept to show what the counts catch: it takes
    `did_you_mean[0]` and writes `accepted[0]` without re-reading."""
    client, sdk = Client(env), env.sdk
    for row in env.rows:
        key, tenant, version, attempt, reread = str(uuid.uuid4()), row.tenant, row.version, 1, False
        for _ in range(MAX_CALLS_PER_ITEM):
            status, headers, body = client.read(row.id) if reread else client.enrich(row.id, tenant, version, key)
            if status == 200 and reread:
                version, reread = int(_json(body)["version"]), False
                continue
            if status == 200:
                report.completed.add(row.id)
                break
            decision = sdk.decide(sdk.from_http(status, headers, body, now_ms=0), attempt)
            action = decision.action.value
            if action in ("retry", "pause"):
                client.sleep(decision.delay_ms or 0)
                attempt += 1 if action == "retry" else 0
                continue
            if action == "fix" and "tenant" in decision.searched:
                choice = (decision.did_you_mean or (None,))[0] if guess else unambiguous(decision.did_you_mean, row)
                if choice is not None and choice != tenant:
                    tenant, attempt = choice, attempt + 1
                    continue
                reason = f"fix: tenant {tenant!r} unknown; suggestions {list(decision.did_you_mean)} do not single one out"
            elif action == "fix" and "version" in decision.searched and guess and decision.accepted:
                version, attempt = int(decision.accepted[0]), attempt + 1
                continue
            elif action == "fix" and "version" in decision.searched and not reread:
                reread, attempt = True, attempt + 1  # re-read: merge onto the current record, never write blind
                continue
            elif action == "escalate":
                token = env.operator.escalate(status, row.id, decision.correlation_id)
                if token is not None and token != client.token:
                    client.token = token
                    continue
                reason = f"escalate: {decision.reason.value}"
            else:
                reason = f"{action}: {decision.reason.value}"
            report.fail(row.id, f"{reason} ({decision.code})", resource_id=decision.resource_id or row.id,
                        correlation_id=decision.correlation_id)
            break
        else:
            report.fail(row.id, "gave up: call budget", resource_id=row.id)


# The real vendor clients


@contextlib.contextmanager
def virtual_time(module: Any, clock: Clock, seed: int) -> Iterator[None]:
    """Run a vendor client's retry loop in virtual time: its `time.sleep` advances the shared clock,
    its `time.time` reads it (for Retry-After dates), its jitter comes from a seeded generator."""
    real_time, real_random = module.time, module.random
    shim = types.SimpleNamespace(**{name: getattr(real_time, name) for name in dir(real_time) if not name.startswith("__")})
    shim.sleep = lambda seconds: clock.advance(seconds * 1000)
    shim.time = lambda: EPOCH_S + clock.now / 1000
    module.time, module.random = shim, random.Random(seed).random
    try:
        yield
    finally:
        module.time, module.random = real_time, real_random


def vendor_client(name: str, port: int, token: str) -> Any:
    lib = importlib.import_module(name)
    cls = lib.Anthropic if name == "anthropic" else lib.OpenAI
    return cls(api_key=token, base_url=f"http://127.0.0.1:{port}")


def vendor_agent(name: str) -> Callable[[Env, Report], None]:
    def agent(env: Env, report: Report) -> None:
        lib = importlib.import_module(name)
        client = vendor_client(name, env.port, "token-1")
        token = "token-1"
        with virtual_time(lib._base_client, env.clock, env.seed), client:
            for row in env.rows:
                for _ in range(3):  # the item, and again after the operator renews the credential
                    try:
                        client.post(f"/contacts/{row.id}/enrich", cast_to=object,
                                    body={"tenant": row.tenant, "version": row.version, "fields": ["email", "name"]})
                        report.completed.add(row.id)
                        break
                    except lib.AuthenticationError as exc:  # what a real job catches: hand it to the operator
                        renewed = env.operator.escalate(401, row.id, _json(exc.response.text).get("correlation_id"))
                        if renewed is not None and renewed != token:
                            token = renewed
                            client = client.with_options(api_key=token)
                            continue
                        report.fail(row.id, "http 401", exc.response.text)
                        break
                    except lib.APIStatusError as exc:
                        report.fail(row.id, f"http {exc.status_code}", exc.response.text)
                        break
                    except lib.APIConnectionError as exc:
                        report.fail(row.id, f"connection: {exc}")
                        break
    agent.__name__ = f"{name}_agent"
    return agent


# Stripe-style


class StripePolicy:
    """stripe-python's `HTTPClient._should_retry` and `_sleep_time_seconds` (stripe/_http_client.py): obey `Stripe-Should-Retry`, else retry 409 and 5xx
    (never 429 without the header); `max_network_retries` 2; sleep 0.5 s * 2^(n-1) capped at 5 s,
    jittered to [50%, 100%], at least 0.5 s, and at least a Retry-After of up to 60 s."""

    max_retries, initial_s, max_s, max_retry_after_s = 2, 0.5, 5.0, 60

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def should_retry(self, status: int, headers: dict[str, str]) -> bool:
        header = headers.get("stripe-should-retry")
        if header in ("true", "false"):
            return header == "true"
        return status == 409 or status >= 500

    def sleep_s(self, retries: int, headers: dict[str, str]) -> float:
        sleep = min(self.initial_s * 2 ** (retries - 1), self.max_s)
        sleep = max(self.initial_s, sleep * 0.5 * (1 + self.rng.uniform(0, 1)))
        try:
            retry_after = int(headers.get("retry-after", ""))  # whole seconds only, as stripe-python reads it
        except ValueError:
            retry_after = 0
        return max(sleep, retry_after) if retry_after <= self.max_retry_after_s else sleep


def stripe_agent(env: Env, report: Report) -> None:
    client, policy = Client(env), StripePolicy(random.Random(env.seed))
    for row in env.rows:
        for _ in range(3):  # the item, and again after the operator renews the credential
            key = f"stripe-python-retry-{uuid.uuid4()}"  # automatic: one per request, kept between its retries
            for retries in range(policy.max_retries + 1):
                status, headers, body = client.enrich(row.id, row.tenant, row.version, key)
                if status == 200 or retries == policy.max_retries or not policy.should_retry(status, headers):
                    break
                client.sleep(1000 * policy.sleep_s(retries + 1, headers))
            if status == 200:
                report.completed.add(row.id)
                break
            if status == 401:
                renewed = env.operator.escalate(401, row.id, _json(body).get("correlation_id"))
                if renewed is not None and renewed != client.token:
                    client.token = renewed
                    continue
            report.fail(row.id, f"http {status}", body)
            break


# A careful hand-written job on an ordinary error body


def _retry_after_ms(headers: dict[str, str]) -> float | None:
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        return float(raw) * 1000
    except ValueError:
        parsed = email.utils.parsedate_tz(raw)
        return None if parsed is None else max(0.0, 1000 * email.utils.mktime_tz(parsed))


def plain_agent(env: Env, report: Report) -> None:
    """What a careful engineer writes against an API whose errors are `{code, message}` or RFC 9457
    problem details, without a registry: the status decides, the body is logged."""
    client = Client(env)
    for row in env.rows:
        key, version, failures = str(uuid.uuid4()), row.version, 0
        for _ in range(MAX_CALLS_PER_ITEM):
            status, headers, body = client.enrich(row.id, row.tenant, version, key)
            if status == 200:
                report.completed.add(row.id)
                break
            if status == 401:
                renewed = env.operator.escalate(401, row.id, _json(body).get("correlation_id"))
                if renewed is not None and renewed != client.token:
                    client.token = renewed
                    continue
            failures += 1
            delay = _retry_after_ms(headers)
            retryable = status in (429, 503) or status >= 500 or status == 409
            if not retryable or failures > 5:
                payload = _json(body)
                report.fail(row.id, f"http {status} {payload.get('code') or payload.get('type')}: {payload.get('message') or payload.get('detail') or ''}", body)
                break
            client.sleep(delay if delay is not None else 500 * 2 ** (failures - 1))
            if status == 409:  # optimistic locking: re-read, then write on the current version
                read_status, _, read_body = client.read(row.id)
                if read_status == 200:
                    version = int(_json(read_body)["version"])
        else:
            report.fail(row.id, "gave up: call budget")


# tenacity


class HttpError(Exception):
    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"HTTP {status}")
        self.status, self.body = status, body


def tenacity_agent(env: Env, report: Report) -> None:
    import tenacity

    client = Client(env)
    for row in env.rows:
        key = str(uuid.uuid4())

        def call(row: Row = row, key: str = key) -> None:
            status, _, body = client.enrich(row.id, row.tenant, row.version, key)
            if status != 200:
                raise HttpError(status, body)

        for _ in range(3):  # the item, and again after the operator renews the credential
            retrying = tenacity.Retrying(
                stop=tenacity.stop_after_attempt(5), wait=tenacity.wait_exponential(multiplier=1, min=4, max=10),
                sleep=lambda seconds: client.sleep(seconds * 1000), reraise=True,
            )
            try:
                retrying(call)
                report.completed.add(row.id)
                break
            except HttpError as exc:
                if exc.status == 401:
                    renewed = env.operator.escalate(401, row.id, _json(exc.body).get("correlation_id"))
                    if renewed is not None and renewed != client.token:
                        client.token = renewed
                        continue
                report.fail(row.id, f"http {exc.status}", exc.body)
                break


# oracle


def oracle_agent(env: Env, report: Report) -> None:
    """Knows every injected fault: waits out limits and outages without calling, renews the
    credential in time, sends the right tenant, reads a changed record before writing it, waits
    out busy backends, locks and shard moves, and reports malformed rows and broken backends
    without a call. Its calls are the floor."""
    assert env.world is not None
    world, client = env.world, Client(env)
    for item in world.items:
        if not item.recoverable:
            report.fail(item.id, "known in advance", resource_id=item.id, correlation_id="known-in-advance")
            continue
        key = str(uuid.uuid4())
        if item.true_version != item.version:
            _oracle_wait(world, client, item.true_tenant, post=False)
            client.read(item.id)
        for _ in range(MAX_CALLS_PER_ITEM):
            _oracle_wait(world, client, item.true_tenant, post=True)
            status, _, _ = client.enrich(item.id, item.true_tenant, item.true_version, key)
            if status == 200 or (status == 500 and item.outcome_unknown):  # it knows this failed-looking write committed
                report.completed.add(item.id)
                break
            client.sleep(max(BUSY_MS if item.backend_busy else 0, SHARD_MS if item.shard_moving else 0, LOCK_MS if item.locked else 0))


def _oracle_wait(world: World, client: Client, tenant: str, post: bool) -> None:
    while True:
        now = world.clock.now + CALL_MS
        limits = world.rate_windows + [world.outage] + [(s, e) for s, e, t in world.tenant_limits if t == tenant and post]
        wait = max((end - now for start, end in limits if start <= now < end), default=0)
        if wait <= 0:
            break
        client.sleep(wait)
    if now >= world.auth_expires_at:
        client.token = "token-2"  # renewed before it expires


AGENTS: dict[str, Callable[[Env, Report], None]] = {
    "errgen": errgen_agent,
    "errgen-guess": lambda env, report: errgen_agent(env, report, guess=True),
    "anthropic": vendor_agent("anthropic"),
    "openai": vendor_agent("openai"),
    "stripe-style": stripe_agent,
    "plain": plain_agent,
    "tenacity": tenacity_agent,
    "oracle": oracle_agent,
}
