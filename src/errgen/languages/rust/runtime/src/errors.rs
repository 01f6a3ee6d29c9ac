//! The payload as a Rust error, and `new_error` for services.

use std::fmt;

use serde_json::Value;

use crate::data::{problem, Code};
use crate::decide::decide;
use crate::decision::Decision;
use crate::payload::ErrorPayload;
use crate::payload_error::{PayloadError, Problem};
use crate::table::recovery_entry;
use crate::validate::problems;

impl ErrorPayload {
    /// The payload as JSON with the registry's wire names.
    #[must_use]
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// [`ErrorPayload::retry_after_ms`] as a duration.
    #[must_use]
    pub fn retry_after(&self) -> Option<std::time::Duration> {
        self.retry_after_ms.map(std::time::Duration::from_millis)
    }

    /// What a caller does about this error ([`decide`](crate::decide), with the policy's
    /// default delay bound).
    #[must_use]
    pub fn decide(&self, attempt: u32, max_attempts: u32) -> Decision {
        decide(self, attempt, max_attempts)
    }

    /// Whether this registry knows the payload's code and category (else: a newer server).
    #[must_use]
    pub fn is_known(&self) -> bool {
        self.code.is_known() && self.category.is_known()
    }

    pub(crate) fn deserialize_value(raw: &Value) -> Result<Self, serde_json::Error> {
        <crate::payload::Unchecked as serde::Deserialize>::deserialize(raw).map(ErrorPayload::from)
    }
}

impl fmt::Display for ErrorPayload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, scope {})", self.code, self.category, self.scope)?;
        if let Some(message) = &self.message {
            write!(f, ": {message}")?;
        }
        write!(f, " [correlation id {}]", self.correlation_id)
    }
}

impl std::error::Error for ErrorPayload {}

/// A payload for `code` with category, retryable and default scope from the registry, so a
/// service cannot emit a contradictory one.
///
/// # Errors
///
/// [`PayloadError`] (`unknown-code`) when the code is not in the registry.
pub fn new_error(
    code: Code,
    correlation_id: impl Into<String>,
) -> Result<ErrorPayload, PayloadError> {
    new_error_with(code, correlation_id, |_| {})
}

/// [`new_error`], with `fill` setting the scope, resource id, message, delay or hints; the result
/// must pass the strict contract (`validate`).
///
/// # Errors
///
/// [`PayloadError`] listing every problem when the code is not in the registry or the filled
/// payload breaks the strict contract.
// The code is taken as written (`Code::RateLimited`), as `new_error` takes it.
#[allow(clippy::needless_pass_by_value)]
pub fn new_error_with(
    code: Code,
    correlation_id: impl Into<String>,
    fill: impl FnOnce(&mut ErrorPayload),
) -> Result<ErrorPayload, PayloadError> {
    let Some(entry) = recovery_entry(code.as_str()) else {
        let message = format!("code {:?} is not in the registry", code.as_str());
        return Err(PayloadError {
            problems: vec![Problem {
                id: problem::UNKNOWN_CODE,
                message,
            }],
        });
    };
    let mut payload = ErrorPayload::new(
        entry.code.clone(),
        entry.category.clone(),
        entry.retryable,
        entry.scope.clone(),
        correlation_id.into(),
    );
    fill(&mut payload);
    let found = problems(&payload.to_value());
    if found.is_empty() {
        Ok(payload)
    } else {
        Err(PayloadError { problems: found })
    }
}
