// Acting on errors: decide() for agents, strict and tolerant parsing, MCP and HTTP mapping,
// newError() for services and didYouMean() for near-miss suggestions. Every SDK errgen generates
// behaves the same way (docs/conformance.md); no function here throws on what a server sends.

import {
  BACKOFF_BASE_MS, BACKOFF_MAX_EXPONENT, BACKOFF_MAX_MS, CATEGORIES, CATEGORY_ERRORS, DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS,
  DID_YOU_MEAN_LIMIT, ENVELOPE, ENVELOPE_ARRAY, EXHAUSTED, FALLBACK_ACTIONS, FIELDS, MAX_BODY_BYTES, MAX_DELAY_VALUE_MS, PROBLEM_BASE,
  REGISTRY_NAME, RESPONSE, STATUS_CATEGORIES,
} from "./contract.js";
import type { Action, Category, Code, Parsed, Reason } from "./contract.js";
import type { ErrorPayload, NewErrorFields, PayloadOf } from "./payload.js";
import { recoveryEntry } from "./recovery.js";
import type { RecoveryEntry } from "./recovery.js";
import { envelopeProblems, has, isObject, own, registryProblems, strictProblems, wireNames } from "./verdict.js";
import type { Json, Problem } from "./verdict.js";
import { applicable, codeText, delayMs, first, isError, messageText, prefixed, readCode, readXml, registryCode, WIRE_CODE } from "./reading.js";
import type { DelaySource } from "./reading.js";
import { asText, bodyTooLarge, headerMap, mcpPayload, readJson, toJson, writableHeader } from "./wire.js";
import { apply as applyWrites, toXml, writes } from "./writing.js";
import type { Headers } from "./wire.js";
import type { TransportFailure } from "./transport.js";

const W = wireNames(FIELDS);
// The payload fields' wire names, in the contract's order.
const WIRE_NAMES: readonly string[] = FIELDS.map((spec) => spec.wire);

function w(name: string): string {
  return W[name] ?? name;
}

/** A payload the contract rejects; `problems` holds [problem id, message, field] triples. */
export class PayloadError extends Error {
  readonly problems: readonly Problem[];
  constructor(problems: readonly Problem[]) {
    super(problems.map((p) => p[1]).join("; "));
    this.name = "PayloadError";
    this.problems = problems;
  }
}

export type Searched = { readonly [parameter: string]: string | number | boolean };

/** What every decision says, whatever its code. */
export interface DecisionFacts {
  readonly action: Action;
  readonly reason: Reason;
  /** The code as the API sends it: `code`'s wire code when several registry codes share one
   * (OpenAI's rate_limit_exceeded for its tokens and requests variants); for a response, the code
   * read (SQLSTATE 08006, which the code with `wire_prefix` 08 matched); else `code` itself; null
   * with `code`. */
  readonly wireCode: string | null;
  readonly delayMs: number | null;
  readonly correlationId: string | null;
  readonly resourceId: string | null;
  readonly didYouMean: readonly string[];
  readonly accepted: readonly string[];
  readonly searched: Searched;
}

/** A decision about a code of this registry: `code` is a `Code`. */
export interface KnownCodeDecision extends DecisionFacts {
  readonly known: true;
  readonly code: Code;
}

/** A decision about a code this SDK does not know (a newer server's, kept as its text), or about
 * no code at all (`null`: the payload was not well-formed). */
export interface OtherCodeDecision extends DecisionFacts {
  readonly known: false;
  readonly code: string | null;
}

/** What to do about one error, and which rule decided (`reason`). Test `known` to narrow `code` to
 * the `Code` union: `if (d.known && d.code === "RATE_LIMITED")` (a misspelt code does not compile
 * there), or a `switch (d.code)` under `if (d.known)` that checks every code. */
export type Decision = KnownCodeDecision | OtherCodeDecision;

/** Whether `code` is one of this registry's codes (narrows it to `Code`). */
export function isKnownCode(code: string): code is Code {
  return recoveryEntry(code) !== undefined;
}

/** The strict problems of a raw payload (none: valid) and its tolerant reading. */
export interface Verdict {
  readonly valid: boolean;
  readonly problems: readonly Problem[];
  readonly parsed: Parsed;
}

const lookup = (code: string): RecoveryEntry | undefined => recoveryEntry(code);

/** Every reason the strict contract rejects `payload` (empty: valid). */
export function payloadProblems(payload: unknown): Problem[] {
  return strictProblems(FIELDS, CATEGORIES, lookup, payload);
}

/** True when `x` is a payload of this contract: exactly what the JSON Schema accepts. */
export function isErrorPayload(x: unknown): x is ErrorPayload {
  return payloadProblems(x).length === 0;
}

/** The wait when neither payload nor registry gives one: base * 2^(attempt-1), capped; with
 * jitter, a uniform draw below that ("full jitter"). */
export function backoffMs(attempt: number, jitter = false): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), BACKOFF_MAX_EXPONENT);
  const delay = Math.min(BACKOFF_BASE_MS * 2 ** exponent, BACKOFF_MAX_MS);
  return jitter ? Math.floor(Math.random() * delay) : delay;
}

function delayOnFinal(payload: Json): boolean {
  return own(payload, w("retryable")) === false && Object.prototype.hasOwnProperty.call(payload, w("retry_after_ms"));
}

function unknown(payload: Json): boolean {
  return recoveryEntry(String(own(payload, w("code")))) === undefined
    || !(CATEGORIES as readonly unknown[]).includes(own(payload, w("category")));
}

