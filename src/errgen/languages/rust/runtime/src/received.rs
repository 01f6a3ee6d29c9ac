//! One pass from an error body's bytes to the strict verdict and the decision ([`receive`]):
//! the bytes are read straight into the contract's fields (borrowed where the text needs no
//! unescaping; no `serde_json::Value` tree for the payload), the code is looked up once, and
//! [`Received::decide`] works from the same reading. A raw `Value` goes through the same checks
//! (`problems`, `verdict`, `decide_value` build a [`Received`] of it), so each rule is written once.

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use serde_json::{Map, Number, Value};

use crate::data::{
    policy, problem, wire, Action, Code, Reason, Scope, Verdict, FIELDS, FIELD_COUNT,
    UNKNOWN_CODE_RULE,
};
use crate::decision::{is_timed, timed, Decision};
use crate::json::{hex4, integral_number, number_token};
use crate::payload_error::Problem;
use crate::response_spec::sent_code;
use crate::table::{category_entry, recovery_entry, CodeEntry, FieldKind, FieldSpec};

/// A slot for each of the contract's fields (as many as the view has: a new field needs no edit).
pub(crate) const SLOTS: usize = FIELD_COUNT;

/// One contract field's value as received: what the checks and the decision need of it.
pub(crate) enum Got<'a> {
    Text(Cow<'a, str>),
    Bool(bool),
    Number(Number),
    /// An array: whether every item is a string, how many there are, and the items.
    List {
        strings: bool,
        len: usize,
        items: Items<'a>,
    },
    /// An object: whether every value is a string, number or boolean, and the entries.
    Map {
        scalars: bool,
        entries: Entries<'a>,
    },
    Null,
}

/// An array's items: a parsed value's, or the checked JSON text of the array.
pub(crate) enum Items<'a> {
    Value(&'a [Value]),
    Json(&'a str),
}

/// An object's entries: a parsed value's, or the checked JSON text of the object.
pub(crate) enum Entries<'a> {
    Value(&'a Map<String, Value>),
    Json(&'a str),
}

/// The contract fields of a payload object, by their index in `FIELDS` (a repeated key: the last
/// value, as `serde_json` keeps it), and the keys outside the contract.
pub(crate) struct Fields<'a> {
    slots: [Option<Got<'a>>; SLOTS],
    /// The member each slot's key first came at (its place in a `preserve_order` map).
    first: [usize; SLOTS],
    /// Keys outside the contract, each with the member it came at; possibly repeated.
    extras: Vec<(Cow<'a, str>, usize)>,
    /// How many members were read.
    members: usize,
}

/// What a body holds. Not boxed: the fields live on the stack, so reading a payload allocates
/// nothing for them.
#[allow(clippy::large_enum_variant)]
enum Body<'a> {
    /// Not exactly one JSON value in UTF-8, or nested deeper than `policy::MAX_JSON_DEPTH`.
    NotJson,
    /// JSON, but not an object.
    NotObject,
    Object(Fields<'a>),
}

/// An error body read and checked in one pass ([`receive`]): the strict contract's problems, the
/// tolerant verdict and the decision, without a second reading.
pub struct Received<'a> {
    body: Body<'a>,
    /// Every problem the strict contract finds, in [`problems`](crate::problems)' order.
    problems: Vec<Problem>,
    /// Whether the envelope holds (then `problems` holds only registry problems).
    envelope: bool,
    /// The code's registry entry (looked up once), when the envelope holds.
    entry: Option<&'static CodeEntry>,
    /// Whether the category is the registry's, when the envelope holds.
    category: bool,
}

impl fmt::Debug for Received<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Received")
            .field("problems", &self.problems)
            .field("verdict", &self.verdict())
            .finish_non_exhaustive()
    }
}

/// Reads an error body in one pass, as [`read_json`](crate::read_json) reads JSON (the same
/// limits: UTF-8, exactly one value, nesting at most `policy::MAX_JSON_DEPTH`, numbers out of
/// range or longer than `policy::MAX_NUMBER_CHARS` read as out of range, `-0` as `0`, unpaired
/// surrogate escapes as U+FFFD) and checks it as [`validate`](crate::validate) does. The result
/// gives the problems, the verdict and the decision; `receive(bytes).decide(..)` is
/// `decide_value(&read_json(bytes)?, ..)`, and bytes that are not JSON escalate as an invalid
/// payload. Never panics, whatever the bytes.
#[must_use]
pub fn receive(bytes: &[u8]) -> Received<'_> {
    Received::checked(read(bytes))
}

