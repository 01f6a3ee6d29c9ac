//! Writing a response body in the API's own shape (errgen's `docs/conformance.md`, "Writing in
//! the API's own shape"): each fact at the first body and header source the registry reads it
//! from, every `equals` condition made true, JSON with object members in the order they were
//! written (as every errgen SDK writes them, whatever `serde_json`'s features), or flat XML.

use serde_json::{Map, Value};

use crate::data::{policy, wire, FIELDS};
use crate::payload::ErrorPayload;
use crate::response_spec::{api_writes, wire_code, xml_format, Step, Target};

/// A JSON document whose objects keep their members in insertion order: `serde_json`'s `Map` is
/// sorted unless a crate in the build enables its `preserve_order`, so the body is built here.
#[derive(Debug, Clone)]
pub(crate) enum Node {
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
    Scalar(Value),
}

impl Node {
    fn empty() -> Self {
        Node::Object(Vec::new())
    }

    /// A JSON value as a node; its objects keep the map's order.
    pub(crate) fn from_value(value: Value) -> Self {
        match value {
            Value::Object(map) => Node::object(map),
            Value::Array(items) => Node::Array(items.into_iter().map(Node::from_value).collect()),
            scalar => Node::Scalar(scalar),
        }
    }

    fn object(map: Map<String, Value>) -> Self {
        Node::Object(
            map.into_iter()
                .map(|(key, value)| (key, Node::from_value(value)))
                .collect(),
        )
    }

    /// A member set: an existing key keeps its place, a new one goes last.
    pub(crate) fn insert(members: &mut Vec<(String, Node)>, key: &str, value: Node) {
        match members.iter_mut().find(|(name, _)| name == key) {
            Some(slot) => slot.1 = value,
            None => members.push((key.to_owned(), value)),
        }
    }
}

/// The payload's members in the contract's field order (the order of every SDK's payload).
pub(crate) fn payload_node(payload: &ErrorPayload) -> Vec<(String, Node)> {
    let Value::Object(mut fields) = payload.to_value() else {
        return Vec::new();
    };
    FIELDS
        .iter()
        .filter_map(|field| {
            let value = fields.remove(field.wire)?;
            Some((field.wire.to_owned(), Node::from_value(value)))
        })
        .collect()
}

/// The payload's members as the envelope holds them: an object, or for an array envelope
/// (`errors[*]`) a one-element array of it.
pub(crate) fn enveloped(fields: Vec<(String, Node)>) -> Node {
    if policy::ENVELOPE_ARRAY {
        Node::Array(vec![Node::Object(fields)])
    } else {
        Node::Object(fields)
    }
}

/// The payload's members within errgen's body: the body itself, or the object under the
/// envelope (its first entry for an array envelope).
fn payload_members(members: &mut Vec<(String, Node)>) -> Option<&mut Vec<(String, Node)>> {
    let Some(key) = policy::ENVELOPE else {
        return Some(members);
    };
    let (_, node) = members.iter_mut().find(|(name, _)| name == key)?;
    let node = match node {
        Node::Array(items) => items.first_mut()?,
        node => node,
    };
    match node {
        Node::Object(inner) => Some(inner),
        _ => None,
    }
}

/// The body `to_http` sends for `payload`: `members` (errgen's body, enveloped or problem+json)
/// with the API's own shape written over it, or for an XML API those writes alone; headers set
/// on the way.
pub(crate) fn api_body(
    payload: &ErrorPayload,
    mut members: Vec<(String, Node)>,
    headers: &mut Vec<(String, String)>,
) -> Vec<u8> {
    let code = payload.code.as_str();
    let mut sent = code;
    if let Some((wire_code, _)) = wire_code(code) {
        sent = wire_code;
        if let Some(inner) = payload_members(&mut members) {
            Node::insert(inner, wire::CODE, Node::Scalar(Value::from(sent)));
        }
    }
    let facts = [
        payload.message.as_deref(),
        Some(payload.correlation_id.as_str()),
        payload.resource_id.as_deref(),
    ];
    let mut document = if xml_format() {
        Node::empty()
    } else {
        Node::Object(members)
    };
    for (target, value) in api_writes(code, sent, facts) {
        match (target, value) {
            (Target::Header(name), Value::String(text)) => set_header(headers, name, &text),
            (Target::Header(_), _) => {}
            (Target::Body(path), value) => document = put(document, path, Node::from_value(value)),
        }
    }
    if xml_format() {
        headers
            .iter_mut()
            .filter(|(name, _)| name == "Content-Type")
            .for_each(|header| "application/xml".clone_into(&mut header.1));
        return to_xml(&document).into_bytes();
    }
    let mut out = String::new();
    write_json(&mut out, &document);
    out.into_bytes()
}

