//! The strict verdict (`validate`, the JSON Schema's) and the tolerant one (`parse`), on a raw
//! JSON value as received. Field names, kinds and bounds come from the registry's field specs.

use serde_json::Value;

use crate::data::{policy, problem, wire, Verdict};
use crate::json::read_json;
use crate::payload::ErrorPayload;
use crate::payload_error::{PayloadError, Problem};
use crate::received::Received;

/// Every reason the strict contract rejects `raw` (empty: valid), as `errgen validate` and the
/// JSON Schema see it. Registry checks run only on a well-formed envelope.
#[must_use]
pub fn problems(raw: &Value) -> Vec<Problem> {
    Received::of_value(raw).into_problems()
}

/// The tolerant verdict: `Invalid` on envelope problems, `Unknown` for a newer server's code or
/// category, else `Known` (contradictions with the registry show in `problems` and `decide`).
#[must_use]
pub fn verdict(raw: &Value) -> Verdict {
    Received::of_value(raw).verdict()
}

/// Tolerant parsing of a raw payload (a client): an unknown code or category is kept (see
/// [`ErrorPayload::is_known`]), never an error; a payload that breaks the envelope is.
///
/// # Errors
///
/// [`PayloadError`] with the envelope's problems (not an object, a missing field, a wrong type,
/// a delay on a payload that is not retryable).
pub fn parse_value(raw: &Value) -> Result<ErrorPayload, PayloadError> {
    let received = Received::of_value(raw);
    if !received.envelope_holds() {
        return Err(PayloadError {
            problems: received.into_problems(),
        });
    }
    if received.delay_without_retry() {
        let message = format!(
            "a payload that is not retryable has no {}",
            wire::RETRY_AFTER_MS
        );
        return Err(PayloadError {
            problems: vec![Problem::new(problem::RETRY_AFTER_NOT_RETRYABLE, message)],
        });
    }
    typed(raw)
}

/// Tolerant parsing of bytes: JSON text (at most `policy::MAX_JSON_DEPTH` deep), then
/// [`parse_value`]. Never panics, whatever the bytes.
///
/// # Errors
///
/// [`PayloadError`] when the bytes are not JSON (`not-an-object`), or as [`parse_value`].
pub fn parse(bytes: &[u8]) -> Result<ErrorPayload, PayloadError> {
    match read_json(bytes) {
        Some(raw) => parse_value(&raw),
        None => Err(PayloadError {
            problems: vec![Problem::new(
                problem::NOT_AN_OBJECT,
                format!(
                    "payload is not JSON (or nests deeper than {})",
                    policy::MAX_JSON_DEPTH
                ),
            )],
        }),
    }
}

/// Strict validation (a service, before sending): unknown codes, contradictions with the
/// registry and extra fields are all errors.
///
/// # Errors
///
/// [`PayloadError`] listing every problem the strict contract finds.
pub fn validate(raw: &Value) -> Result<ErrorPayload, PayloadError> {
    let found = problems(raw);
    if !found.is_empty() {
        return Err(PayloadError { problems: found });
    }
    typed(raw)
}

fn typed(raw: &Value) -> Result<ErrorPayload, PayloadError> {
    ErrorPayload::deserialize_value(raw).map_err(|e| PayloadError {
        problems: vec![Problem::new(problem::WRONG_TYPE, e.to_string())],
    })
}