impl<'a> Received<'a> {
    /// A parsed value, checked: what `problems`, `verdict` and `decide_value` work from.
    pub(crate) fn of_value(raw: &'a Value) -> Self {
        let body = match raw.as_object() {
            Some(object) => Body::Object(Fields::of_object(object)),
            None => Body::NotObject,
        };
        Received::checked(body)
    }

    fn checked(body: Body<'a>) -> Self {
        let mut found = Vec::new();
        let (mut envelope, mut entry, mut category) = (false, None, false);
        match &body {
            Body::NotJson => found.push(Problem::new(
                problem::NOT_AN_OBJECT,
                format!(
                    "payload is not JSON (or nests deeper than {})",
                    policy::MAX_JSON_DEPTH
                ),
            )),
            Body::NotObject => found.push(not_an_object()),
            Body::Object(fields) => {
                fields.envelope_problems(&mut found);
                envelope = found.is_empty();
                if envelope {
                    let name = fields.text(at().category).unwrap_or_default();
                    category = category_entry(name).is_some();
                    if !category {
                        found.push(Problem::new(
                            problem::UNKNOWN_CATEGORY,
                            format!("category {name:?} is not in the registry"),
                        ));
                    }
                    let code = fields.text(at().code).unwrap_or_default();
                    entry = recovery_entry(code);
                    match entry {
                        None => found.push(Problem::new(
                            problem::UNKNOWN_CODE,
                            format!("code {code:?} is not in the registry"),
                        )),
                        Some(entry) => fields.registry_problems(entry, &mut found),
                    }
                }
            }
        }
        Received {
            body,
            problems: found,
            envelope,
            entry,
            category,
        }
    }

    /// Every reason the strict contract rejects the payload (empty: valid), as
    /// [`problems`](crate::problems) gives them.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Whether the strict contract accepts the payload ([`validate`](crate::validate) would).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problems, owned.
    pub(crate) fn into_problems(self) -> Vec<Problem> {
        self.problems
    }

    /// Whether the envelope holds (the tolerant contract's first condition).
    pub(crate) fn envelope_holds(&self) -> bool {
        self.envelope
    }

