"use strict";
// Retrying a call the way the registry prescribes: each ErrorPayloadError the call throws goes
// through its `decide` (a response without a payload by its status), each transport failure
// (`failureOf`: refused, TLS, reset, timeout) through `decideFailure`; a timed action (retry,
// pause) waits the decided delay and calls again; any other decision, the last attempt, a delay
// past the maximum and any other exception reject at once.
Object.defineProperty(exports, "__esModule", { value: true });
exports.sleep = void 0;
exports.errorType = errorType;
exports.decisionFor = decisionFor;
exports.retry = retry;
const contract_js_1 = require("./contract.js");
const runtime_js_1 = require("./runtime.js");
const transport_js_1 = require("./transport.js");
/** The OpenTelemetry `error.type` of an error: its code (as sent), else the HTTP status of a
 * response without one, else the transport failure (`refused`, `tls`, `reset`, `timeout`), else
 * the error's name, else `_OTHER`. */
function errorType(error) {
    if (error instanceof runtime_js_1.ErrorPayloadError)
        return error.codeText ?? (error.status !== null ? String(error.status) : "_OTHER");
    const failure = (0, transport_js_1.failureOf)(error);
    if (failure !== null)
        return failure;
    const name = typeof error === "object" && error !== null ? error.name : undefined;
    return typeof name === "string" && name !== "" ? name : "_OTHER";
}
function observe(options, event) {
    const { attempt, error, decision, delayMs } = event;
    // The operation ends with this error: error.type describes how it failed, never a recovered attempt.
    if (decision !== null && delayMs === null)
        options.span?.setAttribute("error.type", errorType(error));
    options.onAttempt?.(event);
    if (options.logger === undefined || decision === null)
        return;
    const details = { attempt, action: decision.action, reason: decision.reason, code: decision.code, delayMs, errorType: errorType(error) };
    if (delayMs !== null)
        options.logger.info(`retry: attempt ${attempt} failed (${details.errorType}), ${decision.action} in ${delayMs} ms`, details);
    else
        options.logger.warn(`retry: giving up after attempt ${attempt} (${details.errorType}): ${decision.action}, ${decision.reason}`, details);
}
// setTimeout fires at once past 2^31 - 1 ms: a longer wait is waited in parts.
const LONGEST_TIMER_MS = 2 ** 31 - 1;
// A function, so that the compiler does not take `aborted` as unchanged since it was last read.
function isAborted(signal) {
    return signal?.aborted === true;
}
function aborted(signal) {
    if (signal.reason !== undefined)
        return signal.reason;
    const error = new Error("The operation was aborted");
    error.name = "AbortError";
    return error;
}
/** The default Sleeper: a timer, cleared when `signal` aborts first. */
const sleep = async (ms, signal) => {
    const timers = globalThis;
    for (let left = Math.max(0, ms);; left -= LONGEST_TIMER_MS) {
        await new Promise((resolve, reject) => {
            if (signal?.aborted === true) {
                reject(aborted(signal));
                return;
            }
            const onAbort = () => {
                timers.clearTimeout(timer);
                if (signal !== undefined)
                    reject(aborted(signal));
            };
            const timer = timers.setTimeout(() => {
                signal?.removeEventListener("abort", onAbort);
                resolve();
            }, Math.min(left, LONGEST_TIMER_MS));
            signal?.addEventListener("abort", onAbort);
        });
        if (left <= LONGEST_TIMER_MS)
            return;
    }
};
exports.sleep = sleep;
/** The decision about an error a call threw: an ErrorPayloadError's own (`error.decide`), a
 * transport failure's (`failureOf`, then `decideFailure`), or null for any other error (not the
 * contract's to judge). */
function decisionFor(error, options = {}) {
    if (error instanceof runtime_js_1.ErrorPayloadError)
        return error.decide(options);
    const failure = (0, transport_js_1.failureOf)(error);
    return failure === null ? null : (0, runtime_js_1.decideFailure)(failure, options);
}
/** `call`'s result, calling again after each ErrorPayloadError or transport failure whose
 * decision (`decisionFor`, with the attempt number and these limits) is a timed action (retry,
 * pause), once the decided delay has passed. Rejects with the call's error for any other decision
 * (fix, skip, stop, escalate: read `error.decide()` for which), on the last attempt and for a
 * delay past `maxDelayMs`; with any other error at once; with the signal's reason once it aborts
 * (an error thrown after it aborted is never retried). `call` receives the attempt number, from 1. */
async function retry(call, options = {}) {
    const { maxAttempts = contract_js_1.DEFAULT_MAX_ATTEMPTS, maxDelayMs = contract_js_1.DEFAULT_MAX_DELAY_MS, jitter = false, idempotent = false, signal } = options;
    const wait = options.sleep ?? exports.sleep;
    for (let attempt = 1;; attempt++) {
        if (signal?.aborted === true)
            throw aborted(signal);
        try {
            return await call(attempt);
        }
        catch (error) {
            // Once the caller aborted, the AbortError the call throws is a cancellation, not a timeout.
            const cancelled = isAborted(signal) && !(error instanceof runtime_js_1.ErrorPayloadError);
            const decision = cancelled ? null : decisionFor(error, { attempt, maxAttempts, maxDelayMs, jitter, idempotent });
            if (decision !== null)
                options.onDecision?.(decision, attempt);
            const delayMs = decision !== null && contract_js_1.EXHAUSTED[decision.action] !== undefined ? decision.delayMs : null;
            observe(options, { attempt, error, decision, delayMs });
            if (delayMs === null)
                throw error;
            await wait(delayMs, signal);
        }
    }
}
