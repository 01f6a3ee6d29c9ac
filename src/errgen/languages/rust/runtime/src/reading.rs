//! Reading a real API's error response (errgen's `docs/conformance.md`, "Reading a real
//! response"): where the registry's `wire.response` says each fact is, in a JSON or flat-XML body
//! or a header. Nothing here panics or spins on what a server sends: every parse is bounded by
//! the policy's reading limits.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::data::{policy, wire, Category, Code, FIELDS, RESPONSE_SPEC};
use crate::decision::{is_timed, Decision};
use crate::json::{out_of_range, read_json};
use crate::parts::{imf_fixdate_ms, HttpParts};
use crate::payload::ErrorPayload;
use crate::payload_error::PayloadError;
use crate::table::recovery_entry;
use crate::validate::parse_value;

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
    /// The response's header pairs, as given: what a caught [`ResponseError`] carries.
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

    /// The response as a Rust result: `Ok(())` when it is not an error, so a client can write
    /// `read_http(&response, now_ms).check()?`.
    ///
    /// # Errors
    ///
    /// A [`ResponseError`] when the response is an error: its status, headers and reading,
    /// with the typed payload when the body carries one (read tolerantly: a newer server's code
    /// is kept), else why it is none.
    pub fn check(&self) -> Result<(), ResponseError> {
        if !self.error {
            return Ok(());
        }
        let raw = self.payload.as_ref().unwrap_or(&Value::Null);
        Err(ResponseError(Box::new(Caught {
            payload: parse_value(raw),
            reading: self.clone(),
        })))
    }
}

/// An HTTP error response as a Rust error ([`HttpReading::check`]): the status, the headers, the
/// reading, and the typed payload when the body carries one. It decides as
/// [`decide_response`](crate::decide_response) does, so a proxy's codeless 502 or a bare 429 is
/// retried like the API's own errors. Small (one pointer), for `Result<T, ResponseError>`.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseError(Box<Caught>);

#[derive(Debug, Clone, PartialEq)]
struct Caught {
    reading: HttpReading,
    payload: Result<ErrorPayload, PayloadError>,
}

impl ResponseError {
    /// The error of a 503 response whose body is `raw`, read as errgen's payload.
    #[cfg(test)]
    pub(crate) fn of_payload(raw: &Value) -> Self {
        let reading = HttpReading {
            error: true,
            payload: Some(raw.clone()),
            code: None,
            correlation_id: None,
            delay_ms: None,
            document: Some(raw.clone()),
            status: 503,
            headers: Vec::new(),
            claimed: true,
            fallback_delay_ms: None,
        };
        let Err(error) = reading.check() else {
            unreachable!("an error reading")
        };
        error
    }

    /// The HTTP status of the response.
    #[must_use]
    pub fn status(&self) -> u16 {
        self.0.reading.status
    }

    /// The response's header pairs, in order.
    #[must_use]
    pub fn headers(&self) -> &[(String, String)] {
        &self.0.reading.headers
    }