    /// The tolerant verdict, as [`verdict`](crate::verdict) gives it.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        match &self.body {
            Body::Object(fields) if self.envelope && !fields.delay_without_retry() => {
                if self.entry.is_some() && self.category {
                    Verdict::Known
                } else {
                    Verdict::Unknown
                }
            }
            _ => Verdict::Invalid,
        }
    }

    /// Whether a well-formed envelope still breaks the tolerant contract (a delay on a payload
    /// that says it is not retryable).
    pub(crate) fn delay_without_retry(&self) -> bool {
        matches!(&self.body, Body::Object(fields) if fields.delay_without_retry())
    }

    /// What to do about the error, as [`decide_value`](crate::decide_value) decides it: an
    /// invalid payload escalates, an unknown code follows the registry's rule on its own
    /// `retryable` and `scope`; a delay longer than `max_delay_ms` escalates.
    #[must_use]
    pub fn decide(&self, attempt: u32, max_attempts: u32, max_delay_ms: u64) -> Decision {
        self.decide_drawn::<fn() -> f64>(attempt, max_attempts, max_delay_ms, None)
    }

    /// [`Received::decide`] with full jitter, as
    /// [`decide_value_with_jitter`](crate::decide_value_with_jitter).
    #[must_use]
    pub fn decide_with_jitter(
        &self,
        attempt: u32,
        max_attempts: u32,
        max_delay_ms: u64,
        draw: impl FnOnce() -> f64,
    ) -> Decision {
        self.decide_drawn(attempt, max_attempts, max_delay_ms, Some(&mut Some(draw)))
    }

    fn decide_drawn<F: FnOnce() -> f64>(
        &self,
        attempt: u32,
        max_attempts: u32,
        max_delay_ms: u64,
        draw: Option<&mut Option<F>>,
    ) -> Decision {
        let fields = match &self.body {
            Body::Object(fields) if self.envelope => fields,
            Body::Object(fields) => return invalid(fields.text(at().correlation_id)),
            _ => return invalid(None),
        };
        let filled = |action, reason, delay_ms| fields.filled(self.entry, action, reason, delay_ms);
        let retryable = matches!(fields.get(at().retryable), Some(Got::Bool(true)));
        if !retryable && fields.has(at().retry_after_ms) {
            return filled(Action::Escalate, Reason::InvalidPayload, None);
        }
        let scope = Scope::from_wire(fields.text(at().scope).unwrap_or_default());
        let (action, reason, registry_delay) = match self.entry {
            Some(entry) if self.category => {
                if !self.problems.is_empty() {
                    return filled(Action::Escalate, Reason::ContradictsRegistry, None);
                }
                let action = entry
                    .action_for(&scope)
                    .cloned()
                    .unwrap_or(Action::Escalate);
                (action, Reason::Registry, entry.retry_after_ms)
            }
            _ => (
                unknown_code_action(retryable, &scope),
                Reason::UnknownCode,
                None,
            ),
        };
        if !is_timed(&action) {
            return filled(action, reason, None);
        }
        let payload_delay = match fields.get(at().retry_after_ms) {
            Some(Got::Number(n)) => integral_number(n, 0, policy::MAX_DELAY_VALUE_MS),
            _ => None,
        };
        let named = payload_delay.or(registry_delay);
        let limits = (attempt, max_attempts, max_delay_ms);
        let (action, reason, delay) =
            timed(action, reason, limits, named, draw.and_then(Option::take));
        filled(action, reason, delay)
    }
}

/// The registry's rule for a code this SDK does not know (no chosen action).
fn unknown_code_action(retryable: bool, scope: &Scope) -> Action {
    UNKNOWN_CODE_RULE
        .iter()
        .find(|row| row.retryable == retryable && row.scope == *scope)
        .map_or(Action::Escalate, |row| row.action.clone())
}

fn not_an_object() -> Problem {
    Problem::new(
        problem::NOT_AN_OBJECT,
        "payload must be a JSON object".to_owned(),
    )
}

fn invalid(correlation_id: Option<&str>) -> Decision {
    Decision {
        action: Action::Escalate,
        reason: Reason::InvalidPayload,
        code: None,
        wire_code: None,
        delay_ms: None,
        correlation_id: correlation_id.map(str::to_owned),
        resource_id: None,
        did_you_mean: Vec::new(),
        accepted: Vec::new(),
        searched: Map::new(),
    }
}

/// The index of a field in `FIELDS` by its wire name.
fn slot_of(wire: &str) -> Option<usize> {
    FIELDS.iter().position(|spec| spec.wire == wire)
}

/// The slots of the fields the checks and the decision read, found once by their wire names
/// (a lookup by name compared up to 13 strings, some twenty times a payload).
struct At {
    code: usize,
    category: usize,
    retryable: usize,
    retry_after_ms: usize,
    scope: usize,
    resource_id: usize,
    correlation_id: usize,
    searched: usize,
    did_you_mean: usize,
    accepted: usize,
}

fn at() -> &'static At {
    static AT: OnceLock<At> = OnceLock::new();
    AT.get_or_init(|| {
        // A wire name missing from FIELDS (never, by construction) reads as an absent field.
        let of = |wire: &str| slot_of(wire).unwrap_or(usize::MAX);
        At {
            code: of(wire::CODE),
            category: of(wire::CATEGORY),
            retryable: of(wire::RETRYABLE),
            retry_after_ms: of(wire::RETRY_AFTER_MS),
            scope: of(wire::SCOPE),
            resource_id: of(wire::RESOURCE_ID),
            correlation_id: of(wire::CORRELATION_ID),
            searched: of(wire::SEARCHED),
            did_you_mean: of(wire::DID_YOU_MEAN),
            accepted: of(wire::ACCEPTED),
        }
    })
}

