//! HTTP out (status, `Retry-After` and `retry-after-ms`, optional RFC 9457 problem+json) and in
//! (the raw payload of a response, with a header delay), on plain parts; the `http` feature adds
//! the `http` crate's types.

use serde_json::{Map, Value};

use crate::data::{policy, wire};
use crate::payload::ErrorPayload;
use crate::reading::{api_writes, now_ms, read_http, wire_code, xml_format, Step, Target};
use crate::table::recovery_entry;

const DAY_NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTH_NAMES: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// An HTTP response as plain parts: status, header pairs in order, body bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpParts {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpParts {
    /// The first value of a header, by case-insensitive name.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The response a service sends for an error, in the API's own shape: the code's HTTP status
/// (500 for a code this registry does not know), an `application/json` body (under the
/// registry's envelope, if any), `x-should-retry` from `retryable`, and `Retry-After` (whole
/// seconds, rounded up) with `retry-after-ms` when the payload (or, if retryable, the registry)
/// gives a delay. [`to_http_problem`] writes the same as RFC 9457 problem+json.
#[must_use]
pub fn to_http(payload: &ErrorPayload) -> HttpParts {
    response(payload, false)
}

/// [`to_http`] with an RFC 9457 `application/problem+json` body: `type` (the code's type URI),
/// `title`, `status` and `detail` (the message), the payload's fields as extension members.
#[must_use]
pub fn to_http_problem(payload: &ErrorPayload) -> HttpParts {
    response(payload, true)
}

fn response(payload: &ErrorPayload, problem: bool) -> HttpParts {
    let entry = recovery_entry(payload.code.as_str());
    let status = entry.map_or(500, |e| e.http_status);
    let content_type = if problem {
        "application/problem+json"
    } else {
        "application/json"
    };
    // x-should-retry: for clients that never read the body (the official API SDKs' retry policy).
    let mut headers = vec![
        ("Content-Type".to_owned(), content_type.to_owned()),
        ("x-should-retry".to_owned(), payload.retryable.to_string()),
    ];
    let registry_delay = entry
        .filter(|_| payload.retryable)
        .and_then(|e| e.retry_after_ms);
    if let Some(delay) = payload.retry_after_ms.or(registry_delay) {
        let delay = delay.min(policy::MAX_DELAY_VALUE_MS);
        headers.push(("Retry-After".to_owned(), delay.div_ceil(1000).to_string()));
        headers.push(("retry-after-ms".to_owned(), delay.to_string()));
    }
    let fields = payload.to_value();
    let mut body = Map::new();
    if problem {
        let code = payload.code.as_str();
        let type_uri = entry.map_or_else(
            || format!("{}{code}", policy::PROBLEM_BASE),
            |e| e.type_uri.to_owned(),
        );
        body.insert("type".to_owned(), Value::String(type_uri));
        let title = entry.map_or(code, |e| e.description);
        body.insert("title".to_owned(), Value::String(title.to_owned()));
        body.insert("status".to_owned(), Value::from(status));
        if let Some(message) = &payload.message {
            body.insert("detail".to_owned(), Value::String(message.clone()));
        }
    }
    match (policy::ENVELOPE, fields) {
        (Some(key), fields) => {
            body.insert(key.to_owned(), fields);
        }
        (None, Value::Object(fields)) => body.extend(fields),
        (None, _) => {}
    }
    let document = api_shape(payload, body, &mut headers);
    let body = if xml_format() {
        headers
            .iter_mut()
            .filter(|(name, _)| name == "Content-Type")
            .for_each(|header| header.1 = "application/xml".to_owned());
        to_xml(&document).into_bytes()
    } else {
        serde_json::to_vec(&document).unwrap_or_default()
    };
    HttpParts {
        status,
        headers,
        body,
    }
}

