package errgenruntime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// pick is the first row that satisfies want, else the first row; a registry without codes skips
// the test.
func pick(tb testing.TB, want func(e Entry) bool) Entry {
	rows := RecoveryTable()
	if len(rows) == 0 {
		tb.Skip("the registry has no codes")
	}
	for _, e := range rows {
		if want(e) {
			return e
		}
	}
	return rows[0]
}

func newErrorFor(t *testing.T, e Entry, correlation string) *ErrorPayload {
	t.Helper()
	var opts []ErrorOption
	if e.Scope == ScopeResource {
		opts = append(opts, WithResourceID("item_4127"))
	}
	p, err := NewError(e.Code, correlation, append(opts, WithMessage("display text"))...)
	if err != nil {
		t.Fatalf("NewError(%q): %v", e.Code, err)
	}
	return p
}

// A service's handler returns the generated error through ordinary error wrapping; a client on
// the other side of a real loopback connection decides on the response.
func TestLoopbackServerAndClientDecide(t *testing.T) {
	for _, problem := range []bool{false, true} {
		e := pick(t, func(e Entry) bool { return e.Retryable && e.RetryAfterMS != nil })
		charge := func() error { return fmt.Errorf("charge card: %w", newErrorFor(t, e, "c-loopback")) }
		listener, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		server := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var p *ErrorPayload
			if err := charge(); errors.As(err, &p) {
				var opts []HTTPOption
				if problem {
					opts = append(opts, AsProblem())
				}
				if err := WriteHTTP(w, p, opts...); err != nil {
					t.Error(err)
				}
			}
		})}
		go server.Serve(listener)
		resp, err := http.Get("http://" + listener.Addr().String() + "/charge")
		if err != nil {
			t.Fatal(err)
		}
		raw, err := FromResponse(resp)
		resp.Body.Close()
		server.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != e.HTTPStatus {
			t.Errorf("status %d, want %d", resp.StatusCode, e.HTTPStatus)
		}
		wantType := "application/json"
		if response.format == "xml" {
			wantType = "application/xml" // an XML API's own body, problem or not
		} else if problem {
			wantType = "application/problem+json"
		}
		if got := resp.Header.Get("Content-Type"); got != wantType {
			t.Errorf("Content-Type %q, want %q", got, wantType)
		}
		d := raw.Decide(1, DefaultMaxAttempts)
		if d.Action != e.Actions[e.Scope] || d.Reason != ReasonRegistry || d.Code != e.Code || d.CorrelationID != "c-loopback" {
			t.Fatalf("decision %+v for %s/%s, want %s from the registry", d, e.Code, e.Scope, e.Actions[e.Scope])
		}
		if d.Payload == nil || d.Payload.Message != "display text" {
			t.Errorf("the decision's payload lost the message (problem+json: %v): %+v", problem, d.Payload)
		}
		if e.RetryAfterMS != nil && e.Retryable {
			want := *e.RetryAfterMS
			if d.DelayMS != want || d.Delay != time.Duration(want)*time.Millisecond {
				t.Errorf("delay %d ms (%v), want the header's %d ms", d.DelayMS, d.Delay, want)
			}
			if got := resp.Header.Get("Retry-After"); got != strconv.FormatInt((want+999)/1000, 10) {
				t.Errorf("Retry-After %q for %d ms", got, want)
			}
		}
	}
}

func TestErrorStringCarriesOnlyCodeAndMessage(t *testing.T) {
	e := pick(t, func(e Entry) bool { return true })
	p := newErrorFor(t, e, "c-secret-correlation")
	if got, want := p.Error(), string(e.Code)+": display text"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var err error = p
	var target *ErrorPayload
	if !errors.As(fmt.Errorf("wrapped: %w", err), &target) || target != p {
		t.Error("errors.As does not find the payload")
	}
}

