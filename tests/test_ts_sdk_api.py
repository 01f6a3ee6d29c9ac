"""Strict consumers of the default registry's TypeScript SDK, compiled by ONE tsc run (each file
its own module, with the SDK's own strict options plus fetch's DOM types and ES2022) and run under
node: building and type-checking the SDK is most of each check, so the consumers share it.

- Issue 26: the typed payload is accepted everywhere (newError returns it; toHttp, toMcpResult and
  decide take it), decide takes an options object, an Error subclass carries the payload, and
  fromHttp reads fetch's Headers (consumer.ts, fetch.ts; written without casts).
- Issue 26 ("newError is untyped"): newError's fields are typed per code (its scopes, its hints, a
  delay only when it is retryable) and it returns that code's payload variant (new_error.ts).
- Issue 26 items 2-3: `Decision.code` is the `Code` union once `known` says the code is the
  registry's (a misspelt code then fails to compile, a switch over it is checked for
  exhaustiveness), and `retry(call, {maxAttempts, maxDelayMs, jitter, sleep, signal})` applies
  `decide` and the registry's limits with a replaceable sleeper and an AbortSignal (types.ts,
  misspelt.ts, retry.ts).
- Issue 40: error classes per category (`instanceof RateLimitError`), `error.code` typed so that a
  misspelt code literal does not compile while an unknown code is still represented
  (`UnknownCode`), `status` and `headers` on the error, the class of a response without a known
  category taken from its status (a bare 429 is a RateLimitError), `decide(error)`, axios responses and errors
  read as axios types them, and the observation hooks of `retry` (onAttempt, a logger, an
  OpenTelemetry-shaped span given `error.type` only by the attempt `retry` gives up on) (hooks.ts).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import REGISTRY, build_to, load_registry, tsc
from errgen.contract import view

CONSUMER = """
import {
  decide, ErrorPayloadError, fromHttp, newError, toHttp, toMcpResult, type Code, type Decision, type ErrorPayload,
} from "./sdk/src/index";

const payload: ErrorPayload = newError("RATE_LIMITED", "c-1");
const http = toHttp(payload);
const mcp = toMcpResult(payload);
const first: Decision = decide(payload, { attempt: 1 });
const last: Decision = decide(payload, { attempt: 3, maxAttempts: 3 });
export function typeErrors(): void {  // compiled, never run
  // @ts-expect-error a code the registry does not have
  newError("RATE_LIMITD", "c-1");
  // @ts-expect-error no positional attempt any more: an options object
  decide(payload, 2);
}

let caught: ErrorPayloadError | null = null;
try {
  throw new ErrorPayloadError(payload);
} catch (error) {
  if (error instanceof ErrorPayloadError && error.isKnown()) {
    const code: Code = error.code;
    void code;
    caught = error;
  }
}
declare const process: { stdout: { write(text: string): boolean } };
declare class Headers { constructor(init: Record<string, string>); }
const read = fromHttp(429, new Headers({ "Retry-After": "7" }) as unknown as Iterable<[string, string]>,
  '{"code":"RATE_LIMITED","category":"rate_limit","retryable":true,"scope":"service","correlation_id":"c"}', 0);
process.stdout.write(JSON.stringify({
  status: http.status, retryAfter: http.headers["Retry-After"], mcp: mcp.isError, first: [first.action, first.delayMs],
  last: last.action, caught: caught === null ? null : [caught.name, caught.code, caught.retryable, caught.correlationId,
  caught.message, caught instanceof Error, caught.decide().action, caught.toHttp().status, caught.toMcpResult().isError],
  fromFetchHeaders: read, thrown: ErrorPayloadError.fromHttp(503, {}, http.body, 0)?.code ?? null,
}));
"""


FETCH_CONSUMER = """
import { ErrorPayloadError, fromHttp, readResponse } from "./sdk/src/index";

declare const console: { log(text: string): void };