/// The raw payload of an HTTP response, for `parse_value`, `validate` or `decide_value`:
/// [`read_http`]'s `payload`, or `null` when the response is not an error. errgen's own payload
/// (plain JSON or problem+json) comes back as sent, a retryable one without a delay taking it
/// from `retry-after-ms`, else `Retry-After` (delta-seconds or an IMF-fixdate, measured from
/// `now_ms`); a real API's response comes back as the payload the registry's `wire.response`
/// builds from it; a body that cannot be read comes back as its text (which every verdict rejects).
#[must_use]
pub fn from_http(response: &HttpParts, now_ms: u64) -> Value {
    read_http(response, now_ms).payload.unwrap_or(Value::Null)
}

/// [`from_http`] measured from the system clock.
#[must_use]
pub fn from_http_now(response: &HttpParts) -> Value {
    from_http(response, now_ms())
}

/// What the API itself sends: a code that shares its wire code with others goes out as that
/// wire code, with the headers its `when` conditions test; the code and the correlation id also
/// go in the header where the API's response puts them first.
fn api_shape(
    payload: &ErrorPayload,
    mut body: Map<String, Value>,
    headers: &mut Vec<(String, String)>,
) -> Value {
    let code = payload.code.as_str();
    let mut sent = code;
    if let Some((wire_code, _)) = wire_code(code) {
        sent = wire_code;
        let inner = match policy::ENVELOPE {
            Some(key) => body.get_mut(key).and_then(Value::as_object_mut),
            None => Some(&mut body),
        };
        if let Some(inner) = inner {
            inner.insert(wire::CODE.to_owned(), Value::from(sent));
        }
    }
    let facts = [
        payload.message.as_deref(),
        Some(payload.correlation_id.as_str()),
        payload.resource_id.as_deref(),
    ];
    let mut document = if xml_format() {
        Value::Object(Map::new())
    } else {
        Value::Object(body)
    };
    for (target, value) in api_writes(code, sent, facts) {
        match (target, value) {
            (Target::Header(name), Value::String(text)) => set_header(headers, name, &text),
            (Target::Header(_), _) => {}
            (Target::Body(path), value) => document = put(document, path, value),
        }
    }
    document
}

/// `node` with `value` at `path`: objects and arrays made on the way (an array padded with empty
/// objects, `[*]` as index 0), a value in the way replaced; a new key goes last.
fn put(node: Value, path: &[Step], value: Value) -> Value {
    let Some((step, rest)) = path.split_first() else {
        return value;
    };
    match step {
        Step::Key(key) => {
            let mut object = match node {
                Value::Object(object) => object,
                _ => Map::new(),
            };
            // An existing key keeps its place; a new one goes last.
            if let Some(slot) = object.get_mut(key) {
                let inner = std::mem::take(slot);
                *slot = put(inner, rest, value);
            } else {
                let placed = put(Value::Null, rest, value);
                object.insert(key.clone(), placed);
            }
            Value::Object(object)
        }
        Step::Index(index) => {
            let index = usize::try_from(*index).unwrap_or(0);
            let mut items = match node {
                Value::Array(items) => items,
                _ => Vec::new(),
            };
            while items.len() <= index {
                items.push(Value::Object(Map::new()));
            }
            let inner = std::mem::take(&mut items[index]);
            items[index] = put(inner, rest, value);
            Value::Array(items)
        }
    }
}

/// The document's first member as the root element, or "" when it has none.
fn to_xml(document: &Value) -> String {
    let Some((name, value)) = document.as_object().and_then(|o| o.iter().next()) else {
        return String::new();
    };
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    element(&mut out, name, value);
    out
}

/// Strings only: an XML reader reads every value as text.
fn element(out: &mut String, name: &str, value: &Value) {
    if name.is_empty() || name.chars().any(|c| " \t\r\n/>=<\"'&!?".contains(c)) {
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|item| element(out, name, item)),
        Value::Object(members) => {
            out.push_str(&format!("<{name}>"));
            members
                .iter()
                .for_each(|(key, item)| element(out, key, item));
            out.push_str(&format!("</{name}>"));
        }
        Value::String(text) => {
            out.push_str(&format!("<{name}>"));
            for c in text.chars() {
                match c {
                    '&' => out.push_str("&amp;"),
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    '\0' => out.push('\u{fffd}'),
                    c if u32::from(c) < 0x20 => out.push_str(&format!("&#{};", u32::from(c))),
                    c => out.push(c),
                }
            }
            out.push_str(&format!("</{name}>"));
        }
        _ => {}
    }
}

