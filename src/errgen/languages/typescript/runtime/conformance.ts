// The conformance runner of docs/conformance.md, compiled with the package:
//   node dist/cjs/conformance.js check VECTORS.json   compare with `expected`; exit 0, or 1 on a failure
//   node dist/cjs/conformance.js emit VECTORS.json    one JSON line of actual outputs per input
// Exit 2 when the vectors file cannot be read.

import { DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS, FIELDS } from "./contract.js";
import type { Code } from "./contract.js";
import {
  checkPayload, decide, decideFailure, decideResponse, didYouMean, fromMcpResult, newError, parsePayload, PayloadError, readHttp, toHttp,
  toMcpResult,
} from "./runtime.js";
import type { DecideOptions, Decision, HttpReading, HttpResponse } from "./runtime.js";
import { isObject, own, wireNames } from "./verdict.js";
import type { Json } from "./verdict.js";
import { numberSpelling, parseSpelled } from "./wire.js";

// Node's own API, declared here so the package needs no type dependency.
declare const process: { argv: string[]; exitCode?: number; stdout: { write(text: string): boolean } };
declare function require(name: "fs"): { readFileSync(path: string, encoding: "utf8"): string };

const OUTPUTS = ["reading", "valid", "problems", "parsed", "decision", "payload", "http", "http_problem", "mcp", "suggestions"] as const;
// The input kinds of writing.json (docs/conformance.md, "The writing vectors").
const WRITING = ["new_error", "parse", "to_http", "did_you_mean"] as const;
const WIRE = wireNames(FIELDS);

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

function headerPairs(given: unknown): [string, string][] {
  return Array.isArray(given) ? given.map((pair) => [String((pair as unknown[])[0]), String((pair as unknown[])[1])]) : [];
}

/** A `response` input (responses.json): status, header pairs, body text after `body_pad` spaces. */
function responseReading(given: Json, nowMs: number): HttpReading {
  const body = " ".repeat(numberOr(given["body_pad"], 0)) + String(given["body"]);
  return readHttp(numberOr(given["status"], 0), headerPairs(given["headers"]), body, nowMs);
}

function readingJson(reading: HttpReading): Json {
  return { error: reading.error, code: reading.code, correlation_id: reading.correlationId, delay_ms: reading.delayMs };
}

/** The reading of an `http` or `response` input; null for the other kinds. */
function httpReading(input: Json, nowMs: number): HttpReading | null {
  const response = own(input, "response");
  if (isObject(response)) return responseReading(response, nowMs);
  const http = own(input, "http");
  if (isObject(http)) return readHttp(numberOr(http["status"], 0), headerPairs(http["headers"]), String(http["body"]), nowMs);
  return null;
}

function rawPayload(input: Json): unknown {
  if (Object.prototype.hasOwnProperty.call(input, "payload")) return input["payload"];
  if (Object.prototype.hasOwnProperty.call(input, "mcp")) return fromMcpResult(input["mcp"]);
  throw new Error("input holds none of payload, http, mcp, response, transport");
}

/** A number as it was spelled in the input, so that an emit line prints it as the Python SDK (the
 * reference) prints what it read: `2.0` and `-0.0` stay floats, `-0` is the integer 0. As JSON
 * data (check mode, messages) it is its value. */
class Spelled {
  constructor(readonly value: number, readonly python: string) {}

  toJSON(): number {
    return this.value;
  }
}

/** Python's repr of a double: the shortest digits that read back, positional from 1e-4 up to
 * 1e16, `.0` on an integral value; the exponent with a sign and at least two digits. */
