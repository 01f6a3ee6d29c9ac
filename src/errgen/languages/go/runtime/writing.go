package errgenruntime

import (
	"net/http"
	"strconv"
	"strings"
)

// Writing a payload in the API's own shape (docs/conformance.md, "Writing in the API's own
// shape"): each fact at the first body source and the first header source the registry reads it
// from, every `equals` condition made true, and for `format: xml` a flat XML document of those
// writes alone.

// write is one value to put at one source.
type write struct {
	at    source
	value any
}

// apiShape is body as the API itself sends it, header then holding the API's headers too: the
// writes apply (an XML API's body holds them alone). payload already holds the code as sent
// (sentCode); code is the code it stood for.
func apiShape(code string, payload *object, body any, header http.Header) any {
	facts := [4]any{payload.vals[wCode], payload.vals[wMessage], payload.vals[wCorrelationID], payload.vals[wResourceID]}
	var variant []condition
	if sent, ok := payload.vals[wCode].(string); ok {
		for _, row := range response.variants[sent] {
			if row.code == code {
				variant = append(variant, row.when...)
			}
		}
	}
	if response.format == "xml" {
		body = newObject()
	}
	return applyWrites(body, header, writes(facts, variant))
}

// sentCode is the wire code a code goes out as: the one it shares with others, else itself.
func sentCode(code string) string {
	if wire, ok := response.wireCode[code]; ok {
		return wire
	}
	return code
}

// writes are the (source, value) pairs in the order they apply: the facts (code as sent,
// message, correlation id, resource id) at their first body then first header source, then the
// `error_when` conditions, then the code's own `when` conditions, each `equals` one made true.
func writes(facts [4]any, variant []condition) []write {
	var out []write
	for i, sources := range [4][]source{response.code, response.message, response.correlationID, response.resourceID} {
		value, ok := facts[i].(string)
		if !ok {
			continue
		}
		for _, kind := range [2]string{"body", "header"} {
			for _, s := range sources {
				if s.in == kind {
					out = append(out, write{s, value})
					break
				}
			}
		}
	}
	for _, conditions := range [2][]condition{response.errorWhen, variant} {
		for _, c := range conditions {
			if c.equals && !c.isStatus {
				out = append(out, write{c.at, c.want})
			}
		}
	}
	return out
}

func applyWrites(body any, header http.Header, todo []write) any {
	for _, w := range todo {
		switch w.at.in {
		case "header":
			if text, ok := w.value.(string); ok {
				setHeader(header, w.at.name, text)
			}
		case "body":
			body = put(body, w.at.path, w.value)
		}
	}
	return body
}

// setHeader sets header name to value when the value may go in a header at all (see
// headerWritable); otherwise the header is left out, and the body still carries the value.
func setHeader(header http.Header, name, value string) {
	if headerWritable(value) {
		header.Set(name, value)
	}
}

// headerWritable is the one rule for every header value ToHTTP writes (docs/conformance.md):
// non-empty, at most maxHeaderChars characters, each in U+0020..U+007E. CR, LF and NUL would
// split or cut the response, and a value past the readers' limit is one no reader takes.
func headerWritable(value string) bool {
	if value == "" || len(value) > maxHeaderChars {
		return false
	}
	for i := 0; i < len(value); i++ {
		if value[i] < 0x20 || value[i] > 0x7e {
			return false
		}
	}
	return true
}

// put is node with value at path: objects and arrays made on the way (an array padded with empty
// objects, `[*]` as index 0), a scalar in the way replaced. node itself is never changed: it may
// share values with the caller's payload.
func put(node any, path []pathStep, value any) any {
	if len(path) == 0 {
		return value
	}
	step, rest := path[0], path[1:]
	if step.isKey {
		obj := newObject()
		if old, ok := node.(*object); ok {
			for _, k := range old.keys {
				obj.set(k, old.vals[k])
			}
		}
		obj.set(step.key, put(obj.vals[step.key], rest, value))
		return obj
	}
	index := max(step.index, 0) // anyStep writes the first element
	var items []any
	if old, ok := node.([]any); ok {
		items = append(items, old...)
	}
	for len(items) <= index {
		items = append(items, newObject())
	}
	items[index] = put(items[index], rest, value)
	return items
}

// xmlDeclaration starts every XML body.
const xmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

// toXML is the document's first member as the root element, or "" when it has none.
func toXML(document any) []byte {
	obj, ok := document.(*object)
	if !ok || len(obj.keys) == 0 {
		return []byte{}
	}
	var b strings.Builder
	b.WriteString(xmlDeclaration)
	writeElement(&b, obj.keys[0], obj.vals[obj.keys[0]])
	return []byte(b.String())
}

// writeElement writes strings only: an XML reader reads every value as text, so a number or
// boolean written here could never equal what a condition compares it with. A name the flat
// XML reader refuses is left out with all it holds.
func writeElement(b *strings.Builder, name string, value any) {
	if name == "" || strings.ContainsAny(name, " \t\r\n/>=<\"'&!?") {
		return
	}
	switch t := value.(type) {
	case []any:
		for _, item := range t {
			writeElement(b, name, item)
		}
	case *object:
		b.WriteString("<" + name + ">")
		for _, k := range t.keys {
			writeElement(b, k, t.vals[k])
		}
		b.WriteString("</" + name + ">")
	case string:
		b.WriteString("<" + name + ">")
		writeXMLText(b, t)
		b.WriteString("</" + name + ">")
	}
}

// writeXMLText escapes &, < and >, writes each code point below U+0020 as a decimal character
// reference, and NUL, which has no XML form, as U+FFFD.
func writeXMLText(b *strings.Builder, text string) {
	for _, r := range text {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == 0:
			b.WriteRune('\uFFFD')
		case r < 0x20:
			b.WriteString("&#" + strconv.Itoa(int(r)) + ";")
		default:
			b.WriteRune(r)
		}
	}
}
