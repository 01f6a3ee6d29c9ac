//! `decide`: the action the registry prescribes for an error, with its delay and the ids and
//! hints an agent carries on. The rule itself is the registry's (rendered into `data.rs`).

use serde_json::Value;

use crate::data::policy;
use crate::decision::Decision;
use crate::payload::ErrorPayload;
use crate::received::Received;

/// The decision for a typed payload, with the policy's default delay bound.
#[must_use]
pub fn decide(payload: &ErrorPayload, attempt: u32, max_attempts: u32) -> Decision {
    decide_with_max_delay(payload, attempt, max_attempts, policy::DEFAULT_MAX_DELAY_MS)
}

/// The decision for a typed payload; a delay longer than `max_delay_ms` escalates.
#[must_use]
pub fn decide_with_max_delay(
    payload: &ErrorPayload,
    attempt: u32,
    max_attempts: u32,
    max_delay_ms: u64,
) -> Decision {
    decide_value(&payload.to_value(), attempt, max_attempts, max_delay_ms)
}

/// The decision for a raw payload as received (any JSON value): an invalid payload escalates,
/// an unknown code follows the registry's rule on its own `retryable` and `scope`.
#[must_use]
pub fn decide_value(raw: &Value, attempt: u32, max_attempts: u32, max_delay_ms: u64) -> Decision {
    Received::of_value(raw).decide(attempt, max_attempts, max_delay_ms)
}

/// [`decide_value`] with full jitter: `draw` gives a number in `[0, 1)` ([`random_draw`], or
/// your own generator) and a backoff becomes `(draw() * backoff) as u64`. The bound is checked
/// first, on the backoff itself, and a delay the payload or the registry names is never drawn.
#[must_use]
pub fn decide_value_with_jitter(
    raw: &Value,
    attempt: u32,
    max_attempts: u32,
    max_delay_ms: u64,
    draw: impl FnOnce() -> f64,
) -> Decision {
    Received::of_value(raw).decide_with_jitter(attempt, max_attempts, max_delay_ms, draw)
}
