import type { Action, Category, Code, Parsed, Reason } from "./contract.js";
import type { ErrorPayload, NewErrorFields, PayloadOf } from "./payload.js";
import type { Json, Problem } from "./verdict.js";
import type { Headers } from "./wire.js";
import type { TransportFailure } from "./transport.js";
/** A payload the contract rejects; `problems` holds [problem id, message, field] triples. */
export declare class PayloadError extends Error {
    readonly problems: readonly Problem[];
    constructor(problems: readonly Problem[]);
}
export type Searched = {
    readonly [parameter: string]: string | number | boolean;
};
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
export declare function isKnownCode(code: string): code is Code;
/** The strict problems of a raw payload (none: valid) and its tolerant reading. */
export interface Verdict {
    readonly valid: boolean;
    readonly problems: readonly Problem[];
    readonly parsed: Parsed;
}
/** Every reason the strict contract rejects `payload` (empty: valid). */
export declare function payloadProblems(payload: unknown): Problem[];
/** True when `x` is a payload of this contract: exactly what the JSON Schema accepts. */
export declare function isErrorPayload(x: unknown): x is ErrorPayload;
/** The wait when neither payload nor registry gives one: base * 2^(attempt-1), capped; with
 * jitter, a uniform draw below that ("full jitter"). */
export declare function backoffMs(attempt: number, jitter?: boolean): number;
/** Both verdicts at once: strict problems, and known / unknown / invalid. */
export declare function checkPayload(payload: unknown): Verdict;
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
export declare function decide(payload: unknown, options?: DecideOptions): Decision;
/** How a response without a readable code is decided by its status alone, as the official API
 * clients do: the exact status in the registry's status table (`wire.statuses` over errgen's
 * defaults: 429 pause, 5xx retry, 401 and 403 stop, 404 skip, other 4xx fix), else its class
 * (`4xx`), else escalate (docs/conformance.md). */
export declare function statusAction(status: number): Action;
/** What to do about a response (`readHttp`): its payload decided as `decide` does; a response
 * with no payload at all (a proxy's HTML 502, a gateway's bare 429 or `{"message":"Too Many
 * Requests"}`, an empty 503) by its status (`statusAction`), reason `status-fallback`, honouring
 * its Retry-After. A body that claims the API's error shape and breaks the contract stays
 * `invalid-payload`. */
export declare function decideResponse(reading: HttpReading, options?: DecideOptions): Decision;
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
export declare function decideFailure(failure: TransportFailure | string, options?: FailureOptions): Decision;
/** Strict (a service, before sending): reject unknown codes, contradictions, extra fields. */
export declare function validatePayload(payload: unknown): ErrorPayload;
/** Strict, as an assertion: after it returns, TypeScript knows `payload` is an ErrorPayload. */
export declare function assertErrorPayload(payload: unknown): asserts payload is ErrorPayload;
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
export declare function parsePayload(payload: unknown): {
    readonly known: true;
    readonly payload: ErrorPayload;
} | UnknownErrorPayload;
/** A payload for `code` with category, retryable and default scope filled from the table, so a
 * service cannot emit a contradictory one. `fields` are payload fields by wire name (scope,
 * resource_id, message, retry_after_ms and the hints the code allows). Throws PayloadError on
 * anything the contract rejects. */
export declare function newError<C extends Code>(code: C, correlationId: string, fields?: NewErrorFields<C>): PayloadOf<C>;
/** An MCP tools/call result: isError, the payload as compact JSON text, and as structuredContent. */
export declare function toMcpResult(payload: ErrorPayload | Json): {
    content: {
        type: "text";
        text: string;
    }[];
    structuredContent: Json;
    isError: true;
};
/** The raw payload of an MCP tools/call result (structuredContent, else the first text item's
 * JSON), or null when it carries none; judge it with checkPayload or decide. */
