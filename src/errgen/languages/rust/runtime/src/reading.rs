//! Reading a real API's error response (errgen's `docs/conformance.md`, "Reading a real
//! response"): where the registry's `wire.response` (read in `response_spec`)
//! says each fact is, in a JSON or flat-XML body or a header. Nothing here panics or spins on what
//! a server sends: every parse is bounded by the policy's reading limits.

use std::borrow::Cow;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use crate::data::{policy, wire, FIELDS};
use crate::delays::delay_of;
use crate::json::read_json;
use crate::parts::HttpParts;
use crate::response_spec::{prefixed, spec, Condition, DelaySource, Source, Step};
use crate::table::{recovery_entry, CodeEntry};
use crate::xml::read_xml;

/// What [`read_http`] found in a response.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HttpReading {
    /// Whether the response is an error: a status of 300 or more, or an `error_when` condition.
    pub error: bool,
    /// The raw payload ([`from_http`](crate::from_http)'s value): errgen's payload as sent, the
    /// one built from a real API's response, or the body text when it cannot be read; `None`
    /// when the response is not an error. Judge it with `parse_value` or `decide_value`.
    pub payload: Option<Value>,
    /// The code the registry's code sources yield, as read (before any variant is resolved).
    pub code: Option<String>,
    /// The request id the registry's correlation-id sources yield.
    pub correlation_id: Option<String>,
    /// The delay the registry's delay sources yield, in milliseconds.
    pub delay_ms: Option<u64>,
    /// The whole parsed body (JSON, or XML as nested objects); `None` when it cannot be read.
    /// The API's own fields, kept for the caller.
    pub document: Option<Value>,
    /// The HTTP status the response was read with.
    pub status: u16,
    /// The response's header pairs, as given: what a caught [`ResponseError`](crate::ResponseError) carries.
    pub headers: Vec<(String, String)>,
    /// Whether the body claims to be the API's error shape: a code was read, or a JSON object
    /// holds where the registry reads the code. A claimed body is decided as a payload (one
    /// breaking the contract escalates), any other error response by its status.
    pub(crate) claimed: bool,
    /// The delay a response without a payload asks for: `delay_ms`, else the standard
    /// `retry-after-ms` / `Retry-After` headers.
    pub(crate) fallback_delay_ms: Option<u64>,
}

impl HttpReading {
    /// [`HttpReading::delay_ms`] as a duration.
    #[must_use]
    pub fn delay(&self) -> Option<std::time::Duration> {
        self.delay_ms.map(std::time::Duration::from_millis)
    }
}

/// Reads an HTTP response as errgen's `docs/conformance.md` ("Reading a real response")
/// specifies: each fact where the registry says it is; the facts a real API's response does not
/// carry come from the registry row of the code it carries (an unknown code: from the status).
/// `now_ms` (milliseconds since the epoch) is the clock of HTTP-dates and epoch delays.
#[must_use]
pub fn read_http(response: &HttpParts, now_ms: u64) -> HttpReading {
    let spec = spec();
    let headers = response.headers.as_slice();
    let status = response.status;
    let too_large = u64::try_from(response.body.len()).map_or(true, |n| n > policy::MAX_BODY_BYTES);
    let (utf8, text) = match std::str::from_utf8(&response.body) {
        Ok(text) => (true, Cow::Borrowed(text)),
        Err(_) => (false, String::from_utf8_lossy(&response.body)),
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    // An xml registry reads a body that starts with "<" as XML, any other as JSON (what to_http writes).
    let xml = spec.format == "xml" && text.trim_start_matches(SPACE).starts_with('<');
    let document = match (utf8 && !too_large, xml) {
        (false, _) => None,
        (true, true) => read_xml(text),
        (true, false) => read_json(text.as_bytes()),
    };
    let found = document.as_ref();
    let facts = Facts {
        status,
        headers,
        document: found,
    };
    // The most specific code this SDK knows wins (Graph's innerError.code over its outer code,
    // the first known entry of an array); only when none is known, the first usable one.
    let code = facts
        .first(&spec.code, known_code)
        .or_else(|| facts.first(&spec.code, code_text));
    let correlation_id = facts.first(&spec.correlation_id, code_text);
    // The registry's delay sources that apply to the registry code read (never the payload-fit
    // refinement a payload of errgen's own shape gets).
    let registry_entry = code
        .as_deref()
        .and_then(|code| recovery_entry(&facts.registry_code(code, &|_| true)));
    let delay_ms = facts.delay(&spec.retry_after, registry_entry, now_ms);
    let error = status >= 300 || spec.error_when.iter().any(|c| facts.holds(c));
    let claimed = code.is_some() || (!xml && claims(found));
    let fallback_delay_ms = match delay_ms {
        None if error && !claimed => facts.delay(&spec.own_retry_after, None, now_ms),
        delay => delay,
    };
    let payload = error.then(|| {
        if code.is_some() || (found.is_some() && !xml) {
            facts.payload(
                code.as_deref(),
                correlation_id.as_deref(),
                delay_ms,
                xml,
                now_ms,
            )
        } else {
            // A body that cannot be read, or an XML one without a code: its text.
            Value::String(text.to_owned())
        }
    });
    HttpReading {
        error,
        payload,
        code,
        correlation_id,
        delay_ms,
        document,
        status,
        headers: headers.to_vec(),
        claimed,
        fallback_delay_ms,
    }
}

/// Whether a JSON document holds where the registry reads the code (the first key of a body
/// source): the API's own error shape, which a payload breaking the contract must not escape
/// by being decided on its status.
fn claims(document: Option<&Value>) -> bool {
    let Some(Value::Object(object)) = document else {
        return false;
    };
    spec().code.iter().any(|source| match source {
        Source::Body { path } => {
            matches!(path.first(), Some(Step::Key(key)) if object.contains_key(key))
        }
        _ => false,
    })
}

/// [`read_http`] measured from the system clock.
#[must_use]
pub fn read_http_now(response: &HttpParts) -> HttpReading {
    read_http(response, now_ms())
}

pub(crate) fn now_ms() -> u64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    u64::try_from(now).unwrap_or(u64::MAX)
}

