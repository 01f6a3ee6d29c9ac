//! The shapes of the registry's data (the rows live in `data.rs`, rendered from the registry).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::data::{Action, Category, Code, Scope, CATEGORIES, RECOVERY_TABLE};

/// One code of the registry: what `new_error` fills in and what `decide` acts on.
#[derive(Debug, PartialEq)]
#[non_exhaustive]
pub struct CodeEntry {
    pub code: Code,
    pub wire: &'static str,
    pub category: Category,
    pub retryable: bool,
    /// The default scope, for `new_error`.
    pub scope: Scope,
    pub scopes: &'static [Scope],
    /// The action for each scope of `scopes`, in the same order.
    pub actions: &'static [Action],
    pub retry_after_ms: Option<u64>,
    pub http_status: u16,
    /// The wire names of the hint fields this code may carry.
    pub hints: &'static [&'static str],
    pub description: &'static str,
    pub since: &'static str,
    pub deprecated_since: Option<&'static str>,
    pub replaced_by: Option<&'static str>,
    pub type_uri: &'static str,
}

impl CodeEntry {
    /// The registry's action for this code in `scope`; `None` when the code never has that scope.
    #[must_use]
    pub fn action_for(&self, scope: &Scope) -> Option<&'static Action> {
        let index = self.scopes.iter().position(|s| s == scope)?;
        self.actions.get(index)
    }
}

/// One category of the registry.
#[derive(Debug, PartialEq)]
#[non_exhaustive]
pub struct CategoryEntry {
    pub category: Category,
    pub wire: &'static str,
    pub retryable: bool,
    pub action: Option<Action>,
    pub description: &'static str,
}

/// The recovery rule for a code this SDK does not know: one row per (retryable, scope).
pub(crate) struct RuleRow {
    pub retryable: bool,
    pub scope: Scope,
    pub action: Action,
}

/// An action that waits a delay (retry, pause), and the action it becomes once the attempts run out.
pub(crate) struct Timed {
    pub action: Action,
    pub exhausted: Action,
}

/// What a payload field holds on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldKind {
    String,
    Boolean,
    /// A JSON number with an integral value (2.0 counts) within the field's bounds.
    Integer,
    /// A string among the field's values.
    Enum,
    StringList,
    /// An object whose values are strings, numbers or booleans.
    ScalarMap,
}

/// One payload field: its canonical name, its name on the wire, and what it may hold.
#[derive(Debug, PartialEq)]
#[non_exhaustive]
pub struct FieldSpec {
    pub name: &'static str,
    pub wire: &'static str,
    pub kind: FieldKind,
    pub required: bool,
    pub hint: bool,
    pub values: &'static [&'static str],
    pub minimum: Option<u64>,
    pub maximum: Option<u64>,
    pub max_items: Option<usize>,
}

/// The registry entry of a wire code, if this registry knows it.
#[must_use]
pub fn recovery_entry(code: &str) -> Option<&'static CodeEntry> {
    // An index built on first use: a scan of the table cost O(codes) per lookup, several
    // lookups per payload (bench/runtime_bench.py at 5,000 codes).
    static INDEX: OnceLock<HashMap<&'static str, &'static CodeEntry>> = OnceLock::new();
    INDEX
        .get_or_init(|| {
            RECOVERY_TABLE
                .iter()
                .map(|entry| (entry.wire, entry))
                .collect()
        })
        .get(code)
        .copied()
}

/// The registry entry of a wire category, if this registry knows it.
#[must_use]
pub fn category_entry(category: &str) -> Option<&'static CategoryEntry> {
    CATEGORIES.iter().find(|entry| entry.wire == category)
}
