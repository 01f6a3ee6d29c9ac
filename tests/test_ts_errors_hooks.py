"""Issue 40 for TypeScript: the error classes per category are named after the registry's
categories. (The strict consumer of the classes, the axios reading and the retry hooks is
test_ts_sdk_api.py's hooks.ts, compiled with the other consumers of the SDK in one tsc run.)"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import ROOT, build_to, tsc


def test_the_category_classes_follow_the_registry(tmp_path: Path) -> None:
    """Stripe's categories end in `_error`: the classes do not double it."""
    build_to(ROOT / "examples" / "apis" / "stripe.yaml", tmp_path / "out", "typescript")
    errors = (tmp_path / "out" / "typescript" / "src" / "errors.ts").read_text()
    for category, name in [("card_error", "CardError"), ("invalid_request_error", "InvalidRequestError"),
                           ("rate_limit_error", "RateLimitError")]:
        assert f'export const {name}: CategoryErrorClass<"{category}"> = categoryErrorClass("{category}");' in errors
    assert "ErrorError" not in errors
    # An editor's hover on a class says what its category means, as the registry describes it.
    for form in ("src/errors.ts", "dist/esm/errors.d.ts", "dist/cjs/errors.d.ts"):
        text = (tmp_path / "out" / "typescript" / form).read_text()
        assert "/** An error of category rate_limit_error: Too many requests hit the API too quickly. */\n" in text, form


# A strict consumer of Stripe's package, installed from its folder as the docs say, served real
# Stripe-shaped responses by a loopback node server and read through fetch.
STRIPE_CONSUMER = """
import { createServer } from "node:http";
import {
  ApiError, AuthenticationError, CardError, decide, ErrorPayloadError, InvalidRequestError, RateLimitError, retry,
  UnknownCode, type Code,
} from "stripe-errors";

export function typeErrors(error: ErrorPayloadError): void {  // compiled, never run
  // @ts-expect-error a misspelt code literal has no overlap with Code | UnknownCode | null
  if (error.code === "card_decline") return;
  if (error instanceof CardError) {
    const category: "card_error" = error.classCategory;
    // @ts-expect-error a CardError's class is card_error's
    const other: "rate_limit_error" = error.classCategory;
    void category; void other;
  }
  const known: Code | UnknownCode | null = error.code;
  void known;
}

const bodies: Record<string, [number, Record<string, string>, string]> = {
  "/limited": [429, { "request-id": "req_1", "retry-after": "2" }, '{"error":{"type":"rate_limit_error","code":"rate_limit"}}'],
  "/declined": [402, { "request-id": "req_2" }, '{"error":{"type":"card_error","code":"card_declined","charge":"ch_1"}}'],
  "/newer": [400, { "request-id": "req_3" }, '{"error":{"type":"card_error","code":"brand_new_decline"}}'],
  "/key": [401, { "request-id": "req_4" }, '{"error":{"type":"invalid_request_error","message":"Invalid API Key"}}'],
  "/missing": [404, { "request-id": "req_5" }, '{"error":{"type":"invalid_request_error","code":"resource_missing"}}'],
  "/stripe": [500, { "request-id": "req_6" }, '{"error":{"type":"api_error"}}'],
  "/proxy": [502, { "content-type": "text/html" }, "<html>Bad gateway</html>"],
  "/gateway": [429, { "retry-after": "3" }, ""],
  "/shared": [400, { "content-type": "text/html" }, "<html>Bad request</html>"],
  "/velocity": [402, { "request-id": "req_7" }, '{"error":{"type":"card_error","code":"card_velocity_exceeded"}}'],
  "/ok": [200, {}, '{"id":"ch_1"}'],
};
let flaky = 0;
const server = createServer((request, response) => {
  const url = request.url ?? "";
  const [status, headers, body] = url === "/flaky" ? (++flaky === 1 ? bodies["/proxy"] : bodies["/ok"]) ?? [500, {}, ""]
    : bodies[url] ?? [500, {}, ""];
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(body);
});

async function get(api: string, path: string): Promise<string> {
  const response = await fetch(api + path);
  const error = await ErrorPayloadError.fromResponse(response);
  if (error !== null) throw error;
  return response.text();
}

function described(error: unknown): unknown {
  if (!(error instanceof ErrorPayloadError)) return String(error);
  const classes = { RateLimitError, CardError, InvalidRequestError, AuthenticationError, ApiError };
  const named = Object.entries(classes).filter(([, made]) => error instanceof made).map(([name]) => name);
  const decision = decide(error);
  return [named, error.name, error.status, error.code instanceof UnknownCode ? `unknown ${error.code.text}` : error.code,
    error.headers["request-id"] ?? null, decision.action, decision.reason, decision.delayMs];
}

async function main(): Promise<void> {
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const address = server.address();
  const api = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  const out: Record<string, unknown> = {};
  for (const path of ["/limited", "/declined", "/newer", "/key", "/missing", "/stripe", "/proxy", "/gateway", "/shared", "/velocity"]) {
    out[path] = await get(api, path).then(() => "no error", described);
  }
  const ok = await fetch(api + "/ok");
  out["ok"] = [await ErrorPayloadError.fromResponse(ok), ok.bodyUsed, await ok.text()];
  const slept: number[] = [];
  out["retried"] = await retry(() => get(api, "/flaky"), { sleep: async (ms) => { slept.push(ms); } });
  out["slept"] = slept;
  server.close();
  console.log(JSON.stringify(out));
}
void main();
"""


