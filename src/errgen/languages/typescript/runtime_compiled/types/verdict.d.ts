/** One payload field: canonical name, wire name, JSON type and limits. */
export interface FieldSpec {
    readonly name: string;
    readonly wire: string;
    readonly type: "string" | "boolean" | "integer" | "enum" | "string_list" | "scalar_map";
    readonly required: boolean;
    readonly values: readonly string[];
    readonly hint: boolean;
    readonly minimum: number | null;
    readonly maximum: number | null;
    readonly maxItems: number | null;
}
/** What the registry says about one code. */
export interface Entry {
    readonly category: string;
    readonly retryable: boolean;
    readonly scopes: readonly string[];
    readonly hints: readonly string[];
}
/** A reason a payload is rejected: a stable id, a message, and the wire field it concerns. */
export type Problem = readonly [id: string, message: string, field: string | null];
export type Json = {
    [key: string]: unknown;
};
export declare function isObject(x: unknown): x is Json;
export declare function has(x: object, key: string): boolean;
/** An own property, never one inherited from Object.prototype (`constructor`, `__proto__`). */
export declare function own(x: Json, key: string): unknown;
/** Whether `value` has the field's JSON type and lies within its limits. */
export declare function typeOk(spec: FieldSpec, value: unknown): boolean;
/** Canonical name -> wire name. */
export declare function wireNames(fields: readonly FieldSpec[]): Readonly<Record<string, string>>;
/** What any payload must satisfy whatever its code: an object of known fields, each of its
 * type, the required ones present, and a resource id when the scope is resource. */
export declare function envelopeProblems(fields: readonly FieldSpec[], raw: unknown): Problem[];
/** Where a payload's well-typed fields disagree with the registry: an unknown category or code,
 * or a known code's contradictions (category, retryable, scope, delay, hints). */
export declare function registryProblems(fields: readonly FieldSpec[], categories: readonly string[], lookup: (code: string) => Entry | undefined, raw: Json): Problem[];
/** The strict verdict: the envelope's problems, else the registry's (empty: valid). */
export declare function strictProblems(fields: readonly FieldSpec[], categories: readonly string[], lookup: (code: string) => Entry | undefined, raw: unknown): Problem[];