/** Both verdicts at once: strict problems, and known / unknown / invalid. */
export function checkPayload(payload: unknown): Verdict {
  const problems = payloadProblems(payload);
  const parsed: Parsed = !isObject(payload) || envelopeProblems(FIELDS, payload).length > 0 || delayOnFinal(payload)
    ? "invalid" : unknown(payload) ? "unknown" : "known";
  return { valid: problems.length === 0, problems, parsed };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function decision(payload: Json, action: Action, reason: Reason, delayMs: number | null = null): Decision {
  const resourceId = own(payload, w("resource_id"));
  const searched = own(payload, w("searched"));
  const code = String(own(payload, w("code")));
  const facts: DecisionFacts = {
    action, reason, delayMs,
    wireCode: WIRE_CODE.get(code) ?? code,
    correlationId: String(own(payload, w("correlation_id"))),
    resourceId: typeof resourceId === "string" ? resourceId : null,
    didYouMean: strings(own(payload, w("did_you_mean"))),
    accepted: strings(own(payload, w("accepted"))),
    searched: isObject(searched) ? { ...(searched as Searched) } : {},
  };
  return isKnownCode(code) ? { known: true, code, ...facts } : { known: false, code, ...facts };
}

/** How `decide` counts attempts and bounds the wait; every field is optional. */
export interface DecideOptions {
  /** This attempt's number, from 1 (default 1). */
  readonly attempt?: number | undefined;
  /** At this attempt a retry escalates and a pause stops (default DEFAULT_MAX_ATTEMPTS). */
  readonly maxAttempts?: number | undefined;
  /** A longer wait escalates instead (default DEFAULT_MAX_DELAY_MS). */
  readonly maxDelayMs?: number | undefined;
  /** Draw the backoff (only the backoff) uniformly below its value (default false). */
  readonly jitter?: boolean | undefined;
  /** With jitter, the draw in [0, 1): the backoff becomes floor(draw() * backoff) (default Math.random). */
  readonly draw?: (() => number) | undefined;
}

/** The action the registry prescribes for a payload: the SDK's own ErrorPayload, or a raw JSON
 * value as received (any value); for a caught ErrorPayloadError, what `error.decide()` says. */
export function decide(payload: unknown, options: DecideOptions = {}): Decision {
  // The error a client caught decides by the response it was read from (`error.decide()`).
  if (payload instanceof ErrorPayloadError) return payload.decide(options);
  if (!isObject(payload) || envelopeProblems(FIELDS, payload).length > 0) {
    const id = isObject(payload) ? own(payload, w("correlation_id")) : null;
    return { action: "escalate", reason: "invalid-payload", known: false, code: null, wireCode: null, delayMs: null, correlationId: typeof id === "string" ? id : null,
             resourceId: null, didYouMean: [], accepted: [], searched: {} };
  }
  if (delayOnFinal(payload)) return decision(payload, "escalate", "invalid-payload");
  const entry = recoveryEntry(String(own(payload, w("code"))));
  const scope = String(own(payload, w("scope")));
  let action: Action;
  let reason: Reason;
  let registryDelay: number | null = null;
  if (entry === undefined || unknown(payload)) {
    action = FALLBACK_ACTIONS[`${scope}/${String(own(payload, w("retryable")))}`] ?? "escalate";
    reason = "unknown-code";
  } else if (registryProblems(FIELDS, CATEGORIES, lookup, payload).length > 0) {
    return decision(payload, "escalate", "contradicts-registry");
  } else {
    action = entry.actions[scope as keyof typeof entry.actions] ?? "escalate";
    reason = "registry";
    registryDelay = entry.retryAfterMs;
  }
  const given = own(payload, w("retry_after_ms"));
  const [timedAction, timedReason, delay] = timed(action, reason, typeof given === "number" ? given : registryDelay, options);
  return decision(payload, timedAction, timedReason, delay);
}

/** The timing rule of a timed action (retry, pause; any other passes with no delay): attempts,
 * then the delay (`named`, else the backoff for this attempt) and its bound. The bound is on the
 * delay the rule asks for, so escalating never depends on a random draw; jitter then spreads only
 * a backoff (a named delay is waited as named), as in every SDK. */
function timed(action: Action, reason: Reason, named: number | null, options: DecideOptions): [Action, Reason, number | null] {
  const { attempt = 1, maxAttempts = DEFAULT_MAX_ATTEMPTS, maxDelayMs = DEFAULT_MAX_DELAY_MS, jitter = false, draw = Math.random } = options;
  const exhausted = EXHAUSTED[action];
  if (exhausted === undefined) return [action, reason, null];
  if (attempt >= maxAttempts) return [exhausted, "attempts-exhausted", null];
  const delay = named ?? backoffMs(attempt);
  if (delay > maxDelayMs) return ["escalate", "delay-exceeds-max", null];
  return [action, reason, jitter && named === null ? Math.floor(draw() * delay) : delay];
}

/** A decision that concerns no payload (a response without one, a transport failure): no code,
 * no hints. */
function bare(action: Action, reason: Reason, delayMs: number | null, correlationId: string | null): Decision {
  return { action, reason, known: false, code: null, wireCode: null, delayMs, correlationId, resourceId: null, didYouMean: [], accepted: [], searched: {} };
}

/** How a response without a readable code is decided by its status alone, as the official API
 * clients do: the exact status in the registry's status table (`wire.statuses` over errgen's
 * defaults: 429 pause, 5xx retry, 401 and 403 stop, 404 skip, other 4xx fix), else its class
 * (`4xx`), else escalate (docs/conformance.md). */
export function statusAction(status: number): Action {
  const actions = RESPONSE.status_actions;
  const exact = has(actions, String(status)) ? actions[String(status)] : undefined;
  const found = exact ?? (has(actions, `${Math.floor(status / 100)}xx`) ? actions[`${Math.floor(status / 100)}xx`] : undefined);
  return found !== undefined && Number.isInteger(status) && status >= 100 && status <= 599 ? found : "escalate";
}

/** What to do about a response (`readHttp`): its payload decided as `decide` does; a response
 * with no payload at all (a proxy's HTML 502, a gateway's bare 429 or `{"message":"Too Many
 * Requests"}`, an empty 503) by its status (`statusAction`), reason `status-fallback`, honouring
 * its Retry-After. A body that claims the API's error shape and breaks the contract stays
 * `invalid-payload`. */
export function decideResponse(reading: HttpReading, options: DecideOptions = {}): Decision {
  if (!reading.error || reading.claimed) {
    const decided = decide(reading.payload, options);
    // The code as the API sent it: 08006 for the registry code its prefix 08 matched.
    return decided.code === null || reading.code === null ? decided : { ...decided, wireCode: reading.code };
  }
  let action = statusAction(reading.status);
  const delay = reading.fallbackDelayMs;
  // A status that names a wait is a rate limit (GitHub's secondary limits send 403 + Retry-After).
  if (EXHAUSTED[action] === undefined && delay !== null && RESPONSE.paused_with_delay.includes(reading.status)) action = "pause";
  const [timedAction, reason, delayMs] = timed(action, "status-fallback", delay, options);
  return bare(timedAction, reason, delayMs, reading.correlationId);
}

// The failures where the request never reached the server: always safe to send again.
const NOT_SENT: readonly string[] = ["refused", "tls"];

/** `decide`'s options, and whether the call may safely be sent twice. */
export interface FailureOptions extends DecideOptions {
  /** The call may be sent twice (a GET, a PUT, a request with an Idempotency-Key): a reset or a
   * timeout is then retried too (default false: those escalate as `outcome-unknown`). */
  readonly idempotent?: boolean | undefined;
}

/** What to do when no response came (`failureOf(error)` names the failure; any other text counts
 * as `reset`): `refused` and `tls` are retried; `reset` and `timeout` only when the call is
 * idempotent, else escalated with reason `outcome-unknown`. Retries follow `decide`'s timing
 * rule with reason `transport-failure`. */
export function decideFailure(failure: TransportFailure | string, options: FailureOptions = {}): Decision {
  if (!NOT_SENT.includes(failure) && options.idempotent !== true) return bare("escalate", "outcome-unknown", null, null);
  const [action, reason, delayMs] = timed("retry", "transport-failure", null, options);
  return bare(action, reason, delayMs, null);
}

/** Strict (a service, before sending): reject unknown codes, contradictions, extra fields. */
export function validatePayload(payload: unknown): ErrorPayload {
  const problems = payloadProblems(payload);
  if (problems.length > 0) throw new PayloadError(problems);
  return payload as ErrorPayload;
}

/** Strict, as an assertion: after it returns, TypeScript knows `payload` is an ErrorPayload. */
export function assertErrorPayload(payload: unknown): asserts payload is ErrorPayload {
  validatePayload(payload);
}

/** A well-formed payload whose code (or category) this SDK does not know: a newer server. */
export interface UnknownErrorPayload {
  readonly known: false;
  readonly code: string;
  readonly category: string;
  readonly retryable: boolean;
  readonly scope: string;
  readonly correlationId: string;
  readonly raw: Json;
}

/** Tolerant (a client): a code from a newer server comes back as { known: false, ... }, never as
 * a failure. Throws PayloadError for an invalid payload, and for a known code that contradicts the
 * registry (`checkPayload` reports that case as known without throwing). */
export function parsePayload(payload: unknown): { readonly known: true; readonly payload: ErrorPayload } | UnknownErrorPayload {
  const verdict = checkPayload(payload);
  if (verdict.parsed === "invalid" || !isObject(payload)) throw new PayloadError(verdict.problems);
  if (verdict.parsed === "unknown") {
    return { known: false, code: String(own(payload, w("code"))), category: String(own(payload, w("category"))),
             retryable: own(payload, w("retryable")) === true, scope: String(own(payload, w("scope"))),
             correlationId: String(own(payload, w("correlation_id"))), raw: { ...payload } };
  }
  return { known: true, payload: validatePayload(payload) };
}

/** A payload for `code` with category, retryable and default scope filled from the table, so a
 * service cannot emit a contradictory one. `fields` are payload fields by wire name (scope,
 * resource_id, message, retry_after_ms and the hints the code allows). Throws PayloadError on
 * anything the contract rejects. */
export function newError<C extends Code>(code: C, correlationId: string, fields?: NewErrorFields<C>): PayloadOf<C> {
  const entry = recoveryEntry(code);
  if (entry === undefined) {
    throw new PayloadError([["unknown-code", `code ${JSON.stringify(code)} is not in registry ${REGISTRY_NAME}`, w("code")]]);
  }
  const entries: [string, unknown][] = Object.entries(fields ?? {});
  const given = entries.filter(([, value]) => value !== undefined && value !== null);
  const merged: Json = Object.fromEntries([
    [w("code"), entry.code], [w("category"), entry.category], [w("retryable"), entry.retryable], [w("scope"), entry.scope],
    [w("correlation_id"), correlationId], ...given,
  ]);
  // In the contract's field order, whatever the order of `fields`: what toHttp sends is then
  // byte for byte what every SDK's new_error sends (an unknown key, rejected below, goes last).
  const rank = (key: string): number => (WIRE_NAMES.includes(key) ? WIRE_NAMES.indexOf(key) : WIRE_NAMES.length);
  const payload: Json = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => rank(a) - rank(b)));
  // The entry is the code's own, so the payload validated is that code's variant.
  return validatePayload(payload) as PayloadOf<C>;
}

