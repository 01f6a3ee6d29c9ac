/** Headers as a plain object, as [name, value] pairs in order, anything iterable over pairs (a
 * `Map`, fetch's `Headers`), or anything with fetch's `forEach` (its `Headers` typed without the
 * DOM's iterable lib). */
export type Headers = Readonly<Record<string, string>> | readonly (readonly [string, string])[] | Iterable<readonly [string, string]> | {
    forEach(callback: (value: string, name: string) => void): void;
};
/** Whether arrays and objects nest deeper than `limit` (strings skipped); linear time. */
export declare function tooDeep(text: string, limit?: number): boolean;
/** [true, value] when `text` is exactly one JSON value nested at most MAX_JSON_DEPTH deep, else
 * [false, null]. A number longer than MAX_NUMBER_CHARS reads as +-Infinity (out of range). */
export declare function readJson(text: string): readonly [boolean, unknown];
/** The source text of the number at `holder[key]`, when it was spelled as JavaScript does not show it. */
export declare function numberSpelling(holder: unknown, key: string): string | undefined;
/** JSON.parse's value of `text` (it throws where JSON.parse throws), recording in SPELLINGS each
 * number spelled apart. Recursive: callers bound the depth (readJson checks it first). */
export declare function parseSpelled(text: string): unknown;
/** A body as text: [false, the text with replacement characters] when bytes are not UTF-8.
 * Anything but a string or bytes is an empty body (a number is not a size to allocate). */
export declare function asText(body: unknown): readonly [boolean, string];
/** Whether a body is longer than MAX_BODY_BYTES in UTF-8 (checked before it is decoded). */
export declare function bodyTooLarge(body: unknown): boolean;
/** Compact JSON of a payload; a field JSON cannot carry is left out rather than throwing. */
export declare function toJson(value: unknown): string;
/** Whether `text` is at most `limit` characters (code points, as every SDK counts them: a UTF-16
 * pair is one character, a lone surrogate one). */
export declare function withinChars(text: string, limit: number): boolean;
/** The first value of header `name` (ASCII case-insensitive) among the first MAX_HEADERS; null
 * when absent, not text, or longer than MAX_HEADER_CHARS characters (code points). */
export declare function header(headers: unknown, name: string): string | null;
/** Headers as a plain object: names in lower case, the first value of a repeated name, among the
 * first MAX_HEADERS (what `header` reads); pairs that are not two strings are skipped. */
export declare function headerMap(headers: unknown): Record<string, string>;
/** Whether `toHttp` may write `value` as a header (docs/conformance.md, "Writing"):
 * non-empty, at most MAX_HEADER_CHARS long, every character U+0020..U+007E. A value that is not is
 * left out of the headers; the body still carries it. */
export declare function writableHeader(value: string): boolean;
export declare function trimOws(text: string): string;
export declare function saturated(digits: string, factor: number): number;
/** Milliseconds since the epoch of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or null. */
export declare function httpDateMs(text: string): number | null;
/** The raw payload of an MCP tool result: an object `structuredContent`, else the first text
 * item's JSON; null when there is none. */
export declare function mcpPayload(result: unknown): unknown;