func TestOpenEnumsKeepUnknownValues(t *testing.T) {
	for _, c := range Codes() {
		if !c.IsKnown() {
			t.Errorf("%q is not known", c)
		}
	}
	if Code("CODE_FROM_A_NEWER_SERVER").IsKnown() || Category("from_a_newer_server").IsKnown() {
		t.Error("an unknown value is reported as known")
	}
	e := pick(t, func(e Entry) bool { return e.Scope != ScopeResource })
	body := wireJSON(canonicalCode, `"CODE_FROM_A_NEWER_SERVER"`, canonicalCategory, jsonText(string(e.Category)),
		canonicalRetryable, "false", canonicalScope, jsonText(string(e.Scope)), canonicalCorrelationID, `"c"`)
	p, err := Parse(body)
	if err != nil || p.Code != "CODE_FROM_A_NEWER_SERVER" || p.Known() {
		t.Fatalf("tolerant parse of an unknown code: %+v, %v", p, err)
	}
	if _, err := Validate(body); err == nil {
		t.Error("strict validation accepted an unknown code")
	}
}

// wireJSON is a payload's JSON text under the contract's wire names: canonical field names and
// JSON texts, alternating, in order.
func wireJSON(pairs ...string) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonText(wireOf[pairs[i]]) + ":" + pairs[i+1])
	}
	b.WriteByte('}')
	return []byte(b.String())
}

func jsonText(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// newCodePayload is a well-formed payload of a code this package does not know, plus extra pairs.
func newCodePayload(extra ...string) []byte {
	base := []string{canonicalCode, `"NEW"`, canonicalCategory, `"new"`, canonicalRetryable, "true",
		canonicalScope, jsonText(string(allScopes[0])), canonicalResourceID, `"r"`, canonicalCorrelationID, `"c"`}
	return wireJSON(append(base, extra...)...)
}

func envelopeWith(field, valueJSON string) []byte { return newCodePayload(field, valueJSON) }

// Integral values count (2.0, as in JSON Schema), bounds are exact at 2^53 - 1, and huge or
// non-finite numbers are rejected rather than rounded into range.
func TestDelayNumbers(t *testing.T) {
	cases := map[string]bool{
		"2": true, "2.0": true, "1E3": true, "-0": true, "0.0": true, "9007199254740991": true,
		"9007199254740991.0": true, "1e-400": true, "9007199254740992": false, "9007199254740991.5": false,
		"-1": false, "2.5": false, "1e400": false, strings.Repeat("9", 400): false, `"2"`: false, "true": false,
	}
	for text, valid := range cases {
		problems := envelopeProblems(RawJSON(envelopeWith(canonicalRetryAfterMS, text)).value)
		if (len(problems) == 0) != valid {
			t.Errorf("retry_after_ms %s: problems %v, want valid=%v", text, problems, valid)
		}
	}
}

func TestJSONTextRules(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	}
	if _, isText := RawJSON(deep(maxJSONDepth)).value.(string); isText {
		t.Errorf("nesting of %d is read as text", maxJSONDepth)
	}
	for _, text := range []string{
		string(deep(maxJSONDepth + 1)), `{"a":1} x`, `[1 2]`, `{"a":1,}`, `[1,]`, "\xff{}", `NaN`, `{"a" 1}`, ``, "\ufeff{}", `01`,
	} {
		if _, isText := RawJSON([]byte(text)).value.(string); !isText {
			t.Errorf("%q was read as JSON", text)
		}
	}
	obj := RawJSON([]byte(`{"b":1,"a":2,"b":3}`)).value.(*object)
	if !reflect.DeepEqual(obj.keys, []string{"b", "a"}) || obj.vals["b"] != json.Number("3") {
		t.Errorf("a repeated key keeps its first place and last value: %v %v", obj.keys, obj.vals)
	}
}

