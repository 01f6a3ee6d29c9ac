//! `decide`: the action the registry prescribes for an error, with its delay and the ids and
//! hints an agent carries on, for a payload and for a whole response ([`decide_response`]: a
//! response without a payload decides by its status). The rule itself is the registry's
//! (rendered into `data.rs`).

use serde_json::Value;

use crate::data::{policy, Action, Reason};
use crate::decision::{is_timed, timed, Decision};
use crate::payload::ErrorPayload;
use crate::reading::HttpReading;
use crate::received::Received;
use crate::response_spec::spec;

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

/// [`decide_value`] with full jitter: `draw` gives a number in `[0, 1)`
/// ([`random_draw`](crate::random_draw), or your own generator) and a backoff becomes
/// `(draw() * backoff) as u64`. The bound is checked first, on the backoff itself, and a delay
/// the payload or the registry names is never drawn.
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

/// How a response without a readable code is decided by its status, as the official API
/// clients do: the registry's `wire.statuses` over errgen's defaults (429 and 503 pause, other
/// 5xx retry, 401 and 403 stop, 404 and 410 skip, other 4xx fix, 3xx escalate; errgen's
/// `docs/conformance.md`). A status outside 100..=599 escalates.
#[must_use]
pub fn status_action(status: u16) -> Action {
    if !(100..=599).contains(&status) {
        return Action::Escalate;
    }
    let actions = &spec().status_actions;
    actions
        .get(&status.to_string())
        .or_else(|| actions.get(&format!("{}xx", status / 100)))
        .map_or(Action::Escalate, |action| Action::from_wire(action))
}

/// What to do about a response ([`read_http`](crate::read_http)'s reading): a body that carries
/// the API's error shape is decided as [`decide_value`] decides its payload (one breaking the
/// contract escalates); a response with no payload at all (a proxy's HTML 502, a gateway's bare
/// 429, an empty 503) by its status ([`status_action`]), with reason `status-fallback`,
/// honouring its `Retry-After` (a 403 naming a wait is a rate limit: pause). A response that is
/// not an error decides as its payload, `null` (escalate, `invalid-payload`).
#[must_use]
pub fn decide_response(
    reading: &HttpReading,
    attempt: u32,
    max_attempts: u32,
    max_delay_ms: u64,
) -> Decision {
    drawn::<fn() -> f64>(reading, (attempt, max_attempts, max_delay_ms), None)
}

/// [`decide_response`] with full jitter on a backoff, as [`decide_value_with_jitter`].
#[must_use]
pub fn decide_response_with_jitter(
    reading: &HttpReading,
    attempt: u32,
    max_attempts: u32,
    max_delay_ms: u64,
    draw: impl FnOnce() -> f64,
) -> Decision {
    drawn(reading, (attempt, max_attempts, max_delay_ms), Some(draw))
}

fn drawn<F: FnOnce() -> f64>(
    reading: &HttpReading,
    limits: (u32, u32, u64),
    draw: Option<F>,
) -> Decision {
    let (attempt, max_attempts, max_delay_ms) = limits;
    if !reading.error || reading.claimed {
        let raw = reading.payload.as_ref().unwrap_or(&Value::Null);
        let received = Received::of_value(raw);
        let mut decided = match draw {
            Some(draw) => received.decide_with_jitter(attempt, max_attempts, max_delay_ms, draw),
            None => received.decide(attempt, max_attempts, max_delay_ms),
        };
        // The code as the API sent it: 08006 for the registry code its prefix 08 matched.
        if let (Some(_), Some(sent)) = (&decided.code, &reading.code) {
            decided.wire_code = Some(sent.clone());
        }
        return decided;
    }
    let mut action = status_action(reading.status);
    let delay = reading.fallback_delay_ms;
    let paused = spec()
        .paused_with_delay
        .contains(&i64::from(reading.status));
    if delay.is_some() && paused && !is_timed(&action) {
        action = Action::Pause; // a 403 naming a wait is a rate limit (GitHub's secondary limits)
    }
    let (action, reason, delay_ms) = timed(action, Reason::StatusFallback, limits, delay, draw);
    Decision::bare(action, reason, delay_ms, reading.correlation_id.clone())
}
