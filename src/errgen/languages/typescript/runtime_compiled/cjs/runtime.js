"use strict";
// Acting on errors: decide() for agents, strict and tolerant parsing, MCP and HTTP mapping,
// newError() for services and didYouMean() for near-miss suggestions. Every SDK errgen generates
// behaves the same way (docs/conformance.md); no function here throws on what a server sends.
Object.defineProperty(exports, "__esModule", { value: true });
exports.UnknownCode = exports.ErrorPayloadError = exports.PayloadError = void 0;
exports.isKnownCode = isKnownCode;
exports.payloadProblems = payloadProblems;
exports.isErrorPayload = isErrorPayload;
exports.backoffMs = backoffMs;
exports.checkPayload = checkPayload;
exports.decide = decide;
exports.statusAction = statusAction;
exports.decideResponse = decideResponse;
exports.decideFailure = decideFailure;
exports.validatePayload = validatePayload;
exports.assertErrorPayload = assertErrorPayload;
exports.parsePayload = parsePayload;
exports.newError = newError;
exports.toMcpResult = toMcpResult;
exports.fromMcpResult = fromMcpResult;
exports.toHttp = toHttp;
exports.readHttp = readHttp;
exports.readResponse = readResponse;
exports.fromHttp = fromHttp;
exports.didYouMean = didYouMean;
exports.categoryErrorClass = categoryErrorClass;
const contract_js_1 = require("./contract.js");
const recovery_js_1 = require("./recovery.js");
const verdict_js_1 = require("./verdict.js");
const reading_js_1 = require("./reading.js");
const wire_js_1 = require("./wire.js");
const writing_js_1 = require("./writing.js");
const W = (0, verdict_js_1.wireNames)(contract_js_1.FIELDS);
// The payload fields' wire names, in the contract's order.
const WIRE_NAMES = contract_js_1.FIELDS.map((spec) => spec.wire);
function w(name) {
    return W[name] ?? name;
}
/** A payload the contract rejects; `problems` holds [problem id, message, field] triples. */
class PayloadError extends Error {
    constructor(problems) {
        super(problems.map((p) => p[1]).join("; "));
        this.name = "PayloadError";
        this.problems = problems;
    }
}
exports.PayloadError = PayloadError;
/** Whether `code` is one of this registry's codes (narrows it to `Code`). */
function isKnownCode(code) {
    return (0, recovery_js_1.recoveryEntry)(code) !== undefined;
}
const lookup = (code) => (0, recovery_js_1.recoveryEntry)(code);
/** Every reason the strict contract rejects `payload` (empty: valid). */
function payloadProblems(payload) {
    return (0, verdict_js_1.strictProblems)(contract_js_1.FIELDS, contract_js_1.CATEGORIES, lookup, payload);
}
/** True when `x` is a payload of this contract: exactly what the JSON Schema accepts. */
function isErrorPayload(x) {
    return payloadProblems(x).length === 0;
}
/** The wait when neither payload nor registry gives one: base * 2^(attempt-1), capped; with
 * jitter, a uniform draw below that ("full jitter"). */
function backoffMs(attempt, jitter = false) {
    const exponent = Math.min(Math.max(attempt - 1, 0), contract_js_1.BACKOFF_MAX_EXPONENT);
    const delay = Math.min(contract_js_1.BACKOFF_BASE_MS * 2 ** exponent, contract_js_1.BACKOFF_MAX_MS);
    return jitter ? Math.floor(Math.random() * delay) : delay;
}
function delayOnFinal(payload) {
    return (0, verdict_js_1.own)(payload, w("retryable")) === false && Object.prototype.hasOwnProperty.call(payload, w("retry_after_ms"));
}
function unknown(payload) {
    return (0, recovery_js_1.recoveryEntry)(String((0, verdict_js_1.own)(payload, w("code")))) === undefined
        || !contract_js_1.CATEGORIES.includes((0, verdict_js_1.own)(payload, w("category")));
}
/** Both verdicts at once: strict problems, and known / unknown / invalid. */
function checkPayload(payload) {
    const problems = payloadProblems(payload);
    const parsed = !(0, verdict_js_1.isObject)(payload) || (0, verdict_js_1.envelopeProblems)(contract_js_1.FIELDS, payload).length > 0 || delayOnFinal(payload)
        ? "invalid" : unknown(payload) ? "unknown" : "known";
    return { valid: problems.length === 0, problems, parsed };
}
function strings(value) {
    return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}
function decision(payload, action, reason, delayMs = null) {
    const resourceId = (0, verdict_js_1.own)(payload, w("resource_id"));
    const searched = (0, verdict_js_1.own)(payload, w("searched"));
    const code = String((0, verdict_js_1.own)(payload, w("code")));
    const facts = {
        action, reason, delayMs,
        wireCode: reading_js_1.WIRE_CODE.get(code) ?? code,
        correlationId: String((0, verdict_js_1.own)(payload, w("correlation_id"))),
        resourceId: typeof resourceId === "string" ? resourceId : null,
        didYouMean: strings((0, verdict_js_1.own)(payload, w("did_you_mean"))),
        accepted: strings((0, verdict_js_1.own)(payload, w("accepted"))),
        searched: (0, verdict_js_1.isObject)(searched) ? { ...searched } : {},
    };
    return isKnownCode(code) ? { known: true, code, ...facts } : { known: false, code, ...facts };
}
/** The action the registry prescribes for a payload: the SDK's own ErrorPayload, or a raw JSON
 * value as received (any value); for a caught ErrorPayloadError, what `error.decide()` says. */
