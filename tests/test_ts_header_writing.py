"""Issue 38.3 for TypeScript: every header value `toHttp` writes (delay headers, x-should-retry, and
the API-shape writes of a code, correlation id, resource id or message) is written only when it is
non-empty, at most MAX_HEADER_CHARS long and all visible ASCII or space; otherwise the header is
left out and the body still carries the value. Run under node against the built package's CommonJS
(the code the package ships)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import ROOT, build_to, node_json

AZURE = ROOT / "examples" / "apis" / "azure-storage.yaml"  # code in x-ms-error-code, request id in x-ms-request-id
STRIPE = ROOT / "examples" / "apis" / "stripe.yaml"  # request id in request-id

SCRIPT = """
const sdk = require("./out/typescript/dist/cjs/index.js");
const values = %s;
const out = {};
for (const [name, value] of Object.entries(values)) {
  const { headers, body } = sdk.toHttp({ ...%s, [%s]: value });
  out[name] = { headers, body };
}
console.log(JSON.stringify(out));
"""

HOSTILE = {
    "crlf": "req-1\r\nSet-Cookie: session=stolen",
    "lf": "req-1\nX-Injected: 1",
    "nul": "req\u00001",
    "tab": "req\t1",
    "del": "req\u007f1",
    "non_ascii": "req-\u00e9t\u00e9",
    "huge": "r" * 100_000,
    "just_past": "r" * 8193,
    "empty": "",
}
GOOD = {"plain": "req-1 (edge)", "at_limit": "r" * 8192}


def written(tmp_path: Path, registry: Path, payload: dict[str, object], field: str) -> dict[str, dict[str, object]]:
    build_to(registry, tmp_path / "out", "typescript")
    script = SCRIPT % (json.dumps({**HOSTILE, **GOOD}), json.dumps(payload), json.dumps(field))
    return node_json(script, tmp_path)  # type: ignore[return-value]


def carried(body: object, value: str) -> bool:
    """Whether the JSON text `body` holds `value` as a string anywhere."""
    def walk(node: object) -> bool:
        if isinstance(node, dict):
            return any(walk(item) for item in node.values())
        return node == value
    return walk(json.loads(str(body)))


def header_names(headers: dict[str, str]) -> set[str]:
    return {name.lower() for name in headers}


def test_a_correlation_id_no_header_may_carry_is_left_out_of_the_headers_and_kept_in_the_body(tmp_path: Path) -> None:
    payload = {"code": "rate_limit", "category": "rate_limit", "retryable": True, "scope": "service", "correlation_id": "x"}
    got = written(tmp_path, STRIPE, payload, "correlation_id")
    for name, value in HOSTILE.items():
        headers = got[name]["headers"]
        assert "request-id" not in header_names(headers), name  # type: ignore[arg-type]
        assert all("\r" not in v and "\n" not in v and "\0" not in v for v in headers.values()), name  # type: ignore[union-attr]
        assert carried(got[name]["body"], value), name
        # The rest of the response is written as before.
        assert headers["x-should-retry"] == "true", name  # type: ignore[index]
    for name, value in GOOD.items():
        assert got[name]["headers"]["request-id"] == value, name  # type: ignore[index]


def test_a_code_header_and_a_request_id_header_of_an_api_shape_follow_the_same_rule(tmp_path: Path) -> None:
    payload = {"code": "ServerBusy", "category": "x", "retryable": True, "scope": "service", "correlation_id": "ok-1"}
    got = written(tmp_path, AZURE, payload, "code")
    for name in HOSTILE:
        headers = got[name]["headers"]
        assert "x-ms-error-code" not in header_names(headers), name  # type: ignore[arg-type]
        assert got[name]["headers"]["x-ms-request-id"] == "ok-1", name  # type: ignore[index]
        assert "<Code>" in str(got[name]["body"]), name  # the XML body still names the code
    for name, value in GOOD.items():
        assert got[name]["headers"]["x-ms-error-code"] == value, name  # type: ignore[index]


def test_the_header_limit_counts_characters_not_utf16_units(tmp_path: Path) -> None:
    """Issue 38 (Low): 8,192 characters is 8,192 code points, as the other SDKs count them; an
    astral character is one character though JavaScript stores it as two units."""
    build_to(STRIPE, tmp_path / "out", "typescript")
    got = node_json("""
const sdk = require("./out/typescript/dist/cjs/index.js");
const read = (id) => sdk.readHttp(500, { "request-id": id }, "", 0).correlationId;
const astral = "\\u{1F600}";
console.log(JSON.stringify([read(astral.repeat(8192)) !== null, read(astral.repeat(8193)), read("a".repeat(8192)) !== null,
                            read("a".repeat(8193)), read(astral.repeat(4096) + "a".repeat(4096)) !== null,
                            read("\\ud800".repeat(8192)) !== null, read("\\ud800".repeat(8193))]));
""", tmp_path)
    assert got == [True, None, True, None, True, True, None]
