//! Calling again the way the registry prescribes: [`retry`] for async code (any runtime: the
//! caller passes its sleep) and [`retry_blocking`] for threads. Each error goes through
//! [`decide`](crate::decide); a timed action (retry, pause) waits the decided delay and calls
//! again, anything else, and the last attempt, returns the error.

use std::future::Future;
use std::time::Duration;

use crate::data::{policy, TIMED_ACTIONS};
use crate::decision::full_jitter;
use crate::reading::ResponseError;
use crate::table::recovery_entry;

/// The limits of [`retry`] and [`retry_blocking`]; `RetryPolicy::default()` is the registry's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Calls in all, the first included ([`policy::DEFAULT_MAX_ATTEMPTS`]).
    pub max_attempts: u32,
    /// A decided delay longer than this escalates instead ([`policy::DEFAULT_MAX_DELAY_MS`]).
    pub max_delay: Duration,
    /// Whether a backoff (never a delay the response or the registry names) is spread by
    /// [`full_jitter`], so many clients do not call again in step. Off by default.
    pub jitter: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: policy::DEFAULT_MAX_ATTEMPTS,
            max_delay: Duration::from_millis(policy::DEFAULT_MAX_DELAY_MS),
            jitter: false,
        }
    }
}

impl RetryPolicy {
    /// This policy with `max_attempts` calls in all.
    #[must_use]
    pub fn with_max_attempts(mut self, max_attempts: u32) -> Self {
        self.max_attempts = max_attempts;
        self
    }

    /// This policy with a longest acceptable delay of `max_delay`.
    #[must_use]
    pub fn with_max_delay(mut self, max_delay: Duration) -> Self {
        self.max_delay = max_delay;
        self
    }

    /// This policy with backoffs spread by [`full_jitter`] (or not).
    #[must_use]
    pub fn with_jitter(mut self, jitter: bool) -> Self {
        self.jitter = jitter;
        self
    }

    /// How long to wait before calling again after `error` at `attempt` (1 for the first call),
    /// or `None` when the decision is anything but a timed action (retry, pause): stop, fix,
    /// skip, escalate, or the attempts or the delay bound are exhausted.
    #[must_use]
    pub fn wait(&self, error: &ResponseError, attempt: u32) -> Option<Duration> {
        let max_delay_ms = u64::try_from(self.max_delay.as_millis()).unwrap_or(u64::MAX);
        let decision = error.decide_with_max_delay(attempt, self.max_attempts, max_delay_ms);
        if !TIMED_ACTIONS
            .iter()
            .any(|timed| timed.action == decision.action)
        {
            return None;
        }
        let delay = decision.delay_ms?;
        // A delay the payload or its registry row names is waited as named; only a backoff is spread.
        let named = error.payload().is_some_and(|payload| {
            payload.retry_after_ms.is_some()
                || (payload.is_known()
                    && recovery_entry(payload.code.as_str())
                        .is_some_and(|e| e.retry_after_ms.is_some()))
        });
        let delay = if self.jitter && !named {
            full_jitter(delay)
        } else {
            delay
        };
        Some(Duration::from_millis(delay))
    }
}

/// An error [`retry`] can decide about: the SDK's [`ResponseError`], or a caller's own error
/// type that may wrap one (a transport error returns `None` and is never retried).
pub trait AsResponseError {
    /// The API's error response this error is, if it is one.
    fn as_response_error(&self) -> Option<&ResponseError>;
}

impl AsResponseError for ResponseError {
    fn as_response_error(&self) -> Option<&ResponseError> {
        Some(self)
    }
}

/// `call()`'s value, calling again after each error whose decision is to wait (retry, pause):
/// `sleep(delay).await` waits, so any runtime works (`tokio::time::sleep`,
/// `async_std::task::sleep`, a test's recorder). `call` is called at most
/// `policy.max_attempts` times.
///
/// # Errors
///
/// The last error `call` returned: one that is not an API error response, one whose decision
/// is not to call again, or the last attempt's.
pub async fn retry<T, E, F, Fut, S, Wait>(
    policy: &RetryPolicy,
    mut call: F,
    mut sleep: S,
) -> Result<T, E>
where
    E: AsResponseError,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
    S: FnMut(Duration) -> Wait,
    Wait: Future<Output = ()>,
{
    let mut attempt = 1;
    loop {
        let error = match call().await {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        let Some(delay) = next_wait(policy, &error, attempt) else {
            return Err(error);
        };
        sleep(delay).await;
        attempt += 1;
    }
}

/// [`retry`] for blocking code: `sleep(delay)` waits (`std::thread::sleep`, or a test's recorder).
///
/// # Errors
///
/// The last error `call` returned, as for [`retry`].
pub fn retry_blocking<T, E, F, S>(policy: &RetryPolicy, mut call: F, mut sleep: S) -> Result<T, E>
where
    E: AsResponseError,
    F: FnMut() -> Result<T, E>,
    S: FnMut(Duration),
{
    let mut attempt = 1;
    loop {
        let error = match call() {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        let Some(delay) = next_wait(policy, &error, attempt) else {
            return Err(error);
        };
        sleep(delay);
        attempt += 1;
    }
}

fn next_wait<E: AsResponseError>(
    policy: &RetryPolicy,
    error: &E,
    attempt: u32,
) -> Option<Duration> {
    policy.wait(error.as_response_error()?, attempt)
}
