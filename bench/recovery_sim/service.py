"""The enrichment service: a real HTTP server on loopback whose errors are built with the
generated SDK (`new_error`, `to_http`, which sets `x-should-retry` from the registry). It
deduplicates writes by Idempotency-Key, except the writes that fail with an unknown outcome, and
counts what each write did, so the report can tell completed, duplicated, wrong and lost items apart."""

from __future__ import annotations

import json
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bench.recovery_sim.world import ROTATION_MS, TENANTS, World


class Service:
    def __init__(self, world: World, sdk: Any, should_retry_header: bool = True) -> None:
        self.world, self.sdk = world, sdk
        self.should_retry_header = should_retry_header  # off: a server that does not send x-should-retry
        self.items = {item.id: item for item in world.items}
        self.applied: Counter[str] = Counter()  # item -> writes applied
        self.wrong_writes = 0  # writes replayed after an outcome that could not be deduplicated
        self.keys: dict[str, dict[str, Any]] = {}  # idempotency key -> stored response
        self.first_attempt_seen: set[str] = set()
        self.unsafe_committed: set[str] = set()  # items whose write committed outside the key store
        self.calls: list[int] = []  # virtual time of every call
        self.calls_in_announced_limit = 0
        self.announced_until: dict[str, int] = {}  # scope ("*" or a tenant) -> end of the last Retry-After
        self.serial = 0
        self.errors_sent: Counter[str] = Counter()
        self.lock = threading.Lock()

    def handle(self, item_id: str, body: dict[str, Any], key: str, auth: str) -> tuple[int, dict[str, str], str]:
        with self.lock:
            now = self.world.clock.now
            self.calls.append(now)
            tenant = str(body.get("tenant"))
            if now < max(self.announced_until.get("*", -1), self.announced_until.get(tenant, -1)):
                self.calls_in_announced_limit += 1
            self.serial += 1
            correlation = f"c-{self.serial:06x}"
            return self._answer(now, item_id, body, key, auth, correlation)

    def _error(self, code: str, correlation: str, limit: str | None = None, **fields: Any) -> tuple[int, dict[str, str], str]:
        self.errors_sent[code] += 1
        response = self.sdk.to_http(self.sdk.new_error(code, correlation, **fields))
        delay = fields.get("retry_after_ms")
        if delay is not None and limit is not None:
            self.announced_until[limit] = max(self.announced_until.get(limit, -1), self.world.clock.now + delay)
        headers = dict(response.headers)
        if "x-should-retry" not in {k.lower() for k in headers}:
            raise RuntimeError("the SDK's to_http must send x-should-retry (from the registry's retryable)")
        if not self.should_retry_header:
            headers = {k: v for k, v in headers.items() if k.lower() != "x-should-retry"}
        return response.status, headers, response.body

    def _answer(self, now: int, item_id: str, body: dict[str, Any], key: str, auth: str, correlation: str) -> tuple[int, dict[str, str], str]:
        world = self.world
        if world.outage[0] <= now < world.outage[1]:
            return self._error("SERVICE_UNAVAILABLE", correlation, "*", retry_after_ms=world.outage[1] - now)
        for start, end in world.rate_windows:
            if start <= now < end:
                return self._error("RATE_LIMITED", correlation, "*", retry_after_ms=end - now)
        tenant = body.get("tenant")
        for start, end, limited in world.tenant_limits:
            if limited == tenant and start <= now < end:
                return self._error("RATE_LIMITED", correlation, str(tenant), scope="request", retry_after_ms=end - now)
        if world.auth_expires_at <= now < world.auth_expires_at + ROTATION_MS and auth != self.token_after_expiry:
            return self._error("AUTH_EXPIRED", correlation, state="unchanged")
        if key in self.keys:  # a replay of a write that committed: answer as before, apply nothing
            return 200, {"Content-Type": "application/json"}, json.dumps(self.keys[key])
        item = self.items[item_id]
        if tenant not in TENANTS:
            suggestions = self.sdk.did_you_mean(str(tenant), list(TENANTS))
            return self._error("TENANT_UNKNOWN", correlation, searched={"tenant": str(tenant)}, did_you_mean=suggestions, state="unchanged")
        if item.malformed:
            return self._error("VALIDATION_FAILED", correlation, resource_id=item_id, accepted=["email", "name"], state="unchanged")
        if item.backend_down:
            return self._error("BACKEND_UNAVAILABLE", correlation, resource_id=item_id)
        if body.get("version") != item.true_version:
            return self._error("VERSION_CONFLICT", correlation, searched={"version": body.get("version")},
                               accepted=[str(item.true_version)], state="unchanged")
        if item.times_out and item_id not in self.first_attempt_seen:
            self.first_attempt_seen.add(item_id)
            if item.timeout_committed:
                self._apply(item_id, key)
            return self._error("UPSTREAM_TIMEOUT", correlation, state="unknown", safe_to_replay=True)
        if item.outcome_unknown and item_id not in self.first_attempt_seen:
            self.first_attempt_seen.add(item_id)
            self.applied[item_id] += 1  # committed downstream, where the idempotency key does not reach
            self.unsafe_committed.add(item_id)
            return self._error("WRITE_OUTCOME_UNKNOWN", correlation, state="unknown", safe_to_replay=False)
        if item_id in self.unsafe_committed:
            self.wrong_writes += 1  # the replay of a write that was not safe to replay
        result = self._apply(item_id, key)
        return 200, {"Content-Type": "application/json"}, json.dumps(result)

    def _apply(self, item_id: str, key: str) -> dict[str, Any]:
        self.applied[item_id] += 1
        result = {"id": item_id, "enriched": True}
        self.keys[key] = result
        return result

    token_after_expiry = "token-2"


def serve(service: Service) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # answer at once, not after a delayed ACK

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            item_id = self.path.rsplit("/", 2)[-2]
            status, headers, text = service.handle(item_id, body, self.headers.get("Idempotency-Key", ""), self.headers.get("Authorization", ""))
            data = text.encode("utf-8")
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