impl<'a> Fields<'a> {
    fn new() -> Self {
        Fields {
            slots: std::array::from_fn(|_| None),
            first: [0; SLOTS],
            extras: Vec::new(),
            members: 0,
        }
    }

    /// A member of the contract, the slot `at`'s.
    fn put(&mut self, at: usize, got: Got<'a>) {
        if self.slots[at].is_none() {
            self.first[at] = self.members;
        }
        self.slots[at] = Some(got);
        self.members += 1;
    }

    /// A member outside the contract.
    fn extra(&mut self, key: Cow<'a, str>) {
        self.extras.push((key, self.members));
        self.members += 1;
    }

    fn of_object(object: &'a Map<String, Value>) -> Self {
        let mut fields = Fields::new();
        for (key, value) in object {
            match slot_of(key) {
                Some(at) => fields.put(at, Got::of(value)),
                None => fields.extra(Cow::Borrowed(key)),
            }
        }
        fields
    }

    fn get(&self, at: usize) -> Option<&Got<'a>> {
        self.slots.get(at)?.as_ref()
    }

    fn has(&self, at: usize) -> bool {
        self.get(at).is_some()
    }

    fn text(&self, at: usize) -> Option<&str> {
        match self.get(at)? {
            Got::Text(text) => Some(text),
            _ => None,
        }
    }

    fn delay_without_retry(&self) -> bool {
        matches!(self.get(at().retryable), Some(Got::Bool(false))) && self.has(at().retry_after_ms)
    }

    /// What every payload must satisfy, even one whose code this SDK does not know: an object of
    /// contract fields with the right types, holding the required ones. Fields outside the
    /// contract and fields of the wrong type are reported in the order a `serde_json::Map` of
    /// the payload iterates: by key, or where each key first came with `preserve_order`.
    fn envelope_problems(&self, found: &mut Vec<Problem>) {
        let wrong = FIELDS
            .iter()
            .zip(self.slots.iter().zip(self.first))
            .filter(|(spec, (got, _))| got.as_ref().is_some_and(|got| !got.fits(spec)));
        if !self.extras.is_empty() || wrong.clone().next().is_some() {
            let mut keyed: Vec<(&str, usize, Problem)> = self
                .extras
                .iter()
                .map(|(key, first)| (key.as_ref(), *first, extra_field(key)))
                .chain(wrong.map(|(spec, (_, first))| (spec.wire, first, wrong_type(spec))))
                .collect();
            keyed.sort_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
            keyed.dedup_by(|later, kept| later.0 == kept.0);
            if !maps_sort_keys() {
                keyed.sort_by_key(|k| k.1);
            }
            found.extend(keyed.into_iter().map(|(_, _, p)| p));
        }
        for (spec, _) in FIELDS
            .iter()
            .zip(&self.slots)
            .filter(|(spec, got)| spec.required && got.is_none())
        {
            found.push(Problem::new(
                problem::MISSING_FIELD,
                format!("required field {:?} is missing", spec.wire),
            ));
        }
        let resource = Scope::Resource;
        if self.text(at().scope) == Some(resource.as_str()) && !self.has(at().resource_id) {
            found.push(Problem::new(
                problem::RESOURCE_ID_MISSING,
                format!("scope is {resource}, so {} is required", wire::RESOURCE_ID),
            ));
        }
    }

    /// Contradictions between a well-formed payload and its code's registry entry.
    fn registry_problems(&self, entry: &CodeEntry, found: &mut Vec<Problem>) {
        let code = entry.wire;
        let category = self.text(at().category).unwrap_or_default();
        if category != entry.category.as_str() {
            found.push(Problem::new(
                problem::CATEGORY_MISMATCH,
                format!("{code} has category {}, not {category:?}", entry.category),
            ));
        }
        let retryable = matches!(self.get(at().retryable), Some(Got::Bool(true)));
        if retryable != entry.retryable {
            found.push(Problem::new(
                problem::RETRYABLE_MISMATCH,
                format!("{code} has retryable {}", entry.retryable),
            ));
        }
        let scope = self.text(at().scope).unwrap_or_default();
        if !entry.scopes.iter().any(|s| s.as_str() == scope) {
            found.push(Problem::new(
                problem::SCOPE_NOT_ALLOWED,
                format!("{code} may not carry scope {scope:?}"),
            ));
        }
        if self.has(at().retry_after_ms) && !entry.retryable {
            found.push(Problem::new(
                problem::RETRY_AFTER_NOT_RETRYABLE,
                format!(
                    "{code} is not retryable, so it has no {}",
                    wire::RETRY_AFTER_MS
                ),
            ));
        }
        for (spec, _) in FIELDS
            .iter()
            .zip(&self.slots)
            .filter(|(spec, got)| spec.hint && got.is_some())
        {
            if !entry.hints.contains(&spec.wire) {
                found.push(Problem::new(
                    problem::HINT_NOT_ALLOWED,
                    format!("{code} does not carry the hint field {:?}", spec.wire),
                ));
            }
        }
    }

    /// The decision's fields, from a payload whose envelope holds. `entry` is the code's, when
    /// the registry knows it.
    fn filled(
        &self,
        entry: Option<&'static CodeEntry>,
        action: Action,
        reason: Reason,
        delay_ms: Option<u64>,
    ) -> Decision {
        let text = |at: usize| self.text(at).map(str::to_owned);
        let list = |at: usize| match self.get(at) {
            Some(Got::List { items, .. }) => items.strings(),
            _ => Vec::new(),
        };
        let sent = self.text(at().code);
        let code = sent.map(|code| match entry {
            Some(entry) if entry.wire == code => entry.code.clone(),
            _ => Code::from_wire(code),
        });
        Decision {
            action,
            reason,
            code,
            wire_code: sent.map(sent_code),
            delay_ms,
            correlation_id: text(at().correlation_id),
            resource_id: text(at().resource_id),
            did_you_mean: list(at().did_you_mean),
            accepted: list(at().accepted),
            searched: match self.get(at().searched) {
                Some(Got::Map { entries, .. }) => entries.map(),
                _ => Map::new(),
            },
        }
    }
}