export declare function fromMcpResult(result: unknown): unknown;
export interface HttpResponse {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
}
/** Status from the code's httpStatus (500 for a code this SDK does not know); Retry-After in
 * whole seconds, rounded up, and retry-after-ms when there is a delay; x-should-retry from
 * retryable, for clients that never read the body; with problem = true an RFC 9457
 * application/problem+json body with the payload fields as extension members. */
export declare function toHttp(given: ErrorPayload | Json, problem?: boolean): HttpResponse;
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
/** Read an HTTP response as docs/conformance.md ("Reading a real response") specifies: where the
 * registry says each fact is; facts the response does not carry come from the registry row of the
 * code it carries (an unknown code: from the status). Never throws on what a server sends.
 * `headers`: a plain object, [name, value] pairs, or fetch's `Headers`; `body`: a string or bytes
 * (Uint8Array, ArrayBuffer; anything else is empty); `nowMs` is the clock of HTTP-dates. */
export declare function readHttp(status: number, headers: Headers, body: unknown, nowMs?: number): HttpReading;
/** What `readResponse` needs of a fetch `Response` (any fetch: the platform's, undici's, a polyfill). */
export interface FetchResponse {
    readonly status: number;
    readonly headers: Headers;
    readonly body: {
        getReader(): BodyReader;
    } | null;
}
/** A reader of a fetch body stream. */
export interface BodyReader {
    read(): Promise<{
        readonly done: boolean;
        readonly value?: Uint8Array | undefined;
    }>;
    cancel(): Promise<void>;
}
/** Read a fetch `Response` as `readHttp` does. Its body is read up to MAX_BODY_BYTES + 1 bytes and
 * no further (a longer body is unreadable, and the rest is never downloaded). A failure of the
 * connection itself rejects, as the fetch would. */
export declare function readResponse(response: FetchResponse, nowMs?: number): Promise<HttpReading>;
/** The raw payload of an HTTP error response, read tolerantly (`readHttp`): errgen's payload as
 * sent, or the one built from a real API's response; a body that cannot be read comes back as its
 * text, and a response that is not an error as null. Judge it with checkPayload or decide.
 * `headers`: a plain object, [name, value] pairs, or fetch's `Headers`; `nowMs` is the clock of
 * HTTP-dates. */
export declare function fromHttp(status: number, headers: Headers, body: unknown, nowMs?: number): unknown;
/** Near misses of `value` among `allowed`, closest first (Levenshtein distance, at most a third of
 * the length). Pass only the values this caller may read (its own tenants, say), never a global
 * list: a suggestion drawn from everything leaks the existence of what the caller cannot see. */
