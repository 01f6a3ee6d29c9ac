// Reading and writing the wire, for any input: JSON text with a depth limit, HTTP headers with the
// one Retry-After grammar of docs/conformance.md, and MCP tool results. Nothing here throws on what
// a server sends; limits come from the contract's data (contract.ts).

import { MAX_DELAY_VALUE_MS, MAX_JSON_DEPTH } from "./contract";
import { isObject, own } from "./verdict";

/** Headers as a plain object or as [name, value] pairs in order. */
export type Headers = Readonly<Record<string, string>> | readonly (readonly [string, string])[];

/** Whether arrays and objects nest deeper than `limit` (strings skipped); linear time. */
export function tooDeep(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limit) return true;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** [true, value] when `text` is exactly one JSON value nested at most MAX_JSON_DEPTH deep, else
 * [false, null]. */
export function readJson(text: string): readonly [boolean, unknown] {
  if (tooDeep(text)) return [false, null];
  try {
    return [true, JSON.parse(text) as unknown];
  } catch {
    return [false, null];
  }
}

/** Compact JSON of a payload; a field JSON cannot carry is left out rather than throwing. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    if (!isObject(value)) return "null";
    const kept: [string, unknown][] = [];
    for (const [key, item] of Object.entries(value)) {
      try {
        JSON.stringify(item);
        kept.push([key, item]);
      } catch {
        // left out: not representable as JSON
      }
    }
    return JSON.stringify(Object.fromEntries(kept));
  }
}

const ASCII = /^[\x00-\x7f]*$/;

/** The first value of header `name` (ASCII case-insensitive); null when absent or not text. */
export function header(headers: unknown, name: string): string | null {
  const pairs: unknown[] = Array.isArray(headers) ? headers : isObject(headers) ? Object.entries(headers) : [];
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2) continue;
    const [key, value] = pair as [unknown, unknown];
    if (typeof key === "string" && ASCII.test(key) && key.toLowerCase() === name) return typeof value === "string" ? value : null;
  }
  return null;
}

const DIGITS = /^[0-9]+$/;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const IMF_FIXDATE = new RegExp(
  `^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2}) (${MONTHS.join("|")}) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$`,
);

function trimOws(text: string): string {
  return text.replace(/^[ \t]+|[ \t]+$/g, "");
}

function saturated(digits: string, factor: number): number {
  const significant = digits.replace(/^0+/, "") || "0";
  if (significant.length > 16) return MAX_DELAY_VALUE_MS;
  return Math.min(Number(significant) * factor, MAX_DELAY_VALUE_MS);
}

/** Days since 1970-01-01 in the proleptic Gregorian calendar (any year 0000-9999). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function monthDays(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Milliseconds since the epoch of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or null. */
export function httpDateMs(text: string): number | null {
  const match = IMF_FIXDATE.exec(text);
  if (match === null) return null;
  const [d, monthName, y, h, mi, s] = match.slice(1);
  const month = MONTHS.indexOf(monthName ?? "") + 1;
  const [day, year, hour, minute, second] = [d, y, h, mi, s].map(Number) as [number, number, number, number, number];
  if (!(day >= 1 && day <= monthDays(year, month) && hour <= 23 && minute <= 59 && second <= 60)) return null;
  return (daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second) * 1000;
}

/** The delay the headers ask for: `retry-after-ms` digits, else `Retry-After` delta-seconds or an
 * IMF-fixdate (relative to nowMs); anything else is no delay. Saturates at MAX_DELAY_VALUE_MS. */
export function headerDelayMs(headers: unknown, nowMs: number): number | null {
  const millis = trimOws(header(headers, "retry-after-ms") ?? "");
  if (DIGITS.test(millis)) return saturated(millis, 1);
  const value = trimOws(header(headers, "retry-after") ?? "");
  if (DIGITS.test(value)) return saturated(value, 1000);
  const when = httpDateMs(value);
  return when === null ? null : Math.min(Math.max(0, when - nowMs), MAX_DELAY_VALUE_MS);
}

/** The raw payload of an MCP tool result: an object `structuredContent`, else the first text
 * item's JSON; null when there is none. */
export function mcpPayload(result: unknown): unknown {
  if (!isObject(result)) return null;
  const structured = own(result, "structuredContent");
  if (isObject(structured)) return structured;
  const content = own(result, "content");
  if (!Array.isArray(content)) return null;
  for (const item of content) {
    if (isObject(item) && own(item, "type") === "text") {
      const text = own(item, "text");
      if (typeof text !== "string") continue;
      const [ok, value] = readJson(text);
      return ok ? value : null;
    }
  }
  return null;
}