    /// The first value of a header, by case-insensitive name.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.0.reading.headers, name)
    }

    /// What [`read_http`] found: the code, request id and delay as read, and the whole body.
    #[must_use]
    pub fn reading(&self) -> &HttpReading {
        &self.0.reading
    }

    /// The payload, when the response carried a valid one (see [`ErrorPayload::is_known`] for
    /// a newer server's code).
    #[must_use]
    pub fn payload(&self) -> Option<&ErrorPayload> {
        self.0.payload.as_ref().ok()
    }

    /// Why the body is not a payload (it breaks the contract, or the response has none, such as
    /// a proxy's HTML page); `None` when it is one.
    #[must_use]
    pub fn payload_error(&self) -> Option<&PayloadError> {
        self.0.payload.as_ref().err()
    }

    /// The raw payload as read ([`HttpReading::payload`]): for a body that is not one, its text.
    #[must_use]
    pub fn raw(&self) -> &Value {
        self.0.reading.payload.as_ref().unwrap_or(&Value::Null)
    }

    /// The error's code, when the response carried a valid payload.
    #[must_use]
    pub fn code(&self) -> Option<&Code> {
        self.payload().map(|payload| &payload.code)
    }

    /// The error's category, when the response carried a valid payload.
    #[must_use]
    pub fn category(&self) -> Option<&Category> {
        self.payload().map(|payload| &payload.category)
    }

    /// Whether the identical call may succeed later: the payload's `retryable`; for a response
    /// without one, whether its status is retried ([`status_action`](crate::status_action));
    /// a body breaking the contract: never.
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        match (&self.0.payload, self.0.reading.claimed) {
            (Ok(payload), _) => payload.retryable,
            (Err(_), false) => is_timed(&crate::status_action(self.status())),
            (Err(_), true) => false,
        }
    }

    /// What to do about it ([`decide_response`](crate::decide_response)), with the policy's
    /// default delay bound: an invalid payload escalates, a response without one decides by
    /// its status.
    #[must_use]
    pub fn decide(&self, attempt: u32, max_attempts: u32) -> Decision {
        self.decide_with_max_delay(attempt, max_attempts, policy::DEFAULT_MAX_DELAY_MS)
    }

    /// [`ResponseError::decide`]; a delay longer than `max_delay_ms` escalates.
    #[must_use]
    pub fn decide_with_max_delay(
        &self,
        attempt: u32,
        max_attempts: u32,
        max_delay_ms: u64,
    ) -> Decision {
        crate::decide_response(&self.0.reading, attempt, max_attempts, max_delay_ms)
    }
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HTTP {}: ", self.status())?;
        match (&self.0.payload, self.0.reading.claimed) {
            (Ok(payload), _) => payload.fmt(f),
            (Err(error), true) => write!(f, "invalid error payload: {error}"),
            (Err(_), false) => f.write_str("no error payload in the body"),
        }
    }
}

impl std::error::Error for ResponseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.payload {
            Ok(payload) => Some(payload),
            Err(error) => Some(error),
        }
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
    let delay_ms = facts.delay(&spec.retry_after, now_ms);
    let error = status >= 300 || spec.error_when.iter().any(|c| facts.holds(c));
    let claimed = code.is_some() || (!xml && claims(found));
    let fallback_delay_ms = match delay_ms {
        None if error && !claimed => facts.delay(&spec.own_retry_after, now_ms),
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

// ---- the registry's response spec -----------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Spec {
    format: String,
    error_when: Vec<Condition>,
    code: Vec<Source>,
    message: Vec<Source>,
    correlation_id: Vec<Source>,
    resource_id: Vec<Source>,
    retry_after: Vec<DelaySource>,
    own_retry_after: Vec<DelaySource>,
    variants: BTreeMap<String, Vec<(String, Vec<Condition>)>>,
    retryable_statuses: Vec<i64>,
    service_statuses: Vec<i64>,
    #[serde(default = "default_status_actions")]
    pub(crate) status_actions: BTreeMap<String, String>,
    #[serde(default = "default_paused_with_delay")]
    pub(crate) paused_with_delay: Vec<i64>,
}

/// errgen's defaults for `status_actions`, as the contract view writes them when the registry
/// overrides none (the view always writes the merged map; this reads an older one the same).
fn default_status_actions() -> BTreeMap<String, String> {
    [
        ("401", "stop"),
        ("403", "stop"),
        ("404", "skip"),
        ("408", "retry"),
        ("410", "skip"),
        ("425", "retry"),
        ("429", "pause"),
        ("503", "pause"),
        ("3xx", "escalate"),
        ("4xx", "fix"),
        ("5xx", "retry"),
    ]
    .into_iter()
    .map(|(key, action)| (key.to_owned(), action.to_owned()))
    .collect()
}

fn default_paused_with_delay() -> Vec<i64> {
    vec![403]
}

#[derive(Debug, Deserialize)]
#[serde(tag = "in", rename_all = "lowercase")]
enum Source {
    Header { name: String },
    Body { path: Vec<Step> },
    Status,
}

/// A body path step: a key, an index, or `-1` for every element (`[*]`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum Step {
    Key(String),
    Index(i64),
}