/** An MCP tools/call result: isError, the payload as compact JSON text, and as structuredContent. */
export function toMcpResult(
  payload: ErrorPayload | Json,
): { content: { type: "text"; text: string }[]; structuredContent: Json; isError: true } {
  return { content: [{ type: "text", text: toJson(payload) }], structuredContent: { ...payload }, isError: true };
}

/** The raw payload of an MCP tools/call result (structuredContent, else the first text item's
 * JSON), or null when it carries none; judge it with checkPayload or decide. */
export function fromMcpResult(result: unknown): unknown {
  return mcpPayload(result);
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

function delayOf(payload: Json, entry: RecoveryEntry | undefined): number | null {
  const given = own(payload, w("retry_after_ms"));
  if (typeof given === "number" && Number.isInteger(given) && given >= 0) return Math.min(given, MAX_DELAY_VALUE_MS);
  if (given === undefined && entry !== undefined && own(payload, w("retryable")) === true) return entry.retryAfterMs;
  return null;
}

/** Status from the code's httpStatus (500 for a code this SDK does not know); Retry-After in
 * whole seconds, rounded up, and retry-after-ms when there is a delay; x-should-retry from
 * retryable, for clients that never read the body; with problem = true an RFC 9457
 * application/problem+json body with the payload fields as extension members. */
export function toHttp(given: ErrorPayload | Json, problem = false): HttpResponse {
  const payload: Json = { ...given };
  const code = own(payload, w("code"));
  const entry = typeof code === "string" ? recoveryEntry(code) : undefined;
  const status = entry !== undefined ? entry.httpStatus : 500;
  const writing: Record<string, string> = {
    "Content-Type": problem ? "application/problem+json" : "application/json",
    "x-should-retry": own(payload, w("retryable")) === true ? "true" : "false",
  };
  const delay = delayOf(payload, entry);
  if (delay !== null) {
    writing["Retry-After"] = String(Math.ceil(delay / 1000));
    writing["retry-after-ms"] = String(delay);
  }
  const data: Json = ENVELOPE !== null ? Object.fromEntries([[ENVELOPE, wrapped({ ...payload })]]) : { ...payload };
  const message = own(payload, w("message"));
  const members: [string, unknown][] = [
    ["type", entry !== undefined ? entry.typeUri : PROBLEM_BASE + (typeof code === "string" ? code : "")],
    ["title", entry !== undefined ? entry.description : String(code)], ["status", status],
    ...(typeof message === "string" ? [["detail", message] as [string, unknown]] : []),
  ];
  const body: Json = problem ? Object.fromEntries([...members, ...Object.entries(data)]) : data;
  const shaped = apiShape(payload, body, writing);
  // One rule for every header value written (docs/conformance.md, "Writing"): one that would split
  // or break the response (CR, LF, NUL, non-ASCII, past MAX_HEADER_CHARS, empty) is left out; the
  // body still carries it.
  const headers: Record<string, string> = Object.fromEntries(Object.entries(writing).filter(([, value]) => writableHeader(value)));
  if (RESPONSE.format === "xml") {
    headers["Content-Type"] = "application/xml";
    return { status, headers, body: toXml(shaped) };
  }
  return { status, headers, body: toJson(shaped) };
}

/** The value toHttp writes under the envelope: the payload, or for an array envelope a one-entry array. */
function wrapped(payload: Json): unknown {
  return ENVELOPE_ARRAY ? [payload] : payload;
}

/** The payload object in what `wrapped` made of it. */
function unwrapped(value: unknown): Json {
  return (ENVELOPE_ARRAY ? (value as unknown[])[0] : value) as Json;
}

/** What the API itself sends (docs/conformance.md, "Writing in the API's own shape"): a code that
 * shares its wire code with others goes out as that wire code; each fact also sits where the
 * registry reads it first, in the body and in a header, and every `equals` condition holds. An XML
 * API's body holds those writes alone. */
function apiShape(payload: Json, body: Json, headers: Record<string, string>): unknown {
  const code = own(payload, w("code"));
  const sent = typeof code === "string" ? WIRE_CODE.get(code) ?? code : code;
  if (sent !== code) {
    const inner: Json = { ...(ENVELOPE !== null ? unwrapped(body[ENVELOPE]) : body) };
    put(inner, w("code"), sent);
    if (ENVELOPE !== null) {
      body = { ...body };
      put(body, ENVELOPE, wrapped(inner));
    } else {
      body = inner;
    }
  }
  const rows = typeof sent === "string" && has(RESPONSE.variants, sent) ? RESPONSE.variants[sent] ?? [] : [];
  const variant = rows.filter(([name]) => name === code).flatMap(([, conditions]) => conditions);
  const facts = {
    code: sent, message: own(payload, w("message")), correlation_id: own(payload, w("correlation_id")),
    resource_id: own(payload, w("resource_id")),
  };
  return applyWrites(RESPONSE.format === "xml" ? {} : body, headers, writes(facts, variant));
}

/** What `readHttp` found in a response. `payload` is what `fromHttp` returns (judge it with
 * checkPayload or decide); `code`, `correlationId` and `delayMs` are what the registry's response
 * sources yield (null: nothing usable); `document` is the whole parsed body (JSON, or XML as nested
 * objects), null when unreadable: the API's own fields, kept for the caller. */
export interface HttpReading {
  readonly error: boolean;
  readonly payload: unknown;
  readonly code: string | null;
  readonly correlationId: string | null;
  readonly delayMs: number | null;
  readonly document: unknown;
  /** The status read with (0 when it was not an integer). */
  readonly status: number;
  /** Whether the body claims to be the API's error shape: a code was read, or a JSON object holds
   * where the registry reads the code. A response that claims nothing is decided by its status. */
  readonly claimed: boolean;
  /** The wait a response without a payload asks for: `delayMs`, else the standard
   * `retry-after-ms` / `Retry-After` headers; null when none. */
  readonly fallbackDelayMs: number | null;
}

const REQUIRED = FIELDS.filter((spec) => spec.required).map((spec) => spec.wire);

function startsWithTag(text: string): boolean {
  let i = 0;
  while (i < text.length && " \t\r\n".includes(text.charAt(i))) i++;
  return text.charAt(i) === "<";
}

/** Read an HTTP response as docs/conformance.md ("Reading a real response") specifies: where the
 * registry says each fact is; facts the response does not carry come from the registry row of the
 * code it carries (an unknown code: from the status). Never throws on what a server sends.
 * `headers`: a plain object, [name, value] pairs, or fetch's `Headers`; `body`: a string or bytes
 * (Uint8Array, ArrayBuffer; anything else is empty); `nowMs` is the clock of HTTP-dates. */
export function readHttp(status: number, headers: Headers, body: unknown, nowMs: number = Date.now()): HttpReading {
  const codeStatus = typeof status === "number" && Number.isInteger(status) ? status : 0;
  const tooLarge = bodyTooLarge(body);
  const [ok, decoded] = asText(body);
  const text = decoded.startsWith("\ufeff") ? decoded.slice(1) : decoded;
  // An xml registry reads a body that starts with "<" as XML, any other as JSON (what toHttp writes).
  const xml = RESPONSE.format === "xml" && startsWithTag(text);
  const [parsed, document] = ok && !tooLarge ? (xml ? readXml(text) : readJson(text)) : [false, null];
  const found = parsed ? document : null;
  const code = readCode(RESPONSE.code, found, headers, codeStatus, knownCode);
  const correlationId = first(RESPONSE.correlation_id, found, headers, codeText);
  const delay = delayMs(found, headers, nowMs, delaySources(code, codeStatus, found, headers));
  const error = isError(codeStatus, found, headers);
  let payload: unknown = null;
  if (error) {
    // A body that cannot be read, or an XML one without a code, is returned as its text, unless a
    // header carries the code.
    payload = code !== null || (parsed && !xml)
      ? payloadOf(codeStatus, headers, found, code, correlationId, delay, xml, nowMs)
      : text;
  }
  const claimed = code !== null || (!xml && claims(found));
  let fallbackDelayMs = delay;
  if (fallbackDelayMs === null && error && !claimed) fallbackDelayMs = delayMs(found, headers, nowMs, RESPONSE.own_retry_after);
  return { error, payload, code, correlationId, delayMs: delay, document: found ?? null, status: codeStatus, claimed, fallbackDelayMs };
}

/** The registry's delay sources that apply to the registry code read (its wire code, registry
 * code or prefix matched); none of the filtered ones for an unknown code or none. */
function delaySources(code: string | null, status: number, document: unknown, headers: Headers): DelaySource[] {
  const name = code === null ? null : registryCode(code, status, document, headers, () => true, isKnownCode);
  const entry = name === null ? undefined : recoveryEntry(name);
  return applicable(RESPONSE.retry_after, entry === undefined ? null : name, entry?.category ?? null);
}

/** Whether this SDK decides `code` by the registry: a wire code several registry codes share, a
 * registry code, or a code a `wire_prefix` matches. */
function knownCode(code: string): boolean {
  return has(RESPONSE.variants, code) || isKnownCode(code) || prefixed(code) !== undefined;
}

/** Whether a JSON document holds where the registry reads the code (a body source's first key):
 * the API's own error shape, which a payload breaking the contract must not escape. */
function claims(document: unknown): boolean {
  return isObject(document) && RESPONSE.code.some((source) => {
    const step = source.in === "body" ? source.path[0] : undefined;
    return typeof step === "string" && has(document, step);
  });
}

/** Whether `value` is an object holding every required field (by wire name). */
function complete(value: unknown): value is Json {
  return isObject(value) && REQUIRED.every((name) => Object.prototype.hasOwnProperty.call(value, name));
}

/** The payload a JSON body carries under the envelope (docs/conformance.md): the value under its
 * key; for an array envelope whose value is an array, its first entry holding every required
 * field, else the array itself (then read by the registry's sources). A body without the key is
 * its own payload. */
function payloadIn(document: Json): unknown {
  if (ENVELOPE === null || !Object.prototype.hasOwnProperty.call(document, ENVELOPE)) return document;
  const value = document[ENVELOPE];
  if (!ENVELOPE_ARRAY || !Array.isArray(value)) return value;
  return (value as unknown[]).find(complete) ?? value;
}

function payloadOf(
  status: number, headers: Headers, document: unknown, code: string | null, correlationId: string | null,
  delay: number | null, xml: boolean, nowMs: number,
): unknown {
  const value = !xml && isObject(document) ? payloadIn(document) : document;
  if (complete(value) || code === null) {
    return asSent(status, headers, document, value, delayMs(document, headers, nowMs, RESPONSE.own_retry_after));
  }
  const name = registryCode(code, status, document, headers, () => true, isKnownCode);
  const entry = recoveryEntry(name);
  const payload: [string, unknown][] = [[w("code"), entry !== undefined ? name : code]];
  let retryable: boolean;
  let scope: string;
  if (entry !== undefined) {
    retryable = entry.retryable;
    scope = entry.scope;
    payload.push([w("category"), entry.category]);
  } else {
    retryable = RESPONSE.retryable_statuses.includes(status);
    scope = RESPONSE.service_statuses.includes(status) ? "service" : "request";
    payload.push([w("category"), ""]);
  }
  payload.push([w("retryable"), retryable], [w("scope"), scope], [w("correlation_id"), correlationId ?? ""]);
  const resource = first(RESPONSE.resource_id, document, headers, codeText);
  if (resource !== null || scope === "resource") payload.push([w("resource_id"), resource ?? ""]);
  const message = first(RESPONSE.message, document, headers, messageText);
  if (message !== null) payload.push([w("message"), message]);
  if (retryable && delay !== null) payload.push([w("retry_after_ms"), delay]);
  return Object.fromEntries(payload);
}

/** Set an own data property, whatever its name (`__proto__` included). */
function put(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Only the contract's own fields: an API's other members (and RFC 9457's) never make a
 * client-side reading invalid; they stay in the reading's document. */
function kept(key: string): boolean {
  return WIRE_NAMES.includes(key);
}

/** A payload the body carries itself (errgen's shape): members that are not the payload's own wire
 * names dropped, `detail` as the message, a variant code resolved, and the response's
 * delay when it is retryable and states none. */
function asSent(status: number, headers: Headers, document: unknown, value: unknown, delay: number | null): unknown {
  if (!isObject(value)) return value;
  const payload: Json = Object.fromEntries(Object.entries(value).filter(([key]) => kept(key)));
  const present = (key: string): boolean => Object.prototype.hasOwnProperty.call(payload, key);
  if (Object.prototype.hasOwnProperty.call(value, "detail") && !kept("detail") && !present(w("message")) && present(w("code"))) {
    put(payload, w("message"), value["detail"]);
  }
  const code = own(payload, w("code"));
  if (typeof code === "string") {
    const fits = (name: string): boolean => {
      const entry = recoveryEntry(name);
      return entry !== undefined && entry.category === own(payload, w("category"))
        && Object.prototype.hasOwnProperty.call(entry.actions, String(own(payload, w("scope"))));
    };
    put(payload, w("code"), registryCode(code, status, document, headers, fits, isKnownCode));
  }
  if (!present(w("retry_after_ms")) && own(payload, w("retryable")) === true && delay !== null) {
    put(payload, w("retry_after_ms"), delay);
  }
  return payload;
}

/** What `readResponse` needs of a fetch `Response` (any fetch: the platform's, undici's, a polyfill). */
export interface FetchResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: { getReader(): BodyReader } | null;
}

/** A reader of a fetch body stream. */
export interface BodyReader {
  read(): Promise<{ readonly done: boolean; readonly value?: Uint8Array | undefined }>;
  cancel(): Promise<void>;
}

/** Read a fetch `Response` as `readHttp` does. Its body is read up to MAX_BODY_BYTES + 1 bytes and
 * no further (a longer body is unreadable, and the rest is never downloaded). A failure of the
 * connection itself rejects, as the fetch would. */
export async function readResponse(response: FetchResponse, nowMs: number = Date.now()): Promise<HttpReading> {
  return readHttp(response.status, response.headers, await boundedBody(response.body), nowMs);
}

async function boundedBody(body: FetchResponse["body"]): Promise<Uint8Array> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= MAX_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done || value === undefined) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (size > MAX_BODY_BYTES) await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** The raw payload of an HTTP error response, read tolerantly (`readHttp`): errgen's payload as
 * sent, or the one built from a real API's response; a body that cannot be read comes back as its
 * text, and a response that is not an error as null. Judge it with checkPayload or decide.
 * `headers`: a plain object, [name, value] pairs, or fetch's `Headers`; `nowMs` is the clock of
 * HTTP-dates. */
export function fromHttp(status: number, headers: Headers, body: unknown, nowMs: number = Date.now()): unknown {
  return readHttp(status, headers, body, nowMs).payload;
}

/** Near misses of `value` among `allowed`, closest first (Levenshtein distance, at most a third of
 * the length). Pass only the values this caller may read (its own tenants, say), never a global
 * list: a suggestion drawn from everything leaks the existence of what the caller cannot see. */
export function didYouMean(value: string, allowed: readonly string[], limit: number = DID_YOU_MEAN_LIMIT): string[] {
  const budget = Math.max(1, Math.floor(Array.from(value).length / 3));
  const scored: [number, number, string][] = [];
  allowed.forEach((candidate, index) => {
    const distance = levenshtein(value, candidate, budget);
    if (distance <= budget && candidate !== value) scored.push([distance, index, candidate]);
  });
  scored.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return scored.slice(0, limit).map((s) => s[2]);
}

function levenshtein(a: string, b: string, budget: number): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > budget) return budget + 1;
  let previous = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1)));
    }
    previous = current;
  }
  return previous[y.length] ?? 0;
}

