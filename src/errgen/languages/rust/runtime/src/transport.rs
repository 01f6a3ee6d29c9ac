//! When no response came (errgen's `docs/conformance.md`, "Transport failures"): what kind of
//! failure an error is ([`failure_of`]: `std::io::Error` kinds, and reqwest's errors with the
//! `reqwest` feature), and what to do about it ([`decide_failure`]).

use std::error::Error;
use std::fmt;
use std::io;

use crate::data::{Action, Reason};
use crate::decision::{timed, Decision};

/// What went wrong when no response came. The first two mean the request never left (safe to
/// send again); the last two that the server may have applied it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Failure {
    /// The connection was refused, or the host could not be resolved or reached.
    Refused,
    /// The TLS handshake failed.
    Tls,
    /// The connection was reset or closed once the request may have been written.
    Reset,
    /// No answer came in time.
    Timeout,
}

impl Failure {
    /// The failure a name stands for (`refused`, `tls`, `reset`, `timeout`); any other name
    /// counts as `reset`, the cautious reading.
    #[must_use]
    pub fn from_name(name: &str) -> Self {
        match name {
            "refused" => Failure::Refused,
            "tls" => Failure::Tls,
            "timeout" => Failure::Timeout,
            _ => Failure::Reset,
        }
    }

    /// The failure's name, as the conformance vectors spell it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Failure::Refused => "refused",
            Failure::Tls => "tls",
            Failure::Reset => "reset",
            Failure::Timeout => "timeout",
        }
    }

    /// Whether the request never left, so sending it again cannot apply it twice.
    #[must_use]
    pub fn not_sent(self) -> bool {
        matches!(self, Failure::Refused | Failure::Tls)
    }

    /// The failure an I/O error kind means: refused for a connection refused or an address not
    /// available, timeout for a timed-out or would-block read, reset for any other.
    #[must_use]
    pub fn of_io_kind(kind: io::ErrorKind) -> Self {
        match kind {
            io::ErrorKind::ConnectionRefused | io::ErrorKind::AddrNotAvailable => Failure::Refused,
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => Failure::Timeout,
            _ => Failure::Reset,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The transport failure an error is, looked for along its chain of sources: a
/// `reqwest::Error` (with the `reqwest` or `reqwest-0-12` feature: `is_connect` refused,
/// `is_timeout` timeout, else reset) or a `std::io::Error` (by its kind,
/// [`Failure::of_io_kind`]); `None` for any other error (a bug, an API error response).
#[must_use]
pub fn failure_of(error: &(dyn Error + 'static)) -> Option<Failure> {
    let mut current = Some(error);
    // A chain longer than this is a loop in a hand-written `source`, not a transport stack.
    for _ in 0..16 {
        let error = current?;
        #[cfg(any(feature = "reqwest", feature = "reqwest-0-12"))]
        if let Some(failure) = reqwest_errors::failure_of_reqwest(error) {
            return Some(failure);
        }
        if let Some(error) = error.downcast_ref::<io::Error>() {
            return Some(Failure::of_io_kind(error.kind()));
        }
        current = error.source();
    }
    None
}

/// reqwest's errors as transport failures, for every release line this build supports.
#[cfg(any(feature = "reqwest", feature = "reqwest-0-12"))]
pub(crate) mod reqwest_errors {
    use std::error::Error;

    use super::Failure;

    /// What a reqwest error says of itself.
    pub(crate) trait Classified {
        fn is_connect(&self) -> bool;
        fn is_timeout(&self) -> bool;
    }

    macro_rules! classified {
        ($krate:ident) => {
            impl Classified for $krate::Error {
                fn is_connect(&self) -> bool {
                    $krate::Error::is_connect(self)
                }

                fn is_timeout(&self) -> bool {
                    $krate::Error::is_timeout(self)
                }
            }
        };
    }

    #[cfg(feature = "reqwest")]
    classified!(reqwest);
    #[cfg(feature = "reqwest-0-12")]
    classified!(reqwest_0_12);

    /// The transport failure of a reqwest error of any supported release line, if `error` is one.
    pub(crate) fn failure_of_reqwest(error: &(dyn Error + 'static)) -> Option<Failure> {
        #[cfg(feature = "reqwest")]
        if let Some(error) = error.downcast_ref::<reqwest::Error>() {
            return Some(classify(error));
        }
        #[cfg(feature = "reqwest-0-12")]
        if let Some(error) = error.downcast_ref::<reqwest_0_12::Error>() {
            return Some(classify(error));
        }
        None
    }

    /// `is_connect` refused (the request never left; a TLS handshake failure is one too),
    /// `is_timeout` timeout, any other reset.
    pub(crate) fn classify(error: &impl Classified) -> Failure {
        if error.is_connect() {
            Failure::Refused
        } else if error.is_timeout() {
            Failure::Timeout
        } else {
            Failure::Reset
        }
    }
}

/// What to do when no response came: `refused` and `tls` (the request never left) are retried;
/// `reset` and `timeout` (the server may have applied it) only when the call is `idempotent`,
/// else escalated with reason `outcome-unknown`. A retry goes through the timing rule of every
/// decision (the last attempt escalates, the backoff for `attempt`, `max_delay_ms`), with
/// reason `transport-failure`.
#[must_use]
pub fn decide_failure(
    failure: Failure,
    idempotent: bool,
    attempt: u32,
    max_attempts: u32,
    max_delay_ms: u64,
) -> Decision {
    drawn::<fn() -> f64>(
        failure,
        idempotent,
        (attempt, max_attempts, max_delay_ms),
        None,
    )
}

/// [`decide_failure`] with full jitter on the backoff: `draw` gives a number in `[0, 1)`
/// ([`random_draw`](crate::random_draw), or your own generator).
#[must_use]
pub fn decide_failure_with_jitter(
    failure: Failure,
    idempotent: bool,
    attempt: u32,
    max_attempts: u32,
    max_delay_ms: u64,
    draw: impl FnOnce() -> f64,
) -> Decision {
    drawn(
        failure,
        idempotent,
        (attempt, max_attempts, max_delay_ms),
        Some(draw),
    )
}

fn drawn<F: FnOnce() -> f64>(
    failure: Failure,
    idempotent: bool,
    limits: (u32, u32, u64),
    draw: Option<F>,
) -> Decision {
    if !failure.not_sent() && !idempotent {
        return Decision::bare(Action::Escalate, Reason::OutcomeUnknown, None, None);
    }
    let (action, reason, delay) =
        timed(Action::Retry, Reason::TransportFailure, limits, None, draw);
    Decision::bare(action, reason, delay, None)
}
