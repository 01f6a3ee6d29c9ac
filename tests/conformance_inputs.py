"""Seeded junk inputs in the vectors format (no expected values), for comparing two SDKs' emit
lines: mutated payloads of the registry's codes, odd HTTP bodies and Retry-After values, MCP
result shapes. Any language's tests can use it: `random_inputs(seed, count, registry)`."""

from __future__ import annotations

import json
from typing import Any

from conftest import load_registry
from errgen.contract import view


def random_inputs(seed: int, count: int, registry: Any = None) -> list[dict[str, Any]]:
    """Deterministic junk near the contract: mutated payloads, odd bodies and headers, MCP shapes."""
    import random

    rng = random.Random(seed)
    codes = view(registry or load_registry()).codes
    keys = ["code", "category", "retryable", "scope", "correlation_id", "resource_id", "retry_after_ms", "message", "searched",
            "did_you_mean", "accepted", "state", "safe_to_replay", "x", "__proto__", "constructor", "toString", "detail", "type"]
    scalars: list[Any] = [None, True, False, 0, -1, 1.5, 2.0, 2**53 - 1, 2**53, 1e300, "", "request", "resource", "service",
                          "RATE_LIMITED", "rate_limit", "galaxy", "constructor", "é\u2028", "unchanged"]

    def value(depth: int = 0) -> Any:
        roll = rng.random()
        if depth > 2 or roll < 0.6:
            return rng.choice(scalars)
        if roll < 0.8:
            return [value(depth + 1) for _ in range(rng.randint(0, 3))]
        return {rng.choice(keys): value(depth + 1) for _ in range(rng.randint(0, 3))}

    def payload() -> Any:
        row = rng.choice(codes)
        scope = rng.choice(row.scopes)
        p: dict[str, Any] = {"code": row.code, "category": row.category, "retryable": row.retryable, "scope": scope, "correlation_id": "c-1"}
        if scope == "resource":
            p["resource_id"] = "r"
        for _ in range(rng.randint(0, 2)):
            action = rng.random()
            if action < 0.4 and p:
                p.pop(rng.choice(list(p)))
            else:
                p[rng.choice(keys)] = value()
        return p if rng.random() < 0.9 else value()

    def http_date() -> str:
        day = rng.choice(["Mon", "Tue", "Sun", "Xyz"])
        return (f"{day}, {rng.randint(0, 32):02d} {rng.choice(['Jan', 'Feb', 'Dec', 'jan'])} {rng.choice([0, 1970, 2026, 2028, 9999]):04d} "
                f"{rng.randint(0, 24):02d}:{rng.randint(0, 60):02d}:{rng.randint(0, 61):02d} {rng.choice(['GMT', 'GMT', 'UTC'])}")

    def header_value() -> str:
        return rng.choice([str(rng.randint(0, 10**6)), "-1", "1.5", "+5", "\u00b2", " 12 ", "0" * 30, "9" * 40, "", "1e3", http_date(),
                           http_date(), "Wed,  21 Oct 2026 07:28:05 GMT"])

    out: list[dict[str, Any]] = []
    for i in range(count):
        kind = rng.random()
        vector: dict[str, Any] = {"name": f"r{i}", "attempt": rng.randint(-2, 8), "max_attempts": rng.randint(0, 6),
                                  "max_delay_ms": rng.choice([0, 1000, 3_600_000, 2**53 - 1]), "now_ms": rng.randint(0, 2**45)}
        if kind < 0.4:
            vector["input"] = {"payload": payload()}
        elif kind < 0.8:
            body = json.dumps(payload())
            body = rng.choice([body, body, body[: rng.randint(0, len(body))], body + " x", "[" * rng.randint(60, 70) + "]" * 70])
            names = ["Retry-After", "retry-after-ms", "RETRY-AFTER", "Content-Type"]
            headers = [[rng.choice(names), header_value()] for _ in range(rng.randint(0, 3))]
            vector["input"] = {"http": {"status": 429, "headers": headers, "body": body}}
        else:
            p = payload()
            vector["input"] = {"mcp": rng.choice([{"structuredContent": p}, {"content": [{"type": "text", "text": json.dumps(p)}]},
                                                  {"content": value()}, value(), {"content": [value(), {"type": "text", "text": value()}]}])}
        out.append(vector)
    return out
