package errgenruntime

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A JSON value inside this package is nil, bool, string, json.Number, []any or *object. Objects
// keep their keys in document order (a repeated key keeps its first place and its last value),
// and numbers keep their text, so integral checks, bounds and huge numbers are decided exactly
// as docs/conformance.md says, never after a float64 round trip.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) set(key string, value any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = value
}

func (o *object) has(key string) bool {
	_, ok := o.vals[key]
	return ok
}

// decodeJSON reads exactly one JSON value (RFC 8259) from UTF-8 text. maxDepth bounds the
// nesting of arrays and objects (negative: unbounded, for files the caller trusts). Text from
// outside (maxDepth >= 0) also has its numbers bounded: one longer than maxNumberChars is out of
// range. A string's lone surrogate escape becomes U+FFFD, as encoding/json makes it.
func decodeJSON(data []byte, maxDepth int) (any, bool) {
	if !utf8.Valid(data) {
		return nil, false
	}
	p := parser{data: data, maxDepth: maxDepth, boundNumbers: maxDepth >= 0}
	value, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return value, p.pos == len(data)
}

type parser struct {
	data         []byte
	pos          int
	maxDepth     int
	boundNumbers bool
}

func (p *parser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, bool) {
	p.space()
	if p.pos >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if p.maxDepth >= 0 && depth >= p.maxDepth {
			return nil, false
		}
		p.pos++
		if c == '[' {
			return p.array(depth + 1)
		}
		return p.object(depth + 1)
	case c == '"':
		return p.string()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	for _, literal := range [...]struct {
		text  string
		value any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if bytes.HasPrefix(p.data[p.pos:], []byte(literal.text)) {
			p.pos += len(literal.text)
			return literal.value, true
		}
	}
	return nil, false
}

func (p *parser) array(depth int) (any, bool) {
	items := []any{}
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return items, true
	}
	for {
		item, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		items = append(items, item)
		p.space()
		if p.pos >= len(p.data) {
			return nil, false
		}
		p.pos++
		switch p.data[p.pos-1] {
		case ',':
		case ']':
			return items, true
		default:
			return nil, false
		}
	}
}

func (p *parser) object(depth int) (any, bool) {
	obj := newObject()
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return obj, true
	}
	for {
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, false
		}
		key, ok := p.string()
		if !ok {
			return nil, false
		}
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, false
		}
		p.pos++
		value, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		obj.set(key.(string), value)
		p.space()
		if p.pos >= len(p.data) {
			return nil, false
		}
		p.pos++
		switch p.data[p.pos-1] {
		case ',':
		case '}':
			return obj, true
		default:
			return nil, false
		}
	}
}

// string reads a string token at p.pos (an opening quote).
func (p *parser) string() (any, bool) {
	p.pos++
	start := p.pos
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(p.data[start : p.pos-1]), true
		case c == '\\':
			return p.escapedString(start)
		case c < 0x20:
			return nil, false
		}
		p.pos++
	}
	return nil, false
}

func (p *parser) escapedString(start int) (any, bool) {
	out := append([]byte(nil), p.data[start:p.pos]...)
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(out), true
		case c < 0x20:
			return nil, false
		case c != '\\':
			out = append(out, c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.data) {
			return nil, false
		}
		escape := p.data[p.pos+1]
		p.pos += 2
		switch escape {
		case '"', '\\', '/':
			out = append(out, escape)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return nil, false
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
					saved := p.pos
					p.pos += 2
					if r2, ok = p.hex4(); !ok {
						return nil, false
					}
					if utf16.DecodeRune(r, r2) == utf8.RuneError {
						p.pos, r2 = saved, -1
					}
				}
				if r2 < 0 {
					r = utf8.RuneError
				} else {
					r = utf16.DecodeRune(r, r2)
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, false
		}
	}
	return nil, false
}

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	p.pos += 4
	return r, true
}

// number reads RFC 8259's number grammar and keeps its text.
func (p *parser) number() (any, bool) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.data) && p.data[p.pos] == '0':
		p.pos++
	case p.digits() == 0:
		return nil, false
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			return nil, false
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			return nil, false
		}
	}
	if p.boundNumbers && p.pos-start > maxNumberChars {
		// Never converted (no quadratic big-number parsing): out of range for every field and
		// spelled as a number every reader sees as infinite, like 1e400.
		if p.data[start] == '-' {
			return outOfRange[1], true
		}
		return outOfRange[0], true
	}
	return json.Number(p.data[start:p.pos]), true
}

// outOfRange stands for a number past maxNumberChars: positive and negative.
var outOfRange = [2]json.Number{"1e400", "-1e400"}

func (p *parser) digits() int {
	start := p.pos
	for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
		p.pos++
	}
	return p.pos - start
}

// invalidValue stands for a Go value that has no JSON form (a channel, a NaN inside a struct):
// every check rejects it.
type invalidValue struct{}