#[derive(Debug, Deserialize)]
struct Condition {
    #[serde(default)]
    at: Option<Source>,
    #[serde(default, deserialize_with = "present")]
    equals: Option<Value>,
    #[serde(default)]
    status: Option<Vec<i64>>,
}

#[derive(Debug, Deserialize)]
struct DelaySource {
    at: Source,
    unit: Unit,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Ms,
    Seconds,
    Http,
    EpochSeconds,
    Duration,
}

/// `equals: null` is a condition on null, not an absent one.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

pub(crate) fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    // The text is rendered by errgen from the contract view; an unreadable one reads nothing.
    SPEC.get_or_init(|| serde_json::from_str(RESPONSE_SPEC).unwrap_or_default())
}

/// Whether the registry reads a code from the status line (GitHub REST, Shopify): then every
/// error response has a code, even one whose body cannot be read.
#[cfg(test)]
pub(crate) fn code_from_status() -> bool {
    spec()
        .code
        .iter()
        .any(|source| matches!(source, Source::Status))
}

/// The wire code a registry code is sent as when several codes share one, and its conditions.
pub(crate) fn wire_code(code: &str) -> Option<(&'static str, Vec<(&'static str, &'static str)>)> {
    spec().variants.iter().find_map(|(sent, rows)| {
        let (_, conditions) = rows.iter().find(|(name, _)| name == code)?;
        let headers = conditions
            .iter()
            .filter_map(|c| match (&c.at, &c.equals) {
                (Some(Source::Header { name }), Some(Value::String(wanted))) => {
                    Some((name.as_str(), wanted.as_str()))
                }
                _ => None,
            })
            .collect();
        Some((sent.as_str(), headers))
    })
}