func TestHeaderDelays(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	body := newCodePayload()
	cases := []struct {
		headers [][2]string
		want    any
	}{
		{[][2]string{{"retry-after-ms", "1500"}, {"Retry-After", "9"}}, json.Number("1500")},
		{[][2]string{{"RETRY-AFTER-MS", " 7 "}}, json.Number("7")},
		{[][2]string{{"retry-after-ms", "+5"}, {"retry-after", "2"}}, json.Number("2000")},
		{[][2]string{{"Retry-After", "3"}, {"Retry-After", "4"}}, json.Number("3000")},
		{[][2]string{{"Retry-After", "1.5"}}, json.Number("1500")},
		{[][2]string{{"Retry-After", "2.128"}}, json.Number("2128")},
		{[][2]string{{"Retry-After", "1.0001"}}, json.Number("1001")},
		{[][2]string{{"Retry-After", "0.000000001"}}, json.Number("1")},
		{[][2]string{{"Retry-After", "1.0000000001"}}, nil},
		{[][2]string{{"Retry-After", "1."}}, nil},
		{[][2]string{{"Retry-After", ".5"}}, nil},
		{[][2]string{{"Retry-After", "1.5e3"}}, nil},
		{[][2]string{{"Retry-After", strings.Repeat("9", 40) + ".5"}}, json.Number(strconv.FormatInt(maxDelayValueMS, 10))},
		{[][2]string{{"Retry-After", "-1"}}, nil},
		{[][2]string{{"Retry-After", "Thu, 01 Jan 2026 00:00:02 GMT"}}, json.Number("2000")},
		{[][2]string{{"Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT"}}, json.Number("0")},
		{[][2]string{{"Retry-After", "Sunday, 06-Nov-94 08:49:37 GMT"}}, nil},
		{[][2]string{{"Retry-After", "Sun Nov  6 08:49:37 1994"}}, nil},
		{[][2]string{{"Retry-After", "Mon, 31 Feb 2026 00:00:00 GMT"}}, nil},
		{[][2]string{{"Retry-After", "thu, 01 Jan 2026 00:00:02 GMT"}}, nil},
		{[][2]string{{"Retry-After", "2026-01-01T00:00:02Z"}}, nil},
		{[][2]string{{"Retry-After", "Thu, 01 Jan 2026 00:00:02 UTC"}}, nil},
		{[][2]string{{"Retry-After", "Thu, 01 Jan 2026 24:00:02 GMT"}}, nil},
		{[][2]string{{"Retry-After", "Wed, 31 Dec 2025 23:59:60 GMT"}}, json.Number("0")},
		{[][2]string{{"Retry-After", "Thu, 01 Jan 2026 00:00:60 GMT"}}, json.Number("60000")},
		{[][2]string{{"Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT"}}, json.Number("251635075199000")},
		{[][2]string{{"Retry-After", "Sat, 29 Feb 2028 00:00:00 GMT"}}, json.Number("68169600000")},
		{[][2]string{{"Retry-After", "Sat, 29 Feb 2027 00:00:00 GMT"}}, nil},
		{[][2]string{{"Retry-After", strings.Repeat("9", 40)}}, json.Number(strconv.FormatInt(maxDelayValueMS, 10))},
		{[][2]string{{"retry-after-ms", "9007199254740992"}}, json.Number(strconv.FormatInt(maxDelayValueMS, 10))},
	}
	for _, c := range cases {
		header := http.Header{}
		for _, h := range c.headers {
			header.Add(h[0], h[1])
		}
		got := FromHTTP(429, header, body, now).value.(*object).vals[wRetryAfterMS]
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: retry_after_ms %v, want %v", c.headers, got, c.want)
		}
	}
}

func TestDidYouMeanDrawsOnlyFromTheCallersValues(t *testing.T) {
	got := DidYouMean("wwww", []string{"acme", "wwwx", "www", "wwww", "ww"})
	if want := []string{"wwwx", "www"}; !reflect.DeepEqual(got, want) {
		t.Errorf("DidYouMean = %v, want %v", got, want)
	}
	if got := DidYouMean("tenant", nil); len(got) != 0 {
		t.Errorf("suggestions from nothing: %v", got)
	}
}

