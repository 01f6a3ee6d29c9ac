"""The agents compared. Each enriches every item through the service over HTTP and keeps a
report of the items it could not complete.

- errgen: `decide()` and nothing else for control flow.
- sdk-retry: the retry policy built into the official API client SDKs (anthropic 2.14.0's
  `_base_client`, shared by the Stainless-generated OpenAI SDK): retry on `x-should-retry: true`,
  never on `false`, else on 408, 409, 429 and 5xx; 2 retries; the server's `retry-after-ms` /
  `Retry-After` when positive, else min(0.5 s * 2^n, 8 s) times a jitter in (0.75, 1]; one
  idempotency key for a call and its retries. The agent loop around it records an item as failed
  after the last retry and goes on.
- tenacity: the real library, as its documentation configures it: `stop_after_attempt(5)`,
  `wait_exponential(multiplier=1, min=4, max=10)`, retrying any failed call, one key per item.
- oracle: knows every injected fault; its calls are the floor.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable

from bench.recovery_sim.world import CALL_MS, HUMAN_RENEWAL_MS, World


@dataclass
class Report:
    completed: set[str] = field(default_factory=set)
    failed: list[dict[str, Any]] = field(default_factory=list)  # {item, resource_id, correlation_id, reason}
    escalations: list[dict[str, Any]] = field(default_factory=list)


class Client:
    def __init__(self, port: int, world: World, sdk: Any) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.conn.connect()
        # Without this, Nagle's algorithm and delayed ACKs add 40 ms of real time to every call.
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.world, self.sdk = world, sdk
        self.token = "token-1"

    def enrich(self, item_id: str, tenant: str, version: int, key: str) -> tuple[int, dict[str, str], str]:
        self.world.clock.advance(CALL_MS)
        body = json.dumps({"tenant": tenant, "version": version, "fields": ["email", "name"]})
        self.conn.request("POST", f"/contacts/{item_id}/enrich", body=body,
                          headers={"Content-Type": "application/json", "Idempotency-Key": key, "Authorization": self.token})
        response = self.conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode("utf-8")

    def sleep(self, ms: float) -> None:
        self.world.clock.advance(int(ms))


def _failed(report: Report, item: Any, body: str, reason: str) -> None:
    try:
        payload = json.loads(body)
    except ValueError:
        payload = {}
    payload = payload if isinstance(payload, dict) else {}
    report.failed.append({"item": item.id, "resource_id": payload.get("resource_id"),
                          "correlation_id": payload.get("correlation_id"), "reason": reason})


def errgen_agent(client: Client, world: World, report: Report) -> None:
    """decide() and nothing else for control flow: every branch is an action and its hints, never a code."""
    sdk = client.sdk
    for item in world.items:
        key, tenant, version, attempt = str(uuid.uuid4()), item.tenant, item.version, 1  # one key per item
        while True:
            status, headers, body = client.enrich(item.id, tenant, version, key)
            if status == 200:
                report.completed.add(item.id)
                break
            decision = sdk.decide(sdk.from_http(status, headers, body, now_ms=0), attempt)
            action = decision.action.value
            if action in ("retry", "pause"):
                client.sleep(decision.delay_ms)
                attempt += 1 if action == "retry" else 0
                continue
            if action == "fix" and decision.did_you_mean:  # a near miss among the caller's own values
                tenant, attempt = decision.did_you_mean[0], attempt + 1
                continue
            if action == "fix" and "version" in decision.searched and decision.accepted:  # re-read: the current version
                version, attempt = int(decision.accepted[0]), attempt + 1
                continue
            if action == "escalate" and client.token != "token-2" and world.auth_expires_at <= world.clock.now:
                # The human the escalation reaches renews the credential; nothing was written, so go on.
                report.escalations.append({"item": item.id, "correlation_id": decision.correlation_id, "action": "escalate"})
                client.sleep(HUMAN_RENEWAL_MS)
                client.token = "token-2"
                continue
            report.failed.append({"item": item.id, "resource_id": decision.resource_id or item.id,
                                  "correlation_id": decision.correlation_id, "reason": f"{action}:{decision.reason}"})
            break


class SdkRetryPolicy:
    """anthropic 2.14.0 `_should_retry` and `_calculate_retry_timeout`, on plain headers."""

    max_retries = 2
    initial_delay_s = 0.5
    max_delay_s = 8.0

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def should_retry(self, status: int, headers: dict[str, str]) -> bool:
        header = headers.get("x-should-retry")
        if header == "true":
            return True
        if header == "false":
            return False
        return status in (408, 409, 429) or status >= 500

    def timeout_s(self, retries_taken: int, headers: dict[str, str], now_s: float) -> float:
        retry_after = self._retry_after_s(headers, now_s)
        if retry_after is not None and retry_after > 0:
            return min(retry_after, 4_294_967.0)
        sleep = min(self.initial_delay_s * 2.0 ** min(retries_taken, 1000), self.max_delay_s)
        return sleep * (1 - 0.25 * self.rng.random())

    @staticmethod
    def _retry_after_s(headers: dict[str, str], now_s: float) -> float | None:
        try:
            return float(headers.get("retry-after-ms")) / 1000  # type: ignore[arg-type]
        except (TypeError, ValueError):
            pass
        raw = headers.get("retry-after")
        try:
            return float(raw)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            pass
        parsed = email.utils.parsedate_tz(raw) if raw else None
        return None if parsed is None else float(email.utils.mktime_tz(parsed) - now_s)


def sdk_retry_agent(client: Client, world: World, report: Report) -> None:
    policy = SdkRetryPolicy(random.Random(len(world.items)))
    for item in world.items:
        key = str(uuid.uuid4())  # the SDK's idempotency key, reused between a call's retries
        for retries_taken in range(policy.max_retries + 1):
            status, headers, body = client.enrich(item.id, item.tenant, item.version, key)
            if status == 200:
                report.completed.add(item.id)
                break
            if retries_taken == policy.max_retries or not policy.should_retry(status, headers):
                _failed(report, item, body, f"http {status}")
                break
            client.sleep(1000 * policy.timeout_s(retries_taken, headers, world.clock.now / 1000))


class HttpError(Exception):
    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"HTTP {status}")
        self.status, self.body = status, body


def tenacity_agent(client: Client, world: World, report: Report) -> None:
    import tenacity

    for item in world.items:
        key = str(uuid.uuid4())

        def call(item: Any = item, key: str = key) -> None:
            status, _, body = client.enrich(item.id, item.tenant, item.version, key)
            if status != 200:
                raise HttpError(status, body)

        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(5), wait=tenacity.wait_exponential(multiplier=1, min=4, max=10),
            sleep=lambda seconds: client.sleep(seconds * 1000), reraise=True,
        )
        try:
            retrying(call)
            report.completed.add(item.id)
        except HttpError as exc:
            _failed(report, item, exc.body, f"http {exc.status}")


def oracle_agent(client: Client, world: World, report: Report) -> None:
    """Knows every injected fault: waits out limits and outages without calling, renews the
    credential in time, sends the right tenant and version, and reports malformed rows and broken
    backends without a call. Its calls are the floor."""
    for item in world.items:
        if item.malformed or item.backend_down:
            report.failed.append({"item": item.id, "resource_id": item.id, "correlation_id": "known-in-advance", "reason": "known"})
            continue
        key = str(uuid.uuid4())
        while True:
            now = world.clock.now + CALL_MS
            limits = world.rate_windows + [world.outage] + [(s, e) for s, e, t in world.tenant_limits if t == item.true_tenant]
            wait = max((end - now for start, end in limits if start <= now < end), default=0)
            if wait > 0:
                client.sleep(wait)
                continue
            if now >= world.auth_expires_at:
                client.token = "token-2"  # renewed before it expires
            status, _, _ = client.enrich(item.id, item.true_tenant, item.true_version, key)
            if status == 200 or item.outcome_unknown:  # it knows the failed-looking write committed
                report.completed.add(item.id)
                break


AGENTS: dict[str, Callable[[Client, World, Report], None]] = {
    "errgen": errgen_agent, "sdk-retry": sdk_retry_agent, "tenacity": tenacity_agent, "oracle": oracle_agent,
}