export declare function didYouMean(value: string, allowed: readonly string[], limit?: number): string[];
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
export declare class ErrorPayloadError extends Error {
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
    constructor(payload: ErrorPayload | Json | null, options?: ErrorPayloadErrorOptions);
    /** The category of this error's class: the payload's category, or for a response whose payload
     * names none this SDK knows, the one the registry gives its status (`STATUS_CATEGORIES`: a bare
     * 429 is a RateLimitError, its `classCategory` "rate_limit", its `category` null); null for this
     * class itself. `instanceof RateLimitError` narrows it to "rate_limit". */
    get classCategory(): Category | null;
    /** Whether the code is this registry's (narrows `code` and `payload`). */
    isKnown(): this is ErrorPayloadError & {
        readonly code: Code;
        readonly payload: ErrorPayload;
    };
    /** What to do about this error: `decideResponse` on the response it was read from, else
     * `decide` on its payload. */
    decide(options?: DecideOptions): Decision;
    /** The response a service sends for this error; throws PayloadError for an error read from a
     * response that carried no payload: there is nothing to send. */
    toHttp(problem?: boolean): HttpResponse;
    toMcpResult(): ReturnType<typeof toMcpResult>;
    private carried;
    /** The error of a fetch `Response` (`readResponse`; its class as `fromReading` picks it: a bare
     * 429 is a RateLimitError), or null when it is not an error. A
     * success's body is left unread (unless the registry marks errors sent with a success status,
     * `error_when`), so the caller can still read it. */
    static fromResponse(response: FetchResponse, nowMs?: number): Promise<ErrorPayloadError | null>;
    /** The error of an HTTP response (`readHttp`; its class as `fromReading` picks it), or null when
     * the response is not an error. */
    static fromHttp(status: number, headers: Headers, body: unknown, nowMs?: number): ErrorPayloadError | null;
    /** The error of a response a client has already parsed (axios: an `AxiosResponse`, or the
     * `AxiosError` it rejects with, read from its `response`), or null when it is not an error or an
     * AxiosError came without a response (a transport failure: `failureOf` names it). It takes what
     * a `catch` holds as it is (`unknown`): anything else is null too, so an interceptor is one line,
     * `(error) => Promise.reject(ErrorPayloadError.fromAxios(error) ?? error)`. `data` is the body
     * as the client gave it: text, bytes, or parsed JSON (written back as JSON). */
    static fromAxios(given: ParsedResponse | {
        readonly response?: ParsedResponse | undefined;
    } | unknown, nowMs?: number): ErrorPayloadError | null;
    /** The error of a reading (null when it is not an error), with the response's headers, of the
     * class `ErrorPayloadError.of` picks: the payload's category's, else its status's category's
     * (a bare 429 is a RateLimitError), else this class. */
    static fromReading(reading: HttpReading, headers?: Headers): ErrorPayloadError | null;
    /** The error of a payload as the class of its category (`RateLimitError` for a `rate_limit`
     * payload). Without a payload, or when it names no category of the registry (a newer server's),
     * the class of the category the registry gives the HTTP status (`options.status`, else the
     * reading's; `STATUS_CATEGORIES`), as stripe-node's and openai-node's RateLimitError is any 429:
     * a gateway's bare 429 is a RateLimitError. Else, or with no status (an error a service makes
     * itself), this class. */
    static of(payload: ErrorPayload | Json | null, options?: ErrorPayloadErrorOptions): ErrorPayloadError;
}
/** A code this SDK does not know (a newer server's), kept as sent (`text`). Not a string, so that
 * comparing `error.code` with a misspelt code literal fails to compile; `String(code)` and JSON
 * give the text. */
export declare class UnknownCode {
    readonly text: string;
    constructor(text: string);
    toString(): string;
    toJSON(): string;
}
/** An error of one category's class (`RateLimitError`): `classCategory` is `C`. Its `category`
 * stays what the payload said, as on ErrorPayloadError: usually `C`, but null for a response that
 * got the class from its status alone (a gateway's bare 429, by `STATUS_CATEGORIES`), and a
 * newer server's category as sent for one whose payload names a category this SDK does not know. */
export type CategoryError<C extends Category> = ErrorPayloadError & {
    readonly classCategory: C;
};
/** The class of a category's errors (`RateLimitError`): `instanceof` narrows to its errors. */
export interface CategoryErrorClass<C extends Category> {
    new (payload: ErrorPayload | Json | null, options?: ErrorPayloadErrorOptions): CategoryError<C>;
    readonly prototype: CategoryError<C>;
}
/** The error class of `category`, one per category (the package exports each under its name,
 * CATEGORY_ERRORS); made once, on first use. `ErrorPayloadError.of` picks it by the payload's
 * category, else by the response's status. */
export declare function categoryErrorClass<C extends Category>(category: C): CategoryErrorClass<C>;
/** What `ErrorPayloadError.fromAxios` reads of a response whose client parsed the body (axios):
 * the status, the headers (a plain object or AxiosHeaders; a value may be a list or a number),
 * and `data` (parsed JSON, text or bytes). */
export interface ParsedResponse {
    readonly status: number;
    readonly headers?: unknown;
    readonly data?: unknown;
}
