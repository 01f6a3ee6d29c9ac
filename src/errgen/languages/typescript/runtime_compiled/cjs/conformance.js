"use strict";
// The conformance runner of docs/conformance.md, compiled with the package:
//   node dist/cjs/conformance.js check VECTORS.json   compare with `expected`; exit 0, or 1 on a failure
//   node dist/cjs/conformance.js emit VECTORS.json    one JSON line of actual outputs per input
// Exit 2 when the vectors file cannot be read.
Object.defineProperty(exports, "__esModule", { value: true });
const contract_js_1 = require("./contract.js");
const runtime_js_1 = require("./runtime.js");
const verdict_js_1 = require("./verdict.js");
const wire_js_1 = require("./wire.js");
const OUTPUTS = ["reading", "valid", "problems", "parsed", "decision", "payload", "http", "http_problem", "mcp", "suggestions"];
// The input kinds of writing.json (docs/conformance.md, "The writing vectors").
const WRITING = ["new_error", "parse", "to_http", "did_you_mean"];
const WIRE = (0, verdict_js_1.wireNames)(contract_js_1.FIELDS);
function numberOr(value, fallback) {
    return typeof value === "number" ? value : fallback;
}
function headerPairs(given) {
    return Array.isArray(given) ? given.map((pair) => [String(pair[0]), String(pair[1])]) : [];
}
/** A `response` input (responses.json): status, header pairs, body text after `body_pad` spaces. */
function responseReading(given, nowMs) {
    const body = " ".repeat(numberOr(given["body_pad"], 0)) + String(given["body"]);
    return (0, runtime_js_1.readHttp)(numberOr(given["status"], 0), headerPairs(given["headers"]), body, nowMs);
}
function readingJson(reading) {
    return { error: reading.error, code: reading.code, correlation_id: reading.correlationId, delay_ms: reading.delayMs };
}
/** The reading of an `http` or `response` input; null for the other kinds. */
function httpReading(input, nowMs) {
    const response = (0, verdict_js_1.own)(input, "response");
    if ((0, verdict_js_1.isObject)(response))
        return responseReading(response, nowMs);
    const http = (0, verdict_js_1.own)(input, "http");
    if ((0, verdict_js_1.isObject)(http))
        return (0, runtime_js_1.readHttp)(numberOr(http["status"], 0), headerPairs(http["headers"]), String(http["body"]), nowMs);
    return null;
}
function rawPayload(input) {
    if (Object.prototype.hasOwnProperty.call(input, "payload"))
        return input["payload"];
    if (Object.prototype.hasOwnProperty.call(input, "mcp"))
        return (0, runtime_js_1.fromMcpResult)(input["mcp"]);
    throw new Error("input holds none of payload, http, mcp, response, transport");
}
/** A number as it was spelled in the input, so that an emit line prints it as the Python SDK (the
 * reference) prints what it read: `2.0` and `-0.0` stay floats, `-0` is the integer 0. As JSON
 * data (check mode, messages) it is its value. */
class Spelled {
    constructor(value, python) {
        this.value = value;
        this.python = python;
    }
    toJSON() {
        return this.value;
    }
}
/** Python's repr of a double: the shortest digits that read back, positional from 1e-4 up to
 * 1e16, `.0` on an integral value; the exponent with a sign and at least two digits. */
