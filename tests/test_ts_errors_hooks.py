"""Issue 40 for TypeScript, from a consumer compiled by tsc with the SDK's own strict options (no
casts in the consumer's code) and run under node: error classes per category (`instanceof
RateLimitError`), `error.code` typed so that a misspelt code literal does not compile while an
unknown code is still represented (`UnknownCode`), `status` and `headers` on the error,
`decide(error)`, axios responses and errors read as axios types them, and the observation hooks of
`retry` (onAttempt, a logger, an OpenTelemetry-shaped span setting `error.type`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import REGISTRY, ROOT, build_to, tsc

CONSUMER = """
import {
  AuthError, decide, ErrorPayloadError, errorType, newError, RateLimitError, retry, UnknownCode, ValidationError,
  type AttemptEvent, type Code, type SpanLike,
} from "./sdk/src/index";

// axios' own declarations, abridged (axios/index.d.ts 1.x): what an application's values are typed as.
type AxiosHeaderValue = string | string[] | number | boolean | null;
type RawAxiosResponseHeaders = Partial<Record<string, AxiosHeaderValue> & { "set-cookie": string[] }>;
interface AxiosResponse<T = unknown> { data: T; status: number; statusText: string; headers: RawAxiosResponseHeaders }
declare class AxiosError<T = unknown> extends Error { response?: AxiosResponse<T>; isAxiosError: boolean; code?: string }
function axiosError(response: AxiosResponse<unknown>): AxiosError<unknown> {
  return Object.assign(new Error("Request failed with status code " + response.status), { response, isAxiosError: true });
}

export function typeErrors(error: ErrorPayloadError): void {  // compiled, never run
  // @ts-expect-error a misspelt code has no overlap with Code | UnknownCode | null
  if (error.code === "RATE_LIMITD") return;
  // @ts-expect-error an unknown code is not a string: it cannot pass for a Code
  const code: Code | null = error.code;
  void code;
  if (error instanceof RateLimitError) {
    const category: "rate_limit" = error.category;
    // @ts-expect-error a RateLimitError's category is rate_limit
    const other: "validation" = error.category;
    void category; void other;
  }
  // @ts-expect-error headers are read-only
  error.headers["x-a"] = "b";
}

const out: Record<string, unknown> = {};
const limited = ErrorPayloadError.fromHttp(429, { "Retry-After": "3", "X-Request-Id": "r-1" },
  JSON.stringify(newError("RATE_LIMITED", "c-1")), 0);
const newer = ErrorPayloadError.fromHttp(400, {}, JSON.stringify({ code: "BRAND_NEW", category: "validation",
  retryable: false, scope: "request", correlation_id: "c-2" }), 0);
const proxy = ErrorPayloadError.fromHttp(502, { "Content-Type": "text/html" }, "<html>Bad gateway</html>", 0);
const thrown = new ErrorPayloadError(newError("AUTH_EXPIRED", "c-3"));
const made = ErrorPayloadError.of(newError("AUTH_EXPIRED", "c-4"));
out["limited"] = limited === null ? null : [limited instanceof RateLimitError, limited instanceof ErrorPayloadError, limited.name,
  limited.status, limited.headers["retry-after"], limited.headers["x-request-id"], limited.code, limited.category,
  decide(limited).action, decide(limited).delayMs];
out["newer"] = newer === null ? null : [newer instanceof ValidationError, newer.code instanceof UnknownCode,
  newer.code instanceof UnknownCode ? newer.code.text : null, String(newer.code), newer.codeText, decide(newer).reason];
out["proxy"] = proxy === null ? null : [proxy.constructor === ErrorPayloadError, proxy.code, proxy.category, proxy.status,
  decide(proxy).action, decide(proxy).reason];
out["thrown"] = [thrown instanceof AuthError, thrown.name, made instanceof AuthError, made.name];

// axios: a response as axios gives it (data parsed, header values lists or numbers), and its error.
const body = { code: "RATE_LIMITED", category: "rate_limit", retryable: true, scope: "service", correlation_id: "c-5" };
const response: AxiosResponse<unknown> = { data: body, status: 429, statusText: "Too Many Requests",
  headers: { "retry-after": "4", "set-cookie": ["a=1", "b=2"], "content-length": "99" } };
