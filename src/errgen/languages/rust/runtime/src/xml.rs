//! The flat XML some APIs answer errors in (S3's `<Error><Code>...`), read as nested JSON
//! objects by the grammar of errgen's `docs/conformance.md` ("Flat XML"): no DOCTYPE, CDATA or
//! entity declaration (no XXE), one pass, a stack at most `policy::MAX_XML_DEPTH` deep.

use serde_json::{Map, Value};

use crate::data::policy;

/// An element being read: its name, its children so far, its raw text so far.
struct Open<'a> {
    name: &'a str,
    children: Map<String, Value>,
    text: String,
}

impl Open<'_> {
    /// The object of its children, else its decoded text; `None` for a bad `&`.
    fn value(self) -> Option<Value> {
        if self.children.is_empty() {
            decode(&self.text).map(Value::String)
        } else {
            Some(Value::Object(self.children))
        }
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn skip_space(b: &[u8], mut at: usize) -> usize {
    while at < b.len() && is_space(b[at]) {
        at += 1;
    }
    at
}

/// A name at `at`: one or more characters other than white space and `/ > = < " ' & ! ?`.
fn name_at(text: &str, at: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    let mut end = at;
    while end < b.len() && !is_space(b[end]) && !b"/>=<\"'&!?".contains(&b[end]) {
        end += 1;
    }
    (end > at).then(|| (&text[at..end], end))
}

/// A start tag's name, the index after it, and whether it is empty (`<a/>`); attributes ignored.
fn start_tag(text: &str, at: usize) -> Option<(&str, usize, bool)> {
    let b = text.as_bytes();
    let (name, mut at) = name_at(text, at)?;
    loop {
        let before = at;
        at = skip_space(b, at);
        match (b.get(at), b.get(at + 1)) {
            (Some(b'>'), _) => return Some((name, at + 1, false)),
            (Some(b'/'), Some(b'>')) => return Some((name, at + 2, true)),
            _ if at == before => return None,
            _ => {}
        }
        let (_, after) = name_at(text, at)?;
        at = skip_space(b, after);
        if b.get(at) != Some(&b'=') {
            return None;
        }
        at = skip_space(b, at + 1);
        let quote = *b.get(at).filter(|q| matches!(q, b'"' | b'\''))?;
        let length = b[at + 1..].iter().position(|&c| c == quote || c == b'<')?;
        at += 1 + length;
        if b[at] != quote {
            return None;
        }
        at += 1;
    }
}

/// Text with `&lt; &gt; &amp; &quot; &apos;`, `&#N;` and `&#xH;` decoded; `None` for any other `&`.
fn decode(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let named = [
            ("lt;", '<'),
            ("gt;", '>'),
            ("amp;", '&'),
            ("quot;", '"'),
            ("apos;", '\''),
        ]
        .into_iter()
        .find(|(name, _)| after.starts_with(name));
        if let Some((name, ch)) = named {
            out.push(ch);
            rest = &after[name.len()..];
            continue;
        }
        let (digits, radix, most) = match after.strip_prefix("#x") {
            Some(hex) => (hex, 16, 6),
            None => (after.strip_prefix('#')?, 10, 7),
        };
        let length = digits
            .bytes()
            .take_while(|b| {
                if radix == 16 {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        if length == 0 || length > most || digits.as_bytes().get(length) != Some(&b';') {
            return None;
        }
        let point = u32::from_str_radix(&digits[..length], radix).ok()?;
        out.push(char::from_u32(point).filter(|&c| c != '\0')?);
        rest = &digits[length + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// `{root: value}` for one XML element by the flat grammar of errgen's `docs/conformance.md`;
/// `None` for anything else, and for any DOCTYPE, CDATA or entity declaration (no XXE). One pass,
/// with a stack at most `MAX_XML_DEPTH` deep.
pub(crate) fn read_xml(text: &str) -> Option<Value> {
    let depth = usize::try_from(policy::MAX_XML_DEPTH).unwrap_or(usize::MAX);
    let b = text.as_bytes();
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut root: Option<(&str, Value)> = None;
    let mut at = 0;
    while at < b.len() {
        if b[at] != b'<' {
            let end = b[at..]
                .iter()
                .position(|&c| c == b'<')
                .map_or(b.len(), |p| at + p);
            match stack.last_mut() {
                Some(open) => open.text.push_str(&text[at..end]),
                None if b[at..end].iter().all(|&c| is_space(c)) => {}
                None => return None, // text outside the root element
            }
            at = end;
            continue;
        }
        let rest = &text[at..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            at += 4 + comment.find("-->")? + 3;
            continue;
        }
        if let Some(instruction) = rest.strip_prefix("<?") {
            at += 2 + instruction.find("?>")? + 2;
            continue;
        }
        let (name, value) = if b.get(at + 1) == Some(&b'/') {
            let (name, end) = name_at(text, at + 2)?;
            let end = skip_space(b, end);
            if b.get(end) != Some(&b'>') {
                return None;
            }
            at = end + 1;
            let open = stack.pop().filter(|open| open.name == name)?;
            (name, open.value()?)
        } else {
            let (name, end, empty) = start_tag(text, at + 1)?;
            at = end;
            if root.is_some() || stack.len() >= depth {
                return None; // a second root, or too deep
            }
            if !empty {
                stack.push(Open {
                    name,
                    children: Map::new(),
                    text: String::new(),
                });
                continue;
            }
            (name, Value::String(String::new()))
        };
        match stack.last_mut() {
            Some(parent) => {
                parent.children.entry(name).or_insert(value);
            }
            None => root = Some((name, value)),
        }
    }
    let (name, value) = root.filter(|_| stack.is_empty())?;
    let mut document = Map::new();
    document.insert(name.to_owned(), value);
    Some(Value::Object(document))
}
