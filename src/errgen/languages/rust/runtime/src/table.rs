//! The shapes of the registry's data (the rows live in `data.rs`, rendered from the registry).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::data::{Action, Category, Code, Scope, CATEGORIES, RECOVERY_TABLE};

/// One code of the registry: what `new_error` fills in and what `decide` acts on.
#[derive(Debug, PartialEq)]
#[non_exhaustive]
pub struct CodeEntry {
    /// The code.
    pub code: Code,
    /// The code as it travels in a payload's `code` field.
    pub wire: &'static str,
    /// The code's category.
    pub category: Category,
    /// Whether the identical call may succeed later (its category's say).
    pub retryable: bool,
    /// The default scope, for `new_error`.
    pub scope: Scope,
    /// The scopes a payload of this code may have.
    pub scopes: &'static [Scope],
    /// The action for each scope of `scopes`, in the same order.
    pub actions: &'static [Action],
    /// The delay the registry names for a retry, in milliseconds, when the payload names none.
    pub retry_after_ms: Option<u64>,
    /// The HTTP status `to_http` answers with.
    pub http_status: u16,
    /// The wire names of the hint fields this code may carry.
    pub hints: &'static [&'static str],
    /// What the code means, in the registry's words.
    pub description: &'static str,
    /// The registry version that added the code.
    pub since: &'static str,
    /// The registry version that deprecated the code, if it is deprecated.
    pub deprecated_since: Option<&'static str>,
    /// The code to use instead, if the deprecated code names one.
    pub replaced_by: Option<&'static str>,
    /// The code's RFC 9457 problem type URI (`to_http_problem`'s `type`).
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
    /// The category.
    pub category: Category,
    /// The category as it travels in a payload's `category` field.
    pub wire: &'static str,
    /// Whether its codes' calls may succeed later.
    pub retryable: bool,
    /// The action the registry chose for its codes that cannot be retried in the request's scope
    /// (`fix` or `escalate`), if it chose one.
    pub action: Option<Action>,
    /// What the category means, in the registry's words.
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
    /// A JSON string.
    String,
    /// JSON `true` or `false`.
    Boolean,
    /// A JSON number with an integral value (2.0 counts) within the field's bounds.
    Integer,
    /// A string among the field's values.
    Enum,
    /// An array of strings, of at most the field's `max_items` when it has one.
    StringList,
    /// An object whose values are strings, numbers or booleans.
    ScalarMap,
}

/// One payload field: its canonical name, its name on the wire, and what it may hold.
#[derive(Debug, PartialEq)]
#[non_exhaustive]
pub struct FieldSpec {
    /// The field's canonical name (`retry_after_ms`), whatever the wire calls it.
    pub name: &'static str,
    /// The field's name on the wire.
    pub wire: &'static str,
    /// What the field holds.
    pub kind: FieldKind,
    /// Whether every payload carries the field.
    pub required: bool,
    /// Whether the field is a hint, which a payload carries only for a code declaring it.
    pub hint: bool,
    /// The strings an [`FieldKind::Enum`] field may hold; empty for the other kinds.
    pub values: &'static [&'static str],
    /// The smallest value of an [`FieldKind::Integer`] field, if bounded.
    pub minimum: Option<u64>,
    /// The largest value of an [`FieldKind::Integer`] field, if bounded.
    pub maximum: Option<u64>,
    /// The most items a [`FieldKind::StringList`] field may hold, if bounded.
    pub max_items: Option<usize>,
}

/// The registry entry of a wire code, if this registry knows it.
#[must_use]
pub fn recovery_entry(code: &str) -> Option<&'static CodeEntry> {
    // An index built on first use: a scan of the table cost O(codes) per lookup, several
    // lookups per payload (bench/runtime_bench.py at 5,000 codes).
    static INDEX: OnceLock<FastMap<&'static str, &'static CodeEntry>> = OnceLock::new();
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
    static INDEX: OnceLock<FastMap<&'static str, &'static CategoryEntry>> = OnceLock::new();
    INDEX
        .get_or_init(|| CATEGORIES.iter().map(|entry| (entry.wire, entry)).collect())
        .get(category)
        .copied()
}

/// A map of the registry's own strings, hashed by [`FastHash`].
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHash>>;

/// A hash for the fixed indexes of the registry's tables (`FxHash`'s multiply-rotate, eight bytes
/// at a time): cheaper than the default `SipHash` on a code's name (the code's lookup was a third
/// of `receive`'s time at 5,000 codes; most of what is left is the table's cache misses). Not
/// keyed, and it need not be: nothing from the wire is ever inserted, so a lookup of any string
/// costs one hash and the few collisions the registry's own names have.
#[derive(Default, Clone, Copy)]
pub(crate) struct FastHash(u64);

impl FastHash {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FastHash {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(word);
            self.add(u64::from_le_bytes(buf));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        // The table's bucket is the hash's low bits, which a multiply mixes least.
        self.0.rotate_left(26)
    }
}
