package errgenruntime

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Flat XML (docs/conformance.md, "Flat XML"): one element of elements and text, comments and
// processing instructions skipped, attributes ignored; no DTD, no CDATA, no entity but the five
// predefined ones and character references, so nothing is ever expanded or fetched. One token at
// a time, with a stack at most maxXMLDepth deep: linear in the text.

// openElement is an element being read: its name, its children so far, its text so far.
type openElement struct {
	name     string
	children *object
	text     strings.Builder
}

func (e *openElement) value() (any, bool) {
	if len(e.children.keys) > 0 {
		return e.children, true
	}
	return decodeXMLText(e.text.String())
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// isNameByte: a name is any characters but white space and / > = < " ' & ! ?
func isNameByte(c byte) bool {
	return !isXMLSpace(c) && !strings.ContainsRune(`/>=<"'&!?`, rune(c))
}

type xmlReader struct {
	text string
	pos  int
}

func (r *xmlReader) name() (string, bool) {
	start := r.pos
	for r.pos < len(r.text) && isNameByte(r.text[r.pos]) {
		r.pos++
	}
	return r.text[start:r.pos], r.pos > start
}

func (r *xmlReader) spaces() int {
	start := r.pos
	for r.pos < len(r.text) && isXMLSpace(r.text[r.pos]) {
		r.pos++
	}
	return r.pos - start
}

// attribute reads `WS+ NAME WS* = WS* "..."` (or '...', without < or its own quote); on a
// mismatch it reads nothing.
func (r *xmlReader) attribute() bool {
	saved := r.pos
	if r.spaces() == 0 {
		r.pos = saved
		return false
	}
	if _, ok := r.name(); !ok {
		r.pos = saved
		return false
	}
	r.spaces()
	if r.pos >= len(r.text) || r.text[r.pos] != '=' {
		r.pos = saved
		return false
	}
	r.pos++
	r.spaces()
	if r.pos >= len(r.text) || (r.text[r.pos] != '"' && r.text[r.pos] != '\'') {
		r.pos = saved
		return false
	}
	quote := r.text[r.pos]
	end := strings.IndexAny(r.text[r.pos+1:], string(quote)+"<")
	if end < 0 || r.text[r.pos+1+end] != quote {
		r.pos = saved
		return false
	}
	r.pos += end + 2
	return true
}

// startTag reads `<NAME ATTRS WS* /?>` after its `<`.
func (r *xmlReader) startTag() (name string, empty, ok bool) {
	if name, ok = r.name(); !ok {
		return "", false, false
	}
	for r.attribute() {
	}
	r.spaces()
	if strings.HasPrefix(r.text[r.pos:], "/>") {
		r.pos += 2
		return name, true, true
	}
	if r.pos < len(r.text) && r.text[r.pos] == '>' {
		r.pos++
		return name, false, true
	}
	return "", false, false
}

// endTag reads `</NAME WS*>` after its `</`.
func (r *xmlReader) endTag() (string, bool) {
	name, ok := r.name()
	r.spaces()
	if !ok || r.pos >= len(r.text) || r.text[r.pos] != '>' {
		return "", false
	}
	r.pos++
	return name, true
}

// readXML is {root: value} for one flat XML element; false for anything else.
func readXML(text string) (any, bool) {
	r := &xmlReader{text: text}
	var stack []*openElement
	var root *object
	for r.pos < len(text) {
		if text[r.pos] != '<' {
			end := strings.IndexByte(text[r.pos:], '<')
			if end < 0 {
				end = len(text) - r.pos
			}
			chars := text[r.pos : r.pos+end]
			r.pos += end
			if len(stack) > 0 {
				stack[len(stack)-1].text.WriteString(chars)
			} else if strings.Trim(chars, " \t\r\n") != "" {
				return nil, false // text outside the root element
			}
			continue
		}
		rest := text[r.pos:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				return nil, false
			}
			r.pos += 4 + end + 3
			continue
		case strings.HasPrefix(rest, "<?"):
			end := strings.Index(rest[2:], "?>")
			if end < 0 {
				return nil, false
			}
			r.pos += 2 + end + 2
			continue
		}
		var name string
		var value any
		if strings.HasPrefix(rest, "</") {
			r.pos += 2
			closing, ok := r.endTag()
			if !ok || len(stack) == 0 || stack[len(stack)-1].name != closing {
				return nil, false
			}
			done := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if value, ok = done.value(); !ok {
				return nil, false
			}
			name = done.name
		} else {
			r.pos++
			opening, empty, ok := r.startTag()
			if !ok || root != nil || len(stack) >= maxXMLDepth {
				return nil, false // <!DOCTYPE, <![CDATA[, a stray <, a second root, too deep
			}
			if !empty {
				stack = append(stack, &openElement{name: opening, children: newObject()})
				continue
			}
			name, value = opening, ""
		}
		if len(stack) > 0 {
			if parent := stack[len(stack)-1].children; !parent.has(name) {
				parent.set(name, value) // the first of a repeated name wins
			}
		} else {
			root = newObject()
			root.set(name, value)
		}
	}
	if root == nil || len(stack) > 0 {
		return nil, false
	}
	return root, true
}

// decodeXMLText decodes the five predefined entities and character references (not 0, not a
// surrogate, not past U+10FFFF); any other & makes the document unreadable.
func decodeXMLText(text string) (string, bool) {
	if !strings.Contains(text, "&") {
		return text, true
	}
	var out strings.Builder
	for {
		at := strings.IndexByte(text, '&')
		if at < 0 {
			out.WriteString(text)
			return out.String(), true
		}
		out.WriteString(text[:at])
		text = text[at+1:]
		semi := strings.IndexByte(text, ';')
		if semi < 0 {
			return "", false
		}
		ref := text[:semi]
		text = text[semi+1:]
		switch ref {
		case "lt":
			out.WriteByte('<')
		case "gt":
			out.WriteByte('>')
		case "amp":
			out.WriteByte('&')
		case "quot":
			out.WriteByte('"')
		case "apos":
			out.WriteByte('\'')
		default:
			point, ok := characterReference(ref)
			if !ok {
				return "", false
			}
			out.WriteRune(point)
		}
	}
}

// characterReference reads `#N` (1-7 digits) or `#xH` (1-6 hex digits).
func characterReference(ref string) (rune, bool) {
	digits, base, most := strings.TrimPrefix(ref, "#"), 10, 7
	if len(digits) == len(ref) {
		return 0, false
	}
	if strings.HasPrefix(digits, "x") {
		digits, base, most = digits[1:], 16, 6
	}
	if len(digits) < 1 || len(digits) > most {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if !isDigit(c) && (base == 10 || !strings.ContainsRune("abcdefABCDEF", rune(c))) {
			return 0, false
		}
	}
	point, err := strconv.ParseInt(digits, base, 32)
	if err != nil || point == 0 || (0xD800 <= point && point <= 0xDFFF) || point > utf8.MaxRune {
		return 0, false
	}
	return rune(point), true
}
