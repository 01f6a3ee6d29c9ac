// The strict verdict on a raw payload (docs/conformance.md), as pure functions of the contract's
// data: the field specs and a lookup of the registry's codes. Safe for any value.

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

export type Json = { [key: string]: unknown };

export function isObject(x: unknown): x is Json {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

export function has(x: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(x, key);
}

/** An own property, never one inherited from Object.prototype (`constructor`, `__proto__`). */
export function own(x: Json, key: string): unknown {
  return has(x, key) ? x[key] : undefined;
}

function integral(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v);
}

/** Whether `value` has the field's JSON type and lies within its limits. */
export function typeOk(spec: FieldSpec, value: unknown): boolean {
  switch (spec.type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "enum":
      return typeof value === "string" && spec.values.includes(value);
    case "integer":
      return integral(value) && (spec.minimum === null || value >= spec.minimum) && (spec.maximum === null || value <= spec.maximum);
    case "string_list":
      return Array.isArray(value) && value.every((item) => typeof item === "string")
        && (spec.maxItems === null || value.length <= spec.maxItems);
    case "scalar_map":
      return isObject(value) && Object.values(value).every((item) => ["string", "number", "boolean"].includes(typeof item));
  }
}

function describe(spec: FieldSpec): string {
  switch (spec.type) {
    case "enum":
      return `one of ${spec.values.join(", ")}`;
    case "integer":
      return `an integer from ${spec.minimum} to ${spec.maximum}`;
    case "string_list":
      return spec.maxItems === null ? "a list of strings" : `a list of at most ${spec.maxItems} strings`;
    case "scalar_map":
      return "an object of names to strings, numbers or booleans";
    default:
      return `a ${spec.type}`;
  }
}

// The verdicts are called with the contract's own constant FIELDS for every payload; building
// these lookups per call was most of a valid payload's cost (bench/runtime_bench.py), so they
// are built once per fields array.
const wireCache = new WeakMap<readonly FieldSpec[], Readonly<Record<string, string>>>();
const specCache = new WeakMap<readonly FieldSpec[], ReadonlyMap<string, FieldSpec>>();

/** Canonical name -> wire name. */
export function wireNames(fields: readonly FieldSpec[]): Readonly<Record<string, string>> {
  let names = wireCache.get(fields);
  if (names === undefined) {
    names = Object.freeze(Object.fromEntries(fields.map((spec) => [spec.name, spec.wire])));
    wireCache.set(fields, names);
  }
  return names;
}

function specsByWire(fields: readonly FieldSpec[]): ReadonlyMap<string, FieldSpec> {
  let specs = specCache.get(fields);
  if (specs === undefined) {
    specs = new Map(fields.map((spec) => [spec.wire, spec]));
    specCache.set(fields, specs);
  }
  return specs;
}

function wire(w: Readonly<Record<string, string>>, name: string): string {
  return w[name] ?? name;
}

/** What any payload must satisfy whatever its code: an object of known fields, each of its
 * type, the required ones present, and a resource id when the scope is resource. */
export function envelopeProblems(fields: readonly FieldSpec[], raw: unknown): Problem[] {
  if (!isObject(raw)) return [["not-an-object", "payload must be a JSON object", null]];
  const byWire = specsByWire(fields);
  const found: Problem[] = [];
  for (const key of Object.keys(raw)) {
    const spec = byWire.get(key);
    if (spec === undefined) found.push(["extra-field", `field ${JSON.stringify(key)} is not part of the contract`, key]);
    else if (!typeOk(spec, raw[key])) found.push(["wrong-type", `field ${JSON.stringify(key)} must be ${describe(spec)}`, key]);
  }
  for (const spec of fields) {
    if (spec.required && !has(raw, spec.wire)) found.push(["missing-field", `required field ${JSON.stringify(spec.wire)} is missing`, null]);
  }
  const w = wireNames(fields);
  const scope = wire(w, "scope");
  const resourceId = wire(w, "resource_id");
  if (own(raw, scope) === "resource" && !has(raw, resourceId)) {
    found.push(["resource-id-missing", `${scope} is resource, so ${resourceId} is required`, scope]);
  }
  return found;
}

/** Where a payload's well-typed fields disagree with the registry: an unknown category or code,
 * or a known code's contradictions (category, retryable, scope, delay, hints). */
export function registryProblems(
  fields: readonly FieldSpec[], categories: readonly string[], lookup: (code: string) => Entry | undefined, raw: Json,
): Problem[] {
  const w = wireNames(fields);
  const code = own(raw, wire(w, "code"));
  const category = own(raw, wire(w, "category"));
  const retryable = own(raw, wire(w, "retryable"));
  const scope = own(raw, wire(w, "scope"));
  const found: Problem[] = [];
  if (typeof category === "string" && !categories.includes(category)) {
    found.push(["unknown-category", `category ${JSON.stringify(category)} is not in the registry`, wire(w, "category")]);
  }
  const entry = typeof code === "string" ? lookup(code) : undefined;
  if (entry === undefined) {
    if (typeof code === "string") found.push(["unknown-code", `code ${JSON.stringify(code)} is not in the registry`, wire(w, "code")]);
    return found;
  }
  const name = String(code);
  if (typeof category === "string" && category !== entry.category) {
    found.push(["category-mismatch", `${name} has category ${entry.category}, not ${JSON.stringify(category)}`, wire(w, "category")]);
  }
  if (typeof retryable === "boolean" && retryable !== entry.retryable) {
    found.push(["retryable-mismatch", `${name} has retryable ${entry.retryable}`, wire(w, "retryable")]);
  }
  const scopeSpec = fields.find((spec) => spec.name === "scope");
  if (typeof scope === "string" && !entry.scopes.includes(scope) && scopeSpec !== undefined && typeOk(scopeSpec, scope)) {
    found.push(["scope-not-allowed", `${name} may carry scope ${entry.scopes.join(", ")}, not ${JSON.stringify(scope)}`, wire(w, "scope")]);
  }
  if (has(raw, wire(w, "retry_after_ms")) && !entry.retryable) {
    found.push(["retry-after-not-retryable", `${name} is not retryable, so it has no retry_after_ms`, wire(w, "retry_after_ms")]);
  }
  for (const spec of fields) {
    if (spec.hint && has(raw, spec.wire) && !entry.hints.includes(spec.name)) {
      found.push(["hint-not-allowed", `${name} does not carry the hint field ${JSON.stringify(spec.wire)}`, spec.wire]);
    }
  }
  return found;
}

/** The strict verdict: the envelope's problems, else the registry's (empty: valid). */
export function strictProblems(
  fields: readonly FieldSpec[], categories: readonly string[], lookup: (code: string) => Entry | undefined, raw: unknown,
): Problem[] {
  const found = envelopeProblems(fields, raw);
  return found.length > 0 || !isObject(raw) ? found : registryProblems(fields, categories, lookup, raw);
}