function decide(payload, options = {}) {
    // The error a client caught decides by the response it was read from (`error.decide()`).
    if (payload instanceof ErrorPayloadError)
        return payload.decide(options);
    if (!(0, verdict_js_1.isObject)(payload) || (0, verdict_js_1.envelopeProblems)(contract_js_1.FIELDS, payload).length > 0) {
        const id = (0, verdict_js_1.isObject)(payload) ? (0, verdict_js_1.own)(payload, w("correlation_id")) : null;
        return { action: "escalate", reason: "invalid-payload", known: false, code: null, wireCode: null, delayMs: null, correlationId: typeof id === "string" ? id : null,
            resourceId: null, didYouMean: [], accepted: [], searched: {} };
    }
    if (delayOnFinal(payload))
        return decision(payload, "escalate", "invalid-payload");
    const entry = (0, recovery_js_1.recoveryEntry)(String((0, verdict_js_1.own)(payload, w("code"))));
    const scope = String((0, verdict_js_1.own)(payload, w("scope")));
    let action;
    let reason;
    let registryDelay = null;
    if (entry === undefined || unknown(payload)) {
        action = contract_js_1.FALLBACK_ACTIONS[`${scope}/${String((0, verdict_js_1.own)(payload, w("retryable")))}`] ?? "escalate";
        reason = "unknown-code";
    }
    else if ((0, verdict_js_1.registryProblems)(contract_js_1.FIELDS, contract_js_1.CATEGORIES, lookup, payload).length > 0) {
        return decision(payload, "escalate", "contradicts-registry");
    }
    else {
        action = entry.actions[scope] ?? "escalate";
        reason = "registry";
        registryDelay = entry.retryAfterMs;
    }
    const given = (0, verdict_js_1.own)(payload, w("retry_after_ms"));
    const [timedAction, timedReason, delay] = timed(action, reason, typeof given === "number" ? given : registryDelay, options);
    return decision(payload, timedAction, timedReason, delay);
}
/** The timing rule of a timed action (retry, pause; any other passes with no delay): attempts,
 * then the delay (`named`, else the backoff for this attempt) and its bound. The bound is on the
 * delay the rule asks for, so escalating never depends on a random draw; jitter then spreads only
 * a backoff (a named delay is waited as named), as in every SDK. */
function timed(action, reason, named, options) {
    const { attempt = 1, maxAttempts = contract_js_1.DEFAULT_MAX_ATTEMPTS, maxDelayMs = contract_js_1.DEFAULT_MAX_DELAY_MS, jitter = false, draw = Math.random } = options;
    const exhausted = contract_js_1.EXHAUSTED[action];
    if (exhausted === undefined)
        return [action, reason, null];
    if (attempt >= maxAttempts)
        return [exhausted, "attempts-exhausted", null];
    const delay = named ?? backoffMs(attempt);
    if (delay > maxDelayMs)
        return ["escalate", "delay-exceeds-max", null];
    return [action, reason, jitter && named === null ? Math.floor(draw() * delay) : delay];
}
/** A decision that concerns no payload (a response without one, a transport failure): no code,
 * no hints. */
function bare(action, reason, delayMs, correlationId) {
    return { action, reason, known: false, code: null, wireCode: null, delayMs, correlationId, resourceId: null, didYouMean: [], accepted: [], searched: {} };
}
/** How a response without a readable code is decided by its status alone, as the official API
 * clients do: the exact status in the registry's status table (`wire.statuses` over errgen's
 * defaults: 429 pause, 5xx retry, 401 and 403 stop, 404 skip, other 4xx fix), else its class
 * (`4xx`), else escalate (docs/conformance.md). */
function statusAction(status) {
    const actions = contract_js_1.RESPONSE.status_actions;
    const exact = (0, verdict_js_1.has)(actions, String(status)) ? actions[String(status)] : undefined;
    const found = exact ?? ((0, verdict_js_1.has)(actions, `${Math.floor(status / 100)}xx`) ? actions[`${Math.floor(status / 100)}xx`] : undefined);
    return found !== undefined && Number.isInteger(status) && status >= 100 && status <= 599 ? found : "escalate";
}
/** What to do about a response (`readHttp`): its payload decided as `decide` does; a response
 * with no payload at all (a proxy's HTML 502, a gateway's bare 429 or `{"message":"Too Many
 * Requests"}`, an empty 503) by its status (`statusAction`), reason `status-fallback`, honouring
 * its Retry-After. A body that claims the API's error shape and breaks the contract stays
 * `invalid-payload`. */
