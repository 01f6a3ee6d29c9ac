"use strict";
// Reading and writing the wire, for any input: JSON text with depth and number-length limits, HTTP
// headers with the one Retry-After grammar of docs/conformance.md, and MCP tool results. Nothing
// here throws on what a server sends; limits come from the contract's data (contract.ts).
Object.defineProperty(exports, "__esModule", { value: true });
exports.tooDeep = tooDeep;
exports.readJson = readJson;
exports.numberSpelling = numberSpelling;
exports.parseSpelled = parseSpelled;
exports.asText = asText;
exports.bodyTooLarge = bodyTooLarge;
exports.toJson = toJson;
exports.withinChars = withinChars;
exports.header = header;
exports.headerMap = headerMap;
exports.writableHeader = writableHeader;
exports.trimOws = trimOws;
exports.saturated = saturated;
exports.httpDateMs = httpDateMs;
exports.mcpPayload = mcpPayload;
const contract_js_1 = require("./contract.js");
const verdict_js_1 = require("./verdict.js");
/** Whether arrays and objects nest deeper than `limit` (strings skipped); linear time. */
function tooDeep(text, limit = contract_js_1.MAX_JSON_DEPTH) {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        if (inString) {
            if (ch === 0x5c)
                i++;
            else if (ch === 0x22)
                inString = false;
        }
        else if (ch === 0x22) {
            inString = true;
        }
        else if (ch === 0x5b || ch === 0x7b) {
            if (++depth > limit)
                return true;
        }
        else if (ch === 0x5d || ch === 0x7d) {
            depth--;
        }
    }
    return false;
}
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;
function numberChar(ch) {
    return (ch >= 0x30 && ch <= 0x39) || ch === 0x2d || ch === 0x2b || ch === 0x2e || ch === 0x65 || ch === 0x45;
}
// An integer JavaScript prints exactly as it is written (at most 15 digits, not `-0`).
const PLAIN_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;
/** Whether a JSON number's text says more than JavaScript shows of it: an integral float (`2.0`,
 * `-0.0`, `1E3`), a float below 1e-4 (Python writes `1e-05`), `-0`, an integer past 15 digits.
 * JavaScript and Python spell every other number alike. */
function spelledApart(number) {
    if (PLAIN_INTEGER.test(number))
        return false;
    const value = Number(number);
    return Number.isInteger(value) || Object.is(value, -0) || (value !== 0 && Math.abs(value) < 1e-4) || !/[.eE]/.test(number);
}
/** `text` with every JSON number longer than MAX_NUMBER_CHARS (outside strings) replaced by one
 * out of range (`1e400`, read as Infinity): such a number is never converted, like 1e400 in every
 * SDK. Only a run that is exactly a JSON number is replaced, so no invalid text becomes valid. Also
 * whether any number is spelled in a way a JavaScript number does not keep (`2.0`, `-0`, `1E3`). */
function longNumbersOutOfRange(text) {
    let kept = "";
    let from = 0;
    let inString = false;
    let spelled = false;
    for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        if (inString) {
            if (ch === 0x5c)
                i++;
            else if (ch === 0x22)
                inString = false;
            continue;
        }
        if (ch === 0x22) {
            inString = true;
            continue;
        }
        if (!numberChar(ch))
            continue;
        let end = i;
        while (end < text.length && numberChar(text.charCodeAt(end)))
            end++;
        const run = text.slice(i, end);
        if (run.length > contract_js_1.MAX_NUMBER_CHARS && NUMBER.test(run)) {
            kept += text.slice(from, i) + (ch === 0x2d ? "-1e400" : "1e400");
            from = end;
        }
        spelled || (spelled = NUMBER.test(run) && spelledApart(run));
        i = end - 1;
    }
    return [from === 0 ? text : kept + text.slice(from), spelled];
}
// Half a surrogate pair, as a JSON escape (`"\ud800"`) or as a character of the text given
// (with the u flag, a class of surrogates matches only a lone one, never half of a pair).
const MAY_HOLD_LONE = /\\u[dD][89a-fA-F]|[\ud800-\udfff]/u;
const LONE_CHAR = /[\ud800-\udfff]/gu;
// Each escape from the left (so `\\` is one escape and the `u` after it plain text): a whole pair
// kept, half a pair (group 1) replaced.
const ESCAPE = /\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|(u[dD][89a-fA-F][0-9a-fA-F]{2})|[^])/g;
/** `text` with every lone surrogate, escaped or not, as U+FFFD (docs/conformance.md, "Reading an
 * HTTP response"): no UTF-8 text can hold one, and every SDK reads it so. Mended in the text, an
 * escape by an escape of the same length, so the value's member order and number spellings stay
 * as JSON.parse makes them. */
