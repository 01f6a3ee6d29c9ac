"""The agents compared. Each is a client with its own error handling inside the same job
(`job`): one idempotency key per item, sent on every write; on a 409 the job re-reads the record
and writes again on its version (up to three times); a 401 and any other escalation go to the same
`Operator`; everything else the client gives up on is reported. So the rows differ only in how the
client handles errors. Every agent sees only its rows and the responses (the oracle alone reads
the world, to set the floor).

- errgen: the generated SDK's public API (`read_http`, `decide_response`, `failure_of`,
  `decide_failure`, the decision's hint fields), nothing else, for control flow.
- anthropic, openai: the real client libraries (`anthropic.Anthropic`, `openai.OpenAI`) with their
  default retry policy, pointed at the service with `base_url`, their sleep and clock virtual.
- stripe-style: stripe-python's retry policy, re-implemented: `Stripe-Should-Retry`, else 409 and
  5xx; connection errors; two retries.
- plain: a careful hand-written client reading an ordinary error body (status, `code`, `message`):
  honours Retry-After, retries 429, 5xx and dropped connections with backoff.
- tenacity: the real library, as its documentation configures it, retrying any exception.
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
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol

from bench.recovery_sim.service import TIMEOUT_HEADER, Service
from bench.recovery_sim.world import (BARE_429_MS, BUSY_MS, CALL_MS, HUMAN_RENEWAL_MS, LOCK_MS, PROXY_MS, REGIONS, SHARD_MS,
                                      TIMEOUT_MS, Clock, Row, World)

MAX_CALLS_PER_ITEM = 60  # every loop is bounded, whatever the agent's policy
MAX_CONFLICTS = 3  # the job re-reads and writes again on a 409 at most this often per item
CONFLICT_WAITS_MS = (0, 500, 1_000)  # before each re-read: at once, then 0.5 s, then 1 s
TIMEOUT_S = TIMEOUT_MS / 1000  # every client's read timeout (only the vendor clients take it as an option)
TRANSPORT_ERRORS = (OSError, http.client.HTTPException)  # what http.client raises on a dropped connection
EPOCH_S = 1_800_000_000  # the virtual clock's wall time at 0, for Retry-After dates


@dataclass
class Outcome:
    """What a client's error handling hands back to the job for one write or read."""

    kind: str  # done, conflict (re-read), retarget (the hint named the tenant), escalate, failed
    reason: str = ""
    status: int = 0
    body: str = ""
    version: int | None = None  # done (a read): the record's version; retarget: the version to write
    tenant: str | None = None  # retarget: the tenant to write to
    resource_id: str | None = None
    correlation_id: str | None = None


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
    """A plain HTTP/1.1 connection for the agents that are not a vendor SDK. A dropped connection
    raises what http.client raises (RemoteDisconnected, a ConnectionResetError), a read timeout
    TimeoutError, as `socket.timeout` does; either way the next call opens a new connection."""

    def __init__(self, env: Env) -> None:
        self.port = env.port
        self._connect()
        self.clock = env.clock
        self.token = "token-1"

    def _connect(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port)
        self.conn.connect()
        # Without this, Nagle's algorithm and delayed ACKs add 40 ms of real time to every call.
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def enrich(self, item: str, tenant: str, version: int, key: str) -> tuple[int, dict[str, str], str]:
        body = json.dumps({"tenant": tenant, "version": version, "fields": ["email", "name"]})
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"}
        if key:
            headers["Idempotency-Key"] = key
        return self._call("POST", f"/contacts/{item}/enrich", body, headers)

    def read(self, item: str) -> tuple[int, dict[str, str], str]:
        return self._call("GET", f"/contacts/{item}", None, {"Authorization": f"Bearer {self.token}"})

    def _call(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode("utf-8")
        except TRANSPORT_ERRORS:
            self.conn.close()
            self._connect()
            raise
        got = {k.lower(): v for k, v in response.getheaders()}
        if TIMEOUT_HEADER.lower() in got:  # the service hung for the read timeout (virtual): time out
            self.conn.close()
            self._connect()
            raise TimeoutError("timed out")
        return response.status, got, text

    def sleep(self, ms: float) -> None:
        self.clock.advance(ms)


def _json(body: str) -> dict[str, Any]:
    try:
        payload = json.loads(body)
    except ValueError:
        return {}
    return payload if isinstance(payload, dict) else {}


def _version(body: str) -> int | None:
    version = _json(body).get("version")
    return version if isinstance(version, int) else None


# The job: the same for every agent


class Handler(Protocol):
    """An agent's client and its error handling: one write or read, retried as the agent's policy
    says, and what became of it."""

    def write(self, row: Row, tenant: str, version: int, key: str) -> Outcome: ...

    def read(self, row: Row) -> Outcome: ...

    def renew(self, token: str) -> bool:
        """Go on with a new credential; False when it is the one already in use."""
        ...


def job(env: Env, report: Report, handler: Handler) -> None:
    """Enrich every row: one idempotency key per item, the same for every agent; on a conflict
    re-read and write again on the current version; a renewed credential resumes the item; any
    other end is reported with the client's reason."""
    for row in env.rows:
        key, tenant, version, conflicts = f"job-{row.id}", row.tenant, row.version, 0
        for _ in range(MAX_CALLS_PER_ITEM):
            outcome = handler.write(row, tenant, version, key)
            if outcome.kind == "done":
                report.completed.add(row.id)
                break
            if outcome.kind == "conflict" and conflicts < MAX_CONFLICTS:
                env.clock.advance(CONFLICT_WAITS_MS[conflicts])
                conflicts += 1
                outcome = handler.read(row)
                if outcome.kind == "done" and outcome.version is not None:
                    version = outcome.version
                    continue
            if outcome.kind == "retarget":
                tenant, version = outcome.tenant or tenant, outcome.version if outcome.version is not None else version
                continue
            if outcome.kind == "escalate":
                token = env.operator.escalate(outcome.status, row.id, outcome.correlation_id)
                if token is not None and handler.renew(token):
                    continue
            report.fail(row.id, outcome.reason or outcome.kind, outcome.body, outcome.resource_id, outcome.correlation_id)
            break
        else:
            report.fail(row.id, "gave up: call budget", resource_id=row.id)


# errgen


def unambiguous(suggestions: tuple[str, ...], row: Row) -> str | None:
    """The one suggestion the hint and the caller's own data agree on, or None: a guess between
    two tenants is a write to the wrong customer half the time."""
    if len(suggestions) == 1:
        return suggestions[0]
    narrowed = [s for s in suggestions if row.region is not None and REGIONS.get(s) == row.region]
    return narrowed[0] if len(narrowed) == 1 else None


class ErrgenHandler:
    """The SDK's public API, nothing else, for control flow: every branch is an action and its
    hints, never a code or a status (the operator is handed the status, as for every agent).
    A response goes through `read_http` and `decide_response` (so a proxy's HTML page or a bare
    429 falls back on its status), a dropped call through `failure_of` and `decide_failure`,
    idempotent because every call is a GET or carries the job's key.
    `guess` is the agent this benchmark used to run, kept to show what the counts catch: it takes
    `did_you_mean[0]` and writes `accepted[0]` without re-reading."""

    def __init__(self, env: Env, guess: bool = False) -> None:
        self.client, self.api, self.guess = Client(env), env.sdk, guess

    def renew(self, token: str) -> bool:
        renewed, self.client.token = token != self.client.token, token
        return renewed

    def write(self, row: Row, tenant: str, version: int, key: str) -> Outcome:
        return self._call(row, tenant, lambda: self.client.enrich(row.id, tenant, version, key))

    def read(self, row: Row) -> Outcome:
        return self._call(row, row.tenant, lambda: self.client.read(row.id))

    def _call(self, row: Row, tenant: str, send: Callable[[], tuple[int, dict[str, str], str]]) -> Outcome:
        api, attempt, status = self.api, 1, 0
        for _ in range(MAX_CALLS_PER_ITEM):
            try:
                status, headers, body = send()
            except TRANSPORT_ERRORS as error:
                status, decision = 0, api.decide_failure(api.failure_of(error) or "reset", True, attempt)
            else:
                reading = api.read_http(status, headers, body, now_ms=EPOCH_S * 1000 + self.client.clock.now)
                if not reading.error:  # the SDK's reading says what is an error, not a status list here
                    return Outcome("done", version=_version(body))
                decision = api.decide_response(reading, attempt)
            action = decision.action.value
            if action in ("retry", "pause"):
                self.client.sleep(decision.delay_ms or 0)
                attempt += 1 if action == "retry" else 0
                continue
            return self._outcome(row, tenant, status, decision)
        return Outcome("failed", "gave up: call budget", resource_id=row.id)

    def _outcome(self, row: Row, tenant: str, status: int, decision: Any) -> Outcome:
        action, ids = decision.action.value, {"resource_id": decision.resource_id or row.id, "correlation_id": decision.correlation_id}
        if action == "fix" and "version" in decision.searched:
            if self.guess and decision.accepted:
                return Outcome("retarget", version=int(decision.accepted[0]))
            return Outcome("conflict", f"fix: version ({decision.code})", status, **ids)
        if action == "fix" and "tenant" in decision.searched:
            choice = (decision.did_you_mean or (None,))[0] if self.guess else unambiguous(decision.did_you_mean, row)
            if choice is not None and choice != tenant:
                return Outcome("retarget", tenant=choice)
            reason = f"fix: tenant {tenant!r} unknown; suggestions {list(decision.did_you_mean)} do not single one out"
            return Outcome("failed", f"{reason} ({decision.code})", status, **ids)
        kind = "escalate" if action == "escalate" else "failed"
        return Outcome(kind, f"{action}: {decision.reason.value} ({decision.code})", status, **ids)


def errgen_agent(env: Env, report: Report, guess: bool = False) -> None:
    job(env, report, ErrgenHandler(env, guess))


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


def sim_transport() -> Any:
    """The vendor clients' network layer (httpx2, which both use): the library's own transport,
    except that the service's marker of a hung call becomes httpx's own ReadTimeout, as the real
    read timeout would raise it (in virtual time)."""
    import httpx2

    class SimTransport(httpx2.HTTPTransport):
        def handle_request(self, request: Any) -> Any:
            response = super().handle_request(request)
            if TIMEOUT_HEADER in response.headers:
                response.read()
                response.close()
                raise httpx2.ReadTimeout("timed out", request=request)
            return response

    return SimTransport()


def vendor_client(name: str, port: int, token: str) -> Any:
    lib = importlib.import_module(name)
    cls = lib.Anthropic if name == "anthropic" else lib.OpenAI
    return cls(api_key=token, base_url=f"http://127.0.0.1:{port}", timeout=TIMEOUT_S,
               http_client=lib.DefaultHttpxClient(transport=sim_transport(), timeout=TIMEOUT_S))


class VendorHandler:
    """A real client library: its own retries, then its exception types mapped to the job's outcomes."""

    def __init__(self, name: str, env: Env) -> None:
        self.lib = importlib.import_module(name)
        self.client, self.token = vendor_client(name, env.port, "token-1"), "token-1"

    def renew(self, token: str) -> bool:
        if token == self.token:
            return False
        self.token, self.client = token, self.client.with_options(api_key=token)
        return True

    def write(self, row: Row, tenant: str, version: int, key: str) -> Outcome:
        body = {"tenant": tenant, "version": version, "fields": ["email", "name"]}
        return self._call(lambda: self.client.post(f"/contacts/{row.id}/enrich", cast_to=object, body=body,
                                                   options={"headers": {"Idempotency-Key": key}}))

    def read(self, row: Row) -> Outcome:
        return self._call(lambda: self.client.get(f"/contacts/{row.id}", cast_to=object))

    def _call(self, send: Callable[[], Any]) -> Outcome:
        lib = self.lib
        try:
            result = send()
        except lib.AuthenticationError as exc:
            return Outcome("escalate", "http 401", 401, exc.response.text, correlation_id=_json(exc.response.text).get("correlation_id"))
        except lib.APIStatusError as exc:
            kind = "conflict" if exc.status_code == 409 else "failed"
            return Outcome(kind, f"http {exc.status_code}", exc.status_code, exc.response.text)
        except lib.APIConnectionError as exc:  # APITimeoutError too
            return Outcome("failed", f"connection: {type(exc).__name__}")
        version = result.get("version") if isinstance(result, dict) else None
        return Outcome("done", version=version if isinstance(version, int) else None)


def vendor_agent(name: str) -> Callable[[Env, Report], None]:
    def agent(env: Env, report: Report) -> None:
        handler = VendorHandler(name, env)
        with virtual_time(handler.lib._base_client, env.clock, env.seed), handler.client:
            job(env, report, handler)
    agent.__name__ = f"{name}_agent"
    return agent


# Stripe-style


class StripePolicy:
    """stripe-python's `HTTPClient._should_retry` and `_sleep_time_seconds` (stripe/_http_client.py): obey `Stripe-Should-Retry`, else retry 409 and 5xx
    (never 429 without the header), and a connection error; `max_network_retries` 2; sleep 0.5 s * 2^(n-1) capped at 5 s,
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


class StatusHandler:
    """The base of the clients whose error handling is the status code (stripe-style, plain,
    tenacity): `_send` is the policy; the status it ends on decides the outcome."""

    def __init__(self, env: Env) -> None:
        self.client = Client(env)

    def renew(self, token: str) -> bool:
        renewed, self.client.token = token != self.client.token, token
        return renewed

    def write(self, row: Row, tenant: str, version: int, key: str) -> Outcome:
        return self._outcome(self._send(lambda: self.client.enrich(row.id, tenant, version, key)))

    def read(self, row: Row) -> Outcome:
        return self._outcome(self._send(lambda: self.client.read(row.id)))

    def _send(self, call: Callable[[], tuple[int, dict[str, str], str]]) -> tuple[int, dict[str, str], str] | Exception:
        raise NotImplementedError

    def _outcome(self, answer: tuple[int, dict[str, str], str] | Exception) -> Outcome:
        if isinstance(answer, Exception):
            return Outcome("failed", f"connection: {type(answer).__name__}")
        status, _, body = answer
        if status == 200:
            return Outcome("done", version=_version(body))
        if status == 401:
            return Outcome("escalate", "http 401", 401, body, correlation_id=_json(body).get("correlation_id"))
        payload = _json(body)
        detail = f"{payload.get('code') or payload.get('type')}: {payload.get('message') or payload.get('detail') or ''}"
        return Outcome("conflict" if status == 409 else "failed", f"http {status} {detail}", status, body)


class StripeHandler(StatusHandler):
    def __init__(self, env: Env) -> None:
        super().__init__(env)
        self.policy = StripePolicy(random.Random(env.seed))

    def _send(self, call: Callable[[], tuple[int, dict[str, str], str]]) -> tuple[int, dict[str, str], str] | Exception:
        answer: tuple[int, dict[str, str], str] | Exception = ValueError("no call")
        headers: dict[str, str] = {}
        for retries in range(self.policy.max_retries + 1):
            try:
                answer = call()
            except TRANSPORT_ERRORS as error:  # stripe-python retries a connection error or a timeout
                answer, headers, retry = error, {}, True
            else:
                status, headers, _ = answer
                retry = status != 200 and self.policy.should_retry(status, headers)
            if not retry or retries == self.policy.max_retries:
                break
            self.client.sleep(1000 * self.policy.sleep_s(retries + 1, headers))
        return answer


def stripe_agent(env: Env, report: Report) -> None:
    job(env, report, StripeHandler(env))


# A careful hand-written client on an ordinary error body


def _retry_after_ms(headers: dict[str, str]) -> float | None:
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        return float(raw) * 1000
    except ValueError:
        parsed = email.utils.parsedate_tz(raw)
        return None if parsed is None else max(0.0, 1000 * email.utils.mktime_tz(parsed))


class PlainHandler(StatusHandler):
    """What a careful engineer writes against an API whose errors are `{code, message}` or RFC 9457
    problem details, without a registry: the status decides, the body is logged. Retry-After when
    sent, else 0.5 s doubling; 429 and 5xx retried, and a dropped connection (the job's key makes
    the replay safe); at most five retries."""

    def _send(self, call: Callable[[], tuple[int, dict[str, str], str]]) -> tuple[int, dict[str, str], str] | Exception:
        answer: tuple[int, dict[str, str], str] | Exception = ValueError("no call")
        for failures in range(1, 7):
            try:
                answer = call()
            except TRANSPORT_ERRORS as error:
                answer, delay = error, None
            else:
                status, headers, _ = answer
                if status == 200 or not (status == 429 or status >= 500):
                    return answer
                delay = _retry_after_ms(headers)
            if failures > 5:
                break
            self.client.sleep(delay if delay is not None else 500 * 2 ** (failures - 1))
        return answer


def plain_agent(env: Env, report: Report) -> None:
    job(env, report, PlainHandler(env))


# tenacity


class HttpError(Exception):
    def __init__(self, status: int, headers: dict[str, str], body: str) -> None:
        super().__init__(f"HTTP {status}")
        self.answer = (status, headers, body)


class TenacityHandler(StatusHandler):
    """The real library as its documentation configures it: any exception retried (an error
    status raised as one), five attempts, exponential waits of 4-10 s."""

    def _send(self, call: Callable[[], tuple[int, dict[str, str], str]]) -> tuple[int, dict[str, str], str] | Exception:
        import tenacity

        def attempt() -> tuple[int, dict[str, str], str]:
            answer = call()
            if answer[0] != 200:
                raise HttpError(*answer)
            return answer

        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(5), wait=tenacity.wait_exponential(multiplier=1, min=4, max=10),
            sleep=lambda seconds: self.client.sleep(seconds * 1000), reraise=True,
        )
        try:
            return retrying(attempt)
        except HttpError as error:
            return error.answer
        except TRANSPORT_ERRORS as error:
            return error


def tenacity_agent(env: Env, report: Report) -> None:
    job(env, report, TenacityHandler(env))


# oracle


def oracle_agent(env: Env, report: Report) -> None:
    """Knows every injected fault: waits out limits and outages without calling, renews the
    credential in time, sends the right tenant, reads a changed record before writing it, waits
    out busy backends, locks, shard moves, proxies and gateways, knows which dropped writes were
    applied, and reports malformed rows and broken backends without a call. Its calls are the floor."""
    assert env.world is not None
    world, client = env.world, Client(env)
    for item in world.items:
        if not item.recoverable:
            report.fail(item.id, "known in advance", resource_id=item.id, correlation_id="known-in-advance")
            continue
        key = f"job-{item.id}"
        if item.true_version != item.version:
            _oracle_wait(world, client, item.true_tenant, post=False)
            client.read(item.id)
        waits = [(BUSY_MS, item.backend_busy), (SHARD_MS, item.shard_moving), (LOCK_MS, item.locked),
                 (PROXY_MS, item.proxy_502 or item.proxy_503), (BARE_429_MS, item.bare_429)]
        # The calls it knows will drop, in the order the service drops them, and whether each was applied.
        drops = [applied for on, applied in ((item.reset_before, False), (item.reset_after, True),
                                             (item.hangs and not item.reset_after, item.timeout_committed)) if on]
        for _ in range(MAX_CALLS_PER_ITEM):
            _oracle_wait(world, client, item.true_tenant, post=True)
            try:
                status, _, _ = client.enrich(item.id, item.true_tenant, item.true_version, key)
            except TRANSPORT_ERRORS:
                if drops.pop(0):
                    report.completed.add(item.id)
                    break
                continue
            if status == 200 or (status == 500 and item.outcome_unknown):  # it knows this failed-looking write committed
                report.completed.add(item.id)
                break
            client.sleep(max(ms if on else 0 for ms, on in waits))


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
