package errgenruntime

import (
	"net/http"
	"strconv"
	"strings"
)

// Writing in the API's own shape (docs/conformance.md, "Writing in the API's own shape"): each
// fact at the first body source and the first header source the registry reads it from, every
// `equals` condition made true, and for `format: xml` a flat XML document of those writes alone.

// apiCode is the payload's code and the code it goes out as: a code that shares its wire code
// with others is sent as that wire code (in the payload too).
func apiCode(obj *object) (code, sent string) {
	code, _ = obj.vals[wCode].(string)
	sent = code
	for wire, rows := range response.variants {
		for _, row := range rows {
			if row.code == code {
				sent = wire
			}
		}
	}
	if sent != code {
		obj.set(wCode, sent)
	}
	return code, sent
}

type write struct {
	at    source
	value any
}

// apiShape applies the writes to body (an XML API's to an empty document) and header.
func apiShape(obj *object, code, sent string, body any, header http.Header) any {
	var writes []write
	facts := []struct {
		sources []source
		value   any
	}{
		{response.code, sent}, {response.message, obj.vals[wMessage]},
		{response.correlationID, obj.vals[wCorrelationID]}, {response.resourceID, obj.vals[wResourceID]},
	}
	for _, fact := range facts {
		value, ok := fact.value.(string)
		if !ok {
			continue
		}
		for _, kind := range []string{"body", "header"} {
			for _, s := range fact.sources {
				if s.in == kind {
					writes = append(writes, write{s, value})
					break
				}
			}
		}
	}
	conditions := append([]condition(nil), response.errorWhen...)
	for _, row := range response.variants[sent] {
		if row.code == code {
			conditions = append(conditions, row.when...)
		}
	}
	for _, c := range conditions {
		if c.equals && !c.isStatus {
			writes = append(writes, write{c.at, c.want})
		}
	}
	if response.format == "xml" {
		body = newObject()
	}
	for _, w := range writes {
		switch w.at.in {
		case "header":
			if text, ok := w.value.(string); ok {
				header.Set(w.at.name, text)
			}
		case "body":
			body = put(body, w.at.path, w.value)
		}
	}
	return body
}

// put sets value at path in node: objects and arrays made on the way (an array padded with empty
// objects, [*] as index 0), a value in the way replaced; a new key goes last.
func put(node any, path []pathStep, value any) any {
	if len(path) == 0 {
		return value
	}
	step, rest := path[0], path[1:]
	if step.isKey {
		obj, ok := node.(*object)
		if !ok {
			obj = newObject()
		}
		obj.set(step.key, put(obj.vals[step.key], rest, value))
		return obj
	}
	index := step.index
	if index == anyStep {
		index = 0
	}
	items, _ := node.([]any)
	items = append([]any(nil), items...)
	for len(items) <= index {
		items = append(items, newObject())
	}
	items[index] = put(items[index], rest, value)
	return items
}

// toXML is the document's first member as the root element, or "" when it has none.
func toXML(document any) string {
	obj, ok := document.(*object)
	if !ok || len(obj.keys) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	writeElement(&b, obj.keys[0], obj.vals[obj.keys[0]])
	return b.String()
}

// writeElement writes strings only: an XML reader reads every value as text, so a number or
// boolean written here could never equal what a condition compares it with.
func writeElement(b *strings.Builder, name string, value any) {
	if name == "" || strings.ContainsAny(name, " \t\r\n/>=<\"'&!?") {
		return
	}
	switch v := value.(type) {
	case []any:
		for _, item := range v {
			writeElement(b, name, item)
		}
	case *object:
		b.WriteString("<" + name + ">")
		for _, k := range v.keys {
			writeElement(b, k, v.vals[k])
		}
		b.WriteString("</" + name + ">")
	case string:
		b.WriteString("<" + name + ">")
		for _, r := range v {
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
		b.WriteString("</" + name + ">")
	}
}
