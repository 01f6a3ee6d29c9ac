//! With the `reqwest` feature (reqwest 0.13) or `reqwest-0-12` (reqwest 0.12), or both: a
//! reqwest response read as the SDK's error in one call, and reqwest's own errors as transport
//! failures. One feature per reqwest release line, so the crate uses the reqwest the application
//! already has: cargo never unifies a version range that spans two of them.

use std::error::Error;
use std::fmt;
use std::future::Future;
use std::pin::Pin;

use crate::parts::HttpParts;
use crate::reading::read_http_now;
use crate::response_error::ResponseError;
use crate::retry::AsResponseError;
use crate::transport::reqwest_errors::classify;
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
    /// ([`RetryPolicy::idempotent`](crate::RetryPolicy::idempotent)). `error` is the
    /// `reqwest::Error` (downcast it to your reqwest's type for its details).
    Transport {
        /// What kind of failure it was, which decides whether it is retried.
        failure: Failure,
        /// The `reqwest::Error` itself.
        error: Box<dyn Error + Send + Sync>,
    },
    /// The API's error response: its status, headers and payload, or why it carries none.
    Response(ResponseError),
}

impl fmt::Display for ReqwestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReqwestError::Transport { failure, error } => {
                write!(f, "no response ({failure}): {error}")
            }
            ReqwestError::Response(error) => error.fmt(f),
        }
    }
}

impl Error for ReqwestError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ReqwestError::Transport { error, .. } => Some(error.as_ref()),
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
            ReqwestError::Transport { .. } => None,
        }
    }

    fn transport_failure(&self) -> Option<Failure> {
        match self {
            ReqwestError::Transport { failure, .. } => Some(*failure),
            ReqwestError::Response(_) => None,
        }
    }
}

mod sealed {
    pub trait Sealed {}
}

/// The body of a response being read.
type Body = Pin<Box<dyn Future<Output = Result<Vec<u8>, ReqwestError>> + Send>>;

/// A `reqwest::Response` of a release line this build supports (0.13 with the `reqwest`
/// feature, 0.12 with `reqwest-0-12`): what [`check_reqwest`] reads.
pub trait ReqwestResponse: sealed::Sealed {
    #[doc(hidden)]
    fn status_code(&self) -> u16;
    #[doc(hidden)]
    fn header_pairs(&self) -> Vec<(String, String)>;
    #[doc(hidden)]
    fn into_body(self) -> Body;
}

/// The trait implementations for one reqwest release line, by the name its dependency has here.
macro_rules! reqwest_line {
    ($krate:ident) => {
        impl sealed::Sealed for $krate::Response {}

        impl ReqwestResponse for $krate::Response {
            fn status_code(&self) -> u16 {
                self.status().as_u16()
            }

            fn header_pairs(&self) -> Vec<(String, String)> {
                // A header value that is not text is skipped (errgen's `docs/conformance.md`).
                self.headers()
                    .iter()
                    .filter_map(|(name, value)| {
                        Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
                    })
                    .collect()
            }

            fn into_body(self) -> Body {
                Box::pin(async move { Ok(self.bytes().await?.to_vec()) })
            }
        }

        impl From<$krate::Error> for ReqwestError {
            fn from(error: $krate::Error) -> Self {
                ReqwestError::Transport {
                    failure: classify(&error),
                    error: Box::new(error),
                }
            }
        }
    };
}

#[cfg(feature = "reqwest")]
reqwest_line!(reqwest);
#[cfg(feature = "reqwest-0-12")]
reqwest_line!(reqwest_0_12);

/// Reads a reqwest response whole, as [`read_http`](crate::read_http) does (HTTP-dates and
/// epoch delays measured from the system clock): `Ok` with its parts (status, headers, body)
/// when it is not an error, so the caller goes on with the body. A header value that is not text
/// is skipped.
///
/// # Errors
///
/// [`ReqwestError::Response`] with the [`ResponseError`] when the response is an error (a
/// status of 300 or more, or the registry's `error_when`); [`ReqwestError::Transport`] when
/// the body cannot be read.
pub async fn check_reqwest(response: impl ReqwestResponse) -> Result<HttpParts, ReqwestError> {
    let status = response.status_code();
    let headers = response.header_pairs();
    let body = response.into_body().await?;
    let parts = HttpParts {
        status,
        headers,
        body,
    };
    read_http_now(&parts).check()?;
    Ok(parts)
}
