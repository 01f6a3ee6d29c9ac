package errgenruntime

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// A scalar_map field reads as a ScalarMap: each value's kind and value without type assertions,
// numbers exact at any size.
func TestScalarMapReadsTypedValues(t *testing.T) {
	searched := `{"q":"inv_1","n":123456789012345678901234567890,"f":2.5,"two":2.0,"b":true}`
	p, err := Parse(newCodePayload(canonicalSearched, searched))
	if err != nil {
		t.Fatal(err)
	}
	s := p.Searched
	if q, ok := s["q"].AsString(); !ok || q != "inv_1" || s["q"].Kind() != ScalarString {
		t.Errorf("string: %q %v", q, ok)
	}
	if n, ok := s["n"].AsNumber(); !ok || n != "123456789012345678901234567890" {
		t.Errorf("big number: %q %v", n, ok)
	}
	if _, ok := s["n"].AsInt64(); ok {
		t.Error("a number past int64 read as an int64")
	}
	if f, ok := s["f"].AsFloat64(); !ok || f != 2.5 {
		t.Errorf("float: %v %v", f, ok)
	}
	if i, ok := s["two"].AsInt64(); !ok || i != 2 {
		t.Errorf("2.0 as an integer: %v %v", i, ok)
	}
	if b, ok := s["b"].AsBool(); !ok || !b || s["b"].String() != "true" {
		t.Errorf("bool: %v %v", b, ok)
	}
	if _, ok := s["q"].AsBool(); ok {
		t.Error("a string read as a boolean")
	}
	d := RawJSON(newCodePayload(canonicalSearched, searched)).Decide(1, DefaultMaxAttempts)
	if n, _ := d.Searched["n"].AsNumber(); n != "123456789012345678901234567890" || len(d.Searched) != 5 {
		t.Errorf("Decision.Searched: %v", d.Searched)
	}
	if empty := RawJSON(newCodePayload()).Decide(1, DefaultMaxAttempts).Searched; empty == nil || len(empty) != 0 {
		t.Errorf("no searched: %v", empty)
	}
}

// A ScalarMap a service sets is written as JSON scalars, and one without a JSON form is refused.
func TestScalarMapWritesAndRefuses(t *testing.T) {
	e := pick(t, func(e Entry) bool { return contains(e.Hints, canonicalSearched) })
	if !contains(e.Hints, canonicalSearched) {
		t.Skip("no code of the registry carries searched")
	}
	var opts []ErrorOption
	if e.Scope == ScopeResource {
		opts = append(opts, WithResourceID("r"))
	}
	given := ScalarMap{"q": StringScalar("a<b"), "limit": IntScalar(10), "ratio": FloatScalar(0.5),
		"exact": BoolScalar(true), "big": NumberScalar("1e30")}
	p, err := NewError(e.Code, "c", append(opts, WithSearched(given))...)
	if err != nil {
		t.Fatal(err)
	}
	status, header, body := ToHTTP(p)
	want := jsonText(wireOf[canonicalSearched]) + `:{"big":1e30,"exact":true,"limit":10,"q":"a<b","ratio":0.5}`
	if !strings.Contains(string(body), want) {
		t.Errorf("body %s lacks %s", body, want)
	}
	back, err := FromHTTP(status, header, body, time.Now()).Validate()
	if err != nil || len(back.Searched) != len(given) || back.Searched["q"] != given["q"] || back.Searched["big"] != given["big"] {
		t.Errorf("round trip: %v %v", back, err)
	}
	for _, bad := range []Scalar{FloatScalar(math.NaN()), FloatScalar(math.Inf(1)), NumberScalar("0x1"), NumberScalar("")} {
		_, err := NewError(e.Code, "c", append(opts, WithSearched(ScalarMap{"x": bad}))...)
		var invalid *PayloadError
		if !errors.As(err, &invalid) {
			t.Errorf("NewError with %#v: %v", bad, err)
		}
	}
	var s Scalar
	for _, text := range []string{"null", "{}", "[1]", `{"a":1}`} {
		if json.Unmarshal([]byte(text), &s) == nil {
			t.Errorf("%s read as a scalar", text)
		}
	}
}