function decideResponse(reading, options = {}) {
    if (!reading.error || reading.claimed) {
        const decided = decide(reading.payload, options);
        // The code as the API sent it: 08006 for the registry code its prefix 08 matched.
        return decided.code === null || reading.code === null ? decided : { ...decided, wireCode: reading.code };
    }
    let action = statusAction(reading.status);
    const delay = reading.fallbackDelayMs;
    // A status that names a wait is a rate limit (GitHub's secondary limits send 403 + Retry-After).
    if (contract_js_1.EXHAUSTED[action] === undefined && delay !== null && contract_js_1.RESPONSE.paused_with_delay.includes(reading.status))
        action = "pause";
    const [timedAction, reason, delayMs] = timed(action, "status-fallback", delay, options);
    return bare(timedAction, reason, delayMs, reading.correlationId);
}
// The failures where the request never reached the server: always safe to send again.
const NOT_SENT = ["refused", "tls"];
/** What to do when no response came (`failureOf(error)` names the failure; any other text counts
 * as `reset`): `refused` and `tls` are retried; `reset` and `timeout` only when the call is
 * idempotent, else escalated with reason `outcome-unknown`. Retries follow `decide`'s timing
 * rule with reason `transport-failure`. */
function decideFailure(failure, options = {}) {
    if (!NOT_SENT.includes(failure) && options.idempotent !== true)
        return bare("escalate", "outcome-unknown", null, null);
    const [action, reason, delayMs] = timed("retry", "transport-failure", null, options);
    return bare(action, reason, delayMs, null);
}
/** Strict (a service, before sending): reject unknown codes, contradictions, extra fields. */
function validatePayload(payload) {
    const problems = payloadProblems(payload);
    if (problems.length > 0)
        throw new PayloadError(problems);
    return payload;
}
/** Strict, as an assertion: after it returns, TypeScript knows `payload` is an ErrorPayload. */
function assertErrorPayload(payload) {
    validatePayload(payload);
}
/** Tolerant (a client): a code from a newer server comes back as { known: false, ... }, never as
 * a failure. Throws PayloadError for an invalid payload, and for a known code that contradicts the
 * registry (`checkPayload` reports that case as known without throwing). */
function parsePayload(payload) {
    const verdict = checkPayload(payload);
    if (verdict.parsed === "invalid" || !(0, verdict_js_1.isObject)(payload))
        throw new PayloadError(verdict.problems);
    if (verdict.parsed === "unknown") {
        return { known: false, code: String((0, verdict_js_1.own)(payload, w("code"))), category: String((0, verdict_js_1.own)(payload, w("category"))),
            retryable: (0, verdict_js_1.own)(payload, w("retryable")) === true, scope: String((0, verdict_js_1.own)(payload, w("scope"))),
            correlationId: String((0, verdict_js_1.own)(payload, w("correlation_id"))), raw: { ...payload } };
    }
    return { known: true, payload: validatePayload(payload) };
}
/** A payload for `code` with category, retryable and default scope filled from the table, so a
 * service cannot emit a contradictory one. `fields` are payload fields by wire name (scope,
 * resource_id, message, retry_after_ms and the hints the code allows). Throws PayloadError on
 * anything the contract rejects. */
function newError(code, correlationId, fields) {
    const entry = (0, recovery_js_1.recoveryEntry)(code);
    if (entry === undefined) {
        throw new PayloadError([["unknown-code", `code ${JSON.stringify(code)} is not in registry ${contract_js_1.REGISTRY_NAME}`, w("code")]]);
    }
    const entries = Object.entries(fields ?? {});
    const given = entries.filter(([, value]) => value !== undefined && value !== null);
    const merged = Object.fromEntries([
        [w("code"), entry.code], [w("category"), entry.category], [w("retryable"), entry.retryable], [w("scope"), entry.scope],
        [w("correlation_id"), correlationId], ...given,
    ]);
    // In the contract's field order, whatever the order of `fields`: what toHttp sends is then
    // byte for byte what every SDK's new_error sends (an unknown key, rejected below, goes last).
    const rank = (key) => (WIRE_NAMES.includes(key) ? WIRE_NAMES.indexOf(key) : WIRE_NAMES.length);
    const payload = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => rank(a) - rank(b)));
    // The entry is the code's own, so the payload validated is that code's variant.
    return validatePayload(payload);
}
/** An MCP tools/call result: isError, the payload as compact JSON text, and as structuredContent. */
function toMcpResult(payload) {
    return { content: [{ type: "text", text: (0, wire_js_1.toJson)(payload) }], structuredContent: { ...payload }, isError: true };
}
/** The raw payload of an MCP tools/call result (structuredContent, else the first text item's
 * JSON), or null when it carries none; judge it with checkPayload or decide. */