/** What an ErrorPayloadError carries besides its payload; every field is optional. */
export interface ErrorPayloadErrorOptions {
  /** The error that led to this one. */
  readonly cause?: unknown;
  /** The HTTP status of the response it was read from. */
  readonly status?: number | null | undefined;
  /** That response's headers (any form `readHttp` takes); kept with names in lower case. */
  readonly headers?: Headers | undefined;
  /** What `readHttp` found: `decide` then goes by the response (`decideResponse`). */
  readonly reading?: HttpReading | null | undefined;
}

/** An error a service throws and a client catches. A service throws it with a payload
 * (`new ErrorPayloadError(newError(...))`); a client gets it from `fromResponse` / `fromHttp`
 * for every error response, with the HTTP `status`, the response's `headers` and the `reading`,
 * and `decide()` goes by the response: a payload as `decide` judges it, a response without one (a
 * proxy's HTML 502, a bare 429) by its status. `payload` is null when the response carried no
 * payload object (`raw` keeps what it did carry); a code from a newer server is carried as
 * received. A client's error is an instance of a category's class (`RateLimitError`): the
 * payload's category, else the category the registry gives the status (`ErrorPayloadError.of`);
 * this class itself when neither names one. */
export class ErrorPayloadError extends Error {
  readonly payload: ErrorPayload | Json | null;
  /** What was received: the payload object, or a body's text, or null. */
  readonly raw: unknown;
  /** The code: a `Code` (compare it with a code literal: a misspelt one does not compile), an
   * `UnknownCode` for a code this SDK does not know (a newer server's), null when the response
   * carried no payload. `codeText` is the code as sent, whichever it is. */
  readonly code: Code | UnknownCode | null;
  readonly codeText: string | null;
  /** The payload's category (a `Category` for this registry's; a newer server's as sent), null
   * without a payload. Each known category has its error class (`instanceof RateLimitError`),
   * which a response may also get from its status alone: a bare 429 is a RateLimitError whose
   * `category` is null (`classCategory` names the class's). */
  readonly category: Category | string | null;
  readonly retryable: boolean;
  readonly correlationId: string;
  /** The response's HTTP status; null for an error a service throws itself. */
  readonly status: number | null;
  /** The response's headers, names in lower case (the first value of a repeated name); empty for
   * an error a service throws itself. */
  readonly headers: Readonly<Record<string, string>>;
  readonly reading: HttpReading | null;