func TestNewErrorRejectsWhatTheContractRejects(t *testing.T) {
	_, err := NewError("CODE_FROM_A_NEWER_SERVER", "c")
	var invalid *PayloadError
	if !errors.As(err, &invalid) || invalid.Problems[0].ID != ProblemUnknownCode {
		t.Fatalf("NewError of an unknown code: %v", err)
	}
	e := pick(t, func(e Entry) bool { return !contains(e.Hints, canonicalDidYouMean) })
	if !contains(e.Hints, canonicalDidYouMean) {
		_, err := NewError(e.Code, "c", WithResourceID("r"), WithDidYouMean("x"))
		if !errors.As(err, &invalid) || !contains(problemIDs(invalid.Problems), ProblemHintNotAllowed) {
			t.Errorf("a hint the code does not carry: %v", err)
		}
	}
}

func TestMCPRoundTrip(t *testing.T) {
	e := pick(t, func(e Entry) bool { return true })
	p := newErrorFor(t, e, "c-mcp")
	result := ToMCPResult(p)
	if !result.IsError || !reflect.DeepEqual(result.StructuredContent, p) || result.StructuredContent == p {
		t.Fatalf("structuredContent is not a copy of the payload: %+v", result.StructuredContent)
	}
	data, err := json.Marshal(result)
	if err != nil {
		t.Fatal(err)
	}
	var decoded map[string]any
	if err := json.Unmarshal(data, &decoded); err != nil {
		t.Fatal(err)
	}
	back, err := FromMCPResult(decoded).Validate()
	if err != nil || !reflect.DeepEqual(back, p) {
		t.Fatalf("structuredContent round trip: %+v, %v", back, err)
	}
	delete(decoded, "structuredContent")
	back, err = FromMCPResult(decoded).Validate()
	if err != nil || !reflect.DeepEqual(back, p) {
		t.Fatalf("text content round trip: %+v, %v", back, err)
	}
	if FromMCPResult("not a result").Parsed() != ParsedInvalid {
		t.Error("a result that is not an object gave a payload")
	}
}

func TestPythonFloatSpelling(t *testing.T) {
	for f, want := range map[float64]string{
		1e16: "1e+16", 1e6: "1000000.0", 1.5e-5: "1.5e-05", 0.0001: "0.0001", 123.456: "123.456",
		1e22: "1e+22", 5e-324: "5e-324", 2: "2.0", 1234567890123456.7: "1234567890123456.8",
	} {
		if got := pythonFloat(f); got != want {
			t.Errorf("pythonFloat(%v) = %q, want %q", f, got, want)
		}
	}
}

// Nothing panics on any bytes: random text, and a valid payload cut and flipped at random.
func TestNoInputPanics(t *testing.T) {
	e := pick(t, func(e Entry) bool { return true })
	valid, _ := json.Marshal(newErrorFor(t, e, "c"))
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		var data []byte
		if i%2 == 0 {
			data = make([]byte, rng.Intn(64))
			rng.Read(data)
		} else {
			data = append([]byte(nil), valid[:rng.Intn(len(valid)+1)]...)
			for j := rng.Intn(4); j > 0 && len(data) > 0; j-- {
				data[rng.Intn(len(data))] = "{}[],:\"0e-.tn\\"[rng.Intn(14)]
			}
		}
		exercise(data)
	}
}

func exercise(data []byte) {
	Parse(data)
	Validate(data)
	raw := RawJSON(data)
	raw.Decide(1, DefaultMaxAttempts, WithJitter())
	raw.Problems()
	FromHTTP(500, http.Header{"Retry-After": {string(data)}}, data, time.Now()).Decide(2, 3)
	var decoded any
	if json.Unmarshal(data, &decoded) == nil {
		FromMCPResult(decoded).Decide(1, 1)
		RawValue(decoded).Decide(1, 5)
	}
	if p, err := Parse(data); err == nil {
		ToHTTP(p, AsProblem())
		ToMCPResult(p)
		_ = p.Error()
	}
}

