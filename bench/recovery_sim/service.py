"""The enrichment service: a real HTTP server on loopback whose errors are built with the
generated SDK (`new_error`, `to_http`, which sets `x-should-retry` from the registry).

It deduplicates writes by a non-empty Idempotency-Key (a keyless write is never deduplicated),
except the writes that fail with an unknown outcome, and logs every write it applies with its
tenant and version, so the score can tell completed, duplicate, wrong, cross-tenant and blind
writes apart. `GET /contacts/{id}` reads the current record; a write over a concurrent change
counts as blind unless that version was read first."""

from __future__ import annotations

import functools
import importlib
import json
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench.recovery_sim.world import BARE_429_MS, BUSY_MS, CALL_MS, LOCK_MS, PROXY_MS, SHARD_MS, TENANTS, TIMEOUT_MS, World

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = Path(__file__).resolve().parent / "registry.yaml"
OUT = ROOT / "bench" / "out"
Answer = tuple[int, dict[str, str], str]
# The connection is closed with no response (status 0: nothing is sent).
CLOSE: Answer = (0, {}, "")
# A call that gets no answer until the client's read timeout: the service advances the virtual
# clock by TIMEOUT_MS and sends this marker, which the simulation's network layer (agents.Client,
# agents.SimTransport) turns into the client's own read-timeout exception before the client sees a
# byte. Waiting the timeout in real time would make the run depend on the machine's speed.
TIMEOUT_HEADER = "X-Sim-Read-Timeout"
HANG: Answer = (599, {TIMEOUT_HEADER: str(TIMEOUT_MS)}, "")
# What a proxy and a gateway in front of the service send, byte for byte as their software does:
# nginx's own error pages (src/http/ngx_http_special_response.c) and API Gateway's throttling body.
NGINX_502 = ("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n"
             "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
NGINX_503 = ("<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n"
             "<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
GATEWAY_429 = '{"message":"Too Many Requests"}'


@functools.cache
def load_sdk() -> Any:
    """The simulation registry's generated Python SDK, built by errgen into bench/out/, once per
    process: a module is imported once anyway, and a sweep's points then share one build."""
    out = OUT / "sim-sdk"
    cmd = [sys.executable, "-m", "errgen", "build", "--registry", str(REGISTRY), "--target", "python", "--out", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    if str(out / "python") not in sys.path:
        sys.path.insert(0, str(out / "python"))
    return importlib.import_module("enrich_errors")


@dataclass(frozen=True)
class Write:
    """One write the service applied."""

    item: str
    tenant: str
    version: int
    at: int
    cross_tenant: bool  # applied to a tenant the item does not belong to
    blind: bool  # over a concurrent change its writer never read
    unsafe_replay: bool  # the replay of a write whose outcome was unknown and not safe to replay


def token_of(headers: Any) -> str:
    """The credential, wherever the client sends it (anthropic: X-Api-Key; openai: Bearer)."""
    value = headers.get("X-Api-Key") or headers.get("Authorization") or ""
    return value.removeprefix("Bearer ").strip()


class Service:
    def __init__(self, world: World, sdk: Any, should_retry_header: str | None = "x-should-retry") -> None:
        self.world, self.sdk = world, sdk
        # The header carrying the registry's `retryable`: x-should-retry, Stripe-Should-Retry, or none.
        self.should_retry_header = should_retry_header
        self.items = {item.id: item for item in world.items}
        self.writes: list[Write] = []
        self.keys: dict[str, dict[str, Any]] = {}  # non-empty idempotency key -> stored response
        self.reads: dict[str, int] = {}  # item -> the version last read
        self.first_write_at: dict[str, int] = {}  # item -> when its first write reached the backend
        self.first_attempt_seen: set[str] = set()
        self.first_post_at: dict[str, int] = {}  # item -> when its first write reached the proxy in front
        self.transport_seen: set[tuple[str, str]] = set()  # (fault, item): a reset or a hang already happened
        self.unsafe_committed: set[str] = set()  # items whose write committed outside the key store
        self.calls: list[int] = []  # virtual time of every call
        self.first_call_at: dict[str, int] = {}  # item -> when it was first called about
        self.calls_by_item: Counter[str] = Counter()
        self.calls_in_announced_limit = 0
        self.announced_until: dict[str, int] = {}  # scope ("*" or a tenant) -> end of the last Retry-After
        self.serial = 0
        self.errors_sent: Counter[str] = Counter()
        self.clients: Counter[str] = Counter()  # User-Agent -> calls: which library made them
        self.lock = threading.Lock()

    def handle(self, method: str, item_id: str, body: dict[str, Any], key: str, token: str, client: str = "") -> Answer:
        with self.lock:
            self.clients[client] += 1
            self.world.clock.advance(CALL_MS)
            now = self.world.clock.now
            self.calls.append(now)
            self.first_call_at.setdefault(item_id, now)
            self.calls_by_item[item_id] += 1
            tenant = str(body.get("tenant"))
            scopes = ("*", tenant, f"item:{item_id}")
            if now < max(self.announced_until.get(scope, -1) for scope in scopes):
                self.calls_in_announced_limit += 1
            self.serial += 1
            correlation = f"c-{self.serial:06x}"
            edge = self._edge(now, item_id) if method == "POST" else None
            if edge is not None:
                return edge
            gate = self._gate(now, method, tenant, token, correlation)
            if gate is not None:
                return gate
            if method == "GET":
                item = self.items[item_id]
                self.reads[item_id] = item.true_version
                return 200, {"Content-Type": "application/json"}, json.dumps({"id": item_id, "version": item.true_version})
            return self._write(now, item_id, body, key, correlation)

    def credential_valid(self, token: str, now: int) -> bool:
        """token-1 until it expires; token-2, which only the operator hands out, after."""
        return token == "token-2" or (token == "token-1" and now < self.world.auth_expires_at)

    def _gate(self, now: int, method: str, tenant: str, token: str, correlation: str) -> Answer | None:
        """What stops any call before it reaches a record: the outage, the limits, the credential."""
        world = self.world
        if world.outage[0] <= now < world.outage[1]:
            return self._error("SERVICE_UNAVAILABLE", correlation, "*", retry_after_ms=world.outage[1] - now)
        for start, end in world.rate_windows:
            if start <= now < end:
                return self._error("RATE_LIMITED", correlation, "*", retry_after_ms=end - now)
        for start, end, limited in world.tenant_limits:
            if method == "POST" and limited == tenant and start <= now < end:
                return self._error("RATE_LIMITED", correlation, tenant, scope="request", retry_after_ms=end - now)
        if not self.credential_valid(token, now):
            return self._error("AUTH_EXPIRED", correlation, state="unchanged")
        return None

    def _edge(self, now: int, item_id: str) -> Answer | None:
        """What the proxy and the gateway in front answer before the call reaches the service, and
        a connection closed before the write is applied."""
        item = self.items[item_id]
        since = now - self.first_post_at.setdefault(item_id, now)
        if item.proxy_502 and since < PROXY_MS:
            return self._foreign("proxy-502", 502, {"Content-Type": "text/html"}, NGINX_502)
        if item.proxy_503 and since < PROXY_MS:
            return self._foreign("proxy-503", 503, {"Content-Type": "text/html"}, NGINX_503)
        if item.bare_429 and since < BARE_429_MS:
            self.announced_until[f"item:{item_id}"] = max(self.announced_until.get(f"item:{item_id}", -1), now + 1_000)
            return self._foreign("bare-429", 429, {"Content-Type": "application/json", "Retry-After": "1"}, GATEWAY_429)
        if item.reset_before and self._first("reset-before", item_id):
            return CLOSE
        return None

    def _first(self, fault: str, item_id: str) -> bool:
        """Whether this is the first time the transport fault strikes the item (and count it)."""
        if (fault, item_id) in self.transport_seen:
            return False
        self.transport_seen.add((fault, item_id))
        self.errors_sent[fault] += 1
        return True

    def _foreign(self, fault: str, status: int, headers: dict[str, str], body: str) -> Answer:
        """A response the service's SDK did not write (no x-should-retry, no error code)."""
        self.errors_sent[fault] += 1
        return status, headers, body

    def _write(self, now: int, item_id: str, body: dict[str, Any], key: str, correlation: str) -> Answer:
        if key and key in self.keys:  # a replay of a write that committed: answer as before, apply nothing
            return 200, {"Content-Type": "application/json"}, json.dumps(self.keys[key])
        item, tenant = self.items[item_id], str(body.get("tenant"))
        if tenant not in TENANTS:
            suggestions = self.sdk.did_you_mean(tenant, list(TENANTS))
            return self._error("TENANT_UNKNOWN", correlation, searched={"tenant": tenant}, did_you_mean=suggestions, state="unchanged")
        if item.malformed:
            return self._error("VALIDATION_FAILED", correlation, resource_id=item_id, accepted=["email", "name"], state="unchanged")
        if item.backend_down:
            return self._error("BACKEND_UNAVAILABLE", correlation, resource_id=item_id)
        since = now - self.first_write_at.setdefault(item_id, now)
        if item.backend_busy and since < BUSY_MS:
            return self._error("BACKEND_BUSY", correlation, retry_after_ms=BUSY_MS - since)
        if item.shard_moving and since < SHARD_MS:
            return self._newer_code("SHARD_MOVING", correlation, SHARD_MS - since)
        if item.locked and since < LOCK_MS:
            return self._error("LOCK_TIMEOUT", correlation)
        if body.get("version") != item.true_version:
            return self._error("VERSION_CONFLICT", correlation, searched={"version": body.get("version")},
                               accepted=[str(item.true_version)], state="unchanged")
        if item.times_out and item_id not in self.first_attempt_seen:
            self.first_attempt_seen.add(item_id)
            if item.timeout_committed:
                self._apply(now, item, body, key)
            return self._error("UPSTREAM_TIMEOUT", correlation, state="unknown", safe_to_replay=True)
        if item.outcome_unknown and item_id not in self.first_attempt_seen:
            self.first_attempt_seen.add(item_id)
            self._apply(now, item, body, "")  # committed downstream, where the idempotency key does not reach
            self.unsafe_committed.add(item_id)
            return self._error("WRITE_OUTCOME_UNKNOWN", correlation, state="unknown", safe_to_replay=False)
        if item.reset_after and self._first("reset-after", item_id):
            self._apply(now, item, body, key)  # applied (and its key stored); the answer is lost
            return CLOSE
        if item.hangs and self._first("timeout", item_id):
            if item.timeout_committed:
                self._apply(now, item, body, key)
            self.world.clock.advance(TIMEOUT_MS)
            return HANG
        return 200, {"Content-Type": "application/json"}, json.dumps(self._apply(now, item, body, key))

    def _apply(self, now: int, item: Any, body: dict[str, Any], key: str) -> dict[str, Any]:
        tenant = str(body.get("tenant"))
        blind = item.true_version != item.version and self.reads.get(item.id) != item.true_version
        self.writes.append(Write(item.id, tenant, int(body.get("version", -1)), now, tenant != item.true_tenant, blind,
                                 item.id in self.unsafe_committed))
        result = {"id": item.id, "enriched": True}
        if key:  # the empty key is no key: caching it would answer every keyless write from the first
            self.keys[key] = result
        return result

    def _error(self, code: str, correlation: str, limit: str | None = None, **fields: Any) -> Answer:
        self.errors_sent[code] += 1
        response = self.sdk.to_http(self.sdk.new_error(code, correlation, **fields))
        delay = fields.get("retry_after_ms")
        if delay is not None and limit is not None:
            self.announced_until[limit] = max(self.announced_until.get(limit, -1), self.world.clock.now + delay)
        return response.status, self._retry_header(dict(response.headers)), response.body

    def _newer_code(self, code: str, correlation: str, delay_ms: int) -> Answer:
        """A code added by a registry release the client has not picked up yet: the service sends
        it as its own (newer) SDK would, well formed, and the client's SDK has never heard of it."""
        self.errors_sent[code] += 1
        payload = {"code": code, "category": "unavailable", "retryable": True, "scope": "request",
                   "correlation_id": correlation, "retry_after_ms": delay_ms}
        headers = {"Content-Type": "application/json", "x-should-retry": "true",
                   "Retry-After": str(-(-delay_ms // 1000)), "retry-after-ms": str(delay_ms)}
        return 503, self._retry_header(headers), json.dumps(payload, separators=(",", ":"))

    def _retry_header(self, headers: dict[str, str]) -> dict[str, str]:
        value = {k.lower(): v for k, v in headers.items()}.get("x-should-retry")
        if value is None:
            raise RuntimeError("the SDK's to_http must send x-should-retry (from the registry's retryable)")
        kept = {k: v for k, v in headers.items() if k.lower() != "x-should-retry"}
        if self.should_retry_header:
            kept[self.should_retry_header] = value
        return kept


def serve(service: Service) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # answer at once, not after a delayed ACK

        def _answer(self, method: str) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw or b"{}")
            parts = self.path.split("?")[0].strip("/").split("/")  # contacts/{id}[/enrich]
            status, headers, text = service.handle(method, parts[1], body if isinstance(body, dict) else {},
                                                   self.headers.get("Idempotency-Key", ""), token_of(self.headers),
                                                   self.headers.get("User-Agent", ""))
            if status == CLOSE[0]:  # the connection drops: no status line, nothing at all
                self.close_connection = True
                return
            data = text.encode("utf-8")
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            self._answer("POST")

        def do_GET(self) -> None:  # noqa: N802
            self._answer("GET")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # A short poll, so that shutdown() returns at once rather than after half a second.
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
    return server
