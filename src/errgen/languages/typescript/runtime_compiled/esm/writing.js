// Writing in the API's own shape (docs/conformance.md, "Writing in the API's own shape"): each fact
// at the first body source and the first header source the registry reads it from, every `equals`
// condition made true, and for `format: xml` a flat XML document of those writes alone.
import { RESPONSE } from "./contract.js";
import { isObject } from "./verdict.js";
const ANY = -1; // the `[*]` step
const FACTS = ["code", "message", "correlation_id", "resource_id"];
// Characters the flat XML reader does not accept in an element name.
const NOT_NAME = new Set([..." \t\r\n/>=<\"'&!?"]);
/** (source, value) in the order they apply: the facts at their first body then first header
 * source, then the `error_when` conditions, then the code's own `when` conditions, each `equals`
 * one made true. */
export function writes(facts, variant) {
    const out = [];
    for (const fact of FACTS) {
        const value = facts[fact];
        if (typeof value !== "string")
            continue;
        for (const kind of ["body", "header"]) {
            const head = RESPONSE[fact].find((s) => s.in === kind);
            if (head !== undefined)
                out.push([head, value]);
        }
    }
    for (const condition of [...RESPONSE.error_when, ...variant]) {
        if ("at" in condition && "equals" in condition)
            out.push([condition.at, condition.equals]);
    }
    return out;
}
function setOwn(target, key, value) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
/** `node` with `value` at `path`: objects and arrays made on the way (an array padded with empty
 * objects, `[*]` as index 0), a value in the way replaced; a new key goes last. */
export function put(node, path, value) {
    const [step, ...rest] = path;
    if (step === undefined)
        return value;
    if (typeof step === "string") {
        const obj = isObject(node) ? { ...node } : {};
        setOwn(obj, step, put(Object.prototype.hasOwnProperty.call(obj, step) ? obj[step] : undefined, rest, value));
        return obj;
    }
    const index = step === ANY ? 0 : step;
    const items = Array.isArray(node) ? [...node] : [];
    while (items.length <= index)
        items.push({});
    items[index] = put(items[index], rest, value);
    return items;
}
export function apply(body, headers, todo) {
    for (const [source, value] of todo) {
        if (source.in === "header") {
            // toHttp then leaves out a value no header may carry (wire.ts, writableHeader).
            if (typeof value === "string")
                headers[source.name] = value;
        }
        else if (source.in === "body") {
            body = put(body, source.path, value);
        }
    }
    return body;
}
/** The document's first member as the root element, or "" when it has none. */
export function toXml(document) {
    if (!isObject(document))
        return "";
    const first = Object.keys(document)[0];
    if (first === undefined)
        return "";
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + element(first, document[first]).join("");
}
/** Strings only: an XML reader reads every value as text. */
function element(name, value) {
    if (name === "" || [...name].some((c) => NOT_NAME.has(c)))
        return [];
    if (Array.isArray(value))
        return value.flatMap((item) => element(name, item));
    if (isObject(value))
        return [`<${name}>`, ...Object.keys(value).flatMap((key) => element(key, value[key])), `</${name}>`];
    return typeof value === "string" ? [`<${name}>${text(value)}</${name}>`] : [];
}
function text(value) {
    let out = "";
    for (const c of value) {
        const point = c.codePointAt(0) ?? 0;
        out += c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : point === 0 ? "\uFFFD" : point < 0x20 ? `&#${point};` : c;
    }
    return out;
}
