//! MCP tool results: an error as a `CallToolResult` with `isError`, and the raw payload back.

use serde_json::{json, Value};

use crate::json::read_json;
use crate::payload::ErrorPayload;

/// A `tools/call` result: `isError`, the payload as compact JSON text and as `structuredContent`.
#[must_use]
pub fn to_mcp_result(payload: &ErrorPayload) -> Value {
    let structured = payload.to_value();
    let text = structured.to_string();
    json!({
        "content": [{"type": "text", "text": text}],
        "structuredContent": structured,
        "isError": true,
    })
}

/// The raw payload of a `tools/call` result: `structuredContent` when it is an object, else the
/// JSON of the first text item (a string when that text is not JSON), else `null`.
#[must_use]
pub fn from_mcp_result(result: &Value) -> Value {
    let Some(result) = result.as_object() else {
        return Value::Null;
    };
    if let Some(structured @ Value::Object(_)) = result.get("structuredContent") {
        return structured.clone();
    }
    let first_text = result
        .get("content")
        .and_then(Value::as_array)
        .and_then(|items| {
            items.iter().find_map(|item| {
                let item = item.as_object()?;
                if item.get("type").and_then(Value::as_str) != Some("text") {
                    return None;
                }
                item.get("text").and_then(Value::as_str)
            })
        });
    first_text
        .and_then(|text| read_json(text.as_bytes()))
        .unwrap_or(Value::Null)
}
