//! Calling again the way the registry prescribes: [`retry`] for async code (any runtime: the
//! caller passes its sleep) and [`retry_blocking`] for threads. Each error goes through
//! [`decide_response`] (a transport failure through [`decide_failure`]); a timed action (retry,
//! pause) waits the decided delay and calls again, anything else, and the last attempt, returns
//! the error. An observer ([`RetryPolicy::on_attempt`]) and, with the `tracing` feature,
//! `tracing` events see every failed attempt.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use crate::data::policy;
use crate::decide::{decide_response, decide_response_with_jitter};
use crate::decision::{is_timed, random_draw, Decision};
use crate::response_error::ResponseError;
use crate::transport::{decide_failure, decide_failure_with_jitter, Failure};

/// The limits of [`retry`] and [`retry_blocking`], and who watches them;
/// `RetryPolicy::default()` is the registry's, with no observer.
#[derive(Clone)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Calls in all, the first included ([`policy::DEFAULT_MAX_ATTEMPTS`]).
    pub max_attempts: u32,
    /// A decided delay longer than this escalates instead ([`policy::DEFAULT_MAX_DELAY_MS`]).
    pub max_delay: Duration,
    /// Whether a backoff (never a delay the response or the registry names) is spread by full
    /// jitter, so many clients do not call again in step. Off by default.
    pub jitter: bool,
    /// Whether the call may be sent twice without harm (a GET, or a request carrying an
    /// idempotency key): then a connection reset or a timeout, after which the server may have
    /// applied the request, is retried too. Off by default: only failures before the request
    /// left (refused, TLS) are.
    pub idempotent: bool,
    observer: Option<Arc<Observer>>,
}

type Observer = dyn Fn(&Attempt<'_>) + Send + Sync;

impl fmt::Debug for RetryPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RetryPolicy")
            .field("max_attempts", &self.max_attempts)
            .field("max_delay", &self.max_delay)
            .field("jitter", &self.jitter)
            .field("idempotent", &self.idempotent)
            .field("observed", &self.observer.is_some())
            .finish()
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: policy::DEFAULT_MAX_ATTEMPTS,
            max_delay: Duration::from_millis(policy::DEFAULT_MAX_DELAY_MS),
            jitter: false,
            idempotent: false,
            observer: None,
        }
    }
}

/// One failed attempt, as an observer ([`RetryPolicy::on_attempt`]) sees it: the decision taken
/// about it and whether the helper calls again.
#[derive(Debug)]
#[non_exhaustive]
pub struct Attempt<'a> {
    /// Which call failed, 1 for the first.
    pub attempt: u32,
    /// What was decided about the failure.
    pub decision: &'a Decision,
    /// How long the helper waits before calling again; `None` when it returns the error.
    pub wait: Option<Duration>,
    /// The HTTP status, when the failure is an API error response.
    pub status: Option<u16>,
    /// The transport failure, when no response came.
    pub failure: Option<Failure>,
    /// OpenTelemetry's `error.type`: the error's code when the response carried one, else the
    /// transport failure's name (`reset`), else the HTTP status (`502`).
    pub error_type: String,
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

    /// This policy with backoffs spread by full jitter (or not).
    #[must_use]
    pub fn with_jitter(mut self, jitter: bool) -> Self {
        self.jitter = jitter;
        self
    }

    /// This policy for a call that may be sent twice without harm (or not): see
    /// [`RetryPolicy::idempotent`].
    #[must_use]
    pub fn with_idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent = idempotent;
        self
    }

    /// This policy with `observe` called after every failed attempt, with the decision taken
    /// about it (for metrics, logs or a span's `error.type`); it replaces any earlier observer.
    /// With the `tracing` feature the helpers also emit a `tracing` event per failed attempt.
    #[must_use]
    pub fn on_attempt(mut self, observe: impl Fn(&Attempt<'_>) + Send + Sync + 'static) -> Self {
        self.observer = Some(Arc::new(observe));
        self
    }

    /// How long to wait before calling again after `error` at `attempt` (1 for the first call),
    /// or `None` when the decision is anything but a timed action (retry, pause): stop, fix,
    /// skip, escalate, or the attempts or the delay bound are exhausted.
    #[must_use]
    pub fn wait(&self, error: &ResponseError, attempt: u32) -> Option<Duration> {
        wait_of(&self.decide_response(error, attempt))
    }

    fn max_delay_ms(&self) -> u64 {
        u64::try_from(self.max_delay.as_millis()).unwrap_or(u64::MAX)
    }

    fn decide_response(&self, error: &ResponseError, attempt: u32) -> Decision {
        let (reading, max_delay_ms) = (error.reading(), self.max_delay_ms());
        if self.jitter {
            decide_response_with_jitter(
                reading,
                attempt,
                self.max_attempts,
                max_delay_ms,
                random_draw,
            )
        } else {
            decide_response(reading, attempt, self.max_attempts, max_delay_ms)
        }
    }

    fn decide_failure(&self, failure: Failure, attempt: u32) -> Decision {
        let (idempotent, max_delay_ms) = (self.idempotent, self.max_delay_ms());
        if self.jitter {
            let max = self.max_attempts;
            decide_failure_with_jitter(failure, idempotent, attempt, max, max_delay_ms, random_draw)
        } else {
            decide_failure(
                failure,
                idempotent,
                attempt,
                self.max_attempts,
                max_delay_ms,
            )
        }
    }

    /// The wait before the next call after `error`, telling the observer; `None`: return it.
    fn next_wait<E: AsResponseError>(&self, error: &E, attempt: u32) -> Option<Duration> {
        let (decision, status, failure) = if let Some(response) = error.as_response_error() {
            (
                self.decide_response(response, attempt),
                Some(response.status()),
                None,
            )
        } else {
            let failure = error.transport_failure()?;
            (self.decide_failure(failure, attempt), None, Some(failure))
        };
        let wait = wait_of(&decision);
        let error_type = match (&decision.code, failure, status) {
            (Some(code), _, _) => code.as_str().to_owned(),
            (None, Some(failure), _) => failure.as_str().to_owned(),
            (None, None, status) => status.map_or_else(String::new, |s| s.to_string()),
        };
        let seen = Attempt {
            attempt,
            decision: &decision,
            wait,
            status,
            failure,
            error_type,
        };
        #[cfg(feature = "tracing")]
        trace(&seen);
        if let Some(observe) = &self.observer {
            observe(&seen);
        }
        wait
    }
}

