//! What a decision is: the action, the delay before it and the ids and hints an agent carries
//! on, and the backoff a delay falls back to ([`backoff_ms`], [`full_jitter`]). `decide` and
//! `receive` both make one.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::data::{policy, Action, Code, Reason, TIMED_ACTIONS};

/// What to do about one error. `reason` says which rule decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Decision {
    /// What to do: retry, pause, skip, fix, stop or escalate.
    pub action: Action,
    /// Which rule decided the action.
    pub reason: Reason,
    /// The payload's code; `None` when no payload was read, or it broke the contract's envelope.
    pub code: Option<Code>,
    /// The code as the API sends it: read with [`Decision::wire_code`]. Private so it always
    /// agrees with `code` (only this crate makes a decision).
    pub(crate) wire_code: Option<String>,
    /// How long to wait before acting, for `retry` and `pause`.
    pub delay_ms: Option<u64>,
    /// The id a human can trace the error by: pass it on with every escalation.
    pub correlation_id: Option<String>,
    /// The resource that failed, for a `skip`.
    pub resource_id: Option<String>,
    /// The payload's near-miss suggestions for the next call (empty without them).
    pub did_you_mean: Vec<String>,
    /// The payload's values that would have been accepted (empty without them).
    pub accepted: Vec<String>,
    /// The parameters the server resolved, as the payload says (empty without them).
    pub searched: Map<String, Value>,
}

impl Decision {
    /// [`Decision::delay_ms`] as a duration.
    #[must_use]
    pub fn delay(&self) -> Option<std::time::Duration> {
        self.delay_ms.map(std::time::Duration::from_millis)
    }

    /// The code as the API sends it: for a known code its registry row's wire code (the
    /// `rate_limit_exceeded` of `OpenAI`'s `rate_limit_exceeded-tokens` variant), else the code
    /// itself; a response's decision ([`decide_response`](crate::decide_response)) gives the
    /// code as read (`08006`, which the registry code of `wire_prefix: "08"` matched); `None`
    /// when `code` is `None`.
    #[must_use]
    pub fn wire_code(&self) -> Option<&str> {
        self.wire_code.as_deref()
    }
}

/// A uniform draw in `[0, 1)` from the OS-seeded hasher (std has no random numbers).
#[must_use]
#[allow(clippy::cast_precision_loss)] // 53 bits and 2^53: both exact in an f64
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

/// Whether `action` waits a delay before acting (retry, pause).
pub(crate) fn is_timed(action: &Action) -> bool {
    TIMED_ACTIONS.iter().any(|timed| timed.action == *action)
}

/// The timing rule every decision of a timed action (retry, pause) goes through, the payload's,
/// a status fallback's and a transport failure's alike: the last attempt gives the action's
/// exhausted form; the delay is `named`, else the backoff for `attempt`; a delay past
/// `max_delay_ms` escalates (checked before any draw, so escalating never depends on chance);
/// then `draw` spreads a backoff, never a named delay. Any other action passes unchanged.
// A drawn fraction of a backoff (at most BACKOFF_MAX_MS, far below 2^53) is a whole ms >= 0.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
pub(crate) fn timed<F: FnOnce() -> f64>(
    action: Action,
    reason: Reason,
    limits: (u32, u32, u64),
    named: Option<u64>,
    draw: Option<F>,
) -> (Action, Reason, Option<u64>) {
    let (attempt, max_attempts, max_delay_ms) = limits;
    let Some(timed) = TIMED_ACTIONS.iter().find(|timed| timed.action == action) else {
        return (action, reason, None);
    };
    if attempt >= max_attempts {
        return (timed.exhausted.clone(), Reason::AttemptsExhausted, None);
    }
    let delay = named.unwrap_or_else(|| backoff_ms(attempt));
    if delay > max_delay_ms {
        return (Action::Escalate, Reason::DelayExceedsMax, None);
    }
    let delay = match draw {
        Some(draw) if named.is_none() => (draw() * delay as f64) as u64,
        _ => delay,
    };
    (action, reason, Some(delay))
}

impl Decision {
    /// A decision that carries no payload's facts: a status fallback's or a transport failure's.
    pub(crate) fn bare(
        action: Action,
        reason: Reason,
        delay_ms: Option<u64>,
        correlation_id: Option<String>,
    ) -> Self {
        Decision {
            action,
            reason,
            code: None,
            wire_code: None,
            delay_ms,
            correlation_id,
            resource_id: None,
            did_you_mean: Vec::new(),
            accepted: Vec::new(),
            searched: Map::new(),
        }
    }
}