def test_a_strict_consumer_of_stripes_package_catches_each_category_from_real_responses(
        tmp_path: Path, node_bin: Path) -> None:
    """Issue 40 on examples/apis/stripe.yaml: each Stripe `type` is caught with `instanceof` (its
    class named once: RateLimitError, not RateLimitErrorError) from a fetch response read by
    `fromResponse`, with status, headers and `decide(error)`; a response without a category the
    package knows takes the class of its status's one category (a bare 429: RateLimitError; 402:
    CardError), the base class for a status two categories share (400) or none (a proxy's 502); a
    misspelt code literal does not compile; a 2xx body is left unread; retry gets past a proxy's
    HTML 502."""
    build_to(ROOT / "examples" / "apis" / "stripe.yaml", tmp_path / "out", "typescript")
    consumer = tmp_path / "consumer"
    consumer.mkdir()
    (consumer / "package.json").write_text(json.dumps({"name": "consumer", "version": "1.0.0", "private": True, "type": "module"}))
    done = subprocess.run(["npm", "--offline", "--no-audit", "--no-fund", "--loglevel=error", "install", str(tmp_path / "out" / "typescript")],
                          cwd=consumer, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (consumer / "main.ts").write_text(STRIPE_CONSUMER)
    # node:http's types without @types/node: the few members the consumer uses.
    (consumer / "node.d.ts").write_text("""declare module "node:http" {
  interface IncomingMessage { url?: string }
  interface ServerResponse { writeHead(status: number, headers: Record<string, string>): { end(body: string): void } }
  interface Server { listen(port: number, host: string, done: () => void): void; address(): { port: number } | string | null; close(): void }
  function createServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Server;
}
""")
    (consumer / "tsconfig.json").write_text(json.dumps({"compilerOptions": {
        "strict": True, "module": "nodenext", "moduleResolution": "nodenext", "types": [], "target": "ES2022", "lib": ["ES2022", "DOM"],
        "noUncheckedIndexedAccess": True, "exactOptionalPropertyTypes": True, "noPropertyAccessFromIndexSignature": True,
        "verbatimModuleSyntax": True, "outDir": "."}, "files": ["main.ts", "node.d.ts"]}))
    typed = tsc(node_bin, consumer, consumer)
    assert typed.returncode == 0, typed.stdout
    ran = subprocess.run(["node", "main.js"], cwd=consumer, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    got = json.loads(ran.stdout)
    assert got["/limited"] == [["RateLimitError"], "RateLimitError", 429, "rate_limit", "req_1", "pause", "registry", 2000]
    assert got["/declined"] == [["CardError"], "CardError", 402, "card_declined", "req_2", "skip", "registry", None]
    # A code newer than the package stays representable (UnknownCode). Stripe's registry reads no
    # category from the response (its `type` is read as a code only), so the class is the status's:
    # 400 is declared by two categories (invalid_request_error, idempotency_error), so the base class.
    assert got["/newer"] == [[], "ErrorPayloadError", 400, "unknown brand_new_decline", "req_3", "escalate", "unknown-code", None]
    assert got["/shared"][:3] == [[], "ErrorPayloadError", 400]
    # ...while 402 is card_error's alone: a card code newer than the package is still a CardError.
    assert got["/velocity"][:4] == [["CardError"], "CardError", 402, "unknown card_velocity_exceeded"]
    # A gateway's bare 429 is a RateLimitError, as stripe-node's StripeRateLimitError is any 429.
    assert got["/gateway"] == [["RateLimitError"], "RateLimitError", 429, None, None, "pause", "status-fallback", 3000]
    assert got["/key"][:4] == [["AuthenticationError"], "AuthenticationError", 401, "invalid_request_error-401"]
    assert got["/missing"][:4] == [["InvalidRequestError"], "InvalidRequestError", 404, "resource_missing"]
    assert got["/stripe"][:4] == [["ApiError"], "ApiError", 500, "api_error"] and got["/stripe"][5] == "retry"
    assert got["/proxy"] == [[], "ErrorPayloadError", 502, None, None, "retry", "status-fallback", 500]
    assert got["ok"] == [None, False, '{"id":"ch_1"}']
    assert got["retried"] == '{"id":"ch_1"}' and got["slept"] == [500]
