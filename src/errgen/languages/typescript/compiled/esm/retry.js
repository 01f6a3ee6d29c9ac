// Retrying a call the way the registry prescribes: each ErrorPayloadError the call throws goes
// through `decide`; a timed action (retry, pause) waits the decided delay and calls again; any other
// decision, the last attempt, a delay past the maximum and any other exception reject at once.
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS, EXHAUSTED } from "./contract.js";
import { ErrorPayloadError } from "./runtime.js";
// setTimeout fires at once past 2^31 - 1 ms: a longer wait is waited in parts.
const LONGEST_TIMER_MS = 2 ** 31 - 1;
function aborted(signal) {
    if (signal.reason !== undefined)
        return signal.reason;
    const error = new Error("The operation was aborted");
    error.name = "AbortError";
    return error;
}
/** The default Sleeper: a timer, cleared when `signal` aborts first. */
export const sleep = async (ms, signal) => {
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
/** `call`'s result, calling again after each ErrorPayloadError whose decision (`decide`, with the
 * attempt number and these limits) is a timed action (retry, pause), once the decided delay has
 * passed. Rejects with the call's error for any other decision (fix, skip, stop, escalate: read
 * `error.decide()` for which), on the last attempt and for a delay past `maxDelayMs`; with any
 * other error at once (not the contract's to judge); with the signal's reason once it aborts.
 * `call` receives the attempt number, from 1. */
export async function retry(call, options = {}) {
    const { maxAttempts = DEFAULT_MAX_ATTEMPTS, maxDelayMs = DEFAULT_MAX_DELAY_MS, jitter = false, signal } = options;
    const wait = options.sleep ?? sleep;
    for (let attempt = 1;; attempt++) {
        if (signal?.aborted === true)
            throw aborted(signal);
        try {
            return await call(attempt);
        }
        catch (error) {
            if (!(error instanceof ErrorPayloadError))
                throw error;
            const decision = error.decide({ attempt, maxAttempts, maxDelayMs, jitter });
            options.onDecision?.(decision, attempt);
            if (EXHAUSTED[decision.action] === undefined || decision.delayMs === null)
                throw error;
            await wait(decision.delayMs, signal);
        }
    }
}