async function main(): Promise<void> {
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({ pull(c) { pulled++; c.enqueue(new Uint8Array(65536).fill(32)); } });
  const big = await readResponse(new Response(endless, { status: 503 }), 0);
  const body = '{"code":"RATE_LIMITED","category":"rate_limit","retryable":true,"scope":"service","correlation_id":"c"}';
  const response = new Response(body, { status: 429, headers: { "Retry-After": "7" } });
  const raw = fromHttp(response.status, response.headers, body, 0);  // the DOM's Headers, typed without DOM.Iterable
  const error = await ErrorPayloadError.fromResponse(new Response(body, { status: 429, headers: { "Retry-After": "7" } }), 0);
  console.log(JSON.stringify({ pulled, big: [big.error, typeof big.payload], raw, code: error?.code ?? null,
                               action: error?.decide().action ?? null, delay: error?.decide().delayMs ?? null }));
}
void main();
"""


NEW_ERROR = """
import { newError, type Code, type ErrorPayload } from "./sdk/src/index";

const limited = newError("RATE_LIMITED", "c", { retry_after_ms: 1000, message: "Slow down", scope: "request" });
const retryable: true = limited.retryable;  // the variant of RATE_LIMITED, not the whole union
const missing = newError("RESOURCE_NOT_FOUND", "c", { did_you_mean: ["r-2"], scope: "resource", resource_id: "r-1", state: "unchanged" });
declare const anyCode: Code;
export const widened = (): ErrorPayload => newError(anyCode, "c");

export function typeErrors(): void {  // compiled, never run
  // @ts-expect-error AUTH_EXPIRED is not retryable: it names no delay
  newError("AUTH_EXPIRED", "c", { retry_after_ms: 5 });
  // @ts-expect-error did_you_mean is not one of AUTH_EXPIRED's hints
  newError("AUTH_EXPIRED", "c", { did_you_mean: ["x"] });
  // @ts-expect-error RATE_LIMITED is never resource-scoped
  newError("RATE_LIMITED", "c", { scope: "resource" });
  // @ts-expect-error category and retryable come from the registry
  newError("RATE_LIMITED", "c", { retryable: false });
}

// A caller forwards its own optional values: undefined is left out of the payload.
export function forwarded(message?: string, hint?: string[]): ErrorPayload {
  return newError("RESOURCE_NOT_FOUND", "c", { message, did_you_mean: hint, scope: "resource", resource_id: "r-1" });
}

declare const console: { log(text: string): void };
console.log(JSON.stringify([retryable, limited, missing.did_you_mean ?? null, Object.keys(forwarded()),
                            forwarded("Gone", ["r-2"]).message ?? null]));
"""


HOOKS = """
import {
  AuthError, decide, ErrorPayloadError, errorType, InternalError, newError, RateLimitError, retry, STATUS_CATEGORIES, UnknownCode,
  ValidationError, type AttemptEvent, type Code, type SpanLike,
} from "./sdk/src/index";

// axios' own declarations, abridged (axios/index.d.ts 1.x): what an application's values are typed as.
type AxiosHeaderValue = string | string[] | number | boolean | null;
type RawAxiosResponseHeaders = Partial<Record<string, AxiosHeaderValue> & { "set-cookie": string[] }>;
interface AxiosResponse<T = unknown> { data: T; status: number; statusText: string; headers: RawAxiosResponseHeaders }
declare class AxiosError<T = unknown> extends Error {
  response?: AxiosResponse<T>; isAxiosError: boolean; code?: string; status?: number;
}
// As axios 1.7+ makes it: the response's status on the error itself too, its headers and body only in `response`.
function axiosError(response: AxiosResponse<unknown>): AxiosError<unknown> {
  return Object.assign(new Error("Request failed with status code " + response.status),
    { response, isAxiosError: true, status: response.status, code: "ERR_BAD_REQUEST" });
}

export function typeErrors(error: ErrorPayloadError): void {  // compiled, never run
  // @ts-expect-error a misspelt code has no overlap with Code | UnknownCode | null
  if (error.code === "RATE_LIMITD") return;
  // @ts-expect-error an unknown code is not a string: it cannot pass for a Code
  const code: Code | null = error.code;
  void code;
  if (error instanceof RateLimitError) {
    const classCategory: "rate_limit" = error.classCategory;
    // @ts-expect-error a RateLimitError's class is rate_limit's
    const other: "validation" = error.classCategory;
    // @ts-expect-error its category is the payload's: null for a gateway's bare 429, a newer server's as sent
    const category: "rate_limit" = error.category;
    void classCategory; void other; void category;
  }
  // @ts-expect-error headers are read-only
  error.headers["x-a"] = "b";
}

