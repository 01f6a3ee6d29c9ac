// Reading a real API's error response (docs/conformance.md, "Reading a real response"): where the
// registry's `wire.response` says each fact is (RESPONSE, data from the contract view), in a JSON or
// flat-XML body or a header. Nothing here throws on what a server sends; limits come from
// contract.ts.
import { MAX_DELAY_VALUE_MS, MAX_XML_DEPTH, RESPONSE } from "./contract.js";
import { has, isObject } from "./verdict.js";
import { header, httpDateMs, saturated, trimOws } from "./wire.js";
const ANY = -1; // the `[*]` step
// ---- values ---------------------------------------------------------------------------------------
/** A JSON number's value when it is an integer of magnitude at most 2^53 - 1 (1.0 counts). */
function whole(value) {
    return typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= MAX_DELAY_VALUE_MS ? value + 0 : null;
}
/** A code or request id: a non-empty string, or a whole JSON number as its decimal text. */
export function codeText(value) {
    if (typeof value === "string")
        return value === "" ? null : value;
    const n = whole(value);
    return n === null ? null : String(n);
}
export function messageText(value) {
    return typeof value === "string" ? value : null;
}
// ---- sources --------------------------------------------------------------------------------------
function walk(value, path, start, accept) {
    for (let at = start; at < path.length; at++) {
        const step = path[at];
        if (typeof step === "string") {
            if (!isObject(value) || !has(value, step))
                return null;
            value = value[step];
        }
        else if (step === ANY) {
            if (!Array.isArray(value))
                return null;
            for (const item of value) {
                const found = walk(item, path, at + 1, accept);
                if (found !== null)
                    return found;
            }
            return null;
        }
        else {
            if (!Array.isArray(value) || step === undefined || step >= value.length)
                return null;
            value = value[step];
        }
    }
    return accept(value);
}
/** What `accept` makes of the value at `source`; null when nothing usable is there. */
export function readSource(source, document, headers, accept, status = 0) {
    if (source.in === "status")
        return accept(String(status));
    if (source.in === "header") {
        const value = trimOws(header(headers, source.name) ?? "");
        return value === "" ? null : accept(value);
    }
    return walk(document, source.path, 0, accept);
}
export function first(sources, document, headers, accept, status = 0) {
    for (const source of sources) {
        const found = readSource(source, document, headers, accept, status);
        if (found !== null)
            return found;
    }
    return null;
}
/** The code a response carries: the first source whose value is a code `known` accepts (the most
 * specific code this SDK knows wins: Microsoft Graph's innerError.code over its outer code, the
 * first known entry of an array), else the first usable one. */
export function readCode(sources, document, headers, status, known) {
    const knownText = (value) => {
        const code = codeText(value);
        return code !== null && known(code) ? code : null;
    };
    return first(sources, document, headers, knownText, status) ?? first(sources, document, headers, codeText, status);
}
// ---- conditions -----------------------------------------------------------------------------------
/** Equal as JSON: numbers by value (1 == 1.0), otherwise the same type and the same value. */
function equal(a, b) {
    if (Array.isArray(a) || Array.isArray(b)) {
        return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
    }
    if (isObject(a) || isObject(b)) {
        if (!isObject(a) || !isObject(b))
            return false;
        const keys = Object.keys(a);
        return keys.length === Object.keys(b).length && keys.every((k) => has(b, k) && equal(a[k], b[k]));
    }
    return a === b;
}
function nonEmpty(value) {
    if (typeof value === "string" || Array.isArray(value))
        return value.length > 0 ? true : null;
    return isObject(value) && Object.keys(value).length > 0 ? true : null;
}
export function holds(condition, status, document, headers) {
    if ("status" in condition)
        return condition.status.includes(status);
    const accept = "equals" in condition
        ? (value) => (equal(value, condition.equals) ? true : null)
        : nonEmpty;
    return readSource(condition.at, document, headers, accept, status) !== null;
}
function allHold(conditions, status, document, headers) {
    return conditions.every((c) => holds(c, status, document, headers));
}
/** Any status >= 300, or a 1xx/2xx that an `error_when` condition marks. */
export function isError(status, document, headers) {
    return status >= 300 || RESPONSE.error_when.some((c) => holds(c, status, document, headers));
}
/** The registry code of a wire code several codes send (`wire_code`/`when`): the first whose
 * conditions hold, else the first; among those that `fits` (a payload's own category and scope)
 * when any does. Any other code is itself. */
