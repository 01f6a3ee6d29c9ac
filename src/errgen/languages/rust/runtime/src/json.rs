//! Reading JSON text tolerantly and safely: nesting is bounded before `serde_json` sees the text
//! (its own recursion limit is far deeper), and numbers are read as every SDK reads them.

use std::borrow::Cow;

use serde_json::Value;

use crate::data::policy::{MAX_DELAY_VALUE_MS, MAX_JSON_DEPTH, MAX_NUMBER_CHARS};

/// The JSON value `bytes` hold, or `None` when they are not exactly one JSON value in UTF-8, or
/// nest arrays and objects deeper than `policy::MAX_JSON_DEPTH`. Never panics.
///
/// A number out of range (too large for an `f64`, or longer than `policy::MAX_NUMBER_CHARS`) is
/// read as the largest finite `f64` of its sign, the marker of a number out of range (other SDKs
/// read it as infinity; neither is an integer the contract accepts), and an unpaired UTF-16
/// surrogate escape as U+FFFD, so such text is still JSON, as it is for the other SDKs.
/// The integer `-0` is read as `0`, as the other SDKs read it (`serde_json` would read `-0.0`).
#[must_use]
pub fn read_json(bytes: &[u8]) -> Option<Value> {
    let text = integer_zeros(std::str::from_utf8(bytes).ok()?);
    let repaired = scan(&text)?;
    serde_json::from_str(repaired.as_deref().unwrap_or(&text)).ok()
}

/// `text` with each number token `-0` written `0`: JSON's integer minus zero is the integer zero
/// in every other SDK, where `serde_json` would read the float `-0.0` (and echo it so).
pub(crate) fn integer_zeros(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let mut signs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < b.len() && matches!(b[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                {
                    i += 1;
                }
                if &b[start..i] == b"-0" {
                    signs.push(start);
                }
            }
            _ => i += 1,
        }
    }
    if signs.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for sign in signs {
        out.push_str(&text[last..sign]);
        last = sign + 1;
    }
    out.push_str(&text[last..]);
    Cow::Owned(out)
}

/// Checks nesting depth in one pass over `text`; returns `Some(Some(copy))` when numbers or
/// escapes needed repair, `Some(None)` when the text can be parsed as it is.
#[allow(clippy::option_option)] // None: not JSON; Some(None): JSON as it stands
fn scan(text: &str) -> Option<Option<String>> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut repairs: Vec<(usize, usize, &'static str)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    return None;
                }
                i += 1;
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'"' => i = scan_string(bytes, i + 1, &mut repairs),
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                {
                    i += 1;
                }
                if let Some(marker) = out_of_range_marker(&text[start..i]) {
                    repairs.push((start, i, marker));
                }
            }
            _ => i += 1,
        }
    }
    if repairs.is_empty() {
        return Some(None);
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end, replacement) in repairs {
        out.push_str(&text[last..start]);
        out.push_str(replacement);
        last = end;
    }
    out.push_str(&text[last..]);
    Some(Some(out))
}

/// The marker a number token out of range is read as (the largest finite `f64` of its sign), or
/// `None` when the token is read as it is.
fn out_of_range_marker(token: &str) -> Option<&'static str> {
    // A number longer than MAX_NUMBER_CHARS is never converted (no big-number parsing): it is
    // out of range, like one past f64 (1e400).
    let too_long = u64::try_from(token.len()).map_or(true, |n| n > MAX_NUMBER_CHARS);
    let out = if too_long {
        is_number(token)
    } else {
        matches!(token.parse::<f64>(), Ok(n) if n.is_infinite())
    };
    out.then(|| {
        if token.starts_with('-') {
            "-1.7976931348623157e308"
        } else {
            "1.7976931348623157e308"
        }
    })
}

