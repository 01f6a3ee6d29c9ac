//! HTTP out (status, `Retry-After` and `retry-after-ms`, optional RFC 9457 problem+json) and in
//! (the raw payload of a response, with a header delay), on plain parts; the `http` feature adds
//! the `http` crate's types.

use serde_json::Value;

use crate::data::policy;
use crate::parts::HttpParts;
use crate::payload::ErrorPayload;
use crate::reading::{now_ms, read_http};
use crate::table::recovery_entry;
use crate::writing::{api_body, enveloped, payload_node, writable, Node};

/// The response a service sends for an error, in the API's own shape: the code's HTTP status
/// (500 for a code this registry does not know), an `application/json` body (under the
/// registry's envelope, if any: `{"errors": [payload]}` for an array one), `x-should-retry` from `retryable`, and `Retry-After` (whole
/// seconds, rounded up) with `retry-after-ms` when the payload (or, if retryable, the registry)
/// gives a delay. A header value is written only when it is 1 to `policy::MAX_HEADER_CHARS`
/// characters of visible ASCII or space (no CR, LF, NUL or non-ASCII: the body still carries
/// the value). [`to_http_problem`] writes the same as RFC 9457 problem+json.
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
    let mut body = Vec::new();
    if problem {
        let code = payload.code.as_str();
        let type_uri = entry.map_or_else(
            || format!("{}{code}", policy::PROBLEM_BASE),
            |e| e.type_uri.to_owned(),
        );
        let title = entry.map_or(code, |e| e.description);
        body.push(("type".to_owned(), Node::Scalar(Value::String(type_uri))));
        body.push(("title".to_owned(), Node::Scalar(Value::from(title))));
        body.push(("status".to_owned(), Node::Scalar(Value::from(status))));
        if let Some(message) = &payload.message {
            body.push((
                "detail".to_owned(),
                Node::Scalar(Value::from(message.as_str())),
            ));
        }
    }
    let fields = payload_node(payload);
    // The payload's own members win over problem members of the same name, in the problem's place.
    match policy::ENVELOPE {
        Some(key) => Node::insert(&mut body, key, enveloped(fields)),
        None => fields
            .into_iter()
            .for_each(|(key, value)| Node::insert(&mut body, &key, value)),
    }
    let body = api_body(payload, body, &mut headers);
    // One rule for every header written, the API's own included: a value that could split the
    // response or be cut by its reader is left out (the body carries it).
    headers.retain(|(_, value)| writable(value));
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

#[cfg(feature = "http")]
mod http_types {
    use super::{from_http, to_http, to_http_problem};
    use crate::parts::HttpParts;
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
