"""The agents compared. Each enriches every item through the service over HTTP and keeps a
report of the items it could not complete."""

from __future__ import annotations

import http.client
import json
import socket
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable

from bench.recovery_sim.world import CALL_MS, HUMAN_RENEWAL_MS, OPERATOR_RESTART_MS, World


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

    def enrich(self, item_id: str, tenant: str, key: str) -> tuple[int, dict[str, str], str]:
        self.world.clock.advance(CALL_MS)
        body = json.dumps({"tenant": tenant, "fields": ["email", "name"]})
        self.conn.request("POST", f"/contacts/{item_id}/enrich", body=body,
                          headers={"Content-Type": "application/json", "Idempotency-Key": key, "Authorization": self.token})
        response = self.conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode("utf-8")

    def sleep(self, ms: int) -> None:
        self.world.clock.advance(ms)


def errgen_agent(client: Client, world: World, report: Report) -> None:
    """decide() and nothing else for control flow: every branch is an action, never a code."""
    sdk = client.sdk
    for item in world.items:
        key, tenant, attempt = str(uuid.uuid4()), item.tenant, 1  # one idempotency key per item, reused on every replay
        while True:
            status, headers, body = client.enrich(item.id, tenant, key)
            if status == 200:
                report.completed.add(item.id)
                break
            decision = sdk.decide(sdk.from_http(status, headers, body, now_ms=0), attempt)
            action = decision.action.value
            if action in ("retry", "pause"):
                client.sleep(decision.delay_ms)
                attempt += 1 if action == "retry" else 0
                continue
            if action == "fix" and decision.did_you_mean:
                tenant, attempt = decision.did_you_mean[0], attempt + 1
                continue
            if action == "stop":  # report upstream; the operator restarts the job after the outage
                report.escalations.append({"item": item.id, "correlation_id": decision.correlation_id, "action": "stop"})
                client.sleep(max(world.outage[1] - world.clock.now, 0) + OPERATOR_RESTART_MS)
                continue
            if action == "escalate" and decision.code == "AUTH_EXPIRED" and client.token != "token-2":
                report.escalations.append({"item": item.id, "correlation_id": decision.correlation_id, "action": "escalate"})
                client.sleep(HUMAN_RENEWAL_MS)  # the human renews the credential, then the job continues
                client.token = "token-2"
                continue
            report.failed.append({"item": item.id, "resource_id": decision.resource_id or item.id,
                                  "correlation_id": decision.correlation_id, "reason": f"{action}:{decision.reason}"})
            break


def naive_agent(client: Client, world: World, report: Report) -> None:
    """Retries every failure up to 5 times, 1 s apart, with a new idempotency key each time."""
    for item in world.items:
        for _ in range(5):
            status, _, _ = client.enrich(item.id, item.tenant, str(uuid.uuid4()))
            if status == 200:
                report.completed.add(item.id)
                break
            client.sleep(1000)


def cautious_agent(client: Client, world: World, report: Report) -> None:
    """Stops the whole job at the first error (and says which one)."""
    for item in world.items:
        status, _, body = client.enrich(item.id, item.tenant, str(uuid.uuid4()))
        if status != 200:
            payload = json.loads(body)
            report.failed.append({"item": item.id, "resource_id": payload.get("resource_id"), "correlation_id": payload.get("correlation_id"), "reason": "stopped"})
            return
        report.completed.add(item.id)


def oracle_agent(client: Client, world: World, report: Report) -> None:
    """Knows every injected fault: waits out limits and outages without calling, renews the
    credential in time, fixes typos and reports malformed rows without a call. Its calls are the floor."""
    for item in world.items:
        if item.malformed:
            report.failed.append({"item": item.id, "resource_id": item.id, "correlation_id": "known-in-advance", "reason": "malformed"})
            continue
        key = str(uuid.uuid4())
        while True:
            now = world.clock.now + CALL_MS
            wait = next((end - now for start, end in world.rate_windows + [world.outage] if start <= now < end), 0)
            if wait:
                client.sleep(wait)
                continue
            if now >= world.auth_expires_at:
                client.token = "token-2"  # renewed before it expires
            status, _, _ = client.enrich(item.id, item.true_tenant, key)
            if status == 200:
                report.completed.add(item.id)
                break


AGENTS: dict[str, Callable[[Client, World, Report], None]] = {
    "errgen": errgen_agent, "naive": naive_agent, "cautious": cautious_agent, "oracle": oracle_agent,
}