/// Whether a `serde_json::Map` iterates by key (its default), not in insertion order (its
/// `preserve_order` feature, which any crate in a build can turn on).
fn maps_sort_keys() -> bool {
    static SORTED: OnceLock<bool> = OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut map = Map::new();
        map.insert("b".to_owned(), Value::Null);
        map.insert("a".to_owned(), Value::Null);
        map.keys().next().is_some_and(|key| key == "a")
    })
}

fn extra_field(key: &str) -> Problem {
    Problem::new(
        problem::EXTRA_FIELD,
        format!("field {key:?} is not part of the contract"),
    )
}

fn wrong_type(spec: &FieldSpec) -> Problem {
    Problem::new(
        problem::WRONG_TYPE,
        format!("field {:?} must be {}", spec.wire, expected(spec)),
    )
}

/// What a field of `spec` must hold, in words.
pub(crate) fn expected(spec: &FieldSpec) -> String {
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

impl<'a> Got<'a> {
    fn of(value: &'a Value) -> Self {
        match value {
            Value::String(text) => Got::Text(Cow::Borrowed(text)),
            Value::Bool(b) => Got::Bool(*b),
            Value::Number(n) => Got::Number(n.clone()),
            Value::Array(items) => Got::List {
                strings: items.iter().all(Value::is_string),
                len: items.len(),
                items: Items::Value(items),
            },
            Value::Object(map) => Got::Map {
                scalars: map
                    .values()
                    .all(|v| v.is_string() || v.is_number() || v.is_boolean()),
                entries: Entries::Value(map),
            },
            Value::Null => Got::Null,
        }
    }

    /// Whether the value is what a field of `spec` holds.
    fn fits(&self, spec: &FieldSpec) -> bool {
        match (spec.kind, self) {
            (FieldKind::String, Got::Text(_)) | (FieldKind::Boolean, Got::Bool(_)) => true,
            (FieldKind::Integer, Got::Number(n)) => integral_number(
                n,
                spec.minimum.unwrap_or(0),
                spec.maximum.unwrap_or(policy::MAX_DELAY_VALUE_MS),
            )
            .is_some(),
            (FieldKind::Enum, Got::Text(text)) => spec.values.contains(&text.as_ref()),
            (FieldKind::StringList, Got::List { strings, len, .. }) => {
                *strings && spec.max_items.map_or(true, |max| *len <= max)
            }
            (FieldKind::ScalarMap, Got::Map { scalars, .. }) => *scalars,
            _ => false,
        }
    }
}

impl Items<'_> {
    /// The items that are strings, owned.
    fn strings(&self) -> Vec<String> {
        match self {
            Items::Value(items) => items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            Items::Json(text) => {
                let mut out = Vec::new();
                let mut reader = Reader::new(text);
                // The text was checked when it was read, so this reading succeeds.
                let _ = reader.elements(|r| {
                    if r.peek() == Some(b'"') {
                        out.push(r.string()?.into_owned());
                        Some(())
                    } else {
                        r.skip()
                    }
                });
                out
            }
        }
    }
}