// ---- headers ----------------------------------------------------------------------------------------

const SPACE: [char; 4] = [' ', '\t', '\r', '\n'];

/// The first value of header `name` (ASCII case-insensitive) among the first `MAX_HEADERS`;
/// `None` when absent or longer than `MAX_HEADER_CHARS` characters.
pub(crate) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    let count = usize::try_from(policy::MAX_HEADERS).unwrap_or(usize::MAX);
    let limit = usize::try_from(policy::MAX_HEADER_CHARS).unwrap_or(usize::MAX);
    let (_, value) = headers
        .iter()
        .take(count)
        .find(|(key, _)| key.eq_ignore_ascii_case(name))?;
    (value.len() <= limit || value.chars().count() <= limit).then_some(value.as_str())
}

// ---- values ------------------------------------------------------------------------------------------

/// A JSON number's value when it is an integer of magnitude at most 2^53 - 1 (1.0 counts).
#[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)] // exact within 2^53
fn whole(number: &serde_json::Number) -> Option<i64> {
    let max = i64::try_from(policy::MAX_DELAY_VALUE_MS).unwrap_or(i64::MAX);
    if let Some(n) = number.as_i64() {
        return (n.unsigned_abs() <= policy::MAX_DELAY_VALUE_MS).then_some(n);
    }
    if number.is_u64() {
        return None; // past i64, so past 2^53 - 1
    }
    let f = number.as_f64()?;
    // In range, the cast is exact; -0.0 becomes 0.
    (f.is_finite() && f.fract() == 0.0 && f.abs() <= max as f64).then_some(f as i64)
}

/// The code text of `value` when this registry decides it: a registry code, a wire code several
/// codes send (a key of `variants`) or a code a `wire_prefix` matches.
fn known_code(value: &Value) -> Option<String> {
    code_text(value).filter(|code| {
        spec().variants.contains_key(code)
            || recovery_entry(code).is_some()
            || prefixed(code).is_some()
    })
}

/// A code or request id: a non-empty string, or a whole JSON number as its decimal text.
pub(crate) fn code_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) if !text.is_empty() => Some(text.clone()),
        Value::Number(number) => whole(number).map(|n| n.to_string()),
        _ => None,
    }
}

fn message_text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// JSON equality with numbers by value (`1 == 1.0`).
#[allow(clippy::many_single_char_names)]
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(p), Some(q), _, _) => p == q,
                (_, _, Some(p), Some(q)) => p == q,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

// ---- sources ----------------------------------------------------------------------------------------

/// The parts of a response that sources read.
struct Facts<'a> {
    status: u16,
    headers: &'a [(String, String)],
    document: Option<&'a Value>,
}

