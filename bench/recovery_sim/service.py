"""The enrichment service: a real HTTP server on loopback whose errors are built with the
generated SDK (`new_error`, `to_http`). It deduplicates writes by Idempotency-Key and counts what
each write did, so the report can tell completed, duplicated and lost items apart."""

from __future__ import annotations

import json
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bench.recovery_sim.world import ROTATION_MS, TENANTS, World


class Service:
    def __init__(self, world: World, sdk: Any) -> None:
        self.world, self.sdk = world, sdk
        self.items = {item.id: item for item in world.items}
        self.applied: Counter[str] = Counter()  # item -> writes applied
        self.keys: dict[str, dict[str, Any]] = {}  # idempotency key -> stored response
        self.first_attempt_seen: set[str] = set()
        self.token = "token-1"
        self.calls: list[int] = []  # virtual time of every call
        self.calls_in_announced_limit = 0
        self.announced_until = -1  # the end of the last Retry-After this client was told
        self.serial = 0
        self.errors_sent: Counter[str] = Counter()
        self.lock = threading.Lock()

    def handle(self, item_id: str, body: dict[str, Any], key: str, auth: str) -> tuple[int, dict[str, str], str]:
        with self.lock:
            now = self.world.clock.now
            self.calls.append(now)
            if now < self.announced_until:
                self.calls_in_announced_limit += 1
            self.serial += 1
            correlation = f"c-{self.serial:06x}"
            return self._answer(now, item_id, body, key, auth, correlation)

    def _error(self, code: str, correlation: str, **fields: Any) -> tuple[int, dict[str, str], str]:
        self.errors_sent[code] += 1
        response = self.sdk.to_http(self.sdk.new_error(code, correlation, **fields))
        delay = fields.get("retry_after_ms")
        if delay is not None:
            self.announced_until = max(self.announced_until, self.world.clock.now + delay)
        return response.status, dict(response.headers), response.body

    def _answer(self, now: int, item_id: str, body: dict[str, Any], key: str, auth: str, correlation: str) -> tuple[int, dict[str, str], str]:
        world = self.world
        if world.outage[0] <= now < world.outage[1]:
            return self._error("SERVICE_UNAVAILABLE", correlation)
        for start, end in world.rate_windows:
            if start <= now < end:
                return self._error("RATE_LIMITED", correlation, retry_after_ms=end - now)
        if world.auth_expires_at <= now < world.auth_expires_at + ROTATION_MS and auth != self.token_after_expiry:
            return self._error("AUTH_EXPIRED", correlation, state="unchanged")
        if key in self.keys:  # a replay of a write that committed: answer as before, apply nothing
            return 200, {"Content-Type": "application/json"}, json.dumps(self.keys[key])
        item = self.items[item_id]
        tenant = body.get("tenant")
        if tenant not in TENANTS:
            suggestions = self.sdk.did_you_mean(str(tenant), list(TENANTS))
            return self._error("TENANT_UNKNOWN", correlation, searched={"tenant": str(tenant)}, did_you_mean=suggestions, state="unchanged")
        if item.malformed:
            return self._error("VALIDATION_FAILED", correlation, resource_id=item_id, accepted=["email", "name"], state="unchanged")
        if item.times_out and item_id not in self.first_attempt_seen:
            self.first_attempt_seen.add(item_id)
            if item.timeout_committed:
                self._apply(item_id, key)
            return self._error("UPSTREAM_TIMEOUT", correlation, state="unknown", safe_to_replay=True)
        result = self._apply(item_id, key)
        return 200, {"Content-Type": "application/json"}, json.dumps(result)

    def _apply(self, item_id: str, key: str) -> dict[str, Any]:
        self.applied[item_id] += 1
        result = {"id": item_id, "enriched": True}
        self.keys[key] = result
        return result

    token_after_expiry = "token-2"

    def renew(self) -> str:
        return self.token_after_expiry


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
