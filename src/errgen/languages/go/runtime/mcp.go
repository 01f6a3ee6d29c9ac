package errgenruntime

// MCPResult is an MCP tools/call result (CallToolResult) carrying an error payload, with the
// protocol's JSON names: marshal it with encoding/json, or copy its fields into an MCP SDK's
// result type.
type MCPResult struct {
	// Content is one text item: the payload as compact JSON.
	Content []MCPContent `json:"content"`
	// StructuredContent is the same payload (nil, and left out, when there is none).
	StructuredContent *ErrorPayload `json:"structuredContent,omitempty"`
	// IsError is always true: the call failed.
	IsError bool `json:"isError"`
}

// MCPContent is one content item of an MCPResult.
type MCPContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// ToMCPResult is an MCP tools/call result for p: isError, the payload as compact JSON text
// content, and as structuredContent (a copy: changing p later changes neither).
func ToMCPResult(p *ErrorPayload) MCPResult {
	value := normalize(p)
	result := MCPResult{Content: []MCPContent{{Type: "text", Text: string(encodeJSON(value, false))}}, IsError: true}
	if obj, ok := value.(*object); ok {
		result.StructuredContent = payloadFrom(obj)
	}
	return result
}

// FromMCPResult is the raw payload of an MCP tools/call result (an MCPResult, or one decoded
// with encoding/json): structuredContent when it is an object, else the JSON in the first text
// content item, else null.
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