const fromResponse = ErrorPayloadError.fromAxios(response, 0);
const fromError = ErrorPayloadError.fromAxios(axiosError({ ...response, data: "<html>busy</html>", status: 503 }), 0);
const success: AxiosResponse<unknown> = { data: { id: 1 }, status: 200, statusText: "OK", headers: {} };
const ok = ErrorPayloadError.fromAxios(success);
out["axios"] = [fromResponse?.code ?? null, fromResponse?.headers["set-cookie"] ?? null, fromResponse?.decide().delayMs ?? null,
  fromError?.status ?? null, fromError?.decide().reason ?? null, ok];

// The hooks: a codeless 502, a refused connection, then an answer.
const logged: [string, string][] = [];
const logger = { info: (message: string) => { logged.push(["info", message]); }, warn: (message: string) => { logged.push(["warn", message]); } };
const attributes: [string, string][] = [];
const span: SpanLike = { setAttribute: (key: string, value: string) => { attributes.push([key, value]); } };
const events: AttemptEvent[] = [];
const refused = new TypeError("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) });

async function main(): Promise<void> {
  const value = await retry(async (attempt) => {
    if (attempt === 1 && proxy !== null) throw proxy;
    if (attempt === 2) throw refused;
    return "answer";
  }, { sleep: async () => {}, logger, span, onAttempt: (event) => { events.push(event); } });
  let rejected = "";
  try {
    await retry(async () => { throw refused; }, { maxAttempts: 2, sleep: async () => {}, logger, span });
  } catch (error) {
    rejected = errorType(error);
  }
  out["hooks"] = { value, rejected, logged, attributes,
    events: events.map((e) => [e.attempt, e.decision?.action ?? null, e.decision?.reason ?? null, e.delayMs]) };
  console.log(JSON.stringify(out));
}
void main();
"""


def test_error_classes_codes_axios_and_retry_hooks_from_a_strict_consumer(node_bin: Path, tmp_path: Path) -> None:
    build_to(REGISTRY, tmp_path / "out", "typescript")
    (tmp_path / "sdk").symlink_to(tmp_path / "out" / "typescript")
    (tmp_path / "use.ts").write_text(CONSUMER)
    options = json.loads("\n".join((tmp_path / "sdk" / "tsconfig.json").read_text().splitlines()[1:]))["compilerOptions"]
    options.pop("rootDir")
    (tmp_path / "tsconfig.json").write_text(json.dumps({"compilerOptions": {**options, "lib": ["ES2022", "DOM"], "target": "ES2022",
                                                                            "outDir": "js", "declaration": False},
                                                        "files": ["use.ts"]}))
    done = tsc(node_bin, tmp_path, tmp_path / "js")
    assert done.returncode == 0, done.stdout
    run = subprocess.run(["node", str(tmp_path / "js" / "use.js")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["limited"] == [True, True, "RateLimitError", 429, "3", "r-1", "RATE_LIMITED", "rate_limit", "pause", 3000]
    assert got["newer"] == [True, True, "BRAND_NEW", "BRAND_NEW", "BRAND_NEW", "unknown-code"]
    assert got["proxy"] == [True, None, None, 502, "retry", "status-fallback"]
    assert got["thrown"] == [False, "ErrorPayloadError", True, "AuthError"]
    assert got["axios"] == ["RATE_LIMITED", "a=1, b=2", 4000, 503, "status-fallback", None]
    hooks = got["hooks"]
    assert hooks["value"] == "answer" and hooks["rejected"] == "refused"
    assert hooks["events"] == [[1, "retry", "status-fallback", 500], [2, "retry", "transport-failure", 1000]]
    assert hooks["attributes"] == [["error.type", "502"], ["error.type", "refused"], ["error.type", "refused"], ["error.type", "refused"]]
    assert [level for level, _ in hooks["logged"]] == ["info", "info", "info", "warn"]
    assert "502" in hooks["logged"][0][1] and "500 ms" in hooks["logged"][0][1]
    assert "giving up" in hooks["logged"][3][1] and "attempts-exhausted" in hooks["logged"][3][1]


def test_the_category_classes_follow_the_registry(tmp_path: Path) -> None:
    """Stripe's categories end in `_error`: the classes do not double it."""
    build_to(ROOT / "examples" / "apis" / "stripe.yaml", tmp_path / "out", "typescript")
    errors = (tmp_path / "out" / "typescript" / "src" / "errors.ts").read_text()
    for category, name in [("card_error", "CardError"), ("invalid_request_error", "InvalidRequestError"),
                           ("rate_limit_error", "RateLimitError")]:
        assert f'export const {name}: CategoryErrorClass<"{category}"> = categoryErrorClass("{category}");' in errors
    assert "ErrorError" not in errors