function mended(text) {
    if (!MAY_HOLD_LONE.test(text))
        return text;
    return text.replace(LONE_CHAR, "\ufffd").replace(ESCAPE, (escape, lone) => (lone === undefined ? escape : "\\ufffd"));
}
/** [true, value] when `text` is exactly one JSON value nested at most MAX_JSON_DEPTH deep, else
 * [false, null]. A number longer than MAX_NUMBER_CHARS reads as +-Infinity (out of range). */
function readJson(text) {
    if (tooDeep(text))
        return [false, null];
    const [prepared, spelled] = longNumbersOutOfRange(mended(text));
    try {
        // JSON.parse unless a number is spelled apart (rare in real bodies): the same value either way.
        return [true, spelled ? parseSpelled(prepared) : JSON.parse(prepared)];
    }
    catch {
        return [false, null];
    }
}
// ---- the spelling of numbers ----------------------------------------------------------------------
// How each number a JavaScript number does not show as written (2.0, -0.0, 1E3, an integer past
// 2^53) was spelled, by the object or array holding it: member name (an array's index as text) ->
// its source text. The values themselves are plain numbers; only the conformance runner reads
// this, to print a number as the reference SDK (Python) prints it. A WeakMap: it never keeps a
// document alive.
const SPELLINGS = new WeakMap();
/** The source text of the number at `holder[key]`, when it was spelled as JavaScript does not show it. */
function numberSpelling(holder, key) {
    return typeof holder === "object" && holder !== null ? SPELLINGS.get(holder)?.get(key) : undefined;
}
const NUMBER_AT = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
/** JSON.parse's value of `text` (it throws where JSON.parse throws), recording in SPELLINGS each
 * number spelled apart. Recursive: callers bound the depth (readJson checks it first). */
function parseSpelled(text) {
    let at = 0;
    let spelling = null; // the value just read: a number spelled apart, its text
    const fail = () => {
        throw new SyntaxError(`not JSON at ${at}`);
    };
    const space = () => {
        for (let ch = text.charCodeAt(at); ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d; ch = text.charCodeAt(at))
            at++;
    };
    const string = () => {
        let end = at + 1;
        let escaped = false;
        for (let ch = text.charCodeAt(end); ch !== 0x22; ch = text.charCodeAt(end)) {
            if (Number.isNaN(ch) || ch < 0x20)
                fail();
            escaped || (escaped = ch === 0x5c);
            end += ch === 0x5c ? 2 : 1;
        }
        // The engine decodes escapes (and refuses bad ones).
        const found = escaped ? JSON.parse(text.slice(at, end + 1)) : text.slice(at + 1, end);
        at = end + 1;
        return found;
    };
    /** The members (or items) of one container, `close` ending it; a repeated name's last value wins,
     * with its spelling or without one. */
    const members = (holder, close, named) => {
        let spellings;
        let index = 0;
        at++;
        space();
        if (text.charCodeAt(at) === close) {
            at++;
            return;
        }
        for (;;) {
            let key = String(index++);
            if (named) {
                space();
                if (text.charCodeAt(at) !== 0x22)
                    fail();
                key = string();
                space();
                if (text.charCodeAt(at++) !== 0x3a)
                    fail();
            }
            const found = value();
            // Own data, as JSON.parse makes it: `__proto__` is a member here, not the prototype.
            if (key === "__proto__")
                Object.defineProperty(holder, key, { value: found, enumerable: true, writable: true, configurable: true });
            else
                holder[key] = found;
            if (spelling !== null)
                (spellings ?? (spellings = new Map())).set(key, spelling);
            else
                spellings?.delete(key);
            space();
            const next = text.charCodeAt(at++);
            if (next === close)
                break;
            if (next !== 0x2c)
                fail();
        }
        if (spellings !== undefined && spellings.size > 0)
            SPELLINGS.set(holder, spellings);
    };
    const value = () => {
        space();
        const ch = text.charCodeAt(at);
        let found;
        if (ch === 0x7b || ch === 0x5b) {
            found = ch === 0x7b ? {} : [];
            members(found, ch === 0x7b ? 0x7d : 0x5d, ch === 0x7b);
        }
        else if (ch === 0x22) {
            found = string();
        }
        else if (ch === 0x74 && text.startsWith("true", at)) {
            [found, at] = [true, at + 4];
        }
        else if (ch === 0x66 && text.startsWith("false", at)) {
            [found, at] = [false, at + 5];
        }
        else if (ch === 0x6e && text.startsWith("null", at)) {
            [found, at] = [null, at + 4];
        }
        else {
            NUMBER_AT.lastIndex = at;
            const number = NUMBER_AT.exec(text)?.[0] ?? fail();
            at += number.length;
            spelling = spelledApart(number) ? number : null;
            return Number(number);
        }
        spelling = null;
        return found;
    };
    const found = value();
    space();
    if (at !== text.length)
        fail();
    return found;
}
function decoder(fatal) {
    // TextDecoder is in every runtime this SDK targets (Node 11+, browsers, Deno, Bun, workers); it is
    // looked up, not declared, so the package needs neither the DOM lib nor @types/node.
    const make = globalThis.TextDecoder;
    return make === undefined ? null : new make("utf-8", { fatal, ignoreBOM: true });
}
function bytesOf(body) {
    if (body instanceof Uint8Array)
        return body;
    if (body instanceof ArrayBuffer)
        return new Uint8Array(body);
    if (ArrayBuffer.isView(body))
        return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    return null;
}
/** A body as text: [false, the text with replacement characters] when bytes are not UTF-8.
 * Anything but a string or bytes is an empty body (a number is not a size to allocate). */