function fromMcpResult(result) {
    return (0, wire_js_1.mcpPayload)(result);
}
function delayOf(payload, entry) {
    const given = (0, verdict_js_1.own)(payload, w("retry_after_ms"));
    if (typeof given === "number" && Number.isInteger(given) && given >= 0)
        return Math.min(given, contract_js_1.MAX_DELAY_VALUE_MS);
    if (given === undefined && entry !== undefined && (0, verdict_js_1.own)(payload, w("retryable")) === true)
        return entry.retryAfterMs;
    return null;
}
/** Status from the code's httpStatus (500 for a code this SDK does not know); Retry-After in
 * whole seconds, rounded up, and retry-after-ms when there is a delay; x-should-retry from
 * retryable, for clients that never read the body; with problem = true an RFC 9457
 * application/problem+json body with the payload fields as extension members. */
function toHttp(given, problem = false) {
    const payload = { ...given };
    const code = (0, verdict_js_1.own)(payload, w("code"));
    const entry = typeof code === "string" ? (0, recovery_js_1.recoveryEntry)(code) : undefined;
    const status = entry !== undefined ? entry.httpStatus : 500;
    const writing = {
        "Content-Type": problem ? "application/problem+json" : "application/json",
        "x-should-retry": (0, verdict_js_1.own)(payload, w("retryable")) === true ? "true" : "false",
    };
    const delay = delayOf(payload, entry);
    if (delay !== null) {
        writing["Retry-After"] = String(Math.ceil(delay / 1000));
        writing["retry-after-ms"] = String(delay);
    }
    const data = contract_js_1.ENVELOPE !== null ? Object.fromEntries([[contract_js_1.ENVELOPE, wrapped({ ...payload })]]) : { ...payload };
    const message = (0, verdict_js_1.own)(payload, w("message"));
    const members = [
        ["type", entry !== undefined ? entry.typeUri : contract_js_1.PROBLEM_BASE + (typeof code === "string" ? code : "")],
        ["title", entry !== undefined ? entry.description : String(code)], ["status", status],
        ...(typeof message === "string" ? [["detail", message]] : []),
    ];
    const body = problem ? Object.fromEntries([...members, ...Object.entries(data)]) : data;
    const shaped = apiShape(payload, body, writing);
    // One rule for every header value written (docs/conformance.md, "Writing"): one that would split
    // or break the response (CR, LF, NUL, non-ASCII, past MAX_HEADER_CHARS, empty) is left out; the
    // body still carries it.
    const headers = Object.fromEntries(Object.entries(writing).filter(([, value]) => (0, wire_js_1.writableHeader)(value)));
    if (contract_js_1.RESPONSE.format === "xml") {
        headers["Content-Type"] = "application/xml";
        return { status, headers, body: (0, writing_js_1.toXml)(shaped) };
    }
    return { status, headers, body: (0, wire_js_1.toJson)(shaped) };
}
/** The value toHttp writes under the envelope: the payload, or for an array envelope a one-entry array. */
function wrapped(payload) {
    return contract_js_1.ENVELOPE_ARRAY ? [payload] : payload;
}
/** The payload object in what `wrapped` made of it. */
function unwrapped(value) {
    return (contract_js_1.ENVELOPE_ARRAY ? value[0] : value);
}
/** What the API itself sends (docs/conformance.md, "Writing in the API's own shape"): a code that
 * shares its wire code with others goes out as that wire code; each fact also sits where the
 * registry reads it first, in the body and in a header, and every `equals` condition holds. An XML
 * API's body holds those writes alone. */
function apiShape(payload, body, headers) {
    const code = (0, verdict_js_1.own)(payload, w("code"));
    const sent = typeof code === "string" ? reading_js_1.WIRE_CODE.get(code) ?? code : code;
    if (sent !== code) {
        const inner = { ...(contract_js_1.ENVELOPE !== null ? unwrapped(body[contract_js_1.ENVELOPE]) : body) };
        put(inner, w("code"), sent);
        if (contract_js_1.ENVELOPE !== null) {
            body = { ...body };
            put(body, contract_js_1.ENVELOPE, wrapped(inner));
        }
        else {
            body = inner;
        }
    }
    const rows = typeof sent === "string" && (0, verdict_js_1.has)(contract_js_1.RESPONSE.variants, sent) ? contract_js_1.RESPONSE.variants[sent] ?? [] : [];
    const variant = rows.filter(([name]) => name === code).flatMap(([, conditions]) => conditions);
    const facts = {
        code: sent, message: (0, verdict_js_1.own)(payload, w("message")), correlation_id: (0, verdict_js_1.own)(payload, w("correlation_id")),
        resource_id: (0, verdict_js_1.own)(payload, w("resource_id")),
    };
    return (0, writing_js_1.apply)(contract_js_1.RESPONSE.format === "xml" ? {} : body, headers, (0, writing_js_1.writes)(facts, variant));
}
const REQUIRED = contract_js_1.FIELDS.filter((spec) => spec.required).map((spec) => spec.wire);
function startsWithTag(text) {
    let i = 0;
    while (i < text.length && " \t\r\n".includes(text.charAt(i)))
        i++;
    return text.charAt(i) === "<";
}
/** Read an HTTP response as docs/conformance.md ("Reading a real response") specifies: where the
 * registry says each fact is; facts the response does not carry come from the registry row of the
 * code it carries (an unknown code: from the status). Never throws on what a server sends.
 * `headers`: a plain object, [name, value] pairs, or fetch's `Headers`; `body`: a string or bytes
 * (Uint8Array, ArrayBuffer; anything else is empty); `nowMs` is the clock of HTTP-dates. */