  constructor(payload: ErrorPayload | Json | null, options: ErrorPayloadErrorOptions = {}) {
    // Read as unknown: narrowing the ErrorPayload union itself costs tsc a pass over every code
    // (TS2590 "too complex" at 5,000 codes, tests/test_ts_scale.py).
    const given: unknown = payload;
    const data: Json | null = isObject(given) ? { ...given } : null;
    const status = options.status ?? options.reading?.status ?? null;
    super(errorMessage(data, status));
    if (Object.prototype.hasOwnProperty.call(options, "cause")) {
      Object.defineProperty(this, "cause", { value: options.cause, enumerable: false, writable: true, configurable: true });
    }
    this.name = "ErrorPayloadError";
    // Two statements, not `? :`: a conditional expression reduces the ErrorPayload union (TS2590).
    this.payload = null;
    if (data !== null) this.payload = payload;
    this.raw = options.reading !== undefined && options.reading !== null ? options.reading.payload : given;
    const code = data === null ? undefined : own(data, w("code"));
    this.codeText = code === undefined ? null : String(code);
    this.code = this.codeText === null ? null : isKnownCode(this.codeText) ? this.codeText : new UnknownCode(this.codeText);
    const category = data === null ? undefined : own(data, w("category"));
    this.category = typeof category === "string" ? category : null;
    this.retryable = data !== null && own(data, w("retryable")) === true;
    const id = data === null ? options.reading?.correlationId : own(data, w("correlation_id"));
    this.correlationId = typeof id === "string" ? id : "";
    this.status = status;
    this.headers = Object.freeze(options.headers === undefined ? {} : headerMap(options.headers));
    this.reading = options.reading ?? null;
  }

