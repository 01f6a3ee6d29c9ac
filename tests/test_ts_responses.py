"""Issues 39 and 40 for TypeScript, beyond the vectors: the error a client catches carries the HTTP
status and headers and decides through decideResponse (a codeless 502 is retried, a bare 403 stops);
`failureOf` names fetch's, node's and axios' network errors (and nothing else); `retry` retries a
transport failure per decideFailure (a reset only when the call is idempotent); `fromResponse`
leaves a success's body unread. Run under node against the built package's CommonJS."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import REGISTRY, build_to, node_json

PRELUDE = """
const sdk = require("./out/typescript/dist/cjs/index.js");
const coded = (code) => Object.assign(new Error(`connect ${code}`), { code });
const fetchFailed = (cause) => new TypeError("fetch failed", cause === undefined ? undefined : { cause });
"""


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("ts-responses")
    build_to(REGISTRY, where / "out", "typescript")
    return where


def run(sdk: Path, body: str) -> object:
    return node_json(PRELUDE + body, sdk)


def test_the_caught_error_carries_status_headers_and_decides_by_the_response(sdk: Path) -> None:
    got = run(sdk, """
const proxy = sdk.ErrorPayloadError.fromHttp(502, [["Content-Type", "text/html"], ["X-Cache", "a"], ["x-cache", "b"]], "<html>Bad gateway</html>", 0);
const bare403 = sdk.ErrorPayloadError.fromHttp(403, {}, "", 0);
const limited403 = sdk.ErrorPayloadError.fromHttp(403, { "Retry-After": "2.5" }, "", 0);
const own = sdk.ErrorPayloadError.fromHttp(429, {}, JSON.stringify(sdk.newError("RATE_LIMITED", "c-1")), 0);
const thrown = new sdk.ErrorPayloadError(sdk.newError("RATE_LIMITED", "c-2"));
const d = (e) => { const x = e.decide(); return [x.action, x.reason, x.delayMs]; };
let frozen = true;
try { "use strict"; proxy.headers["x-cache"] = "c"; frozen = proxy.headers["x-cache"] === "a"; } catch { frozen = true; }
console.log(JSON.stringify({
  proxy: [proxy.status, proxy.headers, proxy.code, proxy.payload, proxy.raw, proxy.message, proxy instanceof Error, frozen, d(proxy)],
  bare403: d(bare403), limited403: d(limited403),
  own: [own.status, own.code, d(own)], thrown: [thrown.status, thrown.headers, d(thrown)],
  notAnError: sdk.ErrorPayloadError.fromHttp(200, {}, "{}", 0),
}));
""")
    assert got["proxy"] == [502, {"content-type": "text/html", "x-cache": "a"}, None, None, "<html>Bad gateway</html>",
                            "HTTP 502: no error payload", True, True, ["retry", "status-fallback", 500]]
    assert got["bare403"] == ["stop", "status-fallback", None]
    assert got["limited403"] == ["pause", "status-fallback", 2500]  # a 403 naming a wait is a rate limit
    assert got["own"] == [429, "RATE_LIMITED", ["pause", "registry", 2000]]
    assert got["thrown"] == [None, {}, ["pause", "registry", 2000]]
    assert got["notAnError"] is None


def test_failure_of_names_network_errors_and_nothing_else(sdk: Path) -> None:
    got = run(sdk, """
const cases = {
  fetchRefused: fetchFailed(coded("ECONNREFUSED")), fetchDns: fetchFailed(coded("ENOTFOUND")),
  fetchTls: fetchFailed(coded("CERT_HAS_EXPIRED")), fetchAltName: fetchFailed(coded("ERR_TLS_CERT_ALTNAME_INVALID")),
  fetchReset: fetchFailed(coded("ECONNRESET")), fetchBare: fetchFailed(), fetchSocket: fetchFailed(coded("UND_ERR_SOCKET")),
  browser: new TypeError("Failed to fetch"), abort: new DOMException("aborted", "AbortError"),
  timeoutSignal: new DOMException("timed out", "TimeoutError"), nodeReset: coded("ECONNRESET"), nodeTimeout: coded("ETIMEDOUT"),
  axiosTimeout: { isAxiosError: true, code: "ECONNABORTED", message: "timeout of 1000ms exceeded" },
  axiosNetwork: { isAxiosError: true, code: "ERR_NETWORK", message: "Network Error" },
  axiosHttp: { isAxiosError: true, code: "ERR_BAD_RESPONSE", response: { status: 500 } },
  bug: new TypeError("call is not a function"), plain: new Error("boom"), text: "fetch failed", nothing: null,
  apiError: new sdk.ErrorPayloadError(sdk.newError("RATE_LIMITED", "c")),
};
const cyclic = fetchFailed(); cyclic.cause = cyclic; cases.cyclic = cyclic;
console.log(JSON.stringify(Object.fromEntries(Object.entries(cases).map(([k, v]) => [k, sdk.failureOf(v)]))));
""")
    assert got == {
        "fetchRefused": "refused", "fetchDns": "refused", "fetchTls": "tls", "fetchAltName": "tls", "fetchReset": "reset",
        "fetchBare": "reset", "fetchSocket": "reset", "browser": "reset", "abort": "timeout", "timeoutSignal": "timeout",
        "nodeReset": "reset", "nodeTimeout": "timeout", "axiosTimeout": "timeout", "axiosNetwork": "reset", "axiosHttp": None,
        "bug": None, "plain": None, "text": None, "nothing": None, "apiError": None, "cyclic": "reset",
    }


def test_retry_retries_transport_failures_and_codeless_responses_as_decided(sdk: Path) -> None:
    got = run(sdk, """
