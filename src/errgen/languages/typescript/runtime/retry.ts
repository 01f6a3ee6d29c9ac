// Retrying a call the way the registry prescribes: each ErrorPayloadError the call throws goes
// through its `decide` (a response without a payload by its status), each transport failure
// (`failureOf`: refused, TLS, reset, timeout) through `decideFailure`; a timed action (retry,
// pause) waits the decided delay and calls again; any other decision, the last attempt, a delay
// past the maximum and any other exception reject at once.

import { DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS, EXHAUSTED } from "./contract.js";
import { decideFailure, ErrorPayloadError } from "./runtime.js";
import type { Decision, FailureOptions } from "./runtime.js";
import { failureOf } from "./transport.js";

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
export function errorType(error: unknown): string {
  if (error instanceof ErrorPayloadError) return error.codeText ?? (error.status !== null ? String(error.status) : "_OTHER");
  const failure = failureOf(error);
  if (failure !== null) return failure;
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === "string" && name !== "" ? name : "_OTHER";
}

function observe(options: RetryOptions, event: AttemptEvent): void {
  const { attempt, error, decision, delayMs } = event;
  // The operation ends with this error: error.type describes how it failed, never a recovered attempt.
  if (decision !== null && delayMs === null) options.span?.setAttribute("error.type", errorType(error));
  options.onAttempt?.(event);
  if (options.logger === undefined || decision === null) return;
  const details = { attempt, action: decision.action, reason: decision.reason, code: decision.code, delayMs, errorType: errorType(error) };
  if (delayMs !== null) options.logger.info(`retry: attempt ${attempt} failed (${details.errorType}), ${decision.action} in ${delayMs} ms`, details);
  else options.logger.warn(`retry: giving up after attempt ${attempt} (${details.errorType}): ${decision.action}, ${decision.reason}`, details);
}

// Timers are looked up, not declared, so the package needs neither the DOM lib nor @types/node.
type Timers = {
  setTimeout(handler: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
};
// setTimeout fires at once past 2^31 - 1 ms: a longer wait is waited in parts.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

// A function, so that the compiler does not take `aborted` as unchanged since it was last read.
function isAborted(signal: AbortSignalLike | undefined): boolean {
  return signal?.aborted === true;
}

function aborted(signal: AbortSignalLike): unknown {
  if (signal.reason !== undefined) return signal.reason;
  const error = new Error("The operation was aborted");
  error.name = "AbortError";
  return error;
}

/** The default Sleeper: a timer, cleared when `signal` aborts first. */
export const sleep: Sleeper = async (ms, signal) => {
  const timers = globalThis as unknown as Timers;
  for (let left = Math.max(0, ms); ; left -= LONGEST_TIMER_MS) {
    await new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(aborted(signal));
        return;
      }
      const onAbort = (): void => {
        timers.clearTimeout(timer);
        if (signal !== undefined) reject(aborted(signal));
      };
      const timer = timers.setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, Math.min(left, LONGEST_TIMER_MS));
      signal?.addEventListener("abort", onAbort);
    });
    if (left <= LONGEST_TIMER_MS) return;
  }
};

/** The decision about an error a call threw: an ErrorPayloadError's own (`error.decide`), a
 * transport failure's (`failureOf`, then `decideFailure`), or null for any other error (not the
 * contract's to judge). */
export function decisionFor(error: unknown, options: FailureOptions = {}): Decision | null {
  if (error instanceof ErrorPayloadError) return error.decide(options);
  const failure = failureOf(error);
  return failure === null ? null : decideFailure(failure, options);
}

/** `call`'s result, calling again after each ErrorPayloadError or transport failure whose
 * decision (`decisionFor`, with the attempt number and these limits) is a timed action (retry,
 * pause), once the decided delay has passed. Rejects with the call's error for any other decision
 * (fix, skip, stop, escalate: read `error.decide()` for which), on the last attempt and for a
 * delay past `maxDelayMs`; with any other error at once; with the signal's reason once it aborts
 * (an error thrown after it aborted is never retried). `call` receives the attempt number, from 1. */
export async function retry<T>(call: (attempt: number) => T | Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { maxAttempts = DEFAULT_MAX_ATTEMPTS, maxDelayMs = DEFAULT_MAX_DELAY_MS, jitter = false, idempotent = false, signal } = options;
  const wait = options.sleep ?? sleep;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted === true) throw aborted(signal);
    try {
      return await call(attempt);
    } catch (error) {
      // Once the caller aborted, the AbortError the call throws is a cancellation, not a timeout.
      const cancelled = isAborted(signal) && !(error instanceof ErrorPayloadError);
      const decision = cancelled ? null : decisionFor(error, { attempt, maxAttempts, maxDelayMs, jitter, idempotent });
      if (decision !== null) options.onDecision?.(decision, attempt);
      const delayMs = decision !== null && EXHAUSTED[decision.action] !== undefined ? decision.delayMs : null;
      observe(options, { attempt, error, decision, delayMs });
      if (delayMs === null) throw error;
      await wait(delayMs, signal);
    }
  }
}