export function registryCode(code, status, document, headers, fits = () => true) {
    const all = has(RESPONSE.variants, code) ? RESPONSE.variants[code] : undefined;
    if (all === undefined || all.length === 0)
        return code;
    const fitting = all.filter(([name]) => fits(name));
    const rows = fitting.length > 0 ? fitting : all;
    for (const [name, conditions] of rows) {
        if (allHold(conditions, status, document, headers))
            return name;
    }
    return rows[0]?.[0] ?? code;
}
/** The wire code each registry code is sent as, when several codes share one. */
export const WIRE_CODE = new Map(Object.entries(RESPONSE.variants).flatMap(([wire, rows]) => rows.map(([name]) => [name, wire])));
// ---- delays ---------------------------------------------------------------------------------------
const DIGITS = /^[0-9]+$/;
const DURATION = /^(?:[0-9]+(?:\.[0-9]{1,9})?(?:h|ms|m|s))+$/;
const DURATION_PART = /([0-9]+)(?:\.([0-9]{1,9}))?(h|ms|m|s)/g;
const UNIT_MS = { h: 3600000, m: 60000, s: 1000, ms: 1 };
/** ASCII digits, or a whole JSON number >= 0 (not one out of range), times `factor`, saturated. */
function scaled(value, factor) {
    if (typeof value === "string")
        return DIGITS.test(value) ? saturated(value, factor) : null;
    if (typeof value !== "number" || value < 0 || !Number.isInteger(value))
        return null;
    if (value > MAX_DELAY_VALUE_MS)
        return MAX_DELAY_VALUE_MS;
    return Math.min(value * factor, MAX_DELAY_VALUE_MS) + 0;
}
const DECIMAL = /^([0-9]+)\.([0-9]{1,9})$/;
/** `0.<fraction>` of `factor` ms, rounded up to a whole ms (the digits as an integer: exact). */
function fractionMs(fraction, factor) {
    return Math.ceil((Number(fraction) * factor) / 10 ** fraction.length);
}
/** Seconds as sent (`7`, `2.128` from Microsoft Graph, Discord's JSON `64.57`) in ms, rounded up,
 * saturated. A JSON fraction is first rounded to the microsecond (IEEE double arithmetic, as every
 * SDK does), so that 64.57, which a double holds as 64.5699..., is 64,570 ms everywhere; the
 * division by 1000 is then exact integer arithmetic. */
export function secondsMs(value) {
    if (typeof value === "string") {
        const decimal = DECIMAL.exec(value);
        if (decimal === null)
            return scaled(value, 1000);
        return Math.min(saturated(decimal[1] ?? "0", 1000) + fractionMs(decimal[2] ?? "", 1000), MAX_DELAY_VALUE_MS);
    }
    if (typeof value === "number" && !Number.isInteger(value) && value >= 0 && Number.isFinite(value)) {
        if (value * 1000 > MAX_DELAY_VALUE_MS)
            return MAX_DELAY_VALUE_MS;
        const micro = BigInt(Math.floor(value * 1000000 + 0.5));
        return Math.min(Number((micro + BigInt(999)) / BigInt(1000)), MAX_DELAY_VALUE_MS);
    }
    return scaled(value, 1000);
}
/** `30s`, `1.5s`, `6m0s`, `20ms`: the sum of its parts, each rounded up to whole ms. */
export function durationMs(text) {
    if (!DURATION.test(text))
        return null;
    let total = 0;
    for (const [, digits, fraction, unit] of text.matchAll(DURATION_PART)) {
        const factor = UNIT_MS[unit ?? ""] ?? 1;
        let part = saturated(digits ?? "0", factor);
        if (fraction !== undefined)
            part += fractionMs(fraction, factor);
        total = Math.min(total + part, MAX_DELAY_VALUE_MS);
    }
    return total;
}
function untilMs(when, nowMs) {
    return when === null ? null : Math.min(Math.max(0, when - nowMs), MAX_DELAY_VALUE_MS);
}
/** How a delay source's value becomes milliseconds, by its unit. */
export function delayReader(unit, nowMs) {
    return (value) => {
        switch (unit) {
            case "ms":
                return scaled(value, 1);
            case "seconds":
                return secondsMs(value);
            case "epoch_seconds":
                return untilMs(scaled(value, 1000), nowMs);
            case "duration":
                return typeof value === "string" ? durationMs(value) : null;
            default: { // "http": (decimal) delta-seconds or an HTTP-date
                const seconds = secondsMs(value);
                if (seconds !== null || typeof value !== "string")
                    return seconds;
                return untilMs(httpDateMs(value), nowMs);
            }
        }
    };
}
export function delayMs(document, headers, nowMs, entries = RESPONSE.retry_after) {
    for (const entry of entries) {
        const found = readSource(entry.at, document, headers, delayReader(entry.unit, nowMs));
        if (found !== null)
            return found;
    }
    return null;
}
// ---- flat XML -------------------------------------------------------------------------------------
// A name: any characters but white space and / > = < " ' & ! ? (NOT_NAME: 1 at those ASCII codes).
const NOT_NAME = new Uint8Array(128);
for (const c of " \t\r\n/>=<\"'&!?")
    NOT_NAME[c.charCodeAt(0)] = 1;
