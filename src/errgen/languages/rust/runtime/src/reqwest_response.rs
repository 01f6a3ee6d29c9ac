//! With the `reqwest` feature: a `reqwest::Response` read as the SDK's error in one call.

use std::fmt;

use crate::parts::HttpParts;
use crate::reading::{read_http_now, ResponseError};
use crate::retry::AsResponseError;

/// Why [`check_reqwest`] returned no response: its body could not be read, or it is an error
/// response of the API.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReqwestError {
    /// Reading the body failed (the connection dropped, a timeout, ...): a transport error,
    /// which [`retry`](crate::retry) never retries.
    Body(reqwest::Error),
    /// The API's error response: its payload, typed, or why it breaks the contract.
    Response(ResponseError),
}

impl fmt::Display for ReqwestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReqwestError::Body(error) => write!(f, "reading the response failed: {error}"),
            ReqwestError::Response(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ReqwestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReqwestError::Body(error) => Some(error),
            ReqwestError::Response(error) => Some(error),
        }
    }
}

impl From<ResponseError> for ReqwestError {
    fn from(error: ResponseError) -> Self {
        ReqwestError::Response(error)
    }
}

impl AsResponseError for ReqwestError {
    fn as_response_error(&self) -> Option<&ResponseError> {
        match self {
            ReqwestError::Response(error) => Some(error),
            ReqwestError::Body(_) => None,
        }
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
/// status of 300 or more, or the registry's `error_when`); [`ReqwestError::Body`] when the body
/// cannot be read.
pub async fn check_reqwest(response: reqwest::Response) -> Result<HttpParts, ReqwestError> {
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .filter_map(|(name, value)| {
            Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
        })
        .collect();
    let body = response.bytes().await.map_err(ReqwestError::Body)?.to_vec();
    let parts = HttpParts {
        status,
        headers,
        body,
    };
    read_http_now(&parts).check()?;
    Ok(parts)
}