  /** The category of this error's class: the payload's category, or for a response whose payload
   * names none this SDK knows, the one the registry gives its status (`STATUS_CATEGORIES`: a bare
   * 429 is a RateLimitError, its `classCategory` "rate_limit", its `category` null); null for this
   * class itself. `instanceof RateLimitError` narrows it to "rate_limit". */
  get classCategory(): Category | null {
    return null;
  }

  /** Whether the code is this registry's (narrows `code` and `payload`). */
  isKnown(): this is ErrorPayloadError & { readonly code: Code; readonly payload: ErrorPayload } {
    return typeof this.code === "string";
  }

  /** What to do about this error: `decideResponse` on the response it was read from, else
   * `decide` on its payload. */
  decide(options: DecideOptions = {}): Decision {
    return this.reading !== null ? decideResponse(this.reading, options) : decide(this.payload, options);
  }

  /** The response a service sends for this error; throws PayloadError for an error read from a
   * response that carried no payload: there is nothing to send. */
  toHttp(problem = false): HttpResponse {
    return toHttp(this.carried(), problem);
  }

  toMcpResult(): ReturnType<typeof toMcpResult> {
    return toMcpResult(this.carried());
  }

  private carried(): Json {
    const payload: unknown = this.payload;
    if (!isObject(payload)) throw new PayloadError([["not-an-object", "this error carries no payload to send", null]]);
    return payload;
  }