function readHttp(status, headers, body, nowMs = Date.now()) {
    const codeStatus = typeof status === "number" && Number.isInteger(status) ? status : 0;
    const tooLarge = (0, wire_js_1.bodyTooLarge)(body);
    const [ok, decoded] = (0, wire_js_1.asText)(body);
    const text = decoded.startsWith("\ufeff") ? decoded.slice(1) : decoded;
    // An xml registry reads a body that starts with "<" as XML, any other as JSON (what toHttp writes).
    const xml = contract_js_1.RESPONSE.format === "xml" && startsWithTag(text);
    const [parsed, document] = ok && !tooLarge ? (xml ? (0, reading_js_1.readXml)(text) : (0, wire_js_1.readJson)(text)) : [false, null];
    const found = parsed ? document : null;
    const code = (0, reading_js_1.readCode)(contract_js_1.RESPONSE.code, found, headers, codeStatus, knownCode);
    const correlationId = (0, reading_js_1.first)(contract_js_1.RESPONSE.correlation_id, found, headers, reading_js_1.codeText);
    const delay = (0, reading_js_1.delayMs)(found, headers, nowMs, delaySources(code, codeStatus, found, headers));
    const error = (0, reading_js_1.isError)(codeStatus, found, headers);
    let payload = null;
    if (error) {
        // A body that cannot be read, or an XML one without a code, is returned as its text, unless a
        // header carries the code.
        payload = code !== null || (parsed && !xml)
            ? payloadOf(codeStatus, headers, found, code, correlationId, delay, xml, nowMs)
            : text;
    }
    const claimed = code !== null || (!xml && claims(found));
    let fallbackDelayMs = delay;
    if (fallbackDelayMs === null && error && !claimed)
        fallbackDelayMs = (0, reading_js_1.delayMs)(found, headers, nowMs, contract_js_1.RESPONSE.own_retry_after);
    return { error, payload, code, correlationId, delayMs: delay, document: found ?? null, status: codeStatus, claimed, fallbackDelayMs };
}
/** The registry's delay sources that apply to the registry code read (its wire code, registry
 * code or prefix matched); none of the filtered ones for an unknown code or none. */
function delaySources(code, status, document, headers) {
    const name = code === null ? null : (0, reading_js_1.registryCode)(code, status, document, headers, () => true, isKnownCode);
    const entry = name === null ? undefined : (0, recovery_js_1.recoveryEntry)(name);
    return (0, reading_js_1.applicable)(contract_js_1.RESPONSE.retry_after, entry === undefined ? null : name, entry?.category ?? null);
}
/** Whether this SDK decides `code` by the registry: a wire code several registry codes share, a
 * registry code, or a code a `wire_prefix` matches. */
function knownCode(code) {
    return (0, verdict_js_1.has)(contract_js_1.RESPONSE.variants, code) || isKnownCode(code) || (0, reading_js_1.prefixed)(code) !== undefined;
}
/** Whether a JSON document holds where the registry reads the code (a body source's first key):
 * the API's own error shape, which a payload breaking the contract must not escape. */
function claims(document) {
    return (0, verdict_js_1.isObject)(document) && contract_js_1.RESPONSE.code.some((source) => {
        const step = source.in === "body" ? source.path[0] : undefined;
        return typeof step === "string" && (0, verdict_js_1.has)(document, step);
    });
}
/** Whether `value` is an object holding every required field (by wire name). */
function complete(value) {
    return (0, verdict_js_1.isObject)(value) && REQUIRED.every((name) => Object.prototype.hasOwnProperty.call(value, name));
}
/** The payload a JSON body carries under the envelope (docs/conformance.md): the value under its
 * key; for an array envelope whose value is an array, its first entry holding every required
 * field, else the array itself (then read by the registry's sources). A body without the key is
 * its own payload. */
