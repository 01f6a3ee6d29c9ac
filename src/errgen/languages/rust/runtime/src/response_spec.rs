//! The registry's `wire.response` as data (errgen's `docs/conformance.md`, "Reading a real
//! response"): where a real API's response carries each fact, read once from the JSON text the
//! contract view renders into `data.rs`. Reading a response (`reading`), deciding one by its
//! status (`decide`) and writing one in the API's own shape (`writing`) all interpret it.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::data::RESPONSE_SPEC;
use crate::table::CodeEntry;

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Spec {
    pub(crate) format: String,
    pub(crate) error_when: Vec<Condition>,
    pub(crate) code: Vec<Source>,
    pub(crate) message: Vec<Source>,
    pub(crate) correlation_id: Vec<Source>,
    pub(crate) resource_id: Vec<Source>,
    pub(crate) retry_after: Vec<DelaySource>,
    pub(crate) own_retry_after: Vec<DelaySource>,
    pub(crate) variants: BTreeMap<String, Vec<Variant>>,
    /// `[prefix, rows]` for each `wire_prefix`, the longest prefix first (ties: registry order).
    pub(crate) prefixes: Vec<(String, Vec<Variant>)>,
    pub(crate) retryable_statuses: Vec<i64>,
    pub(crate) service_statuses: Vec<i64>,
    #[serde(default = "default_status_actions")]
    pub(crate) status_actions: BTreeMap<String, String>,
    #[serde(default = "default_paused_with_delay")]
    pub(crate) paused_with_delay: Vec<i64>,
}

/// errgen's defaults for `status_actions`, as the contract view writes them when the registry
/// overrides none (the view always writes the merged map; this reads an older one the same).
fn default_status_actions() -> BTreeMap<String, String> {
    [
        ("401", "stop"),
        ("403", "stop"),
        ("404", "skip"),
        ("408", "retry"),
        ("410", "skip"),
        ("425", "retry"),
        ("429", "pause"),
        ("503", "pause"),
        ("3xx", "escalate"),
        ("4xx", "fix"),
        ("5xx", "retry"),
    ]
    .into_iter()
    .map(|(key, action)| (key.to_owned(), action.to_owned()))
    .collect()
}

fn default_paused_with_delay() -> Vec<i64> {
    vec![403]
}

/// One registry code a shared wire code or a prefix may stand for, and the conditions that
/// choose it (`when`).
pub(crate) type Variant = (String, Vec<Condition>);

#[derive(Debug, Deserialize)]
#[serde(tag = "in", rename_all = "lowercase")]
pub(crate) enum Source {
    Header { name: String },
    Body { path: Vec<Step> },
    Status,
}

/// A body path step: a key, an index, or `-1` for every element (`[*]`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum Step {
    Key(String),
    Index(i64),
}

