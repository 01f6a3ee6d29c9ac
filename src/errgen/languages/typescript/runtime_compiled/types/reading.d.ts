import type { Action } from "./contract.js";
/** Where one fact is: a header, a path into the body (a key, an index, or -1 for `[*]`), or the
 * status (codes only). */
export type Source = {
    readonly in: "header";
    readonly name: string;
} | {
    readonly in: "body";
    readonly path: readonly (string | number)[];
} | {
    readonly in: "status";
};
export type Condition = {
    readonly status: readonly number[];
} | {
    readonly at: Source;
    readonly equals: unknown;
} | {
    readonly at: Source;
    readonly non_empty: true;
};
export type DelayUnit = "ms" | "seconds" | "http" | "epoch_seconds" | "duration";
/** The view's `response` (docs/conformance.md): the same plain data in every SDK. */
export interface ResponseSpec {
    readonly format: "json" | "xml";
    readonly error_when: readonly Condition[];
    readonly code: readonly Source[];
    readonly message: readonly Source[];
    readonly correlation_id: readonly Source[];
    readonly resource_id: readonly Source[];
    readonly retry_after: readonly {
        readonly at: Source;
        readonly unit: DelayUnit;
    }[];
    readonly own_retry_after: readonly {
        readonly at: Source;
        readonly unit: DelayUnit;
    }[];
    readonly variants: {
        readonly [wireCode: string]: readonly (readonly [string, readonly Condition[]])[];
    };
    readonly retryable_statuses: readonly number[];
    readonly service_statuses: readonly number[];
    /** Status (`"429"`) or class (`"5xx"`) -> the action of a response without a readable code. */
    readonly status_actions: {
        readonly [status: string]: Action;
    };
    /** Statuses decided `pause` when they name a wait (a 403 with Retry-After: a rate limit). */
    readonly paused_with_delay: readonly number[];
}
/** What a value at a source yields: something usable, or null. */
type Accept<T> = (value: unknown) => T | null;
/** A code or request id: a non-empty string, or a whole JSON number as its decimal text. */
export declare function codeText(value: unknown): string | null;
export declare function messageText(value: unknown): string | null;
/** What `accept` makes of the value at `source`; null when nothing usable is there. */
export declare function readSource<T>(source: Source, document: unknown, headers: unknown, accept: Accept<T>, status?: number): T | null;
export declare function first<T>(sources: readonly Source[], document: unknown, headers: unknown, accept: Accept<T>, status?: number): T | null;
/** The code a response carries: the first source whose value is a code `known` accepts (the most
 * specific code this SDK knows wins: Microsoft Graph's innerError.code over its outer code, the
 * first known entry of an array), else the first usable one. */
export declare function readCode(sources: readonly Source[], document: unknown, headers: unknown, status: number, known: (code: string) => boolean): string | null;
export declare function holds(condition: Condition, status: number, document: unknown, headers: unknown): boolean;
/** Any status >= 300, or a 1xx/2xx that an `error_when` condition marks. */
export declare function isError(status: number, document: unknown, headers: unknown): boolean;
/** The registry code of a wire code several codes send (`wire_code`/`when`): the first whose
 * conditions hold, else the first; among those that `fits` (a payload's own category and scope)
 * when any does. Any other code is itself. */
export declare function registryCode(code: string, status: number, document: unknown, headers: unknown, fits?: (name: string) => boolean): string;
/** The wire code each registry code is sent as, when several codes share one. */
export declare const WIRE_CODE: ReadonlyMap<string, string>;
/** Seconds as sent (`7`, `2.128` from Microsoft Graph, Discord's JSON `64.57`) in ms, rounded up,
 * saturated. A JSON fraction is first rounded to the microsecond (IEEE double arithmetic, as every
 * SDK does), so that 64.57, which a double holds as 64.5699..., is 64,570 ms everywhere; the
 * division by 1000 is then exact integer arithmetic. */
export declare function secondsMs(value: unknown): number | null;
/** `30s`, `1.5s`, `6m0s`, `20ms`: the sum of its parts, each rounded up to whole ms. */
export declare function durationMs(text: string): number | null;
/** How a delay source's value becomes milliseconds, by its unit. */
export declare function delayReader(unit: DelayUnit, nowMs: number): Accept<number>;
export declare function delayMs(document: unknown, headers: unknown, nowMs: number, entries?: ResponseSpec["retry_after"]): number | null;
/** [true, {root: value}] for one XML element (docs/conformance.md, "Flat XML"); [false, null] for
 * anything else, and for any DOCTYPE, CDATA or entity declaration (no XXE). */
export declare function readXml(text: string): readonly [boolean, unknown];
export {};
