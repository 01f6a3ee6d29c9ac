package errgenruntime

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

const megabyte = 1 << 20

// decidedQuickly fails when read takes a second or more, or panics.
func decidedQuickly(t *testing.T, name string, read func()) {
	t.Helper()
	start := time.Now()
	read()
	if took := time.Since(start); took >= time.Second {
		t.Errorf("%s: took %v, want under 1s", name, took)
	}
}

// Issue 24 item 9: a megabyte of hostile input is decided in well under a second, whatever its
// shape, and every parse stays within the contract's limits.
func TestHostileInputIsDecidedQuickly(t *testing.T) {
	digits := strings.Repeat("7", megabyte-64)
	bodies := map[string]string{
		"deep arrays":      strings.Repeat("[", megabyte/2) + strings.Repeat("]", megabyte/2),
		"deep objects":     strings.Repeat(`{"a":`, megabyte/5) + "1" + strings.Repeat("}", megabyte/5),
		"a 1 MB number":    `{"retry_after_ms":` + digits + `}`,
		"a 1 MB fraction":  `{"retry_after_ms":0.` + digits + `}`,
		"a 1 MB exponent":  `{"retry_after_ms":1e` + digits + `}`,
		"1 MB of digits":   `"` + digits + `"`,
		"a bare number":    digits,
		"deep xml":         strings.Repeat("<a>", megabyte/3) + strings.Repeat("</a>", megabyte/3),
		"unclosed comment": "<!--" + strings.Repeat("-", megabyte-8),
		"past the limit":   strings.Repeat(" ", megabyte) + `{"code":"x"}`,
	}
	for name, body := range bodies {
		decidedQuickly(t, name, func() {
			for _, status := range []int{429, 500} {
				reading := ReadHTTP(status, http.Header{"Retry-After": {digits}}, []byte(body), time.Unix(0, 0))
				reading.Payload.Decide(1, DefaultMaxAttempts)
				reading.Payload.Problems()
			}
			RawJSON([]byte(body)).Decide(1, DefaultMaxAttempts)
		})
	}
	decidedQuickly(t, "a 1 MB number given as a value", func() {
		p := map[string]any{wRetryAfterMS: json.Number(digits), wSearched: map[string]any{"n": json.Number("-" + digits)}}
		RawValue(p).Decide(1, DefaultMaxAttempts)
		RawValue(p).Problems()
	})
	many := http.Header{}
	for i := 0; i < megabyte/16; i++ {
		many.Add("X-H"+strconv.Itoa(i), "v")
	}
	many.Add("Retry-After", strings.Repeat("9", megabyte))
	decidedQuickly(t, "many headers", func() {
		FromHTTP(429, many, newCodePayload(), time.Unix(0, 0)).Decide(1, DefaultMaxAttempts)
	})
}

// A number past the contract's length is out of range: never converted, never a delay or a code.
func TestLongNumbersAreOutOfRange(t *testing.T) {
	long := "1" + strings.Repeat("0", maxNumberChars)
	value, ok := decodeJSON([]byte(`[`+long+`,-`+long+`,`+long[:maxNumberChars]+`]`), maxJSONDepth)
	items, _ := value.([]any)
	if !ok || len(items) != 3 || items[0] != outOfRange[0] || items[1] != outOfRange[1] || items[2] != json.Number(long[:maxNumberChars]) {
		t.Fatalf("got %v", value)
	}
	if _, finite := exactNumber(strings.Repeat("9", pythonMaxIntChars+1)); finite {
		t.Error("an integer past pythonMaxIntChars must be infinite, not converted")
	}
}

// A body that never ends is read up to one byte past the limit, and then is unreadable.
func TestReadResponseBoundsTheBody(t *testing.T) {
	endless := &countingReader{}
	resp := &http.Response{StatusCode: 503, Header: http.Header{}, Body: io.NopCloser(endless)}
	reading, err := ReadResponse(resp)
	if err != nil {
		t.Fatal(err)
	}
	if endless.read != maxBodyBytes+1 {
		t.Errorf("read %d bytes, want %d", endless.read, maxBodyBytes+1)
	}
	if reading.Document != nil || !reading.IsError {
		t.Errorf("a body past the limit is unreadable: %+v", reading.Document)
	}
}