/// `node` with `value` at `path`: objects and arrays made on the way (an array padded with empty
/// objects, `[*]` as index 0), a value in the way replaced; a new key goes last.
fn put(node: Node, path: &[Step], value: Node) -> Node {
    let Some((step, rest)) = path.split_first() else {
        return value;
    };
    match step {
        Step::Key(key) => {
            let mut members = match node {
                Node::Object(members) => members,
                _ => Vec::new(),
            };
            if let Some(slot) = members.iter_mut().find(|(name, _)| name == key) {
                let inner = std::mem::replace(&mut slot.1, Node::Scalar(Value::Null));
                slot.1 = put(inner, rest, value);
            } else {
                let placed = put(Node::Scalar(Value::Null), rest, value);
                members.push((key.clone(), placed));
            }
            Node::Object(members)
        }
        Step::Index(index) => {
            let index = usize::try_from(*index).unwrap_or(0);
            let mut items = match node {
                Node::Array(items) => items,
                _ => Vec::new(),
            };
            while items.len() <= index {
                items.push(Node::empty());
            }
            let inner = std::mem::replace(&mut items[index], Node::Scalar(Value::Null));
            items[index] = put(inner, rest, value);
            Node::Array(items)
        }
    }
}

/// Compact JSON, members in order; strings and numbers as `serde_json` writes them (the escapes of
/// every errgen SDK: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other controls as `\u00XX`).
pub(crate) fn write_json(out: &mut String, node: &Node) {
    match node {
        Node::Object(members) => {
            out.push('{');
            for (at, (key, value)) in members.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push(':');
                write_json(out, value);
            }
            out.push('}');
        }
        Node::Array(items) => {
            out.push('[');
            for (at, item) in items.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                write_json(out, item);
            }
            out.push(']');
        }
        Node::Scalar(value) => out.push_str(&value.to_string()),
    }
}

/// The document's first member as the root element, or "" when it has none.
fn to_xml(document: &Node) -> String {
    let Node::Object(members) = document else {
        return String::new();
    };
    let Some((name, value)) = members.first() else {
        return String::new();
    };
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    element(&mut out, name, value);
    out
}

/// Strings only: an XML reader reads every value as text.
fn element(out: &mut String, name: &str, value: &Node) {
    if name.is_empty() || name.chars().any(|c| " \t\r\n/>=<\"'&!?".contains(c)) {
        return;
    }
    match value {
        Node::Array(items) => {
            for item in items {
                element(out, name, item);
            }
        }
        Node::Object(members) => {
            tag(out, "<", name);
            for (key, item) in members {
                element(out, key, item);
            }
            tag(out, "</", name);
        }
        Node::Scalar(Value::String(text)) => {
            tag(out, "<", name);
            for c in text.chars() {
                match c {
                    '&' => out.push_str("&amp;"),
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    '\0' => out.push('\u{fffd}'),
                    c if u32::from(c) < 0x20 => {
                        out.push_str("&#");
                        out.push_str(&u32::from(c).to_string());
                        out.push(';');
                    }
                    c => out.push(c),
                }
            }
            tag(out, "</", name);
        }
        Node::Scalar(_) => {}
    }
}

/// Whether a header value may be written (errgen's `docs/conformance.md`, "Writing"): 1 to
/// `MAX_HEADER_CHARS` characters, each visible ASCII or a space. Anything else (CR, LF, NUL,
/// other controls, non-ASCII, a 100 KB message) would split or break the response, or be cut by
/// the reader: the header is left out, and the body still carries the value.
pub(crate) fn writable(value: &str) -> bool {
    let limit = usize::try_from(policy::MAX_HEADER_CHARS).unwrap_or(usize::MAX);
    // Visible ASCII only, so the byte count is the character count.
    !value.is_empty() && value.len() <= limit && value.bytes().all(|b| (b' '..=b'~').contains(&b))
}

/// `<name>` or `</name>`.
fn tag(out: &mut String, open: &str, name: &str) {
    out.push_str(open);
    out.push_str(name);
    out.push('>');
}

fn set_header(headers: &mut Vec<(String, String)>, name: &str, value: &str) {
    match headers.iter_mut().find(|(n, _)| n == name) {
        Some(header) => value.clone_into(&mut header.1),
        None => headers.push((name.to_owned(), value.to_owned())),
    }
}