function pythonFloat(n) {
    const sign = n < 0 || Object.is(n, -0) ? "-" : "";
    const [mantissa = "0", expText = "0"] = Math.abs(n).toExponential().split("e");
    const exp = Number(expText);
    const digits = mantissa.replace(".", "");
    if (exp >= -4 && exp < 16) {
        if (exp < 0)
            return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
        if (digits.length <= exp + 1)
            return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
        return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
    }
    const rest = digits.length > 1 ? `.${digits.slice(1)}` : "";
    return `${sign}${digits.charAt(0)}${rest}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}
/** `holder[key]` as Python prints it: an integer spelling as its digits, a float's as its repr. */
function spelled(value, holder, key) {
    const text = typeof value === "number" && Number.isFinite(value) ? (0, wire_js_1.numberSpelling)(holder, key) : undefined;
    if (text === undefined)
        return value;
    const python = /[.eE]/.test(text) ? pythonFloat(value) : text.replace(/^-0$/, "0");
    return new Spelled(value, python);
}
function decisionJson(d, raw) {
    const holder = (0, verdict_js_1.isObject)(raw) ? (0, verdict_js_1.own)(raw, WIRE["searched"] ?? "searched") : undefined;
    const searched = Object.fromEntries(Object.entries(d.searched).map(([key, value]) => [key, spelled(value, holder, key)]));
    return {
        action: d.action, reason: d.reason, code: d.code, wire_code: d.wireCode, delay_ms: d.delayMs, correlation_id: d.correlationId,
        resource_id: d.resourceId, did_you_mean: [...d.didYouMean], accepted: [...d.accepted], searched,
    };
}
/** Compact JSON as JSON.stringify writes it, a spelled number as Python prints it. */
function emitJson(value) {
    if (value instanceof Spelled)
        return value.python;
    if (Array.isArray(value))
        return `[${value.map((item) => emitJson(item)).join(",")}]`;
    if ((0, verdict_js_1.isObject)(value)) {
        const members = Object.keys(value).filter((key) => value[key] !== undefined);
        return `{${members.map((key) => `${JSON.stringify(key)}:${emitJson(value[key])}`).join(",")}}`;
    }
    return JSON.stringify(value) ?? "null";
}
/** A JSON body parsed; any other (an XML API's) as its text. */
function parsedOrText(body) {
    try {
        return JSON.parse(body);
    }
    catch {
        return body;
    }
}
/** A written response as the vectors state it: header names in lower case, sorted; the body parsed. */
function httpJson(response) {
    const headers = Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]);
    headers.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    return { status: response.status, headers, body: parsedOrText(response.body) };
}
function mcpJson(result) {
    return {
        content: result.content.map((item) => ({ type: item.type, json: JSON.parse(item.text) })),
        structuredContent: result.structuredContent, isError: result.isError,
    };
}
function written(payload) {
    return { http: httpJson((0, runtime_js_1.toHttp)(payload)), http_problem: httpJson((0, runtime_js_1.toHttp)(payload, true)), mcp: mcpJson((0, runtime_js_1.toMcpResult)(payload)) };
}
/** Writing outputs with every object's keys sorted: the SDKs need not agree on key order. */
function sortedKeys(value) {
    if (Array.isArray(value))
        return value.map(sortedKeys);
    if (!(0, verdict_js_1.isObject)(value))
        return value;
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys(value[key])]));
}
/** The tolerant parse's payload as wire data (null when it refuses): every field it read. */
function parsedWire(raw) {
    try {
        const made = (0, runtime_js_1.parsePayload)(raw);
        if (!made.known)
            return { ...made.raw };
        // Typed `object`, so the copy is not a union of every code's payload (too complex at 5,000 codes).
        const read = made.payload;
        return { ...read };
    }
    catch (error) {
        if (error instanceof runtime_js_1.PayloadError)
            return null;
        throw error;
    }
}
/** What the writing functions make of a writing input: a payload, responses, suggestions. */
function writingOutputs(input) {
    const spec = (0, verdict_js_1.own)(input, "new_error");
    if ((0, verdict_js_1.isObject)(spec)) {
        const fields = (0, verdict_js_1.isObject)(spec["scope"]) || spec["scope"] === undefined ? {} : { [WIRE["scope"] ?? "scope"]: spec["scope"] };
        for (const [name, value] of Object.entries((0, verdict_js_1.isObject)(spec["fields"]) ? spec["fields"] : {}))
            fields[WIRE[name] ?? name] = value;
        let payload;
        try {
            payload = { ...(0, runtime_js_1.newError)(String(spec["code"]), String(spec["correlation_id"]), fields) };
        }
        catch (error) {
            if (error instanceof runtime_js_1.PayloadError)
                return { payload: null, http: null, http_problem: null, mcp: null };
            throw error;
        }
        return { payload, ...written(payload) };
    }
    if (Object.prototype.hasOwnProperty.call(input, "parse"))
        return { payload: parsedWire(input["parse"]) };
    const given = (0, verdict_js_1.own)(input, "to_http");
    if ((0, verdict_js_1.isObject)(given))
        return written(given);
    const ask = (0, verdict_js_1.own)(input, "did_you_mean");
    if (!(0, verdict_js_1.isObject)(ask))
        throw new Error("input holds none of new_error, parse, to_http, did_you_mean");
    const allowed = Array.isArray(ask["allowed"]) ? ask["allowed"].map(String) : [];
    const suggestions = typeof ask["limit"] === "number" ? (0, runtime_js_1.didYouMean)(String(ask["value"]), allowed, ask["limit"]) : (0, runtime_js_1.didYouMean)(String(ask["value"]), allowed);
    return { suggestions };
}
function outputs(vector) {
    const input = (0, verdict_js_1.isObject)(vector["input"]) ? vector["input"] : {};
    if (WRITING.some((kind) => Object.prototype.hasOwnProperty.call(input, kind))) {
        return { name: vector["name"], ...sortedKeys(writingOutputs(input)) };
    }
    const nowMs = numberOr(vector["now_ms"], 0);
    const timing = {
        attempt: numberOr(vector["attempt"], 1), maxAttempts: numberOr(vector["max_attempts"], contract_js_1.DEFAULT_MAX_ATTEMPTS),
        maxDelayMs: numberOr(vector["max_delay_ms"], contract_js_1.DEFAULT_MAX_DELAY_MS),
        ...(typeof vector["jitter_draw"] === "number" ? { jitter: true, draw: () => vector["jitter_draw"] } : {}),
    };
    const transport = (0, verdict_js_1.own)(input, "transport");
    if ((0, verdict_js_1.isObject)(transport)) {
        const decided = (0, runtime_js_1.decideFailure)(String(transport["failure"]), { ...timing, idempotent: transport["idempotent"] === true });
        return { name: vector["name"], decision: decisionJson(decided, null) };
    }
    // An HTTP response is decided as a response (a codeless one by its status); its payload is judged.
    const reading = httpReading(input, nowMs);
    const raw = reading !== null ? reading.payload : rawPayload(input);
    const verdict = (0, runtime_js_1.checkPayload)(raw);
    const decision = reading !== null ? (0, runtime_js_1.decideResponse)(reading, timing) : (0, runtime_js_1.decide)(raw, timing);
    const shown = reading !== null && (0, verdict_js_1.isObject)((0, verdict_js_1.own)(input, "response")) ? { reading: readingJson(reading) } : {};
    return { name: vector["name"], ...shown, valid: verdict.valid, problems: [...new Set(verdict.problems.map((p) => p[0]))].sort(),
        parsed: verdict.parsed, decision: decisionJson(decision, raw) };
}
/** The emit line of one vector; a vector the runner cannot read says why instead. */
function emitted(vector) {
    try {
        return outputs(vector);
    }
    catch (error) {
        return { name: vector["name"] ?? null, error: String(error) };
    }
}
/** Equal as JSON data: key order is ignored, true is not 1. */
function same(a, b) {
    if (a instanceof Spelled || b instanceof Spelled)
        return same(a instanceof Spelled ? a.value : a, b instanceof Spelled ? b.value : b);
    if (Array.isArray(a) || Array.isArray(b)) {
        return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
    }
    if ((0, verdict_js_1.isObject)(a) || (0, verdict_js_1.isObject)(b)) {
        if (!(0, verdict_js_1.isObject)(a) || !(0, verdict_js_1.isObject)(b))
            return false;
        const keys = Object.keys(a);
        return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
    }
    return a === b;
}
function failures(vector) {
    const name = String(vector["name"] ?? "?");
    let got;
    try {
        got = outputs(vector);
    }
    catch (error) {
        return [`FAIL ${name}: raised ${String(error)}`];
    }
    const expected = (0, verdict_js_1.isObject)(vector["expected"]) ? vector["expected"] : {};
    const found = [];
    for (const key of OUTPUTS) {
        if (!Object.prototype.hasOwnProperty.call(expected, key))
            continue;
        let want = expected[key];
        if (key === "problems" && Array.isArray(want))
            want = [...new Set(want)].sort();
        if (!same(want, got[key]))
            found.push(`FAIL ${name}: ${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got[key])}`);
    }
    return found;
}
function main(argv) {
    const [mode, path] = argv;
    if (argv.length !== 2 || (mode !== "check" && mode !== "emit") || path === undefined) {
        process.stdout.write("usage: node dist/cjs/conformance.js check|emit VECTORS.json\n");
        return 2;
    }
    let vectors;
    try {
        // Read keeping each number's spelling, as the Python runner's json.load keeps 2.0 a float.
        const document = (0, wire_js_1.parseSpelled)(require("fs").readFileSync(path, "utf8"));
        const list = (0, verdict_js_1.isObject)(document) ? document["vectors"] : undefined;
        if (!Array.isArray(list) || !list.every(verdict_js_1.isObject))
            throw new Error("`vectors` must be a list of objects");
        vectors = list;
    }
    catch (error) {
        process.stdout.write(`cannot read ${path}: ${String(error)}\n`);
        return 2;
    }
    if (mode === "emit") {
        for (const vector of vectors)
            process.stdout.write(emitJson(emitted(vector)) + "\n");
        return 0;
    }
    let failed = 0;
    for (const vector of vectors) {
        const lines = failures(vector);
        if (lines.length > 0)
            failed++;
        for (const line of lines)
            process.stdout.write(line + "\n");
    }
    process.stdout.write(`${vectors.length - failed} passed, ${failed} failed\n`);
    return failed > 0 ? 1 : 0;
}
process.exitCode = main(process.argv.slice(2));