function asText(body) {
    if (typeof body === "string")
        return [true, body];
    const bytes = bytesOf(body);
    if (bytes === null)
        return [true, ""];
    try {
        return [true, decoder(true)?.decode(bytes) ?? ""];
    }
    catch {
        return [false, decoder(false)?.decode(bytes) ?? ""];
    }
}
/** The UTF-8 length of `text` (a lone surrogate counts 3 bytes), stopping once past `limit`. */
function utf8LengthPast(text, limit) {
    let bytes = 0;
    for (let i = 0; i < text.length && bytes <= limit; i++) {
        const ch = text.charCodeAt(i);
        if (ch < 0x80)
            bytes += 1;
        else if (ch < 0x800)
            bytes += 2;
        else if (ch >= 0xd800 && ch <= 0xdbff && i + 1 < text.length
            && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
            bytes += 4;
            i++;
        }
        else
            bytes += 3;
    }
    return bytes > limit;
}
/** Whether a body is longer than MAX_BODY_BYTES in UTF-8 (checked before it is decoded). */
function bodyTooLarge(body) {
    if (typeof body === "string")
        return body.length > contract_js_1.MAX_BODY_BYTES || utf8LengthPast(body, contract_js_1.MAX_BODY_BYTES);
    const bytes = bytesOf(body);
    return bytes !== null && bytes.byteLength > contract_js_1.MAX_BODY_BYTES;
}
/** Compact JSON of a payload; a field JSON cannot carry is left out rather than throwing. */
function toJson(value) {
    try {
        return JSON.stringify(value) ?? "null";
    }
    catch {
        if (!(0, verdict_js_1.isObject)(value))
            return "null";
        const kept = [];
        for (const [key, item] of Object.entries(value)) {
            try {
                JSON.stringify(item);
                kept.push([key, item]);
            }
            catch {
                // left out: not representable as JSON
            }
        }
        return JSON.stringify(Object.fromEntries(kept));
    }
}
const ASCII = /^[\x00-\x7f]*$/;
function isIterable(x) {
    return typeof x === "object" && x !== null && typeof x[Symbol.iterator] === "function";
}
/** The (name, value) pairs of any headers value: an array or iterable of pairs (fetch's Headers,
 * a Map), else a plain object's own entries. */
function pairsOf(headers) {
    if (isIterable(headers) && typeof headers !== "string")
        return headers;
    const forEach = (0, verdict_js_1.isObject)(headers) ? headers.forEach : undefined;
    if (typeof forEach === "function") {
        const pairs = [];
        // forEach cannot stop early: past the limit nothing more is kept.
        forEach.call(headers, (value, name) => {
            if (pairs.length <= contract_js_1.MAX_HEADERS)
                pairs.push([name, value]);
        });
        return pairs;
    }
    return (0, verdict_js_1.isObject)(headers) ? Object.entries(headers) : [];
}
/** Whether `text` is at most `limit` characters (code points, as every SDK counts them: a UTF-16
 * pair is one character, a lone surrogate one). */
function withinChars(text, limit) {
    if (text.length <= limit)
        return true;
    if (text.length > 2 * limit)
        return false;
    let count = 0;
    for (let i = 0; i < text.length; i++, count++) {
        const ch = text.charCodeAt(i);
        if (ch >= 0xd800 && ch <= 0xdbff && i + 1 < text.length) {
            const next = text.charCodeAt(i + 1);
            if (next >= 0xdc00 && next <= 0xdfff)
                i++;
        }
        if (count >= limit)
            return false;
    }
    return true;
}
/** The first value of header `name` (ASCII case-insensitive) among the first MAX_HEADERS; null
 * when absent, not text, or longer than MAX_HEADER_CHARS characters (code points). */