type countingReader struct{ read int }

func (r *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	r.read += len(p)
	return len(p), nil
}

// Headers past maxHeaders are not read, a value past maxHeaderChars is absent, and names compare
// as ASCII only (the Kelvin sign is no k).
func TestHeaderLimits(t *testing.T) {
	pairs := make([]headerPair, maxHeaders)
	for i := range pairs {
		pairs[i] = headerPair{"x-filler", "v"}
	}
	if _, ok := headerValue(append(pairs, headerPair{"retry-after", "1"}), "retry-after"); ok {
		t.Error("a header past maxHeaders was read")
	}
	if v, ok := headerValue(append(pairs[:maxHeaders-1], headerPair{"Retry-After", "1"}), "retry-after"); !ok || v != "1" {
		t.Error("the last header within maxHeaders was not read")
	}
	if _, ok := headerValue([]headerPair{{"retry-after", strings.Repeat("1", maxHeaderChars+1)}}, "retry-after"); ok {
		t.Error("a value past maxHeaderChars was read")
	}
	if _, ok := headerValue([]headerPair{{"\u212aey", "v"}}, "key"); ok {
		t.Error("a Kelvin sign matched k")
	}
}

func TestFlatXML(t *testing.T) {
	read := func(text string) string {
		doc, ok := readXML(text)
		if !ok {
			return "unreadable"
		}
		return string(encodeJSON(doc, false))
	}
	cases := map[string]string{
		`<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Code>second</Code><Msg a='1' b = "2">a &lt;&#65;&#x42;&amp;</Msg><E/></Error>`: `{"Error":{"Code":"NoSuchKey","Msg":"a <AB&","E":""}}`,
		"<!-- c --> <a>t<b>x</b>dropped</a>\n":     `{"a":{"b":"x"}}`,
		`<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`: "unreadable",
		`<a><![CDATA[x]]></a>`:                     "unreadable",
		`<a>&x;</a>`:                               "unreadable",
		`<a>&#0;</a>`:                              "unreadable",
		`<a>&#xD800;</a>`:                          "unreadable",
		`<a>&#12345678;</a>`:                       "unreadable",
		`<a></b>`:                                  "unreadable",
		`<a/><b/>`:                                 "unreadable",
		`<a/>x`:                                    "unreadable",
		`<a>`:                                      "unreadable",
		strings.Repeat("<a>", maxXMLDepth) + strings.Repeat("</a>", maxXMLDepth):          strings.Repeat(`{"a":`, maxXMLDepth) + `""` + strings.Repeat("}", maxXMLDepth),
		strings.Repeat("<a>", maxXMLDepth) + "<b/>" + strings.Repeat("</a>", maxXMLDepth): "unreadable",
	}
	for text, want := range cases {
		if got := read(text); got != want {
			t.Errorf("%.60q: got %s, want %s", text, got, want)
		}
	}
}

func TestDurations(t *testing.T) {
	cases := map[string]int64{"30s": 30000, "1.5s": 1500, "6m0s": 360000, "20ms": 20, "1h": 3600000, "0.0001s": 1, "1m1ms": 60001}
	for text, want := range cases {
		if got, ok := durationMS(text); !ok || got != want {
			t.Errorf("%q: got %d %v, want %d", text, got, ok, want)
		}
	}
	for _, text := range []string{"", "s", "1", "1.s", "1.0000000001s", "1d", "-1s", "1s ", "1 s"} {
		if got, ok := durationMS(text); ok {
			t.Errorf("%q: got %d, want no duration", text, got)
		}
	}
	if got, _ := durationMS(strings.Repeat("9", 40) + "h"); got != maxDelayValueMS {
		t.Errorf("a long duration saturates: got %d", got)
	}
}

