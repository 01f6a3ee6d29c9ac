// The strict verdict on a raw payload (docs/conformance.md), as pure functions of the contract's
// data: the field specs and a lookup of the registry's codes. Safe for any value.
export function isObject(x) {
    return typeof x === "object" && x !== null && !Array.isArray(x);
}
export function has(x, key) {
    return Object.prototype.hasOwnProperty.call(x, key);
}
/** An own property, never one inherited from Object.prototype (`constructor`, `__proto__`). */
export function own(x, key) {
    return has(x, key) ? x[key] : undefined;
}
function integral(v) {
    return typeof v === "number" && Number.isInteger(v);
}
/** Whether `value` has the field's JSON type and lies within its limits. */
export function typeOk(spec, value) {
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
function describe(spec) {
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
const wireCache = new WeakMap();
const specCache = new WeakMap();
/** Canonical name -> wire name. */
export function wireNames(fields) {
    let names = wireCache.get(fields);
    if (names === undefined) {
        names = Object.freeze(Object.fromEntries(fields.map((spec) => [spec.name, spec.wire])));
        wireCache.set(fields, names);
    }
    return names;
}
function specsByWire(fields) {
    let specs = specCache.get(fields);
    if (specs === undefined) {
        specs = new Map(fields.map((spec) => [spec.wire, spec]));
        specCache.set(fields, specs);
    }
    return specs;
}
function wire(w, name) {
    return w[name] ?? name;
}
/** What any payload must satisfy whatever its code: an object of known fields, each of its
 * type, the required ones present, and a resource id when the scope is resource. */
export function envelopeProblems(fields, raw) {
    if (!isObject(raw))
        return [["not-an-object", "payload must be a JSON object", null]];
    const byWire = specsByWire(fields);
    const found = [];
    for (const key of Object.keys(raw)) {
        const spec = byWire.get(key);
        if (spec === undefined)
            found.push(["extra-field", `field ${JSON.stringify(key)} is not part of the contract`, key]);
        else if (!typeOk(spec, raw[key]))
            found.push(["wrong-type", `field ${JSON.stringify(key)} must be ${describe(spec)}`, key]);
    }
    for (const spec of fields) {
        if (spec.required && !has(raw, spec.wire))
            found.push(["missing-field", `required field ${JSON.stringify(spec.wire)} is missing`, null]);
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
export function registryProblems(fields, categories, lookup, raw) {
    const w = wireNames(fields);
    const code = own(raw, wire(w, "code"));
    const category = own(raw, wire(w, "category"));
    const retryable = own(raw, wire(w, "retryable"));
    const scope = own(raw, wire(w, "scope"));
    const found = [];
    if (typeof category === "string" && !categories.includes(category)) {
        found.push(["unknown-category", `category ${JSON.stringify(category)} is not in the registry`, wire(w, "category")]);
    }
    const entry = typeof code === "string" ? lookup(code) : undefined;
    if (entry === undefined) {
        if (typeof code === "string")
            found.push(["unknown-code", `code ${JSON.stringify(code)} is not in the registry`, wire(w, "code")]);
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
export function strictProblems(fields, categories, lookup, raw) {
    const found = envelopeProblems(fields, raw);
    return found.length > 0 || !isObject(raw) ? found : registryProblems(fields, categories, lookup, raw);
}
