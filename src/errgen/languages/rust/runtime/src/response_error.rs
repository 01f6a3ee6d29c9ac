//! An HTTP error response as a Rust error ([`ResponseError`]), made by [`HttpReading::check`]
//! from a reading: the status, headers and reading, the typed payload or why there is none, and
//! the decision about it (as `decide_response` makes it).

use std::fmt;

use serde_json::Value;

use crate::data::{policy, Category, Code};
use crate::decide::{decide_response, status_action};
use crate::decision::{is_timed, Decision};
use crate::payload::ErrorPayload;
use crate::payload_error::PayloadError;
use crate::reading::{header, HttpReading};
use crate::validate::parse_value;

impl HttpReading {
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

    /// What [`read_http`](crate::read_http) found: the code, request id and delay as read, and the whole body.
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
            (Err(_), false) => is_timed(&status_action(self.status())),
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
        decide_response(&self.0.reading, attempt, max_attempts, max_delay_ms)
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