// withResponseSpec runs f with the response spec spec in place of the registry's, so a test can
// pin reading rules the registry under test does not use (several code sources, variants).
func withResponseSpec(t *testing.T, spec string, f func()) {
	t.Helper()
	saved := response
	defer func() { response = saved }()
	response = loadResponseSpec(spec)
	f()
}

// The known code wins (docs/conformance.md, "Reading a real response" step 3): the first source
// whose value is a registry code or a shared wire code, through [*] entries too; only when no
// source yields one, the first usable value.
func TestReadCodePrefersAKnownCode(t *testing.T) {
	if len(table) == 0 {
		t.Skip("the registry has no code")
	}
	known := string(table[0].Code)
	spec := `{"format":"json","code":[{"in":"body","path":["error","code"]},` +
		`{"in":"body","path":["error","inner","code"]},{"in":"body","path":["errors",-1,"code"]},` +
		`{"in":"header","name":"x-code"}],"variants":{"shared.wire":[["` + known + `",[]]]}}`
	cases := []struct {
		body, header, want string
	}{
		{`{"error":{"code":"outer.unknown","inner":{"code":"` + known + `"}}}`, "", known},
		{`{"error":{"code":"outer.unknown","inner":{"code":"inner.unknown"}}}`, "", "outer.unknown"},
		{`{"errors":[{"code":"first.unknown"},{"code":"shared.wire"}]}`, "", "shared.wire"},
		{`{"errors":[{"code":"first.unknown"},{"code":"second.unknown"}]}`, "", "first.unknown"},
		{`{"error":{"code":"outer.unknown"}}`, known, known},
		{`{"error":{"code":7}}`, "", "7"},
		{`{"error":{"code":""}}`, "", ""},
	}
	withResponseSpec(t, spec, func() {
		for _, c := range cases {
			document, ok := decodeJSON([]byte(c.body), maxJSONDepth)
			if !ok {
				t.Fatalf("test body does not parse: %s", c.body)
			}
			var headers []headerPair
			if c.header != "" {
				headers = []headerPair{{"X-Code", c.header}}
			}
			if got := readCode(response.code, document, headers, 400); got != c.want {
				t.Errorf("readCode(%s, x-code %q) = %q, want %q", c.body, c.header, got, c.want)
			}
		}
	})
}

// Decision.WireCode is the code as the API sends it: the shared wire code of a variant, else the
// code itself; empty and null in the JSON form without a code.
func TestDecisionCarriesTheWireCode(t *testing.T) {
	// The first code NewError makes with a correlation id alone (a resource scope needs an id).
	var p *ErrorPayload
	for _, e := range table {
		if made, err := NewError(e.Code, "req-1"); err == nil {
			p = made
			break
		}
	}
	if p == nil {
		t.Skip("no code of the registry is made from a correlation id alone")
	}
	code := p.Code
	spec := `{"format":"json","code":[{"in":"body","path":["code"]}],"variants":{"shared.wire":[["` +
		string(code) + `",[]]]}}`
	if d := Decide(p, 1, DefaultMaxAttempts); d.WireCode != string(code) {
		t.Errorf("%s without variants: WireCode %q, want the code itself", code, d.WireCode)
	}
	withResponseSpec(t, spec, func() {
		d := Decide(p, 1, DefaultMaxAttempts)
		if d.WireCode != "shared.wire" {
			t.Errorf("%s sent as shared.wire: WireCode %q", code, d.WireCode)
		}
		text, _ := d.MarshalJSON()
		if want := `"code":"` + string(code) + `","wire_code":"shared.wire","delay_ms"`; !strings.Contains(string(text), want) {
			t.Errorf("decision JSON %s lacks %s", text, want)
		}
	})
	d := RawJSON([]byte(`{}`)).Decide(1, DefaultMaxAttempts)
	if text, _ := d.MarshalJSON(); d.WireCode != "" || !strings.Contains(string(text), `"code":null,"wire_code":null,`) {
		t.Errorf("no payload: WireCode %q, JSON %s", d.WireCode, text)
	}
}
