//! The conformance runner (errgen's `docs/conformance.md`): `check` compares each vector's
//! outputs with its `expected` ones, `emit` prints them as one compact JSON line per vector.

use std::fmt::Write;
use std::process::ExitCode;

use serde_json::{json, Map, Value};

use crate::data::{policy, Code, Scope, FIELDS};
use crate::decide::{
    decide_response, decide_response_with_jitter, decide_value, decide_value_with_jitter,
};
use crate::decision::Decision;
use crate::errors::new_error_with;
use crate::http::{to_http, to_http_problem};
use crate::json::integer_zeros;
use crate::mcp::{from_mcp_result, to_mcp_result};
use crate::parts::HttpParts;
use crate::payload::ErrorPayload;
use crate::reading::{read_http, HttpReading};
use crate::received::receive;
use crate::suggest::did_you_mean;
use crate::transport::{decide_failure, decide_failure_with_jitter, Failure};
use crate::validate::{parse_value, problems, verdict};

/// The input kinds of `writing.json` (docs/conformance.md, "The writing vectors").
const WRITING: [&str; 4] = ["new_error", "parse", "to_http", "did_you_mean"];

/// Runs `check FILE` or `emit FILE` from the command line; exit 0 ok, 1 failures, 2 could not run.
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, path) = match args.as_slice() {
        [mode, path] if mode == "check" || mode == "emit" => (mode.as_str(), path),
        _ => {
            eprintln!("usage: conformance check|emit VECTORS.json");
            return ExitCode::from(2);
        }
    };
    let vectors = match std::fs::read_to_string(path) {
        // Read as the SDK reads JSON (`-0` is the integer 0), so a payload input is what Python's is.
        Ok(text) => match serde_json::from_str::<Value>(&integer_zeros(&text)) {
            Ok(document) => document.get("vectors").and_then(Value::as_array).cloned(),
            Err(e) => {
                eprintln!("{path}: not JSON: {e}");
                return ExitCode::from(2);
            }
        },
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(vectors) = vectors else {
        eprintln!("{path}: no \"vectors\" array");
        return ExitCode::from(2);
    };
    if mode == "emit" {
        for vector in &vectors {
            println!("{}", emit_line(vector));
        }
        return ExitCode::SUCCESS;
    }
    let (mut passed, mut failed) = (0, 0);
    for vector in &vectors {
        let failures = check(vector);
        if failures.is_empty() {
            passed += 1;
        } else {
            failed += 1;
            for failure in failures {
                println!("{failure}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// What this SDK does with one vector's input: the reading of a real response (for a
/// `response` input), valid, problems, parsed and decision. Each as compact JSON text, the
/// reading's and the decision's fields in their documented order.
pub fn outputs(vector: &Value) -> Result<Vec<(&'static str, String)>, String> {
    if let Some(input) = vector
        .get("input")
        .and_then(Value::as_object)
        .filter(|i| WRITING.iter().any(|kind| i.contains_key(*kind)))
    {
        return writing_outputs(input);
    }
    let number = |key: &str| vector.get(key).and_then(as_whole);
    let attempt = number("attempt").unwrap_or(1);
    let max_attempts = number("max_attempts").unwrap_or(i128::from(policy::DEFAULT_MAX_ATTEMPTS));
    let max_delay_ms = number("max_delay_ms").unwrap_or(i128::from(policy::DEFAULT_MAX_DELAY_MS));
    let (attempt, max_attempts) = attempts(attempt, max_attempts);
    let limits = (attempt, max_attempts, clamp(max_delay_ms));
    let draw = vector.get("jitter_draw").and_then(Value::as_f64);
    if let Some(transport) = vector.get("input").and_then(|i| i.get("transport")) {
        let decision = failure_decision(transport, limits, draw);
        return Ok(vec![("decision", decision_json(&decision))]);
    }
    let reading = http_reading(vector);
    let raw = match &reading {
        Some(reading) => reading.payload.clone().unwrap_or(Value::Null),
        None => raw_payload(vector)?,
    };
    let mut ids: Vec<&str> = problems(&raw).iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let (attempt, max_attempts, max_delay_ms) = limits;
    let of_value = match draw {
        Some(draw) => decide_value_with_jitter(&raw, attempt, max_attempts, max_delay_ms, || draw),
        None => decide_value(&raw, attempt, max_attempts, max_delay_ms),
    };
    same_from_bytes(&raw, limits, vector, &of_value)?;
    // A response (an `http` or `response` input) is decided whole: with no payload, by its status.
    let decision = match (&reading, draw) {
        (Some(reading), Some(draw)) => {
            decide_response_with_jitter(reading, attempt, max_attempts, max_delay_ms, || draw)
        }
        (Some(reading), None) => decide_response(reading, attempt, max_attempts, max_delay_ms),
        (None, _) => of_value,
    };
    let shown = reading
        .filter(|_| is_response_input(vector))
        .map(|reading| ("reading", reading_json(&reading)));
    Ok(shown
        .into_iter()
        .chain([
            ("valid", ids.is_empty().to_string()),
            ("problems", json!(ids).to_string()),
            ("parsed", Value::from(verdict(&raw).as_str()).to_string()),
            ("decision", decision_json(&decision)),
        ])
        .collect())
}

fn decision_json(decision: &Decision) -> String {
    serde_json::to_string(decision).unwrap_or_default()
}

/// The decision of a `transport` input: `{"failure": ..., "idempotent": ...}`.
fn failure_decision(transport: &Value, limits: (u32, u32, u64), draw: Option<f64>) -> Decision {
    let name = transport
        .get("failure")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let failure = Failure::from_name(name);
    let idempotent = transport.get("idempotent") == Some(&Value::Bool(true));
    let (attempt, max_attempts, max_delay_ms) = limits;
    match draw {
        Some(draw) => decide_failure_with_jitter(
            failure,
            idempotent,
            attempt,
            max_attempts,
            max_delay_ms,
            || draw,
        ),
        None => decide_failure(failure, idempotent, attempt, max_attempts, max_delay_ms),
    }
}

fn is_response_input(vector: &Value) -> bool {
    vector
        .get("input")
        .and_then(|i| i.get("response"))
        .is_some()
}

/// Checks that [`receive`] of the payload's JSON text finds what the checks of the parsed value
/// find (problems, verdict, decision): the vectors pin the one-pass path too.
fn same_from_bytes(
    raw: &Value,
    limits: (u32, u32, u64),
    vector: &Value,
    decision: &Decision,
) -> Result<(), String> {
    let (attempt, max_attempts, max_delay_ms) = limits;
    let text = serde_json::to_vec(raw).map_err(|e| e.to_string())?;
    let received = receive(&text);
    let from_bytes = match vector.get("jitter_draw").and_then(Value::as_f64) {
        Some(draw) => received.decide_with_jitter(attempt, max_attempts, max_delay_ms, || draw),
        None => received.decide(attempt, max_attempts, max_delay_ms),
    };
    if received.problems() != problems(raw).as_slice()
        || received.verdict() != verdict(raw)
        || from_bytes != *decision
    {
        return Err(format!(
            "receive(bytes) disagrees with the parsed value's checks: {received:?}, {from_bytes:?}"
        ));
    }
    Ok(())
}

/// The reading of a `response` input (`responses.json`) or an `http` one (`vectors.json`):
/// status, header pairs, and the body after `body_pad` spaces; `None` for any other input.
fn http_reading(vector: &Value) -> Option<HttpReading> {
    let now_ms = vector.get("now_ms").and_then(as_whole).unwrap_or(0);
    let input = vector.get("input")?;
    let given = input
        .get("response")
        .or_else(|| input.get("http").filter(|h| h.is_object()))?;
    let mut response = http_parts(given);
    let pad = given.get("body_pad").and_then(Value::as_u64).unwrap_or(0);
    let pad = usize::try_from(pad).unwrap_or(0);
    response
        .body
        .splice(0..0, std::iter::repeat(b' ').take(pad));
    Some(read_http(&response, clamp(now_ms)))
}

/// The reading's facts as one compact JSON object, in the documented order.
fn reading_json(reading: &HttpReading) -> String {
    let text = |value: &Option<String>| value.as_deref().map_or(Value::Null, Value::from);
    format!(
        "{{\"error\":{},\"code\":{},\"correlation_id\":{},\"delay_ms\":{}}}",
        reading.error,
        text(&reading.code),
        text(&reading.correlation_id),
        reading.delay_ms.map_or(Value::Null, Value::from),
    )
}

fn http_parts(given: &Value) -> HttpParts {
    let headers = given
        .get("headers")
        .and_then(Value::as_array)
        .map(|pairs| pairs.iter().filter_map(header_pair).collect())
        .unwrap_or_default();
    HttpParts {
        // A status past u16 is still one of 300 or more (an error), and none of 100..=599.
        status: given
            .get("status")
            .and_then(Value::as_u64)
            .map_or(0, |s| u16::try_from(s).unwrap_or(u16::MAX)),
        headers,
        body: given
            .get("body")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .as_bytes()
            .to_vec(),
    }
}

/// One compact JSON line; a vector the runner cannot read says why instead of stopping the run.
fn emit_line(vector: &Value) -> String {
    let mut line = format!("{{\"name\":{}", vector.get("name").unwrap_or(&Value::Null));
    match outputs(vector) {
        Ok(outputs) => {
            for (key, value) in outputs {
                let _ = write!(line, ",\"{key}\":{value}");
            }
        }
        Err(why) => {
            let _ = write!(line, ",\"error\":{}", Value::String(why));
        }
    }
    line.push('}');
    line
}

fn check(vector: &Value) -> Vec<String> {
    let name = vector.get("name").and_then(Value::as_str).unwrap_or("?");
    let Some(mut expected) = vector.get("expected").and_then(Value::as_object).cloned() else {
        return vec![format!("FAIL {name}: no expected outputs")];
    };
    if let Some(Value::Array(ids)) = expected.get_mut("problems") {
        // Problems are compared as a set.
        ids.sort_by_key(std::string::ToString::to_string);
        ids.dedup();
    }
    let actual = match outputs(vector) {
        Ok(actual) => actual,
        Err(why) => return vec![format!("FAIL {name}: {why}")],
    };
    if !actual.iter().any(|(key, _)| expected.contains_key(*key)) {
        return vec![format!(
            "FAIL {name}: expected names none of reading, valid, problems, parsed, decision"
        )];
    }
    actual
        .into_iter()
        .filter_map(|(key, actual)| {
            let wanted = expected.get(key)?;
            let actual: Value = serde_json::from_str(&actual).unwrap_or(Value::Null);
            (!same(wanted, &actual))
                .then(|| format!("FAIL {name}: {key}: expected {wanted}, got {actual}"))
        })
        .collect()
}

/// The raw payload a vector's input stands for; `Err` when the vector has no input to read.
fn raw_payload(vector: &Value) -> Result<Value, String> {
    let input = vector.get("input").and_then(Value::as_object);
    if let Some(payload) = input.and_then(|i| i.get("payload")) {
        return Ok(payload.clone());
    }
    if let Some(result) = input.and_then(|i| i.get("mcp")) {
        return Ok(from_mcp_result(result));
    }
    Err("input holds none of payload, http, mcp, response, transport".to_owned())
}

fn header_pair(pair: &Value) -> Option<(String, String)> {
    match pair.as_array()?.as_slice() {
        [Value::String(name), Value::String(value)] => Some((name.clone(), value.clone())),
        _ => None,
    }
}

#[allow(clippy::cast_possible_truncation)] // a whole f64 saturates into i128, as meant
fn as_whole(value: &Value) -> Option<i128> {
    if let Some(n) = value.as_i64() {
        return Some(i128::from(n));
    }
    if let Some(n) = value.as_u64() {
        return Some(i128::from(n));
    }
    value
        .as_f64()
        .filter(|f| f.fract() == 0.0)
        .map(|f| f as i128)
}

/// A vector's attempt and limit as the runtime's `u32`s: vectors may hold any integers (a
/// negative attempt, say), so the pair is mapped to one with the same outcome of
/// `attempt >= max_attempts` and the same backoff exponent.
fn attempts(attempt: i128, max_attempts: i128) -> (u32, u32) {
    let a: u32 = clamp(attempt);
    if attempt >= max_attempts {
        (a, a.min(clamp(max_attempts)))
    } else {
        (a, clamp(max_attempts.max(i128::from(a) + 1)))
    }
}

/// A vector's whole number in the range of the runtime's parameter type.
fn clamp<T: TryFrom<i128> + Bounded>(n: i128) -> T {
    T::try_from(n).unwrap_or(if n < 0 { T::MIN } else { T::MAX })
}

trait Bounded {
    const MIN: Self;
    const MAX: Self;
}

impl Bounded for u32 {
    const MIN: Self = u32::MIN;
    const MAX: Self = u32::MAX;
}

impl Bounded for u64 {
    const MIN: Self = u64::MIN;
    const MAX: Self = u64::MAX;
}

/// Equality as JSON data: `2` equals `2.0`, object key order is ignored.
#[allow(clippy::many_single_char_names)]
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(p), Some(q), _, _) => p == q,
                (_, _, Some(p), Some(q)) => p == q,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

// ---- the writing vectors (writing.json) ----

/// What the writing functions make of a writing input: `new_error`'s payload and what is written
/// of it, the tolerant parse's payload, `to_http`'s and `to_mcp_result`'s of a given payload, or
/// `did_you_mean`'s suggestions.
/// Objects' keys sorted: the SDKs need not agree on key order.
fn writing_outputs(input: &Map<String, Value>) -> Result<Vec<(&'static str, String)>, String> {
    let outputs: Vec<(&'static str, Value)> = if let Some(spec) = input.get("new_error") {
        match new_error_output(spec)? {
            Some(payload) => [("payload", payload.to_value())]
                .into_iter()
                .chain(written(&payload))
                .collect(),
            None => ["payload", "http", "http_problem", "mcp"]
                .into_iter()
                .map(|key| (key, Value::Null))
                .collect(),
        }
    } else if let Some(given) = input.get("parse") {
        // The tolerant parse's payload as wire data: every field it read (null when it refuses).
        let parsed = parse_value(given).ok().map(|payload| payload.to_value());
        vec![("payload", parsed.unwrap_or(Value::Null))]
    } else if let Some(given) = input.get("to_http") {
        written(&parse_value(given).map_err(|e| format!("to_http: {e}"))?)
    } else {
        let spec = input.get("did_you_mean").unwrap_or(&Value::Null);
        let value = spec
            .get("value")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let allowed: Vec<&str> = spec
            .get("allowed")
            .and_then(Value::as_array)
            .map(|items| items.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let limit = spec
            .get("limit")
            .and_then(Value::as_u64)
            .map_or(policy::DID_YOU_MEAN_LIMIT, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            });
        vec![("suggestions", json!(did_you_mean(value, &allowed, limit)))]
    };
    let mut outputs: Vec<(&'static str, String)> = outputs
        .into_iter()
        .map(|(key, value)| (key, sorted_keys(value).to_string()))
        .collect();
    outputs.sort_by_key(|(key, _)| *key);
    Ok(outputs)
}

/// `new_error_with` on a `new_error` input (fields by canonical name); `None` when it refuses.
fn new_error_output(spec: &Value) -> Result<Option<ErrorPayload>, String> {
    let code = Code::from_wire(spec.get("code").and_then(Value::as_str).unwrap_or_default());
    let id = spec
        .get("correlation_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let scope = spec
        .get("scope")
        .and_then(Value::as_str)
        .map(Scope::from_wire);
    let empty = Map::new();
    let fields = spec
        .get("fields")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    // A field this runner cannot set is an error, never a payload made without it.
    let mut unset = None;
    let made = new_error_with(code, id, |payload| {
        if let Some(scope) = scope {
            payload.scope = scope;
        }
        if let Err(why) = set_fields(payload, fields) {
            unset = Some(why);
        }
    });
    if let Some(why) = unset {
        return Err(why);
    }
    Ok(made.ok())
}

/// Sets `fields` (by canonical name) on `payload` through its wire form, so every field of the
/// contract view is settable here without a list of them.
fn set_fields(payload: &mut ErrorPayload, fields: &Map<String, Value>) -> Result<(), String> {
    let mut value = payload.to_value();
    for (name, given) in fields {
        let spec = FIELDS
            .iter()
            .find(|spec| spec.name == name)
            .ok_or_else(|| format!("new_error: no field {name}"))?;
        value[spec.wire] = given.clone();
    }
    *payload = ErrorPayload::deserialize_value(&value)
        .map_err(|e| format!("new_error: fields {}: {e}", Value::Object(fields.clone())))?;
    Ok(())
}

/// Both HTTP forms and the MCP result of a payload, as the vectors state them.
fn written(payload: &ErrorPayload) -> Vec<(&'static str, Value)> {
    let result = to_mcp_result(payload);
    let content: Vec<Value> = result
        .get("content")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .map(|item| {
                    let text = item.get("text").and_then(Value::as_str).unwrap_or_default();
                    json!({"type": item.get("type"), "json": serde_json::from_str::<Value>(text).unwrap_or(Value::Null)})
                })
                .collect()
        })
        .unwrap_or_default();
    let mcp = json!({"content": content, "structuredContent": result.get("structuredContent"), "isError": result.get("isError")});
    vec![
        ("http", http_json(&to_http(payload))),
        ("http_problem", http_json(&to_http_problem(payload))),
        ("mcp", mcp),
    ]
}

/// A written response: header names in lower case, sorted; the body parsed.
fn http_json(response: &HttpParts) -> Value {
    let mut headers: Vec<(String, String)> = response
        .headers
        .iter()
        .map(|(name, value)| (name.to_ascii_lowercase(), value.clone()))
        .collect();
    headers.sort();
    // An XML API's body is compared as text.
    let body: Value = serde_json::from_slice(&response.body)
        .unwrap_or_else(|_| Value::from(String::from_utf8_lossy(&response.body).into_owned()));
    json!({"status": response.status, "headers": headers, "body": body})
}

fn sorted_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, sorted_keys(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted_keys).collect()),
        other => other,
    }
}