/// The decided delay of a timed action (retry, pause); `None` for any other.
fn wait_of(decision: &Decision) -> Option<Duration> {
    if is_timed(&decision.action) {
        decision.delay()
    } else {
        None
    }
}

/// A failed attempt as a `tracing` event (`info` when calling again, `warn` when giving up), and,
/// when giving up, `error.type` recorded on the current span (a span that declares the field, as
/// OpenTelemetry bridges do, gets it; any other ignores it). An attempt that is called again
/// leaves the span alone: OpenTelemetry sets `error.type` only on an operation that failed, and
/// the call may yet succeed.
#[cfg(feature = "tracing")]
fn trace(seen: &Attempt<'_>) {
    if seen.wait.is_none() {
        tracing::Span::current().record("error.type", seen.error_type.as_str());
    }
    let delay_ms = seen.wait.map(|wait| wait.as_millis());
    let (action, reason) = (seen.decision.action.as_str(), seen.decision.reason.as_str());
    if seen.wait.is_some() {
        tracing::info!(error.type = seen.error_type.as_str(), attempt = seen.attempt, action, reason,
            delay_ms, "calling again as the error's decision says");
    } else {
        tracing::warn!(error.type = seen.error_type.as_str(), attempt = seen.attempt, action, reason,
            "not calling again: returning the error");
    }
}

/// An error [`retry`] can decide about: the SDK's [`ResponseError`], a transport error
/// (`std::io::Error`, and `ReqwestError` with the `reqwest` feature), or a caller's own error
/// type that may wrap either (any other error is returned at once, never retried).
pub trait AsResponseError {
    /// The API's error response this error is, if it is one.
    fn as_response_error(&self) -> Option<&ResponseError>;

    /// The transport failure this error is, if no response came ([`failure_of`] finds it in
    /// an error's chain of sources); `None` by default.
    ///
    /// [`failure_of`]: crate::failure_of
    fn transport_failure(&self) -> Option<Failure> {
        None
    }
}

impl AsResponseError for ResponseError {
    fn as_response_error(&self) -> Option<&ResponseError> {
        Some(self)
    }
}

impl AsResponseError for std::io::Error {
    fn as_response_error(&self) -> Option<&ResponseError> {
        None
    }

    fn transport_failure(&self) -> Option<Failure> {
        Some(Failure::of_io_kind(self.kind()))
    }
}

/// `call()`'s value, calling again after each error whose decision is to wait (retry, pause;
/// a transport failure as [`decide_failure`] decides it, with [`RetryPolicy::idempotent`]):
/// `sleep(delay).await` waits, so any runtime works (`tokio::time::sleep`,
/// `async_std::task::sleep`, a test's recorder). `call` is called at most
/// `policy.max_attempts` times.
///
/// # Errors
///
/// The last error `call` returned: one that is neither an API error response nor a transport
/// failure, one whose decision is not to call again, or the last attempt's.
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
        let Some(delay) = policy.next_wait(&error, attempt) else {
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
        let Some(delay) = policy.next_wait(&error, attempt) else {
            return Err(error);
        };
        sleep(delay);
        attempt += 1;
    }
}
