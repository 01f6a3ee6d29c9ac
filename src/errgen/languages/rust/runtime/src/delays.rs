//! A delay as an API sends it (errgen's `docs/conformance.md`, "Reading a real response"), in
//! milliseconds: whole or decimal seconds, milliseconds, an HTTP-date, epoch seconds or a
//! Go-style duration, by the unit of the registry's delay source. Exact (no binary floating point
//! for decimal text), saturated at `policy::MAX_DELAY_VALUE_MS`, linear in the length of the text.

use serde_json::Value;

use crate::data::policy;
use crate::json::out_of_range;
use crate::parts::imf_fixdate_ms;
use crate::response_spec::Unit;

const MAX: u64 = policy::MAX_DELAY_VALUE_MS;

fn digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// ASCII digits times `factor`, saturated; any number of digits in linear time.
fn saturated(digits: &str, factor: u64) -> u64 {
    let significant = digits.trim_start_matches('0');
    if significant.len() > 16 {
        return MAX;
    }
    let value = significant
        .bytes()
        .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    value.saturating_mul(factor).min(MAX)
}

/// ASCII digits, or a whole JSON number >= 0 (not one out of range), times `factor`, saturated.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
fn scaled(value: &Value, factor: u64) -> Option<u64> {
    match value {
        Value::String(text) => digits(text).then(|| saturated(text, factor)),
        Value::Number(number) => {
            if let Some(n) = number.as_u64() {
                return Some(n.min(MAX).saturating_mul(factor).min(MAX));
            }
            let f = number
                .as_f64()
                .filter(|f| !number.is_i64() && !out_of_range(*f))?;
            if f < 0.0 || f.fract() != 0.0 {
                return None;
            }
            if f > MAX as f64 {
                return Some(MAX);
            }
            // A whole number within 2^53 - 1: the cast is exact.
            Some((f as u64).saturating_mul(factor).min(MAX))
        }
        _ => None,
    }
}

/// `0.<fraction>` of `factor` ms, rounded up to a whole ms (exact: no binary floating point).
fn fraction_ms(fraction: &str, factor: u64) -> u64 {
    let scale = 10u64.pow(u32::try_from(fraction.len()).unwrap_or(9));
    saturated(fraction, 1)
        .saturating_mul(factor)
        .div_ceil(scale)
}

/// `[0-9]+.[0-9]{1,9}`: the whole and fraction digits of a decimal.
fn decimal(text: &str) -> Option<(&str, &str)> {
    let (whole, fraction) = text.split_once('.')?;
    (digits(whole) && digits(fraction) && fraction.len() <= 9).then_some((whole, fraction))
}

/// Seconds as sent (`7`, `2.128` from Microsoft Graph, Discord's JSON `64.57`) in ms, rounded
/// up, saturated. A JSON fraction is first rounded to the microsecond, so that 64.57, which
/// binary floating point holds as 64.5699..., is 64,570 ms in every SDK.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
pub(crate) fn seconds_ms(value: &Value) -> Option<u64> {
    if let Some((whole, fraction)) = value.as_str().and_then(decimal) {
        return Some(
            saturated(whole, 1000)
                .saturating_add(fraction_ms(fraction, 1000))
                .min(MAX),
        );
    }
    if let Value::Number(number) = value {
        let f = number.as_f64().filter(|f| !out_of_range(*f));
        if let Some(f) = f.filter(|f| f.fract() != 0.0 && *f >= 0.0 && f.is_finite()) {
            if f * 1000.0 > MAX as f64 {
                return Some(MAX);
            }
            // Within 2^53 ms, so the microseconds fit a u64 and the cast is exact.
            let micro = (f * 1_000_000.0 + 0.5).floor() as u64;
            return Some(micro.div_ceil(1000).min(MAX));
        }
    }
    scaled(value, 1000)
}

/// `30s`, `1.5s`, `6m0s`, `20ms`: the sum of its parts, each rounded up to whole milliseconds.
fn duration_ms(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    let (mut at, mut total) = (0, 0u64);
    if b.is_empty() {
        return None;
    }
    while at < b.len() {
        let start = at;
        while at < b.len() && b[at].is_ascii_digit() {
            at += 1;
        }
        let whole = &text[start..at];
        if whole.is_empty() {
            return None;
        }
        let mut fraction = "";
        if b.get(at) == Some(&b'.') {
            let from = at + 1;
            at = from;
            while at < b.len() && b[at].is_ascii_digit() {
                at += 1;
            }
            fraction = &text[from..at];
            if fraction.is_empty() || fraction.len() > 9 {
                return None;
            }
        }
        let (factor, width) = match (b.get(at), b.get(at + 1)) {
            (Some(b'm'), Some(b's')) => (1, 2),
            (Some(b'h'), _) => (3_600_000, 1),
            (Some(b'm'), _) => (60_000, 1),
            (Some(b's'), _) => (1000, 1),
            _ => return None,
        };
        at += width;
        let mut part = saturated(whole, factor);
        if !fraction.is_empty() {
            part = part.saturating_add(fraction_ms(fraction, factor));
        }
        total = total.saturating_add(part).min(MAX);
    }
    Some(total)
}

fn since(when_ms: i128, now_ms: u64) -> u64 {
    let delay = (when_ms - i128::from(now_ms)).clamp(0, i128::from(MAX));
    u64::try_from(delay).unwrap_or(MAX)
}

/// How a delay source's value becomes milliseconds, by its unit.
pub(crate) fn delay_of(unit: Unit, value: &Value, now_ms: u64) -> Option<u64> {
    match unit {
        Unit::Ms => scaled(value, 1),
        Unit::Seconds => seconds_ms(value),
        Unit::EpochSeconds => scaled(value, 1000).map(|when| since(i128::from(when), now_ms)),
        Unit::Duration => duration_ms(value.as_str()?),
        Unit::Http => match (seconds_ms(value), value) {
            (Some(seconds), _) => Some(seconds),
            (None, Value::String(text)) => {
                imf_fixdate_ms(text).map(|when| since(i128::from(when), now_ms))
            }
            _ => None,
        },
    }
}