function pythonFloat(n: number): string {
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  const [mantissa = "0", expText = "0"] = Math.abs(n).toExponential().split("e");
  const exp = Number(expText);
  const digits = mantissa.replace(".", "");
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
    if (digits.length <= exp + 1) return `${sign}${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
    return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  const rest = digits.length > 1 ? `.${digits.slice(1)}` : "";
  return `${sign}${digits.charAt(0)}${rest}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/** `holder[key]` as Python prints it: an integer spelling as its digits, a float's as its repr. */
function spelled(value: unknown, holder: unknown, key: string): unknown {
  const text = typeof value === "number" && Number.isFinite(value) ? numberSpelling(holder, key) : undefined;
  if (text === undefined) return value;
  const python = /[.eE]/.test(text) ? pythonFloat(value as number) : text.replace(/^-0$/, "0");
  return new Spelled(value as number, python);
}

function decisionJson(d: Decision, raw: unknown): Json {
  const holder = isObject(raw) ? own(raw, WIRE["searched"] ?? "searched") : undefined;
  const searched = Object.fromEntries(Object.entries(d.searched).map(([key, value]) => [key, spelled(value, holder, key)]));
  return {
    action: d.action, reason: d.reason, code: d.code, wire_code: d.wireCode, delay_ms: d.delayMs, correlation_id: d.correlationId,
    resource_id: d.resourceId, did_you_mean: [...d.didYouMean], accepted: [...d.accepted], searched,
  };
}

/** Compact JSON as JSON.stringify writes it, a spelled number as Python prints it. */
function emitJson(value: unknown): string {
  if (value instanceof Spelled) return value.python;
  if (Array.isArray(value)) return `[${value.map((item: unknown) => emitJson(item)).join(",")}]`;
  if (isObject(value)) {
    const members = Object.keys(value).filter((key) => value[key] !== undefined);
    return `{${members.map((key) => `${JSON.stringify(key)}:${emitJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A JSON body parsed; any other (an XML API's) as its text. */
function parsedOrText(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** A written response as the vectors state it: header names in lower case, sorted; the body parsed. */
function httpJson(response: HttpResponse): Json {
  const headers = Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]);
  headers.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0));
  return { status: response.status, headers, body: parsedOrText(response.body) };
}

function mcpJson(result: ReturnType<typeof toMcpResult>): Json {
  return {
    content: result.content.map((item) => ({ type: item.type, json: JSON.parse(item.text) as unknown })),
    structuredContent: result.structuredContent, isError: result.isError,
  };
}

function written(payload: Json): Json {
  return { http: httpJson(toHttp(payload)), http_problem: httpJson(toHttp(payload, true)), mcp: mcpJson(toMcpResult(payload)) };
}

/** Writing outputs with every object's keys sorted: the SDKs need not agree on key order. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys(value[key])]));
}

/** The tolerant parse's payload as wire data (null when it refuses): every field it read. */
function parsedWire(raw: unknown): Json | null {
  try {
    const made = parsePayload(raw);
    if (!made.known) return { ...made.raw };
    // Typed `object`, so the copy is not a union of every code's payload (too complex at 5,000 codes).
    const read: object = made.payload;
    return { ...read };
  } catch (error) {
    if (error instanceof PayloadError) return null;
    throw error;
  }
}

/** What the writing functions make of a writing input: a payload, responses, suggestions. */
function writingOutputs(input: Json): Json {
  const spec = own(input, "new_error");
  if (isObject(spec)) {
    const fields: Json = isObject(spec["scope"]) || spec["scope"] === undefined ? {} : { [WIRE["scope"] ?? "scope"]: spec["scope"] };
    for (const [name, value] of Object.entries(isObject(spec["fields"]) ? spec["fields"] : {})) fields[WIRE[name] ?? name] = value;
    let payload: Json;
    try {
      payload = { ...newError(String(spec["code"]) as Code, String(spec["correlation_id"]), fields) };
    } catch (error) {
      if (error instanceof PayloadError) return { payload: null, http: null, http_problem: null, mcp: null };
      throw error;
    }
    return { payload, ...written(payload) };
  }
  if (Object.prototype.hasOwnProperty.call(input, "parse")) return { payload: parsedWire(input["parse"]) };
  const given = own(input, "to_http");
  if (isObject(given)) return written(given);
  const ask = own(input, "did_you_mean");
  if (!isObject(ask)) throw new Error("input holds none of new_error, parse, to_http, did_you_mean");
  const allowed = Array.isArray(ask["allowed"]) ? ask["allowed"].map(String) : [];
  const suggestions = typeof ask["limit"] === "number" ? didYouMean(String(ask["value"]), allowed, ask["limit"]) : didYouMean(String(ask["value"]), allowed);
  return { suggestions };
}

function outputs(vector: Json): Json {
  const input = isObject(vector["input"]) ? vector["input"] : {};
  if (WRITING.some((kind) => Object.prototype.hasOwnProperty.call(input, kind))) {
    return { name: vector["name"], ...(sortedKeys(writingOutputs(input)) as Json) };
  }
  const nowMs = numberOr(vector["now_ms"], 0);
  const timing: DecideOptions = {
    attempt: numberOr(vector["attempt"], 1), maxAttempts: numberOr(vector["max_attempts"], DEFAULT_MAX_ATTEMPTS),
    maxDelayMs: numberOr(vector["max_delay_ms"], DEFAULT_MAX_DELAY_MS),
    ...(typeof vector["jitter_draw"] === "number" ? { jitter: true, draw: () => vector["jitter_draw"] as number } : {}),
  };
  const transport = own(input, "transport");
  if (isObject(transport)) {
    const decided = decideFailure(String(transport["failure"]), { ...timing, idempotent: transport["idempotent"] === true });
    return { name: vector["name"], decision: decisionJson(decided, null) };
  }
  // An HTTP response is decided as a response (a codeless one by its status); its payload is judged.
  const reading = httpReading(input, nowMs);
  const raw = reading !== null ? reading.payload : rawPayload(input);
  const verdict = checkPayload(raw);
  const decision = reading !== null ? decideResponse(reading, timing) : decide(raw, timing);
  const shown = reading !== null && isObject(own(input, "response")) ? { reading: readingJson(reading) } : {};
  return { name: vector["name"], ...shown, valid: verdict.valid, problems: [...new Set(verdict.problems.map((p) => p[0]))].sort(),
           parsed: verdict.parsed, decision: decisionJson(decision, raw) };
}

/** The emit line of one vector; a vector the runner cannot read says why instead. */
function emitted(vector: Json): Json {
  try {
    return outputs(vector);
  } catch (error) {
    return { name: vector["name"] ?? null, error: String(error) };
  }
}

/** Equal as JSON data: key order is ignored, true is not 1. */
function same(a: unknown, b: unknown): boolean {
  if (a instanceof Spelled || b instanceof Spelled) return same(a instanceof Spelled ? a.value : a, b instanceof Spelled ? b.value : b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
  }
  return a === b;
}

function failures(vector: Json): string[] {
  const name = String(vector["name"] ?? "?");
  let got: Json;
  try {
    got = outputs(vector);
  } catch (error) {
    return [`FAIL ${name}: raised ${String(error)}`];
  }
  const expected = isObject(vector["expected"]) ? vector["expected"] : {};
  const found: string[] = [];
  for (const key of OUTPUTS) {
    if (!Object.prototype.hasOwnProperty.call(expected, key)) continue;
    let want = expected[key];
    if (key === "problems" && Array.isArray(want)) want = [...new Set(want as string[])].sort();
    if (!same(want, got[key])) found.push(`FAIL ${name}: ${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got[key])}`);
  }
  return found;
}

function main(argv: readonly string[]): number {
  const [mode, path] = argv;
  if (argv.length !== 2 || (mode !== "check" && mode !== "emit") || path === undefined) {
    process.stdout.write("usage: node dist/cjs/conformance.js check|emit VECTORS.json\n");
    return 2;
  }
  let vectors: Json[];
  try {
    // Read keeping each number's spelling, as the Python runner's json.load keeps 2.0 a float.
    const document: unknown = parseSpelled(require("fs").readFileSync(path, "utf8"));
    const list = isObject(document) ? document["vectors"] : undefined;
    if (!Array.isArray(list) || !list.every(isObject)) throw new Error("`vectors` must be a list of objects");
    vectors = list;
  } catch (error) {
    process.stdout.write(`cannot read ${path}: ${String(error)}\n`);
    return 2;
  }
  if (mode === "emit") {
    for (const vector of vectors) process.stdout.write(emitJson(emitted(vector)) + "\n");
    return 0;
  }
  let failed = 0;
  for (const vector of vectors) {
    const lines = failures(vector);
    if (lines.length > 0) failed++;
    for (const line of lines) process.stdout.write(line + "\n");
  }
  process.stdout.write(`${vectors.length - failed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