fn walk<T>(value: &Value, path: &[Step], accept: &dyn Fn(&Value) -> Option<T>) -> Option<T> {
    let mut value = value;
    for (at, step) in path.iter().enumerate() {
        value = match step {
            Step::Key(key) => value.as_object()?.get(key)?,
            Step::Index(-1) => {
                let rest = &path[at + 1..];
                return value
                    .as_array()?
                    .iter()
                    .find_map(|item| walk(item, rest, accept));
            }
            Step::Index(index) => value.as_array()?.get(usize::try_from(*index).ok()?)?,
        };
    }
    accept(value)
}

impl Facts<'_> {
    /// What `accept` makes of the value at `source`; `None` when nothing usable is there.
    fn read<T>(&self, source: &Source, accept: &dyn Fn(&Value) -> Option<T>) -> Option<T> {
        match source {
            Source::Status => accept(&Value::String(self.status.to_string())),
            Source::Header { name } => {
                let value = header(self.headers, name)?.trim_matches([' ', '\t']);
                if value.is_empty() {
                    return None;
                }
                accept(&Value::String(value.to_owned()))
            }
            Source::Body { path } => walk(self.document?, path, accept),
        }
    }

    fn first<T>(&self, sources: &[Source], accept: fn(&Value) -> Option<T>) -> Option<T> {
        sources.iter().find_map(|source| self.read(source, &accept))
    }

    fn holds(&self, condition: &Condition) -> bool {
        if let Some(statuses) = &condition.status {
            return statuses.contains(&i64::from(self.status));
        }
        let Some(at) = &condition.at else {
            return false;
        };
        let found = match &condition.equals {
            Some(wanted) => self.read(at, &|value| equal(value, wanted).then_some(())),
            None => self.read(at, &|value| {
                let filled = match value {
                    Value::String(s) => !s.is_empty(),
                    Value::Array(a) => !a.is_empty(),
                    Value::Object(o) => !o.is_empty(),
                    _ => false,
                };
                filled.then_some(())
            }),
        };
        found.is_some()
    }

    /// The registry code of a wire code several codes send (`wire_code`/`when`), or, when no wire
    /// code equals it, of the longest `wire_prefix` it starts with: the first whose conditions
    /// hold, else the first; among those that `fits` (a payload's own category and scope) when
    /// any does. Any other code is itself.
    fn registry_code(&self, code: &str, fits: &dyn Fn(&str) -> bool) -> String {
        let rows = match spec().variants.get(code) {
            Some(rows) if !rows.is_empty() => Some(rows.as_slice()),
            _ if recovery_entry(code).is_some() => None,
            _ => prefixed(code),
        };
        let Some(rows) = rows.filter(|rows| !rows.is_empty()) else {
            return code.to_owned();
        };
        let fitting: Vec<_> = rows.iter().filter(|(name, _)| fits(name)).collect();
        let rows: Vec<_> = if fitting.is_empty() {
            rows.iter().collect()
        } else {
            fitting
        };
        let chosen = rows
            .iter()
            .find(|(_, conditions)| conditions.iter().all(|c| self.holds(c)))
            .unwrap_or(&rows[0]);
        chosen.0.clone()
    }

    /// The first delay the `entries` that apply to `code` (its registry entry) yield.
    fn delay(&self, entries: &[DelaySource], code: Option<&CodeEntry>, now_ms: u64) -> Option<u64> {
        entries
            .iter()
            .filter(|entry| entry.applies(code))
            .find_map(|entry| self.read(&entry.at, &|value| delay_of(entry.unit, value, now_ms)))
    }

    fn payload(
        &self,
        code: Option<&str>,
        correlation_id: Option<&str>,
        delay_ms: Option<u64>,
        xml: bool,
        now_ms: u64,
    ) -> Value {
        let mut value = self.document;
        if let (Some(key), false, Some(Value::Object(object))) = (policy::ENVELOPE, xml, value) {
            if let Some(inner) = object.get(key) {
                value = Some(under_envelope(inner));
            }
        }
        let own = value.is_some_and(holds_required);
        let code = match code {
            Some(code) if !own => code,
            _ => {
                let delay = self.delay(&spec().own_retry_after, None, now_ms);
                return self.as_sent(value, delay);
            }
        };
        self.built(code, correlation_id, delay_ms)
    }

    /// A payload the body carries itself (errgen's shape): members that are not the payload's
    /// own wire names dropped, `detail` as the message, a variant code resolved, and
    /// the response's delay when it is retryable and states none.
    fn as_sent(&self, value: Option<&Value>, delay_ms: Option<u64>) -> Value {
        let Some(Value::Object(object)) = value else {
            return value.cloned().unwrap_or(Value::Null);
        };
        let mut payload: Map<String, Value> = object
            .iter()
            .filter(|(key, _)| kept(key))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        if let Some(detail) = object.get("detail").filter(|_| !kept("detail")) {
            if !payload.contains_key(wire::MESSAGE) && payload.contains_key(wire::CODE) {
                payload.insert(wire::MESSAGE.to_owned(), detail.clone());
            }
        }
        if let Some(code) = payload.get(wire::CODE).and_then(Value::as_str) {
            let category = payload.get(wire::CATEGORY).and_then(Value::as_str);
            let scope = payload.get(wire::SCOPE).and_then(Value::as_str);
            let fits = |name: &str| {
                recovery_entry(name).is_some_and(|entry| {
                    Some(entry.category.as_str()) == category
                        && entry.scopes.iter().any(|s| Some(s.as_str()) == scope)
                })
            };
            let resolved = self.registry_code(code, &fits);
            payload.insert(wire::CODE.to_owned(), Value::String(resolved));
        }
        let retryable = payload.get(wire::RETRYABLE) == Some(&Value::Bool(true));
        if retryable && !payload.contains_key(wire::RETRY_AFTER_MS) {
            if let Some(delay) = delay_ms {
                payload.insert(wire::RETRY_AFTER_MS.to_owned(), Value::from(delay));
            }
        }
        Value::Object(payload)
    }

    /// The payload built from a real API's response: the code's registry row, else the status.
    fn built(&self, code: &str, correlation_id: Option<&str>, delay_ms: Option<u64>) -> Value {
        let spec = spec();
        let name = self.registry_code(code, &|_| true);
        let status = i64::from(self.status);
        let (code, category, retryable, scope) = match recovery_entry(&name) {
            Some(entry) => (
                name.as_str(),
                entry.category.as_str(),
                entry.retryable,
                entry.scope.as_str(),
            ),
            None => (
                code,
                "",
                spec.retryable_statuses.contains(&status),
                if spec.service_statuses.contains(&status) {
                    "service"
                } else {
                    "request"
                },
            ),
        };
        let mut payload = Map::new();
        payload.insert(wire::CODE.to_owned(), Value::from(code));
        payload.insert(wire::CATEGORY.to_owned(), Value::from(category));
        payload.insert(wire::RETRYABLE.to_owned(), Value::Bool(retryable));
        payload.insert(wire::SCOPE.to_owned(), Value::from(scope));
        let correlation_id = correlation_id.unwrap_or_default();
        payload.insert(wire::CORRELATION_ID.to_owned(), Value::from(correlation_id));
        let resource = self.first(&spec.resource_id, code_text);
        if resource.is_some() || scope == "resource" {
            let resource = resource.unwrap_or_default();
            payload.insert(wire::RESOURCE_ID.to_owned(), Value::from(resource));
        }
        if let Some(message) = self.first(&spec.message, message_text) {
            payload.insert(wire::MESSAGE.to_owned(), Value::from(message));
        }
        if let (true, Some(delay)) = (retryable, delay_ms) {
            payload.insert(wire::RETRY_AFTER_MS.to_owned(), Value::from(delay));
        }
        Value::Object(payload)
    }
}

/// The payload in the value under the envelope key: for an array envelope (`errors[*]`) the
/// array's first entry holding every required field (the other entries are the API's), else the
/// array itself, read by the registry's sources as any API's body; any other value as is.
fn under_envelope(inner: &Value) -> &Value {
    match inner {
        Value::Array(items) if policy::ENVELOPE_ARRAY => items
            .iter()
            .find(|item| holds_required(item))
            .unwrap_or(inner),
        _ => inner,
    }
}

/// Whether `value` is an object holding every required field's wire name: errgen's own payload.
fn holds_required(value: &Value) -> bool {
    matches!(value, Value::Object(object) if FIELDS.iter().all(|f| !f.required || object.contains_key(f.wire)))
}

/// Whether a body member stays in the payload: only the contract's own fields (an API's other
/// members, and RFC 9457's, stay in the reading's document).
fn kept(key: &str) -> bool {
    FIELDS.iter().any(|f| f.wire == key)
}
