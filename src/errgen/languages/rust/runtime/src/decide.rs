//! `decide`: the action the registry prescribes for an error, with its delay and the ids and
//! hints an agent carries on. The rule itself is the registry's (rendered into `data.rs`).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::data::{policy, Action, Code, Reason};
use crate::payload::ErrorPayload;
use crate::received::Received;

/// What to do about one error. `reason` says which rule decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Decision {
    pub action: Action,
    pub reason: Reason,
    pub code: Option<Code>,
    /// How long to wait before acting, for `retry` and `pause`.
    pub delay_ms: Option<u64>,
    pub correlation_id: Option<String>,
    pub resource_id: Option<String>,
    pub did_you_mean: Vec<String>,
    pub accepted: Vec<String>,
    pub searched: Map<String, Value>,
}

impl Decision {
    /// [`Decision::delay_ms`] as a duration.
    #[must_use]
    pub fn delay(&self) -> Option<std::time::Duration> {
        self.delay_ms.map(std::time::Duration::from_millis)
    }
}

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

/// A uniform draw in `[0, 1)` from the OS-seeded hasher (std has no random numbers).
#[must_use]
pub fn random_draw() -> f64 {
    let bits = RandomState::new().build_hasher().finish() >> 11;
    bits as f64 / (1u64 << 53) as f64
}

/// `min(base * 2^e, max)` with `e = min(max(attempt - 1, 0), max exponent)`: no jitter, so a
/// decision is reproducible; apply [`full_jitter`] before sleeping.
#[must_use]
pub fn backoff_ms(attempt: u32) -> u64 {
    let exponent = attempt.saturating_sub(1).min(policy::BACKOFF_MAX_EXPONENT);
    policy::BACKOFF_BASE_MS
        .saturating_mul(1u64 << exponent)
        .min(policy::BACKOFF_MAX_MS)
}

/// A uniform draw in `[0, delay_ms)` ("full jitter"), so many clients do not retry in step.
#[must_use]
pub fn full_jitter(delay_ms: u64) -> u64 {
    if delay_ms == 0 {
        return 0;
    }
    // std has no random numbers; a fresh RandomState is seeded from the OS.
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(delay_ms);
    hasher.finish() % delay_ms
}