function payloadIn(document) {
    if (contract_js_1.ENVELOPE === null || !Object.prototype.hasOwnProperty.call(document, contract_js_1.ENVELOPE))
        return document;
    const value = document[contract_js_1.ENVELOPE];
    if (!contract_js_1.ENVELOPE_ARRAY || !Array.isArray(value))
        return value;
    return value.find(complete) ?? value;
}
function payloadOf(status, headers, document, code, correlationId, delay, xml, nowMs) {
    const value = !xml && (0, verdict_js_1.isObject)(document) ? payloadIn(document) : document;
    if (complete(value) || code === null) {
        return asSent(status, headers, document, value, (0, reading_js_1.delayMs)(document, headers, nowMs, contract_js_1.RESPONSE.own_retry_after));
    }
    const name = (0, reading_js_1.registryCode)(code, status, document, headers, () => true, isKnownCode);
    const entry = (0, recovery_js_1.recoveryEntry)(name);
    const payload = [[w("code"), entry !== undefined ? name : code]];
    let retryable;
    let scope;
    if (entry !== undefined) {
        retryable = entry.retryable;
        scope = entry.scope;
        payload.push([w("category"), entry.category]);
    }
    else {
        retryable = contract_js_1.RESPONSE.retryable_statuses.includes(status);
        scope = contract_js_1.RESPONSE.service_statuses.includes(status) ? "service" : "request";
        payload.push([w("category"), ""]);
    }
    payload.push([w("retryable"), retryable], [w("scope"), scope], [w("correlation_id"), correlationId ?? ""]);
    const resource = (0, reading_js_1.first)(contract_js_1.RESPONSE.resource_id, document, headers, reading_js_1.codeText);
    if (resource !== null || scope === "resource")
        payload.push([w("resource_id"), resource ?? ""]);
    const message = (0, reading_js_1.first)(contract_js_1.RESPONSE.message, document, headers, reading_js_1.messageText);
    if (message !== null)
        payload.push([w("message"), message]);
    if (retryable && delay !== null)
        payload.push([w("retry_after_ms"), delay]);
    return Object.fromEntries(payload);
}
/** Set an own data property, whatever its name (`__proto__` included). */
function put(target, key, value) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
/** Only the contract's own fields: an API's other members (and RFC 9457's) never make a
 * client-side reading invalid; they stay in the reading's document. */
function kept(key) {
    return WIRE_NAMES.includes(key);
}
/** A payload the body carries itself (errgen's shape): members that are not the payload's own wire
 * names dropped, `detail` as the message, a variant code resolved, and the response's
 * delay when it is retryable and states none. */
function asSent(status, headers, document, value, delay) {
    if (!(0, verdict_js_1.isObject)(value))
        return value;
    const payload = Object.fromEntries(Object.entries(value).filter(([key]) => kept(key)));
    const present = (key) => Object.prototype.hasOwnProperty.call(payload, key);
    if (Object.prototype.hasOwnProperty.call(value, "detail") && !kept("detail") && !present(w("message")) && present(w("code"))) {
        put(payload, w("message"), value["detail"]);
    }
    const code = (0, verdict_js_1.own)(payload, w("code"));
    if (typeof code === "string") {
        const fits = (name) => {
            const entry = (0, recovery_js_1.recoveryEntry)(name);
            return entry !== undefined && entry.category === (0, verdict_js_1.own)(payload, w("category"))
                && Object.prototype.hasOwnProperty.call(entry.actions, String((0, verdict_js_1.own)(payload, w("scope"))));
        };
        put(payload, w("code"), (0, reading_js_1.registryCode)(code, status, document, headers, fits, isKnownCode));
    }
    if (!present(w("retry_after_ms")) && (0, verdict_js_1.own)(payload, w("retryable")) === true && delay !== null) {
        put(payload, w("retry_after_ms"), delay);
    }
    return payload;
}
/** Read a fetch `Response` as `readHttp` does. Its body is read up to MAX_BODY_BYTES + 1 bytes and
 * no further (a longer body is unreadable, and the rest is never downloaded). A failure of the
 * connection itself rejects, as the fetch would. */