/// Where a write of [`api_writes`] goes: a header (by name) or a body path.
pub(crate) enum Target {
    Header(&'static str),
    Body(&'static [Step]),
}

/// The writes of the API's own shape (docs/conformance.md, "Writing in the API's own shape"), in
/// the order they apply: each fact (code as sent, message, correlation id, resource id) that is
/// a string at its first body then first header source, then every `equals` condition of
/// `error_when` and of the code's own variant entry.
pub(crate) fn api_writes(code: &str, sent: &str, facts: [Option<&str>; 3]) -> Vec<(Target, Value)> {
    let spec = spec();
    let mut out = Vec::new();
    let sources = [
        &spec.code,
        &spec.message,
        &spec.correlation_id,
        &spec.resource_id,
    ];
    let values = [Some(sent), facts[0], facts[1], facts[2]];
    for (list, value) in sources.into_iter().zip(values) {
        let Some(value) = value else { continue };
        if let Some(path) = list.iter().find_map(|s| match s {
            Source::Body { path } => Some(path.as_slice()),
            _ => None,
        }) {
            out.push((Target::Body(path), Value::from(value)));
        }
        if let Some(name) = list.iter().find_map(|s| match s {
            Source::Header { name } => Some(name.as_str()),
            _ => None,
        }) {
            out.push((Target::Header(name), Value::from(value)));
        }
    }
    let variant = spec
        .variants
        .get(sent)
        .into_iter()
        .flatten()
        .filter(|(name, _)| name == code)
        .flat_map(|(_, conditions)| conditions);
    for condition in spec.error_when.iter().chain(variant) {
        match (&condition.at, &condition.equals) {
            (Some(Source::Header { name }), Some(value)) => {
                out.push((Target::Header(name), value.clone()));
            }
            (Some(Source::Body { path }), Some(value)) => {
                out.push((Target::Body(path), value.clone()));
            }
            _ => {}
        }
    }
    out
}

/// Whether the registry's API answers in XML (`wire.format: xml`).
pub(crate) fn xml_format() -> bool {
    spec().format == "xml"
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

/// A code or request id: a non-empty string, or a whole JSON number as its decimal text.
/// The code text of `value` when this registry knows it: a registry code or a wire code
/// several codes send (a key of `variants`).
fn known_code(value: &Value) -> Option<String> {
    code_text(value)
        .filter(|code| spec().variants.contains_key(code) || recovery_entry(code).is_some())
}

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

    /// The registry code of a wire code several codes send (`wire_code`/`when`): the first whose
    /// conditions hold, else the first; among those that `fits` (a payload's own category and
    /// scope) when any does. Any other code is itself.
    fn registry_code(&self, code: &str, fits: &dyn Fn(&str) -> bool) -> String {
        let Some(rows) = spec().variants.get(code).filter(|rows| !rows.is_empty()) else {
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

    fn delay(&self, entries: &[DelaySource], now_ms: u64) -> Option<u64> {
        entries
            .iter()
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
                value = Some(inner);
            }
        }
        let own = matches!(value, Some(Value::Object(object)) if FIELDS.iter().all(|f| !f.required || object.contains_key(f.wire)));
        let code = match code {
            Some(code) if !own => code,
            _ => {
                let delay = self.delay(&spec().own_retry_after, now_ms);
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

/// Whether a body member stays in the payload: only the contract's own fields (an API's other
/// members, and RFC 9457's, stay in the reading's document).
fn kept(key: &str) -> bool {
    FIELDS.iter().any(|f| f.wire == key)
}

// ---- delays -----------------------------------------------------------------------------------------

const MAX: u64 = policy::MAX_DELAY_VALUE_MS;

fn digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// ASCII digits times `factor`, saturated; any number of digits in linear time.
fn saturated(digits: &str, factor: u64) -> u64 {
    let significant = digits.trim_start_matches('0');
    if significant.len() > 16 {
        return MAX;
    }
    let value = significant
        .bytes()
        .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    value.saturating_mul(factor).min(MAX)
}

/// ASCII digits, or a whole JSON number >= 0 (not one out of range), times `factor`, saturated.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
fn scaled(value: &Value, factor: u64) -> Option<u64> {
    match value {
        Value::String(text) => digits(text).then(|| saturated(text, factor)),
        Value::Number(number) => {
            if let Some(n) = number.as_u64() {
                return Some(n.min(MAX).saturating_mul(factor).min(MAX));
            }
            let f = number
                .as_f64()
                .filter(|f| !number.is_i64() && !out_of_range(*f))?;
            if f < 0.0 || f.fract() != 0.0 {
                return None;
            }
            if f > MAX as f64 {
                return Some(MAX);
            }
            // A whole number within 2^53 - 1: the cast is exact.
            Some((f as u64).saturating_mul(factor).min(MAX))
        }
        _ => None,
    }
}

/// `0.<fraction>` of `factor` ms, rounded up to a whole ms (exact: no binary floating point).
fn fraction_ms(fraction: &str, factor: u64) -> u64 {
    let scale = 10u64.pow(u32::try_from(fraction.len()).unwrap_or(9));
    saturated(fraction, 1)
        .saturating_mul(factor)
        .div_ceil(scale)
}

/// `[0-9]+.[0-9]{1,9}`: the whole and fraction digits of a decimal.
fn decimal(text: &str) -> Option<(&str, &str)> {
    let (whole, fraction) = text.split_once('.')?;
    (digits(whole) && digits(fraction) && fraction.len() <= 9).then_some((whole, fraction))
}

/// Seconds as sent (`7`, `2.128` from Microsoft Graph, Discord's JSON `64.57`) in ms, rounded
/// up, saturated. A JSON fraction is first rounded to the microsecond, so that 64.57, which
/// binary floating point holds as 64.5699..., is 64,570 ms in every SDK.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
pub(crate) fn seconds_ms(value: &Value) -> Option<u64> {
    if let Some((whole, fraction)) = value.as_str().and_then(decimal) {
        return Some(
            saturated(whole, 1000)
                .saturating_add(fraction_ms(fraction, 1000))
                .min(MAX),
        );
    }
    if let Value::Number(number) = value {
        let f = number.as_f64().filter(|f| !out_of_range(*f));
        if let Some(f) = f.filter(|f| f.fract() != 0.0 && *f >= 0.0 && f.is_finite()) {
            if f * 1000.0 > MAX as f64 {
                return Some(MAX);
            }
            // Within 2^53 ms, so the microseconds fit a u64 and the cast is exact.
            let micro = (f * 1_000_000.0 + 0.5).floor() as u64;
            return Some(micro.div_ceil(1000).min(MAX));
        }
    }
    scaled(value, 1000)
}

/// `30s`, `1.5s`, `6m0s`, `20ms`: the sum of its parts, each rounded up to whole milliseconds.
fn duration_ms(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    let (mut at, mut total) = (0, 0u64);
    if b.is_empty() {
        return None;
    }
    while at < b.len() {
        let start = at;
        while at < b.len() && b[at].is_ascii_digit() {
            at += 1;
        }
        let whole = &text[start..at];
        if whole.is_empty() {
            return None;
        }
        let mut fraction = "";
        if b.get(at) == Some(&b'.') {
            let from = at + 1;
            at = from;
            while at < b.len() && b[at].is_ascii_digit() {
                at += 1;
            }
            fraction = &text[from..at];
            if fraction.is_empty() || fraction.len() > 9 {
                return None;
            }
        }
        let (factor, width) = match (b.get(at), b.get(at + 1)) {
            (Some(b'm'), Some(b's')) => (1, 2),
            (Some(b'h'), _) => (3_600_000, 1),
            (Some(b'm'), _) => (60_000, 1),
            (Some(b's'), _) => (1000, 1),
            _ => return None,
        };
        at += width;
        let mut part = saturated(whole, factor);
        if !fraction.is_empty() {
            part = part.saturating_add(fraction_ms(fraction, factor));
        }
        total = total.saturating_add(part).min(MAX);
    }
    Some(total)
}

fn since(when_ms: i128, now_ms: u64) -> u64 {
    let delay = (when_ms - i128::from(now_ms)).clamp(0, i128::from(MAX));
    u64::try_from(delay).unwrap_or(MAX)
}

/// How a delay source's value becomes milliseconds, by its unit.
fn delay_of(unit: Unit, value: &Value, now_ms: u64) -> Option<u64> {
    match unit {
        Unit::Ms => scaled(value, 1),
        Unit::Seconds => seconds_ms(value),
        Unit::EpochSeconds => scaled(value, 1000).map(|when| since(i128::from(when), now_ms)),
        Unit::Duration => duration_ms(value.as_str()?),
        Unit::Http => match (seconds_ms(value), value) {
            (Some(seconds), _) => Some(seconds),
            (None, Value::String(text)) => {
                imf_fixdate_ms(text).map(|when| since(i128::from(when), now_ms))
            }
            _ => None,
        },
    }
}

// ---- flat XML ---------------------------------------------------------------------------------------

/// An element being read: its name, its children so far, its raw text so far.
struct Open<'a> {
    name: &'a str,
    children: Map<String, Value>,
    text: String,
}

impl Open<'_> {
    /// The object of its children, else its decoded text; `None` for a bad `&`.
    fn value(self) -> Option<Value> {
        if self.children.is_empty() {
            decode(&self.text).map(Value::String)
        } else {
            Some(Value::Object(self.children))
        }
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn skip_space(b: &[u8], mut at: usize) -> usize {
    while at < b.len() && is_space(b[at]) {
        at += 1;
    }
    at
}

/// A name at `at`: one or more characters other than white space and `/ > = < " ' & ! ?`.
fn name_at(text: &str, at: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    let mut end = at;
    while end < b.len() && !is_space(b[end]) && !b"/>=<\"'&!?".contains(&b[end]) {
        end += 1;
    }
    (end > at).then(|| (&text[at..end], end))
}

/// A start tag's name, the index after it, and whether it is empty (`<a/>`); attributes ignored.
fn start_tag(text: &str, at: usize) -> Option<(&str, usize, bool)> {
    let b = text.as_bytes();
    let (name, mut at) = name_at(text, at)?;
    loop {
        let before = at;
        at = skip_space(b, at);
        match (b.get(at), b.get(at + 1)) {
            (Some(b'>'), _) => return Some((name, at + 1, false)),
            (Some(b'/'), Some(b'>')) => return Some((name, at + 2, true)),
            _ if at == before => return None,
            _ => {}
        }
        let (_, after) = name_at(text, at)?;
        at = skip_space(b, after);
        if b.get(at) != Some(&b'=') {
            return None;
        }
        at = skip_space(b, at + 1);
        let quote = *b.get(at).filter(|q| matches!(q, b'"' | b'\''))?;
        let length = b[at + 1..].iter().position(|&c| c == quote || c == b'<')?;
        at += 1 + length;
        if b[at] != quote {
            return None;
        }
        at += 1;
    }
}

/// Text with `&lt; &gt; &amp; &quot; &apos;`, `&#N;` and `&#xH;` decoded; `None` for any other `&`.
fn decode(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let named = [
            ("lt;", '<'),
            ("gt;", '>'),
            ("amp;", '&'),
            ("quot;", '"'),
            ("apos;", '\''),
        ]
        .into_iter()
        .find(|(name, _)| after.starts_with(name));
        if let Some((name, ch)) = named {
            out.push(ch);
            rest = &after[name.len()..];
            continue;
        }
        let (digits, radix, most) = match after.strip_prefix("#x") {
            Some(hex) => (hex, 16, 6),
            None => (after.strip_prefix('#')?, 10, 7),
        };
        let length = digits
            .bytes()
            .take_while(|b| {
                if radix == 16 {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        if length == 0 || length > most || digits.as_bytes().get(length) != Some(&b';') {
            return None;
        }
        let point = u32::from_str_radix(&digits[..length], radix).ok()?;
        out.push(char::from_u32(point).filter(|&c| c != '\0')?);
        rest = &digits[length + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// `{root: value}` for one XML element by the flat grammar of errgen's `docs/conformance.md`;
/// `None` for anything else, and for any DOCTYPE, CDATA or entity declaration (no XXE). One pass,
/// with a stack at most `MAX_XML_DEPTH` deep.
pub(crate) fn read_xml(text: &str) -> Option<Value> {
    let depth = usize::try_from(policy::MAX_XML_DEPTH).unwrap_or(usize::MAX);
    let b = text.as_bytes();
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut root: Option<(&str, Value)> = None;
    let mut at = 0;
    while at < b.len() {
        if b[at] != b'<' {
            let end = b[at..]
                .iter()
                .position(|&c| c == b'<')
                .map_or(b.len(), |p| at + p);
            match stack.last_mut() {
                Some(open) => open.text.push_str(&text[at..end]),
                None if b[at..end].iter().all(|&c| is_space(c)) => {}
                None => return None, // text outside the root element
            }
            at = end;
            continue;
        }
        let rest = &text[at..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            at += 4 + comment.find("-->")? + 3;
            continue;
        }
        if let Some(instruction) = rest.strip_prefix("<?") {
            at += 2 + instruction.find("?>")? + 2;
            continue;
        }
        let (name, value) = if b.get(at + 1) == Some(&b'/') {
            let (name, end) = name_at(text, at + 2)?;
            let end = skip_space(b, end);
            if b.get(end) != Some(&b'>') {
                return None;
            }
            at = end + 1;
            let open = stack.pop().filter(|open| open.name == name)?;
            (name, open.value()?)
        } else {
            let (name, end, empty) = start_tag(text, at + 1)?;
            at = end;
            if root.is_some() || stack.len() >= depth {
                return None; // a second root, or too deep
            }
            if !empty {
                stack.push(Open {
                    name,
                    children: Map::new(),
                    text: String::new(),
                });
                continue;
            }
            (name, Value::String(String::new()))
        };
        match stack.last_mut() {
            Some(parent) => {
                parent.children.entry(name).or_insert(value);
            }
            None => root = Some((name, value)),
        }
    }
    let (name, value) = root.filter(|_| stack.is_empty())?;
    let mut document = Map::new();
    document.insert(name.to_owned(), value);
    Some(Value::Object(document))
}