fn set_header(headers: &mut Vec<(String, String)>, name: &str, value: &str) {
    match headers.iter_mut().find(|(n, _)| n == name) {
        Some(header) => header.1 = value.to_owned(),
        None => headers.push((name.to_owned(), value.to_owned())),
    }
}

/// Milliseconds since the epoch of an RFC 9110 IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
pub(crate) fn imf_fixdate_ms(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() != 29 || &b[3..5] != b", " || b[7] != b' ' || b[11] != b' ' || b[16] != b' ' {
        return None;
    }
    if b[19] != b':' || b[22] != b':' || &b[25..] != b" GMT" {
        return None;
    }
    if !DAY_NAMES.iter().any(|d| d.as_bytes() == &b[..3]) {
        return None;
    }
    let month = MONTH_NAMES.iter().position(|m| m.as_bytes() == &b[8..11])? + 1;
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = &b[range];
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let (day, year) = (number(5..7)?, number(12..16)?);
    let (hour, minute, second) = (number(17..19)?, number(20..22)?, number(23..25)?);
    let month = i64::try_from(month).ok()?;
    // Years 0000-9999 all exist (proleptic Gregorian); second 60, a leap second, is the next minute's 0.
    if day < 1 || day > days_in_month(year, month) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(feature = "http")]
mod http_types {
    use super::{from_http, to_http, to_http_problem, HttpParts};
    use crate::payload::ErrorPayload;
    use crate::reading::{read_http, HttpReading};

    impl From<HttpParts> for http::Response<Vec<u8>> {
        fn from(parts: HttpParts) -> Self {
            let mut response = http::Response::new(parts.body);
            *response.status_mut() = http::StatusCode::from_u16(parts.status)
                .unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
            for (name, value) in parts.headers {
                if let (Ok(name), Ok(value)) = (
                    http::header::HeaderName::try_from(name),
                    http::header::HeaderValue::try_from(value),
                ) {
                    response.headers_mut().append(name, value);
                }
            }
            response
        }
    }

    /// [`to_http`] as an `http::Response`.
    #[must_use]
    pub fn to_http_response(payload: &ErrorPayload) -> http::Response<Vec<u8>> {
        to_http(payload).into()
    }

    /// [`to_http_problem`] as an `http::Response`.
    #[must_use]
    pub fn to_http_problem_response(payload: &ErrorPayload) -> http::Response<Vec<u8>> {
        to_http_problem(payload).into()
    }

    /// [`from_http`] on an `http::Response`.
    #[must_use]
    pub fn from_http_response<B: AsRef<[u8]>>(
        response: &http::Response<B>,
        now_ms: u64,
    ) -> serde_json::Value {
        from_http(&parts(response), now_ms)
    }

    /// [`read_http`](crate::read_http) on an `http::Response`.
    #[must_use]
    pub fn read_http_response<B: AsRef<[u8]>>(
        response: &http::Response<B>,
        now_ms: u64,
    ) -> HttpReading {
        read_http(&parts(response), now_ms)
    }

    /// Plain parts; a header whose value is not text is skipped (errgen's `docs/conformance.md`).
    fn parts<B: AsRef<[u8]>>(response: &http::Response<B>) -> HttpParts {
        let headers = response
            .headers()
            .iter()
            .filter_map(|(name, value)| {
                Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
            })
            .collect();
        HttpParts {
            status: response.status().as_u16(),
            headers,
            body: response.body().as_ref().to_vec(),
        }
    }
}

#[cfg(feature = "http")]
pub use http_types::{
    from_http_response, read_http_response, to_http_problem_response, to_http_response,
};