func FuzzParse(f *testing.F) {
	e := pick(f, func(e Entry) bool { return true })
	valid, _ := json.Marshal(&ErrorPayload{Code: e.Code, Category: e.Category, Retryable: e.Retryable, Scope: e.Scope, CorrelationID: "c"})
	for _, seed := range [][]byte{valid, []byte(`{"code":1}`), []byte(`[`), {0xff}, bytes.Repeat([]byte("["), 100)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) { exercise(data) })
}

func TestJitterOnlyShortensTheBackoff(t *testing.T) {
	backoff := RawJSON(newCodePayload()).Decide(3, 10)
	if backoff.DelayMS != BackoffMS(3) {
		t.Fatalf("backoff %d, want %d", backoff.DelayMS, BackoffMS(3))
	}
	for i := 0; i < 200; i++ {
		d := RawJSON(newCodePayload()).Decide(3, 10, WithJitter())
		if d.DelayMS < 0 || d.DelayMS >= backoff.DelayMS {
			t.Fatalf("jittered delay %d outside [0, %d)", d.DelayMS, backoff.DelayMS)
		}
		named := RawJSON(newCodePayload(canonicalRetryAfterMS, "1234")).Decide(3, 10, WithJitter())
		if named.DelayMS != 1234 {
			t.Fatalf("a named delay was jittered: %d", named.DelayMS)
		}
	}
	if BackoffMS(0) != backoffBaseMS || BackoffMS(1000) != backoffMaxMS {
		t.Errorf("backoff bounds: %d, %d", BackoffMS(0), BackoffMS(1000))
	}
}

func TestMaxDelayOption(t *testing.T) {
	body := newCodePayload(canonicalRetryAfterMS, "1500")
	if d := RawJSON(body).Decide(1, 5, WithMaxDelay(1499*time.Millisecond+1)); d.Action == ActionEscalate {
		t.Errorf("1.499000001 s rounds up to 1500 ms, which 1500 ms does not exceed: %+v", d)
	}
	if d := RawJSON(body).Decide(1, 5, WithMaxDelay(time.Second)); d.Action != ActionEscalate || d.Reason != ReasonDelayExceedsMax || d.DelayMS != 0 {
		t.Errorf("a delay over the maximum: %+v", d)
	}
}

func TestProblemJSONBody(t *testing.T) {
	e := pick(t, func(e Entry) bool { return true })
	p := newErrorFor(t, e, "c-problem")
	unknown := &ErrorPayload{Code: "CODE_FROM_A_NEWER_SERVER", Category: e.Category, Scope: e.Scope, CorrelationID: "c"}
	if status, _, _ := ToHTTP(unknown); status != http.StatusInternalServerError {
		t.Errorf("an unknown code's status is %d", status)
	}
	status, header, body := ToHTTP(p, AsProblem())
	if response.format == "xml" {
		// An XML API's body is its own XML document, problem or not (the writing vectors pin it).
		if status != e.HTTPStatus || header.Get("Content-Type") != "application/xml" || !bytes.HasPrefix(body, []byte(xmlDeclaration)) {
			t.Fatalf("status %d, headers %v, body %q", status, header, body)
		}
		return
	}
	if status != e.HTTPStatus || header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("status %d, headers %v", status, header)
	}
	if got := header.Get("X-Should-Retry"); got != strconv.FormatBool(p.Retryable) {
		t.Errorf("x-should-retry %q for retryable %v", got, p.Retryable)
	}
	obj := RawJSON(body).value.(*object)
	if !reflect.DeepEqual(obj.keys[:4], []string{"type", "title", "status", "detail"}) {
		t.Errorf("RFC 9457 members first: %v", obj.keys)
	}
	want := map[string]any{"type": e.TypeURI, "title": e.Description, "status": json.Number(strconv.Itoa(e.HTTPStatus)), "detail": "display text"}
	for k, v := range want {
		if obj.vals[k] != v {
			t.Errorf("%s = %v, want %v", k, obj.vals[k], v)
		}
	}
	// Without the delay headers (which a retryable payload takes as its delay), it reads back as is.
	back, err := FromHTTP(status, http.Header{"Content-Type": header.Values("Content-Type")}, body, time.Now()).Validate()
	if err != nil || !reflect.DeepEqual(back, p) {
		t.Errorf("problem+json does not read back: %+v, %v", back, err)
	}
}