  /** The error of a fetch `Response` (`readResponse`; its class as `fromReading` picks it: a bare
   * 429 is a RateLimitError), or null when it is not an error. A
   * success's body is left unread (unless the registry marks errors sent with a success status,
   * `error_when`), so the caller can still read it. */
  static async fromResponse(response: FetchResponse, nowMs: number = Date.now()): Promise<ErrorPayloadError | null> {
    if (!mayBeError(response.status)) return null;
    return ErrorPayloadError.fromReading(await readResponse(response, nowMs), response.headers);
  }

  /** The error of an HTTP response (`readHttp`; its class as `fromReading` picks it), or null when
   * the response is not an error. */
  static fromHttp(status: number, headers: Headers, body: unknown, nowMs: number = Date.now()): ErrorPayloadError | null {
    return ErrorPayloadError.fromReading(readHttp(status, headers, body, nowMs), headers);
  }

  /** The error of a response a client has already parsed (axios: an `AxiosResponse`, or the
   * `AxiosError` it rejects with, read from its `response`), or null when it is not an error or an
   * AxiosError came without a response (a transport failure: `failureOf` names it). It takes what
   * a `catch` holds as it is (`unknown`): anything else is null too, so an interceptor is one line,
   * `(error) => Promise.reject(ErrorPayloadError.fromAxios(error) ?? error)`. `data` is the body
   * as the client gave it: text, bytes, or parsed JSON (written back as JSON). */
  static fromAxios(given: ParsedResponse | { readonly response?: ParsedResponse | undefined } | unknown,
                   nowMs: number = Date.now()): ErrorPayloadError | null {
    if (!isObject(given)) return null;
    // An AxiosError carries the response's `status` too (axios 1.7+), but its headers and body
    // only in `response`: a given `response` wins, and an AxiosError without one is no response.
    // (Read as properties, not own ones: axios puts `isAxiosError` on the prototype.)
    const nested = given["response"];
    const response = isObject(nested) && typeof nested["status"] === "number" ? nested
      : given["isAxiosError"] !== true && typeof given["status"] === "number" ? given : undefined;
    if (response === undefined) return null;
    const headers = parsedHeaders(response["headers"]);
    return ErrorPayloadError.fromReading(readHttp(Number(response["status"]), headers, parsedBody(response["data"]), nowMs), headers);
  }

