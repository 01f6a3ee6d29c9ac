//! One reason the contract rejects a payload ([`Problem`]), and all of them as an error
//! ([`PayloadError`]): what `validate`, `parse` and `receive` report.

use std::fmt;

/// One reason the contract rejects a payload: a stable id (`wrong-type`, `unknown-code`, ...) and
/// a message for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The stable id: one of the [`problem`](crate::problem) constants.
    pub id: &'static str,
    /// What is wrong, for people (never a branch condition).
    pub message: String,
}

impl Problem {
    pub(crate) fn new(id: &'static str, message: String) -> Self {
        Problem { id, message }
    }
}

/// A payload the contract rejects, with every problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadError {
    /// Every problem found, at least one.
    pub problems: Vec<Problem>,
}

impl fmt::Display for PayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let messages: Vec<&str> = self.problems.iter().map(|p| p.message.as_str()).collect();
        f.write_str(&messages.join("; "))
    }
}

impl std::error::Error for PayloadError {}