// go test -bench . : reading a payload from JSON text and deciding on it.
func BenchmarkParseAndDecide(b *testing.B) {
	e := pick(b, func(e Entry) bool { return true })
	data, _ := json.Marshal(&ErrorPayload{Code: e.Code, Category: e.Category, Retryable: e.Retryable, Scope: e.Scope, ResourceID: "r", CorrelationID: "c"})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if d := RawJSON(data).Decide(1, DefaultMaxAttempts); d.Reason == ReasonInvalidPayload {
			b.Fatal(d)
		}
	}
}

// plain is a decoded value as encoding/json (with UseNumber) would give it.
func plain(v any) any {
	switch t := v.(type) {
	case *object:
		m := map[string]any{}
		for _, k := range t.keys {
			m[k] = plain(t.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			out[i] = plain(item)
		}
		return out
	}
	return v
}

// randomJSON writes a random JSON text: nesting, repeated keys, every escape (surrogate pairs and
// lone halves), numbers of every shape, and white space between tokens.
func randomJSON(rng *rand.Rand, depth int) string {
	space := func() string { return [...]string{"", "", " ", "\n\t ", "\r"}[rng.Intn(5)] }
	pick := func(options ...string) string { return options[rng.Intn(len(options))] }
	switch k := rng.Intn(8); {
	case k < 2 && depth < 4:
		items := []string{}
		for i := rng.Intn(4); i > 0; i-- {
			items = append(items, space()+randomJSON(rng, depth+1)+space())
		}
		return "[" + strings.Join(items, ",") + "]"
	case k < 4 && depth < 4:
		items := []string{}
		for i := rng.Intn(4); i > 0; i-- {
			key := pick(`"a"`, `"b"`, `"\u0061"`, `""`, `"k\n"`)
			items = append(items, space()+key+space()+":"+space()+randomJSON(rng, depth+1))
		}
		return "{" + strings.Join(items, ",") + "}"
	case k < 6:
		var b strings.Builder
		for i := rng.Intn(5); i > 0; i-- {
			b.WriteString(pick("x", "é", "😀", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00x`, `\ud800\u0041`, `\uD834\uDD1E`))
		}
		return `"` + b.String() + `"`
	case k < 7:
		return pick("-", "") + pick("0", "7", "12345678901234567890123") + pick("", ".5", ".000") + pick("", "e5", "E+2", "e-400", "e400")
	}
	return pick("true", "false", "null")
}

// The package's JSON reader accepts exactly what encoding/json accepts (on UTF-8 text) and
// reads the same values: random JSON texts, and the same cut and mutated.
func TestJSONReaderAgreesWithEncodingJSON(t *testing.T) {
	const alphabet = "{}[],:\"\\u0123456789abcdefE.-+ tnrulsfa\x01\t/"
	rng := rand.New(rand.NewSource(2))
	accepted := 0
	for i := 0; i < 20000; i++ {
		data := []byte(randomJSON(rng, 0))
		if i%2 == 1 {
			data = data[:rng.Intn(len(data)+1)]
			for j := rng.Intn(3); j > 0 && len(data) > 0; j-- {
				data[rng.Intn(len(data))] = alphabet[rng.Intn(len(alphabet))]
			}
		}
		got, ok := decodeJSON(data, -1)
		// Invalid UTF-8 is not JSON to the contract; encoding/json reads it, replacing bytes.
		if want := json.Valid(data) && utf8.Valid(data); ok != want {
			t.Fatalf("%q: ours %v, encoding/json %v", data, ok, want)
		}
		if !ok {
			continue
		}
		accepted++
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		if !reflect.DeepEqual(plain(got), want) {
			t.Fatalf("%q: ours %#v, encoding/json %#v", data, plain(got), want)
		}
	}
	if accepted < 10000 {
		t.Errorf("only %d of the texts were JSON; the comparison says little", accepted)
	}
}