impl Entries<'_> {
    /// The entries as a `serde_json::Map` (a repeated key: the last one).
    fn map(&self) -> Map<String, Value> {
        match self {
            Entries::Value(map) => (*map).clone(),
            Entries::Json(text) => {
                let mut pairs = Vec::new();
                let mut reader = Reader::new(text);
                // The text was checked when it was read, so this reading succeeds.
                let _ = reader.members(|r, key| {
                    pairs.push((key.into_owned(), r.scalar()?));
                    Some(())
                });
                // Built at once (a repeated key: the last value, at the first key's place with
                // `preserve_order`), as inserting each pair would: a sorted tree is built in one
                // pass, where inserting searched it from the root per entry.
                pairs.into_iter().collect()
            }
        }
    }
}

/// Reads the bytes of a body: a payload object's fields, or what else the bytes are.
fn read(bytes: &[u8]) -> Body<'_> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Body::NotJson;
    };
    let mut reader = Reader::new(text);
    reader.ws();
    let body = if reader.peek() == Some(b'{') {
        reader.object().map(Body::Object)
    } else {
        reader.skip().map(|()| Body::NotObject)
    };
    reader.ws();
    match body {
        Some(body) if reader.at == text.len() => body,
        _ => Body::NotJson,
    }
}

/// A JSON reader over checked UTF-8 text, as `serde_json` reads (whitespace, escapes, literals),
/// with `read_json`'s limits and number reading. Each method returns `None` when the text at its
/// position is not what it reads.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    depth: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader {
            text,
            at: 0,
            depth: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.at += 1;
        }
    }

    fn literal(&mut self, word: &str) -> Option<()> {
        let end = self.at + word.len();
        (self.text.as_bytes().get(self.at..end)? == word.as_bytes()).then(|| self.at = end)
    }

    /// The payload object's fields (at its `{`).
    fn object(&mut self) -> Option<Fields<'a>> {
        let mut fields = Fields::new();
        self.members(|r, key| {
            if let Some(at) = slot_of(&key) {
                fields.put(at, r.field()?);
            } else {
                fields.extra(key);
                r.skip()?;
            }
            Some(())
        })?;
        Some(fields)
    }

    /// A contract field's value, summarised for the checks.
    fn field(&mut self) -> Option<Got<'a>> {
        Some(match self.peek()? {
            b'"' => Got::Text(self.string()?),
            b'[' => {
                let start = self.at;
                let (mut strings, mut len) = (true, 0);
                self.elements(|r| {
                    len += 1;
                    if r.peek() == Some(b'"') {
                        r.string().map(drop)
                    } else {
                        strings = false;
                        r.skip()
                    }
                })?;
                let items = Items::Json(&self.text[start..self.at]);
                Got::List {
                    strings,
                    len,
                    items,
                }
            }
            b'{' => {
                let start = self.at;
                let mut scalars = true;
                self.members(|r, _| match r.peek()? {
                    b'"' => r.string().map(drop),
                    b'-' | b'0'..=b'9' => r.number().map(drop),
                    b't' => r.literal("true"),
                    b'f' => r.literal("false"),
                    _ => {
                        scalars = false;
                        r.skip()
                    }
                })?;
                let entries = Entries::Json(&self.text[start..self.at]);
                Got::Map { scalars, entries }
            }
            _ => match self.scalar()? {
                Value::String(text) => Got::Text(Cow::Owned(text)),
                Value::Bool(b) => Got::Bool(b),
                Value::Number(n) => Got::Number(n),
                _ => Got::Null,
            },
        })
    }

    /// A string, number, boolean or null.
    fn scalar(&mut self) -> Option<Value> {
        Some(match self.peek()? {
            b'"' => Value::String(self.string()?.into_owned()),
            b't' => self.literal("true").map(|()| Value::Bool(true))?,
            b'f' => self.literal("false").map(|()| Value::Bool(false))?,
            b'n' => self.literal("null").map(|()| Value::Null)?,
            b'-' | b'0'..=b'9' => Value::Number(self.number()?),
            _ => return None,
        })
    }

    /// Any value, checked and passed over.
    fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'[' => self.elements(Reader::skip),
            b'{' => self.members(|r, _| r.skip()),
            b'"' => self.string().map(drop),
            _ => self.scalar().map(drop),
        }
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= policy::MAX_JSON_DEPTH).then_some(())
    }

    /// An array (at its `[`), each item read by `each`.
    fn elements(&mut self, mut each: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.at += 1;
        self.enter()?;
        self.ws();
        if self.peek()? == b']' {
            self.at += 1;
        } else {
            loop {
                each(self)?;
                self.ws();
                match self.peek()? {
                    b',' => {
                        self.at += 1;
                        self.ws();
                    }
                    b']' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// An object (at its `{`), each value read by `each` with its key.
    fn members(
        &mut self,
        mut each: impl FnMut(&mut Self, Cow<'a, str>) -> Option<()>,
    ) -> Option<()> {
        self.at += 1;
        self.enter()?;
        self.ws();
        if self.peek()? == b'}' {
            self.at += 1;
        } else {
            loop {
                if self.peek()? != b'"' {
                    return None;
                }
                let key = self.string()?;
                self.ws();
                if self.peek()? != b':' {
                    return None;
                }
                self.at += 1;
                self.ws();
                each(self, key)?;
                self.ws();
                match self.peek()? {
                    b',' => {
                        self.at += 1;
                        self.ws();
                    }
                    b'}' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// A number token, read as `read_json` reads it.
    fn number(&mut self) -> Option<Number> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        while matches!(
            bytes.get(self.at),
            Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        ) {
            self.at += 1;
        }
        number_token(&self.text[start..self.at])
    }

    /// A string (at its opening quote): borrowed from the text unless it holds escapes.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let bytes = self.text.as_bytes();
        self.at += 1;
        let start = self.at;
        loop {
            match *bytes.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(Cow::Borrowed(&self.text[start..self.at - 1]));
                }
                b'\\' => break,
                c if c < 0x20 => return None,
                _ => self.at += 1,
            }
        }
        let mut out = String::from(&self.text[start..self.at]);
        loop {
            match *bytes.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(Cow::Owned(out));
                }
                b'\\' => out.push(self.escape()?),
                c if c < 0x20 => return None,
                _ => {
                    let run = self.at;
                    while bytes
                        .get(self.at)
                        .is_some_and(|&c| c != b'"' && c != b'\\' && c >= 0x20)
                    {
                        self.at += 1;
                    }
                    out.push_str(&self.text[run..self.at]);
                }
            }
        }
    }

    /// One escape (at its backslash); an unpaired UTF-16 surrogate is U+FFFD, as `read_json`
    /// reads it.
    fn escape(&mut self) -> Option<char> {
        let bytes = self.text.as_bytes();
        let letter = *bytes.get(self.at + 1)?;
        self.at += 2;
        Some(match letter {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = hex4(bytes, self.at)?;
                self.at += 4;
                match unit {
                    0xD800..=0xDBFF => {
                        let low = Some(self.at)
                            .filter(|&at| bytes.get(at..at + 2) == Some(b"\\u"))
                            .and_then(|at| hex4(bytes, at + 2))
                            .filter(|low| (0xDC00..=0xDFFF).contains(low));
                        match low {
                            Some(low) => {
                                self.at += 6;
                                char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?
                            }
                            None => '\u{FFFD}',
                        }
                    }
                    0xDC00..=0xDFFF => '\u{FFFD}',
                    _ => char::from_u32(unit)?,
                }
            }
            _ => return None,
        })
    }
}