function header(headers, name) {
    let count = 0;
    try {
        for (const pair of pairsOf(headers)) {
            if (count++ >= contract_js_1.MAX_HEADERS)
                return null;
            if (!Array.isArray(pair) || pair.length !== 2)
                continue;
            const [key, value] = pair;
            if (typeof key === "string" && ASCII.test(key) && key.toLowerCase() === name) {
                return typeof value === "string" && withinChars(value, contract_js_1.MAX_HEADER_CHARS) ? value : null;
            }
        }
    }
    catch {
        return null; // an iterator that throws: no headers
    }
    return null;
}
/** Headers as a plain object: names in lower case, the first value of a repeated name, among the
 * first MAX_HEADERS (what `header` reads); pairs that are not two strings are skipped. */
function headerMap(headers) {
    const out = {};
    let count = 0;
    try {
        for (const pair of pairsOf(headers)) {
            if (count++ >= contract_js_1.MAX_HEADERS)
                break;
            if (!Array.isArray(pair) || pair.length !== 2)
                continue;
            const [key, value] = pair;
            if (typeof key !== "string" || typeof value !== "string")
                continue;
            const name = key.toLowerCase();
            if (!Object.prototype.hasOwnProperty.call(out, name)) {
                Object.defineProperty(out, name, { value, enumerable: true, writable: false, configurable: false });
            }
        }
    }
    catch {
        // an iterator that throws: the headers read so far
    }
    return out;
}
// A header value errgen writes: visible ASCII and space only (no CR, LF, NUL or other control, no
// non-ASCII), so nothing a payload carries can split a response or break a server's header check.
const WRITABLE = /^[\x20-\x7e]+$/;
/** Whether `toHttp` may write `value` as a header (docs/conformance.md, "Writing"):
 * non-empty, at most MAX_HEADER_CHARS long, every character U+0020..U+007E. A value that is not is
 * left out of the headers; the body still carries it. */
function writableHeader(value) {
    // All ASCII once the pattern holds, so UTF-16 units are characters here.
    return value.length <= contract_js_1.MAX_HEADER_CHARS && WRITABLE.test(value);
}
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2}) (${MONTHS.join("|")}) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$`);
function trimOws(text) {
    return text.replace(/^[ \t]+|[ \t]+$/g, "");
}
function saturated(digits, factor) {
    const significant = digits.replace(/^0+/, "") || "0";
    if (significant.length > 16)
        return contract_js_1.MAX_DELAY_VALUE_MS;
    return Math.min(Number(significant) * factor, contract_js_1.MAX_DELAY_VALUE_MS);
}
/** Days since 1970-01-01 in the proleptic Gregorian calendar (any year 0000-9999). */
function daysFromCivil(year, month, day) {
    const y = month <= 2 ? year - 1 : year;
    const era = Math.floor(y / 400);
    const yearOfEra = y - era * 400;
    const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
    const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
    return era * 146097 + dayOfEra - 719468;
}
function monthDays(year, month) {
    if (month === 2)
        return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
    return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
/** Milliseconds since the epoch of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or null. */
function httpDateMs(text) {
    const match = IMF_FIXDATE.exec(text);
    if (match === null)
        return null;
    const [d, monthName, y, h, mi, s] = match.slice(1);
    const month = MONTHS.indexOf(monthName ?? "") + 1;
    const [day, year, hour, minute, second] = [d, y, h, mi, s].map(Number);
    if (!(day >= 1 && day <= monthDays(year, month) && hour <= 23 && minute <= 59 && second <= 60))
        return null;
    return (daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second) * 1000;
}
/** The raw payload of an MCP tool result: an object `structuredContent`, else the first text
 * item's JSON; null when there is none. */
function mcpPayload(result) {
    if (!(0, verdict_js_1.isObject)(result))
        return null;
    const structured = (0, verdict_js_1.own)(result, "structuredContent");
    if ((0, verdict_js_1.isObject)(structured))
        return structured;
    const content = (0, verdict_js_1.own)(result, "content");
    if (!Array.isArray(content))
        return null;
    for (const item of content) {
        if ((0, verdict_js_1.isObject)(item) && (0, verdict_js_1.own)(item, "type") === "text") {
            const text = (0, verdict_js_1.own)(item, "text");
            if (typeof text !== "string")
                continue;
            const [ok, value] = readJson(text);
            return ok ? value : null;
        }
    }
    return null;
}
