//! The strict verdict (`validate`, the JSON Schema's) and the tolerant one (`parse`), on a raw
//! JSON value as received. Field names, kinds and bounds come from the registry's field specs.

use std::fmt;

use serde_json::{Map, Value};

use crate::data::{policy, problem, wire, Scope, Verdict, FIELDS};
use crate::json::{integral, read_json};
use crate::payload::ErrorPayload;
use crate::table::{category_entry, field_spec, recovery_entry, CodeEntry, FieldKind, FieldSpec};

/// One reason the contract rejects a payload: a stable id (`wrong-type`, `unknown-code`, ...) and
/// a message for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub id: &'static str,
    pub message: String,
}

impl Problem {
    fn new(id: &'static str, message: String) -> Self {
        Problem { id, message }
    }
}

/// A payload the contract rejects, with every problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadError {
    pub problems: Vec<Problem>,
}

impl fmt::Display for PayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let messages: Vec<&str> = self.problems.iter().map(|p| p.message.as_str()).collect();
        f.write_str(&messages.join("; "))
    }
}

impl std::error::Error for PayloadError {}

/// Every reason the strict contract rejects `raw` (empty: valid), as `errgen validate` and the
/// JSON Schema see it. Registry checks run only on a well-formed envelope.
#[must_use]
pub fn problems(raw: &Value) -> Vec<Problem> {
    let mut found = envelope_problems(raw);
    let Some(object) = raw.as_object() else {
        return found;
    };
    if !found.is_empty() {
        return found;
    }
    let category = str_field(object, wire::CATEGORY);
    if category_entry(category).is_none() {
        found.push(Problem::new(
            problem::UNKNOWN_CATEGORY,
            format!("category {category:?} is not in the registry"),
        ));
    }
    let code = str_field(object, wire::CODE);
    match recovery_entry(code) {
        None => found.push(Problem::new(
            problem::UNKNOWN_CODE,
            format!("code {code:?} is not in the registry"),
        )),
        Some(entry) => found.extend(registry_problems(object, entry)),
    }
    found
}

/// What every payload must satisfy, even one whose code this SDK does not know: an object of
/// contract fields with the right types, holding the required ones.
pub(crate) fn envelope_problems(raw: &Value) -> Vec<Problem> {
    let Some(object) = raw.as_object() else {
        return vec![Problem::new(
            problem::NOT_AN_OBJECT,
            "payload must be a JSON object".to_owned(),
        )];
    };
    let mut found = Vec::new();
    for (key, value) in object {
        match field_spec(key) {
            None => found.push(Problem::new(
                problem::EXTRA_FIELD,
                format!("field {key:?} is not part of the contract"),
            )),
            Some(spec) if !fits(spec, value) => {
                found.push(Problem::new(
                    problem::WRONG_TYPE,
                    format!("field {key:?} must be {}", expected(spec)),
                ));
            }
            Some(_) => {}
        }
    }
    for spec in FIELDS
        .iter()
        .filter(|spec| spec.required && !object.contains_key(spec.wire))
    {
        found.push(Problem::new(
            problem::MISSING_FIELD,
            format!("required field {:?} is missing", spec.wire),
        ));
    }
    let resource = Scope::Resource;
    if object.get(wire::SCOPE).and_then(Value::as_str) == Some(resource.as_str())
        && !object.contains_key(wire::RESOURCE_ID)
    {
        found.push(Problem::new(
            problem::RESOURCE_ID_MISSING,
            format!("scope is {resource}, so {} is required", wire::RESOURCE_ID),
        ));
    }
    found
}

/// Contradictions between a well-formed payload and its code's registry entry.
fn registry_problems(object: &Map<String, Value>, entry: &CodeEntry) -> Vec<Problem> {
    let mut found = Vec::new();
    let code = entry.wire;
    let category = str_field(object, wire::CATEGORY);
    if category != entry.category.as_str() {
        found.push(Problem::new(
            problem::CATEGORY_MISMATCH,
            format!("{code} has category {}, not {category:?}", entry.category),
        ));
    }
    let retryable = object.get(wire::RETRYABLE).and_then(Value::as_bool) == Some(true);
    if retryable != entry.retryable {
        found.push(Problem::new(
            problem::RETRYABLE_MISMATCH,
            format!("{code} has retryable {}", entry.retryable),
        ));
    }
    let scope = str_field(object, wire::SCOPE);
    if !entry.scopes.iter().any(|s| s.as_str() == scope) {
        found.push(Problem::new(
            problem::SCOPE_NOT_ALLOWED,
            format!("{code} may not carry scope {scope:?}"),
        ));
    }
    if object.contains_key(wire::RETRY_AFTER_MS) && !entry.retryable {
        found.push(Problem::new(
            problem::RETRY_AFTER_NOT_RETRYABLE,
            format!(
                "{code} is not retryable, so it has no {}",
                wire::RETRY_AFTER_MS
            ),
        ));
    }
    for spec in FIELDS.iter().filter(|spec| spec.hint) {
        if object.contains_key(spec.wire) && !entry.hints.contains(&spec.wire) {
            found.push(Problem::new(
                problem::HINT_NOT_ALLOWED,
                format!("{code} does not carry the hint field {:?}", spec.wire),
            ));
        }
    }
    found
}