#[derive(Debug, Deserialize)]
pub(crate) struct Condition {
    #[serde(default)]
    pub(crate) at: Option<Source>,
    #[serde(default, deserialize_with = "present")]
    pub(crate) equals: Option<Value>,
    #[serde(default)]
    pub(crate) status: Option<Vec<i64>>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct DelaySource {
    pub(crate) at: Source,
    pub(crate) unit: Unit,
    /// The registry codes the entry applies to, when it is filtered.
    #[serde(default)]
    codes: Option<Vec<String>>,
    /// The categories the entry applies to, when it is filtered.
    #[serde(default)]
    categories: Option<Vec<String>>,
}

impl DelaySource {
    /// Whether the entry applies to a response whose registry code is `code` (`None`: a code
    /// the registry does not know, or no code): an entry without `codes` and `categories`
    /// applies to every response, a filtered one only to a code it lists or one of a category it
    /// lists (Okta's `X-Rate-Limit-Reset` is on every response, but only a rate limit waits).
    pub(crate) fn applies(&self, code: Option<&CodeEntry>) -> bool {
        if self.codes.is_none() && self.categories.is_none() {
            return true;
        }
        let Some(entry) = code else {
            return false;
        };
        let listed = |names: &Option<Vec<String>>, name: &str| {
            names.iter().flatten().any(|listed| listed == name)
        };
        listed(&self.codes, entry.wire) || listed(&self.categories, entry.category.as_str())
    }
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Unit {
    Ms,
    Seconds,
    Http,
    EpochSeconds,
    Duration,
}

/// `equals: null` is a condition on null, not an absent one.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

pub(crate) fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    // The text is rendered by errgen from the contract view; an unreadable one reads nothing.
    SPEC.get_or_init(|| serde_json::from_str(RESPONSE_SPEC).unwrap_or_default())
}

/// Whether the registry reads a code from the status line (GitHub REST, Shopify): then every
/// error response has a code, even one whose body cannot be read.
#[cfg(test)]
pub(crate) fn code_from_status() -> bool {
    spec()
        .code
        .iter()
        .any(|source| matches!(source, Source::Status))
}

/// The wire code a registry code is sent as when several codes share one, and its conditions.
pub(crate) fn wire_code(code: &str) -> Option<(&'static str, Vec<(&'static str, &'static str)>)> {
    spec().variants.iter().find_map(|(sent, rows)| {
        let (_, conditions) = rows.iter().find(|(name, _)| name == code)?;
        let headers = conditions
            .iter()
            .filter_map(|c| match (&c.at, &c.equals) {
                (Some(Source::Header { name }), Some(Value::String(wanted))) => {
                    Some((name.as_str(), wanted.as_str()))
                }
                _ => None,
            })
            .collect();
        Some((sent.as_str(), headers))
    })
}

/// Where a write of [`api_writes`] goes: a header (by name) or a body path.
pub(crate) enum Target {
    Header(&'static str),
    Body(&'static [Step]),
}

/// The writes of the API's own shape (docs/conformance.md, "Writing in the API's own shape"), in
/// the order they apply: each fact (code as sent, message, correlation id, resource id) that is
/// a string at its first body then first header source, then every `equals` condition of
/// `error_when` and of the code's own variant entry.
pub(crate) fn api_writes(code: &str, sent: &str, facts: [Option<&str>; 3]) -> Vec<(Target, Value)> {
    let spec = spec();
    let mut out = Vec::new();
    let sources = [
        &spec.code,
        &spec.message,
        &spec.correlation_id,
        &spec.resource_id,
    ];
    let values = [Some(sent), facts[0], facts[1], facts[2]];
    for (list, value) in sources.into_iter().zip(values) {
        let Some(value) = value else { continue };
        if let Some(path) = list.iter().find_map(|s| match s {
            Source::Body { path } => Some(path.as_slice()),
            _ => None,
        }) {
            out.push((Target::Body(path), Value::from(value)));
        }
        if let Some(name) = list.iter().find_map(|s| match s {
            Source::Header { name } => Some(name.as_str()),
            _ => None,
        }) {
            out.push((Target::Header(name), Value::from(value)));
        }
    }
    let variant = spec
        .variants
        .get(sent)
        .into_iter()
        .flatten()
        .filter(|(name, _)| name == code)
        .flat_map(|(_, conditions)| conditions);
    for condition in spec.error_when.iter().chain(variant) {
        match (&condition.at, &condition.equals) {
            (Some(Source::Header { name }), Some(value)) => {
                out.push((Target::Header(name), value.clone()));
            }
            (Some(Source::Body { path }), Some(value)) => {
                out.push((Target::Body(path), value.clone()));
            }
            _ => {}
        }
    }
    out
}

/// Whether the registry's API answers in XML (`wire.format: xml`).
pub(crate) fn xml_format() -> bool {
    spec().format == "xml"
}

/// The rows of the longest `wire_prefix` that `code` starts with (the table is longest first).
pub(crate) fn prefixed(code: &str) -> Option<&'static [Variant]> {
    spec()
        .prefixes
        .iter()
        .find(|(prefix, _)| code.starts_with(prefix.as_str()))
        .map(|(_, rows)| rows.as_slice())
}

/// The code `code` is sent as: its registry row's wire code when several codes share one,
/// else itself.
pub(crate) fn sent_code(code: &str) -> String {
    wire_code(code).map_or(code, |(sent, _)| sent).to_owned()
}