const BAD_AMPERSAND = /&(?!(?:lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});)/;
const SPACE_ONLY = /^[ \t\r\n]*$/;
class Unreadable extends Error {
}
/** The character of the entity at `text[at]` (an `&`) up to `end` (its `;`), the entity already
 * known to be well formed: a switch on its first letters, no lookup or slice per entity (a body of
 * 200,000 `&amp;` is read in linear time at a few ns each, issue 38 item 8). */
function character(text, at, end) {
    switch (text.charCodeAt(at + 1)) {
        case 0x6c: return "<"; // lt
        case 0x67: return ">"; // gt
        case 0x71: return '"'; // quot
        case 0x61: return text.charCodeAt(at + 2) === 0x6d ? "&" : "'"; // amp, apos
        default: break; // #...: a character reference
    }
    const hex = text.charCodeAt(at + 2) === 0x78;
    let point = 0;
    for (let i = at + (hex ? 3 : 2); i < end; i++) {
        const ch = text.charCodeAt(i);
        point = point * (hex ? 16 : 10) + (ch <= 0x39 ? ch - 0x30 : (ch | 0x20) - 0x57);
    }
    if (point === 0 || (point >= 0xd800 && point <= 0xdfff) || point > 0x10ffff)
        throw new Unreadable();
    return String.fromCodePoint(point);
}
function decode(text) {
    let at = text.indexOf("&");
    if (at === -1)
        return text;
    if (BAD_AMPERSAND.test(text))
        throw new Unreadable(); // an entity other than the predefined ones: never expanded
    // Every & now starts a well-formed entity, its `;` at most 9 characters on: cut at each.
    let out = "";
    let from = 0;
    for (; at !== -1; at = text.indexOf("&", from)) {
        const end = text.indexOf(";", at);
        out += text.slice(from, at) + character(text, at, end);
        from = end + 1;
    }
    return out + text.slice(from);
}
/** An element being read: its name, its children so far (the first of a name wins), its text;
 * both made only when the element has any (most elements of a large body have neither). */
class Open {
    constructor(name) {
        this.name = name;
        // A plain object, not a Map copied at the end: a body of 120,000 distinct children was 30x one of
        // plain text that way (issue 38 item 8).
        this.children = null;
        this.texts = null;
    }
    /** Keep the first child of each name; one named __proto__ stays data (an own property). */
    add(name, value) {
        const children = (this.children ?? (this.children = {}));
        if (has(children, name))
            return;
        if (name === "__proto__")
            Object.defineProperty(children, name, { value, enumerable: true, writable: true, configurable: true });
        else
            children[name] = value;
    }
    value() {
        if (this.children !== null)
            return this.children;
        return this.texts === null ? "" : decode(this.texts.length === 1 ? this.texts[0] ?? "" : this.texts.join(""));
    }
}
function isSpace(ch) {
    return ch === 0x20 || ch === 0x09 || ch === 0x0d || ch === 0x0a;
}
// A hand-written tokenizer (it was one sticky regular expression: a match array per token made a
// body of 150,000 small elements 16x slower than one of plain text, issue 38 item 8). Each token
// is exactly what that expression matched: misc (`<!--...-->`, `<?...?>`), an end tag `</name ws>`,
// a start tag `<name (ws name ws = ws "value")* ws /?>` (attributes skipped), or text up to `<`.
const TEXT = 0;
const MISC = 1;
const CLOSE = 2;
const OPEN = 3;
/** The end of the name starting at `at` (== at: no name). */
function nameEnd(text, at) {
    let i = at;
    for (let ch = text.charCodeAt(i); i < text.length && (ch >= 128 || NOT_NAME[ch] === 0); ch = text.charCodeAt(++i))
        ;
    return i;
}
function spaceEnd(text, at) {
    let i = at;
    while (i < text.length && isSpace(text.charCodeAt(i)))
        i++;
    return i;
}
/** The end of the start tag's attributes and its `/?>` from `at` (just past the name), as
 * [end, empty]; throws when the tag is not well formed. */