/// Whether a well-formed envelope still breaks the tolerant contract: a delay on a payload that
/// says it is not retryable.
fn delay_without_retry(object: &Map<String, Value>) -> bool {
    object.get(wire::RETRYABLE) == Some(&Value::Bool(false))
        && object.contains_key(wire::RETRY_AFTER_MS)
}

/// The tolerant verdict: `Invalid` on envelope problems, `Unknown` for a newer server's code or
/// category, else `Known` (contradictions with the registry show in `problems` and `decide`).
#[must_use]
pub fn verdict(raw: &Value) -> Verdict {
    match raw.as_object() {
        Some(object) if envelope_problems(raw).is_empty() && !delay_without_retry(object) => {
            let known = recovery_entry(str_field(object, wire::CODE)).is_some()
                && category_entry(str_field(object, wire::CATEGORY)).is_some();
            if known {
                Verdict::Known
            } else {
                Verdict::Unknown
            }
        }
        _ => Verdict::Invalid,
    }
}

/// Tolerant parsing of a raw payload (a client): an unknown code or category is kept (see
/// [`ErrorPayload::is_known`]), never an error; a payload that breaks the envelope is.
///
/// # Errors
///
/// [`PayloadError`] with the envelope's problems (not an object, a missing field, a wrong type,
/// a delay on a payload that is not retryable).
pub fn parse_value(raw: &Value) -> Result<ErrorPayload, PayloadError> {
    let found = envelope_problems(raw);
    if !found.is_empty() {
        return Err(PayloadError { problems: found });
    }
    if raw.as_object().is_some_and(delay_without_retry) {
        let message = format!(
            "a payload that is not retryable has no {}",
            wire::RETRY_AFTER_MS
        );
        return Err(PayloadError {
            problems: vec![Problem::new(problem::RETRY_AFTER_NOT_RETRYABLE, message)],
        });
    }
    typed(raw)
}

/// Tolerant parsing of bytes: JSON text (at most `policy::MAX_JSON_DEPTH` deep), then
/// [`parse_value`]. Never panics, whatever the bytes.
///
/// # Errors
///
/// [`PayloadError`] when the bytes are not JSON (`not-an-object`), or as [`parse_value`].
pub fn parse(bytes: &[u8]) -> Result<ErrorPayload, PayloadError> {
    match read_json(bytes) {
        Some(raw) => parse_value(&raw),
        None => Err(PayloadError {
            problems: vec![Problem::new(
                problem::NOT_AN_OBJECT,
                format!(
                    "payload is not JSON (or nests deeper than {})",
                    policy::MAX_JSON_DEPTH
                ),
            )],
        }),
    }
}

/// Strict validation (a service, before sending): unknown codes, contradictions with the
/// registry and extra fields are all errors.
///
/// # Errors
///
/// [`PayloadError`] listing every problem the strict contract finds.
pub fn validate(raw: &Value) -> Result<ErrorPayload, PayloadError> {
    let found = problems(raw);
    if !found.is_empty() {
        return Err(PayloadError { problems: found });
    }
    typed(raw)
}

fn typed(raw: &Value) -> Result<ErrorPayload, PayloadError> {
    ErrorPayload::deserialize_value(raw).map_err(|e| PayloadError {
        problems: vec![Problem::new(problem::WRONG_TYPE, e.to_string())],
    })
}

fn str_field<'a>(object: &'a Map<String, Value>, key: &str) -> &'a str {
    object.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn fits(spec: &FieldSpec, value: &Value) -> bool {
    match spec.kind {
        FieldKind::String => value.is_string(),
        FieldKind::Boolean => value.is_boolean(),
        FieldKind::Integer => integral(
            value,
            spec.minimum.unwrap_or(0),
            spec.maximum.unwrap_or(policy::MAX_DELAY_VALUE_MS),
        )
        .is_some(),
        FieldKind::Enum => value.as_str().is_some_and(|v| spec.values.contains(&v)),
        FieldKind::StringList => value.as_array().is_some_and(|items| {
            items.iter().all(Value::is_string)
                && spec.max_items.map_or(true, |max| items.len() <= max)
        }),
        FieldKind::ScalarMap => value.as_object().is_some_and(|map| {
            map.values()
                .all(|v| v.is_string() || v.is_number() || v.is_boolean())
        }),
    }
}

fn expected(spec: &FieldSpec) -> String {
    match spec.kind {
        FieldKind::String => "a string".to_owned(),
        FieldKind::Boolean => "a boolean".to_owned(),
        FieldKind::Integer => format!(
            "an integer from {} to {}",
            spec.minimum.unwrap_or(0),
            spec.maximum.unwrap_or(policy::MAX_DELAY_VALUE_MS)
        ),
        FieldKind::Enum => format!("one of {}", spec.values.join(", ")),
        FieldKind::StringList => match spec.max_items {
            Some(max) => format!("a list of at most {max} strings"),
            None => "a list of strings".to_owned(),
        },
        FieldKind::ScalarMap => "an object of names to strings, numbers or booleans".to_owned(),
    }
}