export function classes(error: ErrorPayloadError): string {  // compiled, never run
  if (error instanceof RateLimitError) return "limited";
  if (error instanceof AuthError) return "auth";
  // @ts-expect-error the classes are told apart: past them an ErrorPayloadError is left, not never
  const none: never = error;
  return String(none);
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

// A response whose payload names no category this SDK knows takes the class of the category the
// registry gives its status (STATUS_CATEGORIES), as stripe-node's RateLimitError is any 429.
const gateway = ErrorPayloadError.fromHttp(429, { "Retry-After": "5" }, "", 0);
const cosmic = ErrorPayloadError.fromHttp(429, {}, JSON.stringify({ code: "BRAND_NEW", category: "cosmic", retryable: true,
  scope: "service", correlation_id: "c-8" }), 0);
const busy = ErrorPayloadError.fromHttp(503, { "Content-Type": "text/html" }, "<html>busy</html>", 0);
const own = { code: "BRAND_NEW", category: "cosmic", retryable: false, scope: "request", correlation_id: "c-9" };
out["byStatus"] = {
  gateway: gateway === null ? null : [gateway instanceof RateLimitError, gateway.name, gateway.category, gateway.classCategory,
    gateway.code, gateway.status, gateway.decide().action, gateway.decide().reason, gateway.decide().delayMs],
  cosmic: cosmic === null ? null : [cosmic instanceof RateLimitError, cosmic.category, cosmic.classCategory, cosmic.codeText,
    cosmic.decide().reason],
  busy: busy === null ? null : [busy instanceof InternalError, busy.name, busy.decide().reason],
  proxy: proxy === null ? null : [proxy.classCategory, proxy.name],
  ofStatus: [ErrorPayloadError.of(null, { status: 429 }).name, ErrorPayloadError.of(own, { status: 409 }).name,
    ErrorPayloadError.of(own).name, ErrorPayloadError.of(newError("AUTH_EXPIRED", "c-10"), { status: 429 }).name],
  table: STATUS_CATEGORIES,
};

// axios: a response as axios gives it (data parsed, header values lists or numbers), and its error.
const body = { code: "RATE_LIMITED", category: "rate_limit", retryable: true, scope: "service", correlation_id: "c-5" };
const response: AxiosResponse<unknown> = { data: body, status: 429, statusText: "Too Many Requests",
  headers: { "retry-after": "4", "set-cookie": ["a=1", "b=2"], "content-length": "99" } };
const fromResponse = ErrorPayloadError.fromAxios(response, 0);
const fromError = ErrorPayloadError.fromAxios(axiosError({ ...response, data: "<html>busy</html>", status: 503 }), 0);
const success: AxiosResponse<unknown> = { data: { id: 1 }, status: 200, statusText: "OK", headers: {} };
const ok = ErrorPayloadError.fromAxios(success);
const refusedAxios: AxiosError<unknown> = Object.assign(new Error("connect ECONNREFUSED"), { isAxiosError: true, code: "ECONNREFUSED" });
const thrownLimit = ErrorPayloadError.fromAxios(axiosError(response), 0);  // what `axios.get` rejects with on that 429
out["axios"] = [fromResponse?.code ?? null, fromResponse?.headers["set-cookie"] ?? null, fromResponse?.decide().delayMs ?? null,
  fromError?.status ?? null, fromError?.decide().reason ?? null, ok, fromError?.name ?? null];
out["axiosThrown"] = thrownLimit === null ? null : [thrownLimit instanceof RateLimitError, thrownLimit.code, thrownLimit.status,
  thrownLimit.headers["retry-after"] ?? null, thrownLimit.decide().action, thrownLimit.decide().delayMs,
  ErrorPayloadError.fromAxios(refusedAxios)];

// An interceptor (`client.interceptors.response.use(undefined, asSdkError)`): what a catch holds, unknown, taken as it is.
const asSdkError = (error: unknown): Promise<never> => Promise.reject(ErrorPayloadError.fromAxios(error) ?? error);
async function intercepted(error: unknown): Promise<unknown> {
  try {
    return await asSdkError(error);
  } catch (caught) {
    return caught instanceof RateLimitError ? [caught.name, caught.status, caught.headers["retry-after"] ?? null]
      : caught instanceof Error ? caught.message : String(caught);
  }
}

// The hooks: a codeless 502, a refused connection, then an answer.
const logged: [string, string][] = [];
const logger = { info: (message: string) => { logged.push(["info", message]); }, warn: (message: string) => { logged.push(["warn", message]); } };
const attributes: [string, string][] = [];
const span: SpanLike = { setAttribute: (key: string, value: string) => { attributes.push([key, value]); } };
const events: AttemptEvent[] = [];
const refused = new TypeError("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) });

async function main(): Promise<void> {
  out["intercepted"] = [await intercepted(axiosError(response)), await intercepted(refusedAxios), await intercepted("text")];
  const value = await retry(async (attempt) => {
    if (attempt === 1 && proxy !== null) throw proxy;
    if (attempt === 2) throw refused;
    return "answer";
  }, { sleep: async () => {}, logger, span, onAttempt: (event) => { events.push(event); } });
  const recovered = attributes.splice(0);  // retried twice, then an answer: the call did not fail
  let rejected = "";
  try {
    await retry(async () => { throw refused; }, { maxAttempts: 2, sleep: async () => {}, logger, span });
  } catch (error) {
    rejected = errorType(error);
  }
  const exhausted = attributes.splice(0);
  // OpenTelemetry's error.type only on the call that fails: a retried 429 then an answer sets
  // nothing; a retried 429 then an AUTH_EXPIRED it gives up on (stop) sets that code, once.
  const limit = new ErrorPayloadError(newError("RATE_LIMITED", "c-6"));
  await retry(async (attempt) => { if (attempt === 1) throw limit; return "later"; }, { sleep: async () => {}, span });
  const pastLimit = attributes.splice(0);
  await retry(async (attempt) => { throw attempt === 1 ? limit : new ErrorPayloadError(newError("AUTH_EXPIRED", "c-7")); },
              { sleep: async () => {}, span }).catch(() => undefined);
  const thenAuth = attributes.splice(0);
  // An error the contract does not judge (decision null) is rejected at once and sets nothing.
  await retry(async () => { throw new RangeError("a bug"); }, { sleep: async () => {}, span }).catch(() => undefined);
  const foreign = attributes.splice(0);
  out["hooks"] = { value, rejected, logged, attributes: { recovered, exhausted, pastLimit, thenAuth, foreign },
    events: events.map((e) => [e.attempt, e.decision?.action ?? null, e.decision?.reason ?? null, e.delayMs]) };
  console.log(JSON.stringify(out));
}
void main();
"""


TYPES = """
import { decide, isKnownCode, newError, type Code, type Decision } from "./sdk/src/index";

export function describe(d: Decision): string {
  // @ts-expect-error before `known` is tested, code may be a newer server's or null
  const unchecked: Code = d.code;
  void unchecked;
  if (!d.known) return d.code === null ? "no code" : `unknown ${d.code}`;
  // @ts-expect-error a misspelt code has no overlap with the Code union
  if (d.code === "RATE_LIMITD") return "typo";
  switch (d.code) {
    case "RATE_LIMITED": case "RESOURCE_NOT_FOUND": case "AUTH_EXPIRED": case "UPSTREAM_TIMEOUT":
    case "VALIDATION_FAILED": case "CONFLICT": case "TENANT_UNKNOWN": case "OPERATOR_NOT_ALLOWED":
    case "PAYMENT_TIMEOUT": case "REFUND_WINDOW_CLOSED": case "SERVICE_UNAVAILABLE": case "INTERNAL_ERROR":
      return `known ${d.code}`;
    default: {
      // Every code but ITEM_MISSING is handled above: the compiler says which one is left.
      const left: "ITEM_MISSING" = d.code;
      return `known ${left}`;
    }
  }
}

export function narrowed(text: string): Code | null {
  return isKnownCode(text) ? text : null;
}

export const described = [
  describe(decide(newError("RATE_LIMITED", "c"))),
  describe(decide({ code: "BRAND_NEW", category: "rate_limit", retryable: true, scope: "service", correlation_id: "c" })),
  describe(decide("not a payload")),
  describe(decide(newError("ITEM_MISSING", "c"))),
];
console.log(JSON.stringify(described));
"""

RETRY = """
import { ErrorPayloadError, newError, retry, type Decision, type Sleeper } from "./sdk/src/index";

const rateLimited = (): ErrorPayloadError => new ErrorPayloadError(newError("RATE_LIMITED", "req-1"));

async function outcome<T>(run: () => Promise<T>): Promise<unknown> {
  try {
    return { ok: await run() };
  } catch (error) {
    if (error instanceof ErrorPayloadError) return { rejected: error.code };
    return { rejected: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = {};
  const slept: number[] = [];
  const fake: Sleeper = async (ms) => { slept.push(ms); };

  // Two rate limits, then an answer: the registry's 2 s pause, twice.
  const seen: [number, string, string][] = [];
  out["succeeds"] = await outcome(() => retry(async (attempt) => {
    if (attempt < 3) throw rateLimited();
    return `answer on attempt ${attempt}`;
  }, { sleep: fake, onDecision: (d: Decision, attempt: number) => { seen.push([attempt, d.action, d.reason]); } }));
  out["succeedsSlept"] = slept.splice(0);
  out["seen"] = seen;

  // Always rate limited: the registry's attempt budget (DEFAULT_MAX_ATTEMPTS) ends it.
  let calls = 0;
  out["exhausted"] = await outcome(() => retry(() => { calls++; throw rateLimited(); }, { sleep: fake }));
  out["exhaustedCalls"] = calls;
  out["exhaustedSlept"] = slept.splice(0);
  calls = 0;
  out["maxAttempts"] = await outcome(() => retry(() => { calls++; throw rateLimited(); }, { sleep: fake, maxAttempts: 2 }));
  out["maxAttemptsCalls"] = calls;
  out["maxAttemptsSlept"] = slept.splice(0);

  // Not a timed action (escalate), a wait past maxDelayMs, a foreign error: rejected at once.
  calls = 0;
  out["escalates"] = await outcome(() => retry(() => { calls++; throw new ErrorPayloadError(newError("AUTH_EXPIRED", "c")); },
                                               { sleep: fake }));
  out["tooLong"] = await outcome(() => retry(() => { calls++; throw rateLimited(); }, { sleep: fake, maxDelayMs: 1999 }));
  out["foreign"] = await outcome(() => retry(() => { calls++; throw new TypeError("boom"); }, { sleep: fake }));
  out["rejectedAtOnce"] = [calls, slept.splice(0)];

  // A payload's own delay is waited as named; jitter spreads only a backoff.
  const named = new ErrorPayloadError(newError("PAYMENT_TIMEOUT", "c", { retry_after_ms: 7 }));
  await outcome(() => retry((attempt) => { if (attempt === 1) throw named; return 1; }, { sleep: fake, jitter: true }));
  out["namedWithJitter"] = slept.splice(0);

  // The default sleeper waits for real (a 40 ms delay named by the payload).
  const started = Date.now();
  const waited = new ErrorPayloadError(newError("PAYMENT_TIMEOUT", "c", { retry_after_ms: 40 }));
  out["realSleep"] = await outcome(() => retry((attempt) => { if (attempt === 1) throw waited; return "after"; }));
  out["realSleepMs"] = Date.now() - started;

  // Aborting during the registry's 2 s wait rejects at once with the signal's reason; an aborted
  // signal calls nothing. "At once" without a clock: a 2 s marker set before the wait begins
  // would fire before the wait could end, and node runs the rejection's promise callbacks before
  // the next timer, so the marker has not fired when the rejection arrives, however loaded.
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error("user gave up")), 30);
  let waitedOut = false;
  const marker = setTimeout(() => { waitedOut = true; }, 2000);
  calls = 0;
  out["aborted"] = await outcome(() => retry(() => { calls++; throw rateLimited(); }, { signal: controller.signal }));
  out["abortedBeforeTheWaitEnded"] = !waitedOut;
  clearTimeout(marker);
  out["abortedCalls"] = calls;
  out["alreadyAborted"] = await outcome(() => retry(() => { calls++; return 1; }, { signal: controller.signal }));
  out["alreadyAbortedCalls"] = calls;
  const plain = new AbortController();
  plain.abort();
  out["abortWithoutReason"] = await outcome(() => retry(() => 1, { signal: plain.signal }));
  // A replaced sleeper receives the signal too.
  const signals: boolean[] = [];
  await outcome(() => retry((attempt) => { if (attempt === 1) throw rateLimited(); return 1; },
                              { signal: new AbortController().signal, sleep: async (_ms, signal) => { signals.push(signal !== undefined); } }));
  out["sleeperGetsSignal"] = signals;
  console.log(JSON.stringify(out));
}

void main();
"""


MISSPELT = ('import type { Decision } from "./sdk/src/index";\n'
            'export const f = (d: Decision): boolean => d.known && d.code === "RATE_LIMITD";\n')


# Issue 40 (an expert's check): a wrapper forwards its own optional settings, `undefined` when its
# caller gave none. Under exactOptionalPropertyTypes (the SDK's own setting, and the docs') that
# compiles only where each option says `| undefined`, as openai-node's and the AWS SDK's options do.
FORWARDED = """
import {
  decide, decideFailure, ErrorPayloadError, newError, retry, type AbortSignalLike, type RetryLogger, type SpanLike,
} from "./sdk/src/index";

export interface CallSettings {
  readonly maxAttempts?: number | undefined;
  readonly maxDelayMs?: number | undefined;
  readonly jitter?: boolean | undefined;
  readonly idempotent?: boolean | undefined;
  readonly signal?: AbortSignalLike | undefined;
  readonly logger?: RetryLogger | undefined;
  readonly span?: SpanLike | undefined;
  readonly status?: number | undefined;
}

export function call<T>(run: () => Promise<T>, settings: CallSettings = {}): Promise<T> {
  const { maxAttempts, maxDelayMs, jitter, idempotent, signal, logger, span } = settings;
  return retry(run, { maxAttempts, maxDelayMs, jitter, idempotent, signal, logger, span, sleep: undefined, onAttempt: undefined,
                      onDecision: undefined });
}

export function judged(settings: CallSettings = {}): string[] {
  const payload = newError("RATE_LIMITED", "c-1");
  const error = new ErrorPayloadError(payload, { status: settings.status, headers: undefined, reading: undefined });
  const options = { attempt: undefined, maxAttempts: settings.maxAttempts, maxDelayMs: settings.maxDelayMs, jitter: settings.jitter,
                    draw: undefined };
  return [decide(payload, options).action, decideFailure("reset", { ...options, idempotent: settings.idempotent }).action,
          String(error.status)];
}

async function main(): Promise<void> {
  let calls = 0;
  const value = await call(async () => {
    calls++;
    if (calls === 1) throw new ErrorPayloadError(newError("PAYMENT_TIMEOUT", "c-2", { retry_after_ms: 1 }));
    return "answer";
  });
  console.log(JSON.stringify([value, calls, judged(), judged({ maxAttempts: 1, idempotent: true, status: 429 })]));
}
void main();
"""


SOURCES = {"consumer.ts": CONSUMER, "fetch.ts": FETCH_CONSUMER, "new_error.ts": NEW_ERROR, "hooks.ts": HOOKS, "types.ts": TYPES,
           "retry.ts": RETRY, "misspelt.ts": MISSPELT, "forwarded.ts": FORWARDED}


@pytest.fixture(scope="module")
def compiled(node_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list[str]], Path]:
    """Every consumer above compiled by one tsc run against the default registry's package: the
    errors by file name (a file without errors is absent; only misspelt.ts may have any), and the
    folder of the JavaScript."""
    root = tmp_path_factory.mktemp("use")
    build_to(REGISTRY, root / "out", "typescript")
    sdk = root / "out" / "typescript"
    (root / "sdk").symlink_to(sdk)
    for name, source in SOURCES.items():
        (root / name).write_text(source)
    options = json.loads("\n".join((sdk / "tsconfig.json").read_text().splitlines()[1:]))["compilerOptions"]
    options.pop("rootDir")
    options.update({"lib": ["ES2022", "DOM"], "target": "ES2022", "outDir": "js", "declaration": False})
    (root / "tsconfig.json").write_text(json.dumps({"compilerOptions": options, "files": list(SOURCES)}))
    done = tsc(node_bin, root, root / "js")
    errors: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        if ": error TS" in line:
            errors.setdefault(Path(line.split("(", 1)[0]).name, []).append(line)
    assert (done.returncode == 0) == (errors == {}), done.stdout
    assert set(errors) <= {"misspelt.ts"}, done.stdout
    return errors, root / "js"


def run(compiled: tuple[dict[str, list[str]], Path], name: str) -> Any:
    """What `name`.ts printed (one JSON document), run under node."""
    errors, js = compiled
    assert f"{name}.ts" not in errors, errors[f"{name}.ts"]
    done = subprocess.run(["node", str(js / f"{name}.js")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_strict_consumer_uses_the_typed_payload_the_error_class_and_decide_options(compiled: tuple[dict[str, list[str]], Path]) -> None:
    got = run(compiled, "consumer")
    assert got["status"] == 429 and got["retryAfter"] == "2" and got["mcp"] is True
    assert got["first"] == ["pause", 2000] and got["last"] == "stop"
    assert got["caught"] == ["ErrorPayloadError", "RATE_LIMITED", True, "c-1", "RATE_LIMITED", True, "pause", 429, True]
    assert got["fromFetchHeaders"]["retry_after_ms"] == 7000
    assert got["thrown"] == "RATE_LIMITED"


def test_a_fetch_response_is_read_with_a_bounded_body_and_typed_dom_headers(compiled: tuple[dict[str, list[str]], Path]) -> None:
    """fetch's Response and Headers as the DOM lib types them (no DOM.Iterable) compile; Retry-After
    is read from them; an endless body stops being read past the size limit (unreadable)."""
    got = run(compiled, "fetch")
    assert got["big"] == [True, "string"] and got["pulled"] < 40  # about 1 MB of 64 KiB chunks, then cancelled
    assert got["raw"]["retry_after_ms"] == 7000
    assert [got["code"], got["action"], got["delay"]] == ["RATE_LIMITED", "pause", 7000]


def test_new_error_fields_and_result_are_typed_per_code(compiled: tuple[dict[str, list[str]], Path]) -> None:
    retryable, limited, hint, forwarded_keys, forwarded_message = run(compiled, "new_error")
    # Fields take undefined (a caller's own optional values, forwarded): left out, never sent as null.
    assert forwarded_keys == ["code", "category", "retryable", "scope", "resource_id", "correlation_id"]
    assert forwarded_message == "Gone"
    assert retryable is True and hint == ["r-2"]
    assert limited == {"code": "RATE_LIMITED", "category": "rate_limit", "retryable": True, "scope": "request",
                       "correlation_id": "c", "retry_after_ms": 1000, "message": "Slow down"}


def test_error_classes_codes_axios_and_retry_hooks_from_a_strict_consumer(compiled: tuple[dict[str, list[str]], Path]) -> None:
    got = run(compiled, "hooks")
    assert got["limited"] == [True, True, "RateLimitError", 429, "3", "r-1", "RATE_LIMITED", "rate_limit", "pause", 3000]
    assert got["newer"] == [True, True, "BRAND_NEW", "BRAND_NEW", "BRAND_NEW", "unknown-code"]
    assert got["proxy"] == [True, None, None, 502, "retry", "status-fallback"]
    assert got["thrown"] == [False, "ErrorPayloadError", True, "AuthError"]
    # No payload, or a category this SDK does not know: the class of the category the registry
    # gives the status (429 rate_limit, 503 internal: registry/errors.yaml has no 502, so a proxy's
    # 502 stays the base class); the category stays as sent, the decision as before.
    by_status = got["byStatus"]
    assert by_status["gateway"] == [True, "RateLimitError", None, "rate_limit", None, 429, "pause", "status-fallback", 5000]
    assert by_status["cosmic"] == [True, "cosmic", "rate_limit", "BRAND_NEW", "unknown-code"]
    assert by_status["busy"] == [True, "InternalError", "status-fallback"]
    assert by_status["proxy"] == [None, "ErrorPayloadError"]
    # A known category wins over the status; an error a service makes without a status is the base class.
    assert by_status["ofStatus"] == ["RateLimitError", "ConflictError", "ErrorPayloadError", "AuthError"]
    assert by_status["table"] == {str(status): category for status, category in view(load_registry()).status_categories}
    assert got["axios"] == ["RATE_LIMITED", "a=1, b=2", 4000, 503, "status-fallback", None, "InternalError"]
    # The AxiosError axios rejects with carries `status` beside `response`: read from the response.
    assert got["axiosThrown"] == [True, "RATE_LIMITED", 429, "4", "pause", 4000, None]
    # fromAxios takes a catch's `unknown` as it is: an interceptor is one line, no cast, no guard.
    assert got["intercepted"] == [["RateLimitError", 429, "4"], "connect ECONNREFUSED", "text"]
    hooks = got["hooks"]
    assert hooks["value"] == "answer" and hooks["rejected"] == "refused"
    assert hooks["events"] == [[1, "retry", "status-fallback", 500], [2, "retry", "transport-failure", 1000]]
    # error.type only on the attempt retry gives up on, as the semantic conventions ask (the 502 and
    # the refusal retried before an answer set nothing), and never for an error it does not judge.
    assert hooks["attributes"] == {"recovered": [], "exhausted": [["error.type", "refused"]], "pastLimit": [],
                                   "thenAuth": [["error.type", "AUTH_EXPIRED"]], "foreign": []}
    assert [level for level, _ in hooks["logged"]] == ["info", "info", "info", "warn"]
    assert "502" in hooks["logged"][0][1] and "500 ms" in hooks["logged"][0][1]
    assert "giving up" in hooks["logged"][3][1] and "attempts-exhausted" in hooks["logged"][3][1]


def test_decision_code_narrows_to_the_code_union_when_known(compiled: tuple[dict[str, list[str]], Path]) -> None:
    described = run(compiled, "types")
    assert described == ["known RATE_LIMITED", "unknown BRAND_NEW", "no code", "known ITEM_MISSING"]


def test_a_misspelt_code_in_a_switch_under_known_does_not_compile(compiled: tuple[dict[str, list[str]], Path]) -> None:
    """Without the discriminated Decision this compiles (code is a plain string): the typo goes unseen."""
    errors, _ = compiled
    assert any("TS2367" in line and '"RATE_LIMITD"' in line for line in errors.get("misspelt.ts", [])), errors


def test_retry_applies_decide_and_the_registry_limits(compiled: tuple[dict[str, list[str]], Path]) -> None:
    got = run(compiled, "retry")
    assert isinstance(got, dict)
    assert got["succeeds"] == {"ok": "answer on attempt 3"} and got["succeedsSlept"] == [2000, 2000]
    assert got["seen"] == [[1, "pause", "registry"], [2, "pause", "registry"]]
    # DEFAULT_MAX_ATTEMPTS is 5: five calls, four waits, then the error itself.
    assert got["exhausted"] == {"rejected": "RATE_LIMITED"} and got["exhaustedCalls"] == 5
    assert got["exhaustedSlept"] == [2000] * 4
    assert got["maxAttempts"] == {"rejected": "RATE_LIMITED"} and got["maxAttemptsCalls"] == 2 and got["maxAttemptsSlept"] == [2000]
    assert got["escalates"] == {"rejected": "AUTH_EXPIRED"} and got["tooLong"] == {"rejected": "RATE_LIMITED"}
    assert got["foreign"] == {"rejected": "TypeError: boom"} and got["rejectedAtOnce"] == [3, []]
    assert got["namedWithJitter"] == [7]
    # A lower bound only: load makes the wait longer, never shorter.
    assert got["realSleep"] == {"ok": "after"} and got["realSleepMs"] >= 39
    assert got["aborted"] == {"rejected": "Error: user gave up"} and got["abortedBeforeTheWaitEnded"] and got["abortedCalls"] == 1
    assert got["alreadyAborted"] == {"rejected": "Error: user gave up"} and got["alreadyAbortedCalls"] == 1
    assert got["abortWithoutReason"] == {"rejected": "AbortError: This operation was aborted"}
    assert got["sleeperGetsSignal"] == [True]


def test_options_take_undefined_so_a_wrapper_forwards_its_own_optional_settings(compiled: tuple[dict[str, list[str]], Path]) -> None:
    """Without `| undefined` on each option, forwarded.ts does not compile (TS2379, exactOptionalPropertyTypes)."""
    value, calls, defaults, limited = run(compiled, "forwarded")
    assert [value, calls] == ["answer", 2]
    assert defaults == ["pause", "escalate", "null"] and limited == ["stop", "escalate", "429"]