function startTagEnd(text, at) {
    for (let i = at;;) {
        const spaced = spaceEnd(text, i);
        const ch = text.charCodeAt(spaced);
        if (ch === 0x3e)
            return [spaced + 1, false]; // >
        if (ch === 0x2f) { // />
            if (text.charCodeAt(spaced + 1) === 0x3e)
                return [spaced + 2, true];
            throw new Unreadable();
        }
        // An attribute: after white space, a name, `=`, a quoted value without `<`.
        const afterName = nameEnd(text, spaced);
        if (spaced === i || afterName === spaced)
            throw new Unreadable();
        const equals = spaceEnd(text, afterName);
        if (text.charCodeAt(equals) !== 0x3d)
            throw new Unreadable();
        const open = spaceEnd(text, equals + 1);
        const quote = text.charCodeAt(open);
        if (quote !== 0x22 && quote !== 0x27)
            throw new Unreadable();
        let close = open + 1;
        while (close < text.length && text.charCodeAt(close) !== quote && text.charCodeAt(close) !== 0x3c)
            close++;
        if (text.charCodeAt(close) !== quote)
            throw new Unreadable();
        i = close + 1;
    }
}
/** One token at a time, with a stack as deep as the elements (at most MAX_XML_DEPTH). */
function parse(text) {
    const stack = [];
    let root = null;
    let at = 0;
    while (at < text.length) {
        let kind = TEXT;
        let end;
        let name = "";
        let empty = false;
        if (text.charCodeAt(at) !== 0x3c) {
            end = text.indexOf("<", at);
            if (end === -1)
                end = text.length;
        }
        else if (text.startsWith("<!--", at) || text.startsWith("<?", at)) {
            const comment = text.charCodeAt(at + 1) === 0x21;
            const close = text.indexOf(comment ? "-->" : "?>", at + (comment ? 4 : 2));
            if (close === -1)
                throw new Unreadable();
            [kind, end] = [MISC, close + (comment ? 3 : 2)];
        }
        else if (text.charCodeAt(at + 1) === 0x2f) {
            const after = nameEnd(text, at + 2);
            end = spaceEnd(text, after);
            if (after === at + 2 || text.charCodeAt(end) !== 0x3e)
                throw new Unreadable();
            [kind, name, end] = [CLOSE, text.slice(at + 2, after), end + 1];
        }
        else {
            const after = nameEnd(text, at + 1);
            if (after === at + 1)
                throw new Unreadable(); // <!DOCTYPE, <![CDATA[, a stray < ...
            [kind, name] = [OPEN, text.slice(at + 1, after)];
            [end, empty] = startTagEnd(text, after);
        }
        const start = at;
        at = end;
        if (kind === MISC)
            continue;
        if (kind === TEXT) {
            const top = stack[stack.length - 1];
            const chars = text.slice(start, end);
            if (top !== undefined)
                (top.texts ?? (top.texts = [])).push(chars);
            else if (!SPACE_ONLY.test(chars))
                throw new Unreadable(); // text outside the root element
            continue;
        }
        let value = ""; // an empty element's (`<a/>`): no Open made for it
        if (kind === OPEN) {
            if (root !== null || stack.length >= MAX_XML_DEPTH)
                throw new Unreadable(); // a second root, or too deep
            if (!empty) {
                stack.push(new Open(name));
                continue;
            }
        }
        else {
            const top = stack.pop();
            if (top === undefined || top.name !== name)
                throw new Unreadable();
            value = top.value();
        }
        const parent = stack[stack.length - 1];
        if (parent === undefined)
            root = [name, value];
        else
            parent.add(name, value);
    }
    if (root === null || stack.length > 0)
        throw new Unreadable();
    return root;
}
/** [true, {root: value}] for one XML element (docs/conformance.md, "Flat XML"); [false, null] for
 * anything else, and for any DOCTYPE, CDATA or entity declaration (no XXE). */
export function readXml(text) {
    try {
        const [name, value] = parse(text);
        return [true, Object.fromEntries([[name, value]])];
    }
    catch {
        return [false, null];
    }
}
