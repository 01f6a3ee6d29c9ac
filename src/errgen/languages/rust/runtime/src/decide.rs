//! `decide`: the action the registry prescribes for an error, with its delay and the ids and
//! hints an agent carries on. The rule itself is the registry's (rendered into `data.rs`).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::data::{policy, wire, Action, Code, Reason, Scope, TIMED_ACTIONS, UNKNOWN_CODE_RULE};
use crate::json::integral;
use crate::payload::ErrorPayload;
use crate::table::{category_entry, recovery_entry};
use crate::validate::{envelope_problems, problems};

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
    decide_drawn(raw, attempt, max_attempts, max_delay_ms, None)
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
    decide_drawn(
        raw,
        attempt,
        max_attempts,
        max_delay_ms,
        Some(Box::new(draw)),
    )
}

/// A uniform draw in `[0, 1)` from the OS-seeded hasher (std has no random numbers).
#[must_use]
pub fn random_draw() -> f64 {
    let bits = RandomState::new().build_hasher().finish() >> 11;
    bits as f64 / (1u64 << 53) as f64
}

type Draw<'a> = Option<Box<dyn FnOnce() -> f64 + 'a>>;

fn decide_drawn(
    raw: &Value,
    attempt: u32,
    max_attempts: u32,
    max_delay_ms: u64,
    draw: Draw<'_>,
) -> Decision {
    let object = match raw.as_object() {
        Some(object) if envelope_problems(raw).is_empty() => object,
        _ => return invalid(raw),
    };
    let retryable = object.get(wire::RETRYABLE) == Some(&Value::Bool(true));
    if !retryable && object.contains_key(wire::RETRY_AFTER_MS) {
        return filled(object, Action::Escalate, Reason::InvalidPayload, None);
    }
    let code = object
        .get(wire::CODE)
        .and_then(Value::as_str)
        .unwrap_or_default();
    let category = object
        .get(wire::CATEGORY)
        .and_then(Value::as_str)
        .unwrap_or_default();
    let scope = Scope::from_wire(
        object
            .get(wire::SCOPE)
            .and_then(Value::as_str)
            .unwrap_or_default(),
    );
    let (action, reason, registry_delay) = match recovery_entry(code) {
        Some(entry) if category_entry(category).is_some() => {
            if !problems(raw).is_empty() {
                return filled(object, Action::Escalate, Reason::ContradictsRegistry, None);
            }
            let action = entry
                .action_for(&scope)
                .cloned()
                .unwrap_or(Action::Escalate);
            (action, Reason::Registry, entry.retry_after_ms)
        }
        _ => (
            unknown_code_action(retryable, &scope),
            Reason::UnknownCode,
            None,
        ),
    };
    let Some(timed) = TIMED_ACTIONS.iter().find(|timed| timed.action == action) else {
        return filled(object, action, reason, None);
    };
    if attempt >= max_attempts {
        let last = timed.exhausted.clone();
        return filled(object, last, Reason::AttemptsExhausted, None);
    }
    let payload_delay = object
        .get(wire::RETRY_AFTER_MS)
        .and_then(|v| integral(v, 0, policy::MAX_DELAY_VALUE_MS));
    let named = payload_delay.or(registry_delay);
    let delay = named.unwrap_or_else(|| backoff_ms(attempt));
    if delay > max_delay_ms {
        return filled(object, Action::Escalate, Reason::DelayExceedsMax, None);
    }
    let delay = match draw {
        Some(draw) if named.is_none() => (draw() * delay as f64) as u64,
        _ => delay,
    };
    filled(object, action, reason, Some(delay))
}

/// The registry's rule for a code this SDK does not know (no chosen action).
fn unknown_code_action(retryable: bool, scope: &Scope) -> Action {
    UNKNOWN_CODE_RULE
        .iter()
        .find(|row| row.retryable == retryable && row.scope == *scope)
        .map_or(Action::Escalate, |row| row.action.clone())
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

fn invalid(raw: &Value) -> Decision {
    let correlation_id = raw
        .as_object()
        .and_then(|o| o.get(wire::CORRELATION_ID))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Decision {
        action: Action::Escalate,
        reason: Reason::InvalidPayload,
        code: None,
        delay_ms: None,
        correlation_id,
        resource_id: None,
        did_you_mean: Vec::new(),
        accepted: Vec::new(),
        searched: Map::new(),
    }
}

fn filled(
    object: &Map<String, Value>,
    action: Action,
    reason: Reason,
    delay_ms: Option<u64>,
) -> Decision {
    let text = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_owned);
    let list = |key: &str| -> Vec<String> {
        object
            .get(key)
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    Decision {
        action,
        reason,
        code: text(wire::CODE).map(|c| Code::from_wire(&c)),
        delay_ms,
        correlation_id: text(wire::CORRELATION_ID),
        resource_id: text(wire::RESOURCE_ID),
        did_you_mean: list(wire::DID_YOU_MEAN),
        accepted: list(wire::ACCEPTED),
        searched: object
            .get(wire::SEARCHED)
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
    }
}