async function outcome(errors, options) {
  const slept = [];
  const seen = [];
  try {
    const value = await sdk.retry(async (attempt) => {
      const error = errors[attempt - 1];
      if (error !== undefined) throw error;
      return `ok on ${attempt}`;
    }, { sleep: async (ms) => { slept.push(ms); }, onDecision: (d, a) => seen.push([a, d.action, d.reason]), ...options });
    return { value, slept, seen };
  } catch (error) {
    return { rejected: error instanceof Error ? error.message : String(error), slept, seen };
  }
}
(async () => {
  const proxy502 = () => sdk.ErrorPayloadError.fromHttp(502, {}, "<html>Bad gateway</html>", 0);
  const bare429 = () => sdk.ErrorPayloadError.fromHttp(429, { "Retry-After": "1.5" }, "", 0);
  console.log(JSON.stringify({
    refusedThenProxy: await outcome([fetchFailed(coded("ECONNREFUSED")), proxy502(), bare429()], {}),
    resetNotIdempotent: await outcome([fetchFailed(coded("ECONNRESET"))], {}),
    resetIdempotent: await outcome([fetchFailed(coded("ECONNRESET")), coded("ETIMEDOUT")], { idempotent: true }),
    exhausted: await outcome([proxy502(), proxy502(), proxy502()], { maxAttempts: 3 }),
    bug: await outcome([new TypeError("x is not a function")], {}),
  }));
})();
""")
    assert got["refusedThenProxy"] == {"value": "ok on 4", "slept": [500, 1000, 1500],
                                       "seen": [[1, "retry", "transport-failure"], [2, "retry", "status-fallback"],
                                                [3, "pause", "status-fallback"]]}
    assert got["resetNotIdempotent"] == {"rejected": "fetch failed", "slept": [], "seen": [[1, "escalate", "outcome-unknown"]]}
    assert got["resetIdempotent"]["value"] == "ok on 3" and got["resetIdempotent"]["slept"] == [500, 1000]
    assert got["exhausted"]["rejected"] == "HTTP 502: no error payload" and got["exhausted"]["slept"] == [500, 1000]
    assert got["exhausted"]["seen"][-1] == [3, "escalate", "attempts-exhausted"]
    assert got["bug"] == {"rejected": "x is not a function", "slept": [], "seen": []}


def test_from_response_leaves_a_success_body_unread_and_reads_an_error(sdk: Path) -> None:
    got = run(sdk, """
(async () => {
  const ok = new Response('{"id": 1}', { status: 200 });
  const none = await sdk.ErrorPayloadError.fromResponse(ok, 0);
  const proxy = await sdk.ErrorPayloadError.fromResponse(new Response("<html/>", { status: 504, headers: { "Retry-After": "3" } }), 0);
  console.log(JSON.stringify({ none, unread: ok.bodyUsed === false, stillReadable: await ok.json(),
                               proxy: [proxy.status, proxy.headers["retry-after"], proxy.decide().action, proxy.decide().delayMs] }));
})();
""")
    assert got == {"none": None, "unread": True, "stillReadable": {"id": 1}, "proxy": [504, "3", "retry", 3000]}


def test_decimal_retry_after_and_body_seconds(sdk: Path) -> None:
    got = run(sdk, """
const delay = (value) => sdk.readHttp(503, { "Retry-After": value }, "", 0).fallbackDelayMs;
console.log(JSON.stringify(["2.128", "1.0001", "64.57", "2.5", "2.", ".5", "1.1234567891", "99999999999999999999.5"].map(delay)));
""")
    assert got == [2128, 1001, 64570, 2500, None, None, None, 9007199254740991]


def test_the_package_exports_the_new_functions(sdk: Path) -> None:
    got = run(sdk, """
console.log(JSON.stringify(["decideResponse", "decideFailure", "statusAction", "failureOf", "decisionFor"].map((n) => typeof sdk[n])));
""")
    assert got == ["function"] * 5
    assert json.dumps(got)