  /** The error of a reading (null when it is not an error), with the response's headers, of the
   * class `ErrorPayloadError.of` picks: the payload's category's, else its status's category's
   * (a bare 429 is a RateLimitError), else this class. */
  static fromReading(reading: HttpReading, headers: Headers = {}): ErrorPayloadError | null {
    if (!reading.error) return null;
    return ErrorPayloadError.of(isObject(reading.payload) ? reading.payload : null, { status: reading.status, headers, reading });
  }

  /** The error of a payload as the class of its category (`RateLimitError` for a `rate_limit`
   * payload). Without a payload, or when it names no category of the registry (a newer server's),
   * the class of the category the registry gives the HTTP status (`options.status`, else the
   * reading's; `STATUS_CATEGORIES`), as stripe-node's and openai-node's RateLimitError is any 429:
   * a gateway's bare 429 is a RateLimitError. Else, or with no status (an error a service makes
   * itself), this class. */
  static of(payload: ErrorPayload | Json | null, options: ErrorPayloadErrorOptions = {}): ErrorPayloadError {
    const given: unknown = payload;
    const named = isObject(given) ? own(given, w("category")) : undefined;
    const status = options.status ?? options.reading?.status ?? null;
    const category = typeof named === "string" && (CATEGORIES as readonly string[]).includes(named) ? named as Category
      : status !== null ? STATUS_CATEGORIES[status] : undefined;
    const made = category !== undefined ? categoryErrorClass(category) : ErrorPayloadError;
    return new made(payload, options);
  }
}

/** A code this SDK does not know (a newer server's), kept as sent (`text`). Not a string, so that
 * comparing `error.code` with a misspelt code literal fails to compile; `String(code)` and JSON
 * give the text. */
export class UnknownCode {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

/** An error of one category's class (`RateLimitError`): `classCategory` is `C`. Its `category`
 * stays what the payload said, as on ErrorPayloadError: usually `C`, but null for a response that
 * got the class from its status alone (a gateway's bare 429, by `STATUS_CATEGORIES`), and a
 * newer server's category as sent for one whose payload names a category this SDK does not know. */
export type CategoryError<C extends Category> = ErrorPayloadError & { readonly classCategory: C };

/** The class of a category's errors (`RateLimitError`): `instanceof` narrows to its errors. */
export interface CategoryErrorClass<C extends Category> {
  new (payload: ErrorPayload | Json | null, options?: ErrorPayloadErrorOptions): CategoryError<C>;
  readonly prototype: CategoryError<C>;
}

const CATEGORY_CLASSES = new Map<string, CategoryErrorClass<Category>>();

/** The error class of `category`, one per category (the package exports each under its name,
 * CATEGORY_ERRORS); made once, on first use. `ErrorPayloadError.of` picks it by the payload's
 * category, else by the response's status. */
export function categoryErrorClass<C extends Category>(category: C): CategoryErrorClass<C> {
  let made = CATEGORY_CLASSES.get(category);
  if (made === undefined) {
    const name = CATEGORY_ERRORS[category] ?? "ErrorPayloadError";
    made = class extends ErrorPayloadError {
      constructor(payload: ErrorPayload | Json | null, options: ErrorPayloadErrorOptions = {}) {
        super(payload, options);
        this.name = name;
      }

      override get classCategory(): Category {
        return category;
      }
    } as unknown as CategoryErrorClass<Category>;
    Object.defineProperty(made, "name", { value: name });
    CATEGORY_CLASSES.set(category, made);
  }
  return made as unknown as CategoryErrorClass<C>;
}

/** What `ErrorPayloadError.fromAxios` reads of a response whose client parsed the body (axios):
 * the status, the headers (a plain object or AxiosHeaders; a value may be a list or a number),
 * and `data` (parsed JSON, text or bytes). */
export interface ParsedResponse {
  readonly status: number;
  readonly headers?: unknown;
  readonly data?: unknown;
}

/** Header pairs of an already parsed response: lists joined with ", ", numbers and booleans as
 * text, anything else left out. */
function parsedHeaders(headers: unknown): [string, string][] {
  if (!isObject(headers)) return [];
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === "string") pairs.push([name, value]);
    else if (typeof value === "number" || typeof value === "boolean") pairs.push([name, String(value)]);
    else if (Array.isArray(value)) pairs.push([name, value.map(String).join(", ")]);
  }
  return pairs;
}

/** A parsed body as `readHttp` reads it: text and bytes as they are, anything else as its JSON. */
function parsedBody(data: unknown): unknown {
  if (data === undefined || typeof data === "string" || data instanceof Uint8Array || data instanceof ArrayBuffer) return data ?? "";
  return toJson(data);
}

/** Whether a response of this status may be an error: any status >= 300, and any at all when the
 * registry marks errors sent with a success status (`error_when`). */
function mayBeError(status: unknown): boolean {
  return RESPONSE.error_when.length > 0 || typeof status !== "number" || status >= 300;
}

function errorMessage(data: Json | null, status: number | null): string {
  if (data === null) return status !== null ? `HTTP ${status}: no error payload` : "no error payload";
  const code = own(data, w("code"));
  const message = own(data, w("message"));
  return `${String(code)}${typeof message === "string" ? `: ${message}` : ""}`;
}
