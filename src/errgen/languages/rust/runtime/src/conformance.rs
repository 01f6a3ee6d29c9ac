//! The conformance runner (errgen's `docs/conformance.md`): `check` compares each vector's
//! outputs with its `expected` ones, `emit` prints them as one compact JSON line per vector.

use std::process::ExitCode;

use serde_json::{json, Value};

use crate::data::policy;
use crate::decide::decide_value;
use crate::http::{from_http, HttpParts};
use crate::mcp::from_mcp_result;
use crate::reading::{read_http, HttpReading};
use crate::validate::{problems, verdict};

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
        Ok(text) => match serde_json::from_str::<Value>(&text) {
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
    let (raw, reading) = match response_reading(vector) {
        Some(reading) => (
            reading.payload.clone().unwrap_or(Value::Null),
            Some(reading_json(&reading)),
        ),
        None => (raw_payload(vector)?, None),
    };
    let number = |key: &str| vector.get(key).and_then(as_whole);
    let attempt = number("attempt").unwrap_or(1);
    let max_attempts = number("max_attempts").unwrap_or(i128::from(policy::DEFAULT_MAX_ATTEMPTS));
    let max_delay_ms = number("max_delay_ms").unwrap_or(i128::from(policy::DEFAULT_MAX_DELAY_MS));
    let mut ids: Vec<&str> = problems(&raw).iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let (attempt, max_attempts) = attempts(attempt, max_attempts);
    let decision = decide_value(&raw, attempt, max_attempts, clamp(max_delay_ms));
    let reading = reading.map(|reading| ("reading", reading));
    Ok(reading
        .into_iter()
        .chain([
            ("valid", ids.is_empty().to_string()),
            ("problems", json!(ids).to_string()),
            ("parsed", Value::from(verdict(&raw).as_str()).to_string()),
            (
                "decision",
                serde_json::to_string(&decision).unwrap_or_default(),
            ),
        ])
        .collect())
}

/// The reading of a `response` input (`responses.json`): status, header pairs, and the body
/// after `body_pad` spaces; `None` for any other input.
fn response_reading(vector: &Value) -> Option<HttpReading> {
    let now_ms = vector.get("now_ms").and_then(as_whole).unwrap_or(0);
    let given = vector.get("input")?.get("response")?;
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
        status: given
            .get("status")
            .and_then(Value::as_u64)
            .and_then(|s| u16::try_from(s).ok())
            .unwrap_or(0),
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
                line.push_str(&format!(",\"{key}\":{value}"));
            }
        }
        Err(why) => line.push_str(&format!(",\"error\":{}", Value::String(why))),
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
        ids.sort_by_key(|id| id.to_string());
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
    let now_ms = vector.get("now_ms").and_then(as_whole).unwrap_or(0);
    let input = vector.get("input").and_then(Value::as_object);
    if let Some(payload) = input.and_then(|i| i.get("payload")) {
        return Ok(payload.clone());
    }
    if let Some(http) = input.and_then(|i| i.get("http")).filter(|h| h.is_object()) {
        return Ok(from_http(&http_parts(http), clamp(now_ms)));
    }
    if let Some(result) = input.and_then(|i| i.get("mcp")) {
        return Ok(from_mcp_result(result));
    }
    Err("input holds none of payload, http, mcp, response".to_owned())
}

fn header_pair(pair: &Value) -> Option<(String, String)> {
    match pair.as_array()?.as_slice() {
        [Value::String(name), Value::String(value)] => Some((name.clone(), value.clone())),
        _ => None,
    }
}

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
