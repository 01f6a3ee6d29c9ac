import type { Decision, FailureOptions } from "./runtime.js";
/** What `retry` needs of an `AbortSignal` (the platform's, node's or a polyfill's all fit). */
export interface AbortSignalLike {
    readonly aborted: boolean;
    readonly reason?: unknown;
    addEventListener(type: "abort", listener: () => void): void;
    removeEventListener(type: "abort", listener: () => void): void;
}
/** Waits `ms` milliseconds; rejects when `signal` aborts first. Tests pass their own. */
export type Sleeper = (ms: number, signal?: AbortSignalLike) => Promise<void>;
/** How `retry` bounds its loop; every field is optional. */
export interface RetryOptions {
    /** Calls at most (default DEFAULT_MAX_ATTEMPTS, the registry's). */
    readonly maxAttempts?: number | undefined;
    /** A longer decided wait rejects instead (default DEFAULT_MAX_DELAY_MS, the registry's). */
    readonly maxDelayMs?: number | undefined;
    /** Draw the backoff (only the backoff) uniformly below its value (default false). */
    readonly jitter?: boolean | undefined;
    /** The call may be sent twice (a GET, a PUT, a request with an Idempotency-Key): a connection
     * reset or a timeout after it was sent is retried too (default false: those reject, decided
     * `outcome-unknown`). A refused connection or a failed TLS handshake is retried either way. */
    readonly idempotent?: boolean | undefined;
    /** Waits between attempts (default: a timer). */
    readonly sleep?: Sleeper | undefined;
    /** Aborting it stops the loop: no further call, and a wait under way rejects with its reason. */
    readonly signal?: AbortSignalLike | undefined;
    /** Told each decision, before the wait or the rejection it leads to. */
    readonly onDecision?: ((decision: Decision, attempt: number) => void) | undefined;
    /** Told each failed attempt: its error, the decision (null: not the contract's to judge) and
     * the wait before the next attempt (null: `retry` rejects with that error). */
    readonly onAttempt?: ((event: AttemptEvent) => void) | undefined;
    /** Where each retry (info) and each giving up (warn) is logged: `console`, pino, winston, or
     * anything with `info` and `warn` (default: nothing is logged). */
    readonly logger?: RetryLogger | undefined;
    /** The OpenTelemetry span of the call (any object with `setAttribute`: no dependency on
     * @opentelemetry/api): when the call ends with a decided error (the attempt `retry` gives up
     * on, rejecting with it), that error sets `error.type` (`errorType`), once. An attempt that is
     * retried sets nothing (a call that then succeeds has no `error.type`, as OpenTelemetry's
     * semantic conventions ask), nor does an error the contract does not judge (decision null). */
    readonly span?: SpanLike | undefined;
}
/** One failed attempt, as `onAttempt` is told it. */
export interface AttemptEvent {
    readonly attempt: number;
    readonly error: unknown;
    readonly decision: Decision | null;
    /** The wait before the next attempt; null when there is none (`retry` rejects). */
    readonly delayMs: number | null;
}
/** A logger `retry` writes to: console's and the usual Node loggers' `info` and `warn`. */
export interface RetryLogger {
    info(message: string, ...details: unknown[]): void;
    warn(message: string, ...details: unknown[]): void;
}
/** What `retry` needs of an OpenTelemetry span. */
export interface SpanLike {
    setAttribute(key: string, value: string): unknown;
}
/** The OpenTelemetry `error.type` of an error: its code (as sent), else the HTTP status of a
 * response without one, else the transport failure (`refused`, `tls`, `reset`, `timeout`), else
 * the error's name, else `_OTHER`. */
export declare function errorType(error: unknown): string;
/** The default Sleeper: a timer, cleared when `signal` aborts first. */
export declare const sleep: Sleeper;
/** The decision about an error a call threw: an ErrorPayloadError's own (`error.decide`), a
 * transport failure's (`failureOf`, then `decideFailure`), or null for any other error (not the
 * contract's to judge). */
export declare function decisionFor(error: unknown, options?: FailureOptions): Decision | null;
/** `call`'s result, calling again after each ErrorPayloadError or transport failure whose
 * decision (`decisionFor`, with the attempt number and these limits) is a timed action (retry,
 * pause), once the decided delay has passed. Rejects with the call's error for any other decision
 * (fix, skip, stop, escalate: read `error.decide()` for which), on the last attempt and for a
 * delay past `maxDelayMs`; with any other error at once; with the signal's reason once it aborts
 * (an error thrown after it aborted is never retried). `call` receives the attempt number, from 1. */
export declare function retry<T>(call: (attempt: number) => T | Promise<T>, options?: RetryOptions): Promise<T>;
