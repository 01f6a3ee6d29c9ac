//! The error contract of one errgen registry, typed: every code, category, scope and action as an
//! open enum (a value from a newer server is kept, never an error), [`ErrorPayload`] with the
//! registry's wire names, and the recovery runtime every errgen SDK shares:
//!
//! - [`parse`] (tolerant) and [`validate`] (strict, the JSON Schema's verdicts);
//! - [`receive`]: an error body's bytes read and checked in one pass, giving the strict
//!   verdict and the decision (the fastest way from a response body to what to do);
//! - [`decide`]: what an agent does about an error (retry, pause, skip, fix, stop, escalate);
//! - [`new_error`], [`to_http`] / [`to_http_problem`] / [`from_http`] and [`to_mcp_result`] /
//!   [`from_mcp_result`];
//! - [`read_http`]: a real API's response read where the registry's `wire.response` says, and
//!   [`HttpReading::check`] turning an error response into a [`ResponseError`] (status,
//!   headers, reading, typed payload; one pointer wide);
//! - [`decide_response`]: a whole response decided, one without a payload (a proxy's HTML 502,
//!   a bare 429) by its status ([`status_action`]), honouring `Retry-After`;
//! - [`decide_failure`] and [`failure_of`]: when no response came (refused, TLS, reset,
//!   timeout), retried when the request never left or the call is idempotent;
//! - [`retry`] (async, any runtime) and [`retry_blocking`]: calling again as the decisions say,
//!   within a [`RetryPolicy`], API errors and transport failures alike, each failed attempt
//!   shown to an observer ([`RetryPolicy::on_attempt`]; `tracing` events with the `tracing`
//!   feature);
//! - with the `reqwest` feature (reqwest 0.13) or `reqwest-0-12`, `check_reqwest`: a
//!   `reqwest::Response` as a [`ResponseError`] in one call, and reqwest's own errors as
//!   transport failures;
//! - [`did_you_mean`] and the recovery table, [`RECOVERY_TABLE`].
//!
//! The behaviour is specified by errgen's `docs/conformance.md`; the `conformance` example runs
//! the vectors that pin it.
//!
#![doc = include_str!("example.md")]
// Every public item is documented: an undocumented one fails the strict clippy and doc builds.
#![warn(missing_docs)]

mod data;
mod decide;
mod decision;
mod delays;
mod errors;
mod http;
mod json;
mod mcp;
mod open_enum;
mod parts;
mod payload;
mod payload_error;
mod reading;
mod received;
#[cfg(any(feature = "reqwest", feature = "reqwest-0-12"))]
mod reqwest_response;
mod response_error;
mod response_spec;
mod retry;
mod suggest;
mod table;
#[cfg(test)]
mod tests;
mod transport;
mod validate;
mod writing;
mod xml;

#[doc(hidden)]
pub mod conformance;

pub use data::{
    policy, problem, wire, Action, Category, Code, Hint, Reason, Scope, State, Verdict, CATEGORIES,
    RECOVERY_TABLE, REGISTRY_NAME, REGISTRY_VERSION,
};
pub use decide::{
    decide, decide_response, decide_response_with_jitter, decide_value, decide_value_with_jitter,
    decide_with_max_delay, status_action,
};
pub use decision::{backoff_ms, full_jitter, random_draw, Decision};
pub use errors::{new_error, new_error_with};
pub use http::{from_http, from_http_now, to_http, to_http_problem};
#[cfg(feature = "http")]
pub use http::{
    from_http_response, read_http_response, to_http_problem_response, to_http_response,
};
pub use json::read_json;
pub use mcp::{from_mcp_result, to_mcp_result};
pub use parts::HttpParts;
pub use payload::ErrorPayload;
pub use payload_error::{PayloadError, Problem};
pub use reading::{read_http, read_http_now, HttpReading};
pub use received::{receive, Received};
#[cfg(any(feature = "reqwest", feature = "reqwest-0-12"))]
pub use reqwest_response::{check_reqwest, ReqwestError, ReqwestResponse};
pub use response_error::ResponseError;
pub use retry::{retry, retry_blocking, AsResponseError, Attempt, RetryPolicy};
pub use suggest::did_you_mean;
pub use table::{category_entry, recovery_entry, CategoryEntry, CodeEntry, FieldKind, FieldSpec};
pub use transport::{decide_failure, decide_failure_with_jitter, failure_of, Failure};
pub use validate::{parse, parse_value, problems, validate, verdict};