/// A number token (a run of `0-9 - + . e E`) as [`read_json`] reads it, or `None` when it is not
/// one JSON number: `-0` is `0`, a number out of range its marker, else `serde_json`'s reading.
pub(crate) fn number_token(token: &str) -> Option<serde_json::Number> {
    let text = match token {
        "-0" => "0",
        _ => out_of_range_marker(token).unwrap_or(token),
    };
    serde_json::from_str(text).ok()
}

/// Skips a string body starting after its opening quote; returns the index after the closing
/// quote (or the end). Unpaired surrogate escapes are queued for replacement by U+FFFD.
fn scan_string(
    bytes: &[u8],
    mut i: usize,
    repairs: &mut Vec<(usize, usize, &'static str)>,
) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return i + 1,
            b'\\' if bytes.get(i + 1) == Some(&b'u') => {
                match hex4(bytes, i + 2) {
                    Some(0xD800..=0xDBFF) => {
                        let paired = bytes.get(i + 6) == Some(&b'\\')
                            && bytes.get(i + 7) == Some(&b'u')
                            && matches!(hex4(bytes, i + 8), Some(0xDC00..=0xDFFF));
                        if paired {
                            i += 12;
                            continue;
                        }
                        repairs.push((i, i + 6, "\\uFFFD"));
                    }
                    Some(0xDC00..=0xDFFF) => repairs.push((i, i + 6, "\\uFFFD")),
                    _ => {}
                }
                i += 2;
            }
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    i
}

/// Whether `token` is exactly one JSON number: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_number(token: &str) -> bool {
    let b = token.as_bytes();
    let mut at = usize::from(b.first() == Some(&b'-'));
    let digits = |at: &mut usize| {
        let start = *at;
        while *at < b.len() && b[*at].is_ascii_digit() {
            *at += 1;
        }
        *at - start
    };
    let whole = at;
    if digits(&mut at) == 0 || (b[whole] == b'0' && at - whole > 1) {
        return false;
    }
    if b.get(at) == Some(&b'.') {
        at += 1;
        if digits(&mut at) == 0 {
            return false;
        }
    }
    if matches!(b.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(b.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == b.len()
}

/// Whether a number read by [`read_json`] was out of range (its marker, the largest `f64`).
pub(crate) fn out_of_range(value: f64) -> bool {
    // The marker is exactly f64::MAX, no result of arithmetic: an exact comparison is meant.
    #[allow(clippy::float_cmp)]
    let marker = value.abs() == f64::MAX;
    marker
}

pub(crate) fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    let text = std::str::from_utf8(digits).ok()?;
    if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(text, 16).ok()
}

/// A JSON number with an integral value (2.0 counts, as in JSON Schema), as a `u64` when it lies
/// within `0..=maximum`.
pub(crate) fn integral(value: &Value, minimum: u64, maximum: u64) -> Option<u64> {
    integral_number(value.as_number()?, minimum, maximum)
}

/// [`integral`] of a number.
// In range (0..=maximum, at most 2^53 - 1) a whole f64 converts exactly.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
pub(crate) fn integral_number(
    number: &serde_json::Number,
    minimum: u64,
    maximum: u64,
) -> Option<u64> {
    let n = if let Some(n) = number.as_u64() {
        n
    } else if number.is_i64() {
        return None;
    } else {
        let f = number.as_f64()?;
        if !(f.is_finite() && f.fract() == 0.0 && f >= 0.0 && f <= maximum as f64) {
            return None;
        }
        f as u64
    };
    (minimum..=maximum).contains(&n).then_some(n)
}

/// serde's reader for an optional integer field: the same integral values `validate` accepts.
pub(crate) fn optional_integer<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u64>, D::Error> {
    let value = <Option<Value> as serde::Deserialize>::deserialize(deserializer)?;
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => integral(&v, 0, MAX_DELAY_VALUE_MS)
            .map(Some)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "expected an integer from 0 to {MAX_DELAY_VALUE_MS}, got {v}"
                ))
            }),
    }
}
