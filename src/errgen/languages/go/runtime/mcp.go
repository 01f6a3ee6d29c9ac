package errgenruntime

import (
	"encoding/json"
	"strings"
)

// ToMCPResult is an MCP tools/call result for p: isError, the payload as compact JSON text
// content, and as structuredContent.
func ToMCPResult(p *ErrorPayload) map[string]any {
	text := string(encodeJSON(normalize(p), false))
	var structured map[string]any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if dec.Decode(&structured) != nil {
		structured = map[string]any{}
	}
	return map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": text}},
		"structuredContent": structured,
		"isError":           true,
	}
}

// FromMCPResult is the raw payload of a decoded MCP tools/call result: structuredContent when it
// is an object, else the JSON in the first text content item, else null.
func FromMCPResult(result any) Raw {
	obj, ok := normalize(result).(*object)
	if !ok {
		return Raw{nil}
	}
	if structured, ok := obj.vals["structuredContent"].(*object); ok {
		return Raw{structured}
	}
	content, _ := obj.vals["content"].([]any)
	for _, item := range content {
		entry, ok := item.(*object)
		if !ok {
			continue
		}
		kind, _ := entry.vals["type"].(string)
		text, isText := entry.vals["text"].(string)
		if kind != "text" || !isText {
			continue
		}
		if value, ok := decodeJSON([]byte(text), maxJSONDepth); ok {
			return Raw{value}
		}
		return Raw{nil}
	}
	return Raw{nil}
}
