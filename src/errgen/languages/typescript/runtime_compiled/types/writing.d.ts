import type { Condition, Source } from "./reading.js";
declare const FACTS: readonly ["code", "message", "correlation_id", "resource_id"];
type Write = [Source, unknown];
/** (source, value) in the order they apply: the facts at their first body then first header
 * source, then the `error_when` conditions, then the code's own `when` conditions, each `equals`
 * one made true. */
export declare function writes(facts: Readonly<Record<(typeof FACTS)[number], unknown>>, variant: readonly Condition[]): Write[];
/** `node` with `value` at `path`: objects and arrays made on the way (an array padded with empty
 * objects, `[*]` as index 0), a value in the way replaced; a new key goes last. */
export declare function put(node: unknown, path: readonly (string | number)[], value: unknown): unknown;
export declare function apply(body: unknown, headers: Record<string, string>, todo: readonly Write[]): unknown;
/** The document's first member as the root element, or "" when it has none. */
export declare function toXml(document: unknown): string;
export {};
