//! With the `reqwest` feature: a `reqwest::Response` read as the SDK's error in one call.

use std::fmt;

use crate::parts::HttpParts;
use crate::reading::{read_http_now, ResponseError};
use crate::retry::AsResponseError;
use crate::transport::Failure;

/// Why a reqwest call gave no value: no response came, or its body could not be read (a
/// transport failure: `From<reqwest::Error>` lets `send().await?` give one), or it is an error
/// response of the API ([`check_reqwest`]). [`retry`](crate::retry) retries both kinds as
/// their decisions say.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReqwestError {
    /// The request failed or the body could not be read (refused, reset, a timeout, ...):
    /// retried when it never left, or when the call is idempotent
    /// ([`RetryPolicy::idempotent`](crate::RetryPolicy::idempotent)).
    Transport(reqwest::Error),
    /// The API's error response: its payload, typed, or why it breaks the contract.
    Response(ResponseError),
}

impl fmt::Display for ReqwestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReqwestError::Transport(error) => write!(f, "no response: {error}"),
            ReqwestError::Response(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ReqwestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReqwestError::Transport(error) => Some(error),
            ReqwestError::Response(error) => Some(error),
        }
    }
}

impl From<ResponseError> for ReqwestError {
    fn from(error: ResponseError) -> Self {
        ReqwestError::Response(error)
    }
}

impl From<reqwest::Error> for ReqwestError {
    fn from(error: reqwest::Error) -> Self {
        ReqwestError::Transport(error)
    }
}

impl AsResponseError for ReqwestError {
    fn as_response_error(&self) -> Option<&ResponseError> {
        match self {
            ReqwestError::Response(error) => Some(error),
            ReqwestError::Transport(_) => None,
        }
    }

    fn transport_failure(&self) -> Option<Failure> {
        match self {
            ReqwestError::Transport(error) => Some(failure_of_reqwest(error)),
            ReqwestError::Response(_) => None,
        }
    }
}

/// The transport failure a reqwest error is: `is_connect` refused (the request never left; a
/// TLS handshake failure is one too), `is_timeout` timeout, any other reset.
pub(crate) fn failure_of_reqwest(error: &reqwest::Error) -> Failure {
    if error.is_connect() {
        Failure::Refused
    } else if error.is_timeout() {
        Failure::Timeout
    } else {
        Failure::Reset
    }
}

/// Reads a `reqwest` response whole, as [`read_http`](crate::read_http) does (HTTP-dates and
/// epoch delays measured from the system clock): `Ok` with its parts (status, headers, body)
/// when it is not an error, so the caller goes on with the body. A header value that is not text
/// is skipped.
///
/// # Errors
///
/// [`ReqwestError::Response`] with the [`ResponseError`] when the response is an error (a
/// status of 300 or more, or the registry's `error_when`); [`ReqwestError::Transport`] when
/// the body cannot be read.
pub async fn check_reqwest(response: reqwest::Response) -> Result<HttpParts, ReqwestError> {
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .filter_map(|(name, value)| {
            Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
        })
        .collect();
    let body = response
        .bytes()
        .await
        .map_err(ReqwestError::Transport)?
        .to_vec();
    let parts = HttpParts {
        status,
        headers,
        body,
    };
    read_http_now(&parts).check()?;
    Ok(parts)
}