// normalize turns decoded JSON from a caller (encoding/json's map[string]any and float64, or
// json.Number, a struct, a payload) into this package's values. Map keys are sorted, since a Go
// map has no order.
func normalize(v any) any {
	switch t := v.(type) {
	case nil, bool, string, json.Number, *object, invalidValue:
		return t
	case Raw:
		return t.value
	case *ErrorPayload:
		if t == nil {
			return nil
		}
		return t.value()
	case ErrorPayload:
		return t.value()
	case float64:
		return floatNumber(t)
	case float32:
		return floatNumber(float64(t))
	case int:
		return json.Number(strconv.FormatInt(int64(t), 10))
	case int64:
		return json.Number(strconv.FormatInt(t, 10))
	case int32:
		return json.Number(strconv.FormatInt(int64(t), 10))
	case uint64:
		return json.Number(strconv.FormatUint(t, 10))
	case json.RawMessage:
		if value, ok := decodeJSON(t, -1); ok {
			return value
		}
		return invalidValue{}
	case []any:
		items := make([]any, len(t))
		for i, item := range t {
			items[i] = normalize(item)
		}
		return items
	case []string:
		items := make([]any, len(t))
		for i, item := range t {
			items[i] = item
		}
		return items
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		obj := newObject()
		for _, k := range keys {
			obj.set(k, normalize(t[k]))
		}
		return obj
	}
	data, err := json.Marshal(v)
	if err != nil {
		return invalidValue{}
	}
	value, ok := decodeJSON(data, -1)
	if !ok {
		return invalidValue{}
	}
	return value
}

func floatNumber(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return invalidValue{}
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// isIntegerText reports whether a number's text has no fraction and no exponent: JSON readers
// keep such numbers exact at any size, others become doubles.
func isIntegerText(text string) bool {
	digits := strings.TrimPrefix(text, "-")
	if digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// exactNumber is a number's value: exact for integer text, the nearest double otherwise (as
// every JSON reader sees it). ok is false for an infinite double, and for integer text past
// pythonMaxIntChars (which the Python SDK reads as infinite), so no text is converted in
// quadratic time.
func exactNumber(text string) (*big.Rat, bool) {
	if isIntegerText(text) {
		if len(text) > pythonMaxIntChars {
			return nil, false
		}
		return new(big.Rat).SetString(text)
	}
	f, err := strconv.ParseFloat(text, 64)
	if (err != nil && !errors.Is(err, strconv.ErrRange)) || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, false
	}
	return new(big.Rat).SetFloat64(f), true
}

// integerIn reports whether v is a JSON number with an integral value in [lo, hi] (2.0 counts,
// as in JSON Schema) and returns it.
func integerIn(v any, lo, hi int64) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	r, ok := exactNumber(string(n))
	if !ok || !r.IsInt() {
		return 0, false
	}
	i := r.Num()
	if i.Cmp(big.NewInt(lo)) < 0 || i.Cmp(big.NewInt(hi)) > 0 {
		return 0, false
	}
	return i.Int64(), true
}

// encodeJSON writes compact JSON. pythonStyle spells numbers and strings as Python's json.dumps
// (ensure_ascii off) does, so emit lines match the Python SDK's byte for byte.
func encodeJSON(v any, pythonStyle bool) []byte {
	return appendJSON(nil, v, pythonStyle)
}

func appendJSON(b []byte, v any, py bool) []byte {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, t)
	case string:
		return appendString(b, t)
	case json.Number:
		return appendNumber(b, string(t), py)
	case []any:
		b = append(b, '[')
		for i, item := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, item, py)
		}
		return append(b, ']')
	case *object:
		b = append(b, '{')
		for i, k := range t.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendJSON(b, t.vals[k], py)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch r {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			if r < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xF])
			} else {
				b = utf8.AppendRune(b, r)
			}
		}
	}
	return append(b, '"')
}

func appendNumber(b []byte, text string, py bool) []byte {
	if !py {
		if json.Valid([]byte(text)) {
			return append(b, text...)
		}
		return append(b, "null"...)
	}
	if isIntegerText(text) && len(text) <= pythonMaxIntChars {
		if i, ok := new(big.Int).SetString(text, 10); ok {
			return i.Append(b, 10)
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return append(b, "null"...)
	}
	return append(b, pythonFloat(f)...)
}

// pythonFloat is Python's repr of a double: the shortest digits that read back, positional
// between 1e-4 and 1e16, ".0" on integral values, "Infinity" as json.dumps writes it.
func pythonFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mantissa, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mantissa, ".", "", 1)
	if exp >= -4 && exp < 16 {
		if exp < 0 {
			return sign + "0." + strings.Repeat("0", -exp-1) + digits
		}
		if len(digits) <= exp+1 {
			return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
		}
		return sign + digits[:exp+1] + "." + digits[exp+1:]
	}
	out := sign + digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	expSign := "+"
	if exp < 0 {
		expSign, exp = "-", -exp
	}
	e := strconv.Itoa(exp)
	if len(e) < 2 {
		e = "0" + e
	}
	return out + "e" + expSign + e
}

// jsonEqual compares two values as JSON data: 2 equals 2.0, object key order does not matter.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool, string:
		return a == b
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		rx, okx := exactNumber(string(x))
		ry, oky := exactNumber(string(y))
		if okx && oky {
			return rx.Cmp(ry) == 0
		}
		fx, _ := strconv.ParseFloat(string(x), 64)
		fy, _ := strconv.ParseFloat(string(y), 64)
		return !okx && !oky && fx == fy
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case *object:
		y, ok := b.(*object)
		if !ok || len(x.keys) != len(y.keys) {
			return false
		}
		for _, k := range x.keys {
			other, present := y.vals[k]
			if !present || !jsonEqual(x.vals[k], other) {
				return false
			}
		}
		return true
	}
	return false
}