async function readResponse(response, nowMs = Date.now()) {
    return readHttp(response.status, response.headers, await boundedBody(response.body), nowMs);
}
async function boundedBody(body) {
    if (body === null)
        return new Uint8Array(0);
    const reader = body.getReader();
    const chunks = [];
    let size = 0;
    while (size <= contract_js_1.MAX_BODY_BYTES) {
        const { done, value } = await reader.read();
        if (done || value === undefined)
            break;
        chunks.push(value);
        size += value.byteLength;
    }
    if (size > contract_js_1.MAX_BODY_BYTES)
        await reader.cancel().catch(() => undefined);
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
function fromHttp(status, headers, body, nowMs = Date.now()) {
    return readHttp(status, headers, body, nowMs).payload;
}
/** Near misses of `value` among `allowed`, closest first (Levenshtein distance, at most a third of
 * the length). Pass only the values this caller may read (its own tenants, say), never a global
 * list: a suggestion drawn from everything leaks the existence of what the caller cannot see. */
function didYouMean(value, allowed, limit = contract_js_1.DID_YOU_MEAN_LIMIT) {
    const budget = Math.max(1, Math.floor(Array.from(value).length / 3));
    const scored = [];
    allowed.forEach((candidate, index) => {
        const distance = levenshtein(value, candidate, budget);
        if (distance <= budget && candidate !== value)
            scored.push([distance, index, candidate]);
    });
    scored.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return scored.slice(0, limit).map((s) => s[2]);
}
function levenshtein(a, b, budget) {
    const x = Array.from(a);
    const y = Array.from(b);
    if (Math.abs(x.length - y.length) > budget)
        return budget + 1;
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
/** An error a service throws and a client catches. A service throws it with a payload
 * (`new ErrorPayloadError(newError(...))`); a client gets it from `fromResponse` / `fromHttp`
 * for every error response, with the HTTP `status`, the response's `headers` and the `reading`,
 * and `decide()` goes by the response: a payload as `decide` judges it, a response without one (a
 * proxy's HTML 502, a bare 429) by its status. `payload` is null when the response carried no
 * payload object (`raw` keeps what it did carry); a code from a newer server is carried as
 * received. A client's error is an instance of a category's class (`RateLimitError`): the
 * payload's category, else the category the registry gives the status (`ErrorPayloadError.of`);
 * this class itself when neither names one. */
class ErrorPayloadError extends Error {
    constructor(payload, options = {}) {
        // Read as unknown: narrowing the ErrorPayload union itself costs tsc a pass over every code
        // (TS2590 "too complex" at 5,000 codes, tests/test_ts_scale.py).
        const given = payload;
        const data = (0, verdict_js_1.isObject)(given) ? { ...given } : null;
        const status = options.status ?? options.reading?.status ?? null;
        super(errorMessage(data, status));
        if (Object.prototype.hasOwnProperty.call(options, "cause")) {
            Object.defineProperty(this, "cause", { value: options.cause, enumerable: false, writable: true, configurable: true });
        }
        this.name = "ErrorPayloadError";
        // Two statements, not `? :`: a conditional expression reduces the ErrorPayload union (TS2590).
        this.payload = null;
        if (data !== null)
            this.payload = payload;
        this.raw = options.reading !== undefined && options.reading !== null ? options.reading.payload : given;
        const code = data === null ? undefined : (0, verdict_js_1.own)(data, w("code"));
        this.codeText = code === undefined ? null : String(code);
        this.code = this.codeText === null ? null : isKnownCode(this.codeText) ? this.codeText : new UnknownCode(this.codeText);
        const category = data === null ? undefined : (0, verdict_js_1.own)(data, w("category"));
        this.category = typeof category === "string" ? category : null;
        this.retryable = data !== null && (0, verdict_js_1.own)(data, w("retryable")) === true;
        const id = data === null ? options.reading?.correlationId : (0, verdict_js_1.own)(data, w("correlation_id"));
        this.correlationId = typeof id === "string" ? id : "";
        this.status = status;
        this.headers = Object.freeze(options.headers === undefined ? {} : (0, wire_js_1.headerMap)(options.headers));
        this.reading = options.reading ?? null;
    }
    /** The category of this error's class: the payload's category, or for a response whose payload
     * names none this SDK knows, the one the registry gives its status (`STATUS_CATEGORIES`: a bare
     * 429 is a RateLimitError, its `classCategory` "rate_limit", its `category` null); null for this
     * class itself. `instanceof RateLimitError` narrows it to "rate_limit". */
    get classCategory() {
        return null;
    }
    /** Whether the code is this registry's (narrows `code` and `payload`). */
    isKnown() {
        return typeof this.code === "string";
    }
    /** What to do about this error: `decideResponse` on the response it was read from, else
     * `decide` on its payload. */
    decide(options = {}) {
        return this.reading !== null ? decideResponse(this.reading, options) : decide(this.payload, options);
    }
    /** The response a service sends for this error; throws PayloadError for an error read from a
     * response that carried no payload: there is nothing to send. */
    toHttp(problem = false) {
        return toHttp(this.carried(), problem);
    }
    toMcpResult() {
        return toMcpResult(this.carried());
    }
    carried() {
        const payload = this.payload;
        if (!(0, verdict_js_1.isObject)(payload))
            throw new PayloadError([["not-an-object", "this error carries no payload to send", null]]);
        return payload;
    }
    /** The error of a fetch `Response` (`readResponse`; its class as `fromReading` picks it: a bare
     * 429 is a RateLimitError), or null when it is not an error. A
     * success's body is left unread (unless the registry marks errors sent with a success status,
     * `error_when`), so the caller can still read it. */
    static async fromResponse(response, nowMs = Date.now()) {
        if (!mayBeError(response.status))
            return null;
        return ErrorPayloadError.fromReading(await readResponse(response, nowMs), response.headers);
    }
    /** The error of an HTTP response (`readHttp`; its class as `fromReading` picks it), or null when
     * the response is not an error. */
    static fromHttp(status, headers, body, nowMs = Date.now()) {
        return ErrorPayloadError.fromReading(readHttp(status, headers, body, nowMs), headers);
    }
    /** The error of a response a client has already parsed (axios: an `AxiosResponse`, or the
     * `AxiosError` it rejects with, read from its `response`), or null when it is not an error or an
     * AxiosError came without a response (a transport failure: `failureOf` names it). It takes what
     * a `catch` holds as it is (`unknown`): anything else is null too, so an interceptor is one line,
     * `(error) => Promise.reject(ErrorPayloadError.fromAxios(error) ?? error)`. `data` is the body
     * as the client gave it: text, bytes, or parsed JSON (written back as JSON). */
    static fromAxios(given, nowMs = Date.now()) {
        if (!(0, verdict_js_1.isObject)(given))
            return null;
        // An AxiosError carries the response's `status` too (axios 1.7+), but its headers and body
        // only in `response`: a given `response` wins, and an AxiosError without one is no response.
        // (Read as properties, not own ones: axios puts `isAxiosError` on the prototype.)
        const nested = given["response"];
        const response = (0, verdict_js_1.isObject)(nested) && typeof nested["status"] === "number" ? nested
            : given["isAxiosError"] !== true && typeof given["status"] === "number" ? given : undefined;
        if (response === undefined)
            return null;
        const headers = parsedHeaders(response["headers"]);
        return ErrorPayloadError.fromReading(readHttp(Number(response["status"]), headers, parsedBody(response["data"]), nowMs), headers);
    }
    /** The error of a reading (null when it is not an error), with the response's headers, of the
     * class `ErrorPayloadError.of` picks: the payload's category's, else its status's category's
     * (a bare 429 is a RateLimitError), else this class. */
    static fromReading(reading, headers = {}) {
        if (!reading.error)
            return null;
        return ErrorPayloadError.of((0, verdict_js_1.isObject)(reading.payload) ? reading.payload : null, { status: reading.status, headers, reading });
    }
    /** The error of a payload as the class of its category (`RateLimitError` for a `rate_limit`
     * payload). Without a payload, or when it names no category of the registry (a newer server's),
     * the class of the category the registry gives the HTTP status (`options.status`, else the
     * reading's; `STATUS_CATEGORIES`), as stripe-node's and openai-node's RateLimitError is any 429:
     * a gateway's bare 429 is a RateLimitError. Else, or with no status (an error a service makes
     * itself), this class. */
    static of(payload, options = {}) {
        const given = payload;
        const named = (0, verdict_js_1.isObject)(given) ? (0, verdict_js_1.own)(given, w("category")) : undefined;
        const status = options.status ?? options.reading?.status ?? null;
        const category = typeof named === "string" && contract_js_1.CATEGORIES.includes(named) ? named
            : status !== null ? contract_js_1.STATUS_CATEGORIES[status] : undefined;
        const made = category !== undefined ? categoryErrorClass(category) : ErrorPayloadError;
        return new made(payload, options);
    }
}
exports.ErrorPayloadError = ErrorPayloadError;
/** A code this SDK does not know (a newer server's), kept as sent (`text`). Not a string, so that
 * comparing `error.code` with a misspelt code literal fails to compile; `String(code)` and JSON
 * give the text. */
class UnknownCode {
    constructor(text) {
        this.text = text;
    }
    toString() {
        return this.text;
    }
    toJSON() {
        return this.text;
    }
}
exports.UnknownCode = UnknownCode;
const CATEGORY_CLASSES = new Map();
/** The error class of `category`, one per category (the package exports each under its name,
 * CATEGORY_ERRORS); made once, on first use. `ErrorPayloadError.of` picks it by the payload's
 * category, else by the response's status. */
function categoryErrorClass(category) {
    let made = CATEGORY_CLASSES.get(category);
    if (made === undefined) {
        const name = contract_js_1.CATEGORY_ERRORS[category] ?? "ErrorPayloadError";
        made = class extends ErrorPayloadError {
            constructor(payload, options = {}) {
                super(payload, options);
                this.name = name;
            }
            get classCategory() {
                return category;
            }
        };
        Object.defineProperty(made, "name", { value: name });
        CATEGORY_CLASSES.set(category, made);
    }
    return made;
}
/** Header pairs of an already parsed response: lists joined with ", ", numbers and booleans as
 * text, anything else left out. */
function parsedHeaders(headers) {
    if (!(0, verdict_js_1.isObject)(headers))
        return [];
    const pairs = [];
    for (const [name, value] of Object.entries(headers)) {
        if (typeof value === "string")
            pairs.push([name, value]);
        else if (typeof value === "number" || typeof value === "boolean")
            pairs.push([name, String(value)]);
        else if (Array.isArray(value))
            pairs.push([name, value.map(String).join(", ")]);
    }
    return pairs;
}
/** A parsed body as `readHttp` reads it: text and bytes as they are, anything else as its JSON. */
function parsedBody(data) {
    if (data === undefined || typeof data === "string" || data instanceof Uint8Array || data instanceof ArrayBuffer)
        return data ?? "";
    return (0, wire_js_1.toJson)(data);
}
/** Whether a response of this status may be an error: any status >= 300, and any at all when the
 * registry marks errors sent with a success status (`error_when`). */
function mayBeError(status) {
    return contract_js_1.RESPONSE.error_when.length > 0 || typeof status !== "number" || status >= 300;
}
function errorMessage(data, status) {
    if (data === null)
        return status !== null ? `HTTP ${status}: no error payload` : "no error payload";
    const code = (0, verdict_js_1.own)(data, w("code"));
    const message = (0, verdict_js_1.own)(data, w("message"));
    return `${String(code)}${typeof message === "string" ? `: ${message}` : ""}`;
}
