package errgenruntime

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
)

// ScalarMap is a payload field of names to scalars (the contract's scalar_map, such as
// searched): what a caller reads and sets without type assertions on `any`.
type ScalarMap map[string]Scalar

// ScalarKind says which of the three JSON scalars a Scalar holds.
type ScalarKind int

// The kinds of scalar; the zero Scalar is the empty string.
const (
	ScalarString ScalarKind = iota
	ScalarNumber
	ScalarBool
)

// Scalar is one value of a ScalarMap: a string, a number (kept as its JSON text, so an integer
// of any size stays exact) or a boolean. Make one with StringScalar, IntScalar, FloatScalar,
// NumberScalar or BoolScalar.
type Scalar struct {
	kind  ScalarKind
	text  string // the string, or the number's JSON text
	truth bool
}

// StringScalar is the string s.
func StringScalar(s string) Scalar { return Scalar{kind: ScalarString, text: s} }

// IntScalar is the integer i.
func IntScalar(i int64) Scalar { return Scalar{kind: ScalarNumber, text: strconv.FormatInt(i, 10)} }

// FloatScalar is the number f; NaN and the infinities have no JSON form, so a payload holding
// one is refused (NewError's *PayloadError).
func FloatScalar(f float64) Scalar {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Scalar{kind: ScalarNumber}
	}
	return Scalar{kind: ScalarNumber, text: strconv.FormatFloat(f, 'g', -1, 64)}
}

// NumberScalar is the number n as written (json.Number text that is no JSON number is refused
// like a NaN).
func NumberScalar(n json.Number) Scalar { return Scalar{kind: ScalarNumber, text: string(n)} }

// BoolScalar is the boolean b.
func BoolScalar(b bool) Scalar { return Scalar{kind: ScalarBool, truth: b} }

// Kind is which scalar s holds.
func (s Scalar) Kind() ScalarKind { return s.kind }

// AsString is the string s holds, ok false for a number or a boolean.
func (s Scalar) AsString() (value string, ok bool) { return s.text, s.kind == ScalarString }

// AsNumber is the number s holds as its JSON text, ok false for a string or a boolean.
func (s Scalar) AsNumber() (value json.Number, ok bool) {
	return json.Number(s.text), s.kind == ScalarNumber
}

// AsInt64 is the number s holds when it is an integer within int64 (2.0 counts), else ok false.
func (s Scalar) AsInt64() (value int64, ok bool) {
	if s.kind != ScalarNumber {
		return 0, false
	}
	return integerIn(json.Number(s.text), math.MinInt64, math.MaxInt64)
}

// AsFloat64 is the number s holds, the nearest double; ok false for a string or a boolean.
func (s Scalar) AsFloat64() (value float64, ok bool) {
	if s.kind != ScalarNumber {
		return 0, false
	}
	f, err := strconv.ParseFloat(s.text, 64)
	return f, err == nil || errors.Is(err, strconv.ErrRange)
}

// AsBool is the boolean s holds, ok false for a string or a number.
func (s Scalar) AsBool() (value bool, ok bool) { return s.truth, s.kind == ScalarBool }

// String is the value as text: a string as it is, a number as its JSON text, true or false.
func (s Scalar) String() string {
	if s.kind == ScalarBool {
		return strconv.FormatBool(s.truth)
	}
	return s.text
}

// MarshalJSON writes the scalar as JSON; a number without a JSON form is an error.
func (s Scalar) MarshalJSON() ([]byte, error) {
	switch s.kind {
	case ScalarNumber:
		if value, ok := decodeJSON([]byte(s.text), 0); ok {
			if _, isNumber := value.(json.Number); isNumber {
				return []byte(s.text), nil
			}
		}
		return nil, errors.New("scalar: not a JSON number: " + strconv.Quote(s.text))
	case ScalarBool:
		return []byte(strconv.FormatBool(s.truth)), nil
	}
	return json.Marshal(s.text)
}

// UnmarshalJSON reads a JSON string, number or boolean; anything else is an error.
func (s *Scalar) UnmarshalJSON(data []byte) error {
	// Containers are refused before parsing; a number is kept as written, whatever its length
	// (encoding/json has checked the text already).
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return errors.New("scalar: not a string, number or boolean")
	}
	value, ok := decodeJSON(data, -1)
	if !ok {
		return errors.New("scalar: not JSON")
	}
	switch t := value.(type) {
	case string:
		*s = StringScalar(t)
	case json.Number:
		*s = NumberScalar(t)
	case bool:
		*s = BoolScalar(t)
	default:
		return errors.New("scalar: not a string, number or boolean")
	}
	return nil
}
