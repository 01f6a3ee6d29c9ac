package errgenruntime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// runConformance runs a vectors file (docs/conformance.md). Mode "check" writes one line per
// vector whose outputs differ from its expectations, then "N passed, N failed"; mode "emit"
// writes one compact JSON line per vector, spelled as the Python SDK spells it (a malformed
// vector gets {"name": ..., "error": ...}). It returns how
// many vectors failed; an error means the file could not be run.
func runConformance(mode string, vectorsJSON []byte, out io.Writer) (int, error) {
	if mode != "check" && mode != "emit" {
		return 0, fmt.Errorf("mode %q: expected check or emit", mode)
	}
	vectors, err := loadVectors(vectorsJSON)
	if err != nil {
		return 0, err
	}
	failed := 0
	for _, vector := range vectors {
		name, _ := vector.vals["name"].(string)
		actual, err := runVector(vector)
		if mode == "emit" {
			if err != nil {
				// A malformed vector (no input, say) says why; the others still run.
				actual = newObject()
				actual.set("name", vector.vals["name"])
				actual.set("error", err.Error())
			}
			if _, err := fmt.Fprintf(out, "%s\n", emitLine(actual)); err != nil {
				return failed, err
			}
			continue
		}
		lines := failures(name, vector, actual, err)
		for _, line := range lines {
			fmt.Fprintln(out, line)
		}
		if len(lines) > 0 {
			failed++
		}
	}
	if mode == "check" {
		fmt.Fprintf(out, "%d passed, %d failed\n", len(vectors)-failed, failed)
	}
	return failed, nil
}

func loadVectors(data []byte) ([]*object, error) {
	doc, ok := decodeJSON(data, -1)
	root, isObject := doc.(*object)
	items, isList := (*object).getList(root, "vectors")
	if !ok || !isObject || !isList {
		return nil, errors.New("a vectors file is an object whose `vectors` is a list of objects")
	}
	vectors := make([]*object, len(items))
	for i, item := range items {
		if vectors[i], ok = item.(*object); !ok {
			return nil, errors.New("a vectors file is an object whose `vectors` is a list of objects")
		}
	}
	return vectors, nil
}

func (o *object) getList(key string) ([]any, bool) {
	if o == nil {
		return nil, false
	}
	items, ok := o.vals[key].([]any)
	return items, ok
}

var outputs = []string{"reading", "valid", "problems", "parsed", "decision", "payload", "http", "http_problem", "mcp", "suggestions"}

// failures are the check-mode lines of one vector: an output that differs from its expectation
// (problems compared as a set), or the error that kept the vector from running.
func failures(name string, vector, actual *object, err error) []string {
	if name == "" {
		name = "?"
	}
	if err != nil {
		return []string{fmt.Sprintf("FAIL %s: raised %v", name, err)}
	}
	expected, _ := vector.vals["expected"].(*object)
	var lines []string
	for _, key := range outputs {
		if expected == nil || !expected.has(key) {
			continue
		}
		want := expected.vals[key]
		if key == "problems" {
			want = sortedProblems(want)
		}
		if !jsonEqual(want, actual.vals[key]) {
			lines = append(lines, fmt.Sprintf("FAIL %s: %s: expected %s, got %s", name, key, encodeJSON(want, true), encodeJSON(actual.vals[key], true)))
		}
	}
	return lines
}

func sortedProblems(v any) any {
	items, ok := v.([]any)
	ids := make([]Problem, 0, len(items))
	for _, item := range items {
		id, isString := item.(string)
		if !isString {
			return v
		}
		ids = append(ids, Problem{ID: id})
	}
	if !ok {
		return v
	}
	return normalize(problemIDs(ids))
}

// emitLine is the vector's outputs as one JSON line. A top-level field holding a number Python
// reads as infinite (1e400, an integer of more than 4000 characters) is left out, as the Python
// runner leaves out what JSON cannot carry.
func emitLine(actual *object) []byte {
	line := newObject()
	for _, k := range actual.keys {
		if !hasInfinite(actual.vals[k]) {
			line.set(k, actual.vals[k])
		}
	}
	return encodeJSON(line, true)
}

func hasInfinite(v any) bool {
	switch t := v.(type) {
	case json.Number:
		if isIntegerText(string(t)) {
			return len(t) > pythonMaxIntChars
		}
		_, finite := exactNumber(string(t))
		return !finite
	case []any:
		for _, item := range t {
			if hasInfinite(item) {
				return true
			}
		}
	case *object:
		for _, k := range t.keys {
			if hasInfinite(t.vals[k]) {
				return true
			}
		}
	}
	return false
}

// pythonMaxIntChars is the longest integer text the Python SDK reads as an int (longer is inf).
const pythonMaxIntChars = 4000

// isWriting reports whether an input is one of writing.json's kinds.
func isWriting(input *object) bool {
	return input.has("new_error") || input.has("parse") || input.has("to_http") || input.has("did_you_mean")
}

// runVector is the pipeline of one vector: input -> raw payload -> verdicts and decision (an
// HTTP input's by DecideResponse); a real response's reading as well; a transport failure's
// decision alone.
func runVector(v *object) (*object, error) {
	if input, ok := v.vals["input"].(*object); ok && isWriting(input) {
		written, err := writingOutputs(input)
		if err != nil {
			return nil, err
		}
		result := newObject()
		result.set("name", v.vals["name"])
		sorted := sortedKeys(written).(*object)
		for _, k := range sorted.keys {
			result.set(k, sorted.vals[k])
		}
		return result, nil
	}
	attempt, err1 := vectorInt(v, "attempt", 1)
	maxAttempts, err2 := vectorInt(v, "max_attempts", DefaultMaxAttempts)
	maxDelay, err3 := vectorInt(v, "max_delay_ms", DefaultMaxDelayMS)
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, err
	}
	opts := []DecideOption{WithMaxDelayMS(maxDelay)}
	if draw, ok := v.vals["jitter_draw"].(json.Number); ok {
		value, err := strconv.ParseFloat(string(draw), 64)
		if err != nil {
			return nil, errors.New(`"jitter_draw" must be a number`)
		}
		opts = append(opts, WithJitterDraw(func() float64 { return value }))
	}
	result := newObject()
	result.set("name", v.vals["name"])
	if input, ok := v.vals["input"].(*object); ok && input.has("transport") {
		failure, idempotent, err := vectorTransport(input.vals["transport"])
		if err != nil {
			return nil, err
		}
		result.set("decision", DecideFailure(failure, idempotent, int(attempt), int(maxAttempts), opts...).value())
		return result, nil
	}
	raw, reading, err := vectorInput(v)
	if err != nil {
		return nil, err
	}
	if input := v.vals["input"].(*object); input.has("response") {
		result.set("reading", readingValue(reading))
	}
	problems := problemIDs(raw.Problems())
	result.set("valid", len(problems) == 0)
	result.set("problems", normalize(problems))
	result.set("parsed", string(raw.Parsed()))
	decision := raw.Decide(int(attempt), int(maxAttempts), opts...)
	if reading != nil {
		decision = DecideResponse(*reading, int(attempt), int(maxAttempts), opts...)
	}
	result.set("decision", decision.value())
	return result, nil
}

// vectorTransport reads a transport input: {"failure": "reset", "idempotent": false}.
func vectorTransport(value any) (Failure, bool, error) {
	t, ok := value.(*object)
	failure, isText := t.getString("failure")
	idempotent, isBool := t.vals["idempotent"].(bool)
	if !ok || !isText || !isBool {
		return "", false, errors.New(`"transport" must be an object with a string "failure" and a boolean "idempotent"`)
	}
	return Failure(failure), idempotent, nil
}

func (o *object) getString(key string) (string, bool) {
	if o == nil {
		return "", false
	}
	text, ok := o.vals[key].(string)
	return text, ok
}

func readingValue(r *Reading) *object {
	out := newObject()
	out.set("error", r.IsError)
	for _, fact := range []struct {
		key, value string
	}{{"code", r.Code}, {"correlation_id", r.CorrelationID}} {
		if fact.value == "" {
			out.set(fact.key, nil)
		} else {
			out.set(fact.key, fact.value)
		}
	}
	if r.HasDelay {
		out.set("delay_ms", json.Number(strconv.FormatInt(r.DelayMS, 10)))
	} else {
		out.set("delay_ms", nil)
	}
	return out
}

func vectorInput(v *object) (Raw, *Reading, error) {
	input, ok := v.vals["input"].(*object)
	switch {
	case !ok:
		return Raw{}, nil, errors.New(`no "input" object`)
	case input.has("payload"):
		return Raw{input.vals["payload"]}, nil, nil
	case input.has("http"):
		reading, err := vectorHTTP(v, input.vals["http"], "http")
		if err != nil {
			return Raw{}, nil, err
		}
		return reading.Payload, reading, nil
	case input.has("mcp"):
		return FromMCPResult(input.vals["mcp"]), nil, nil
	case input.has("response"):
		reading, err := vectorHTTP(v, input.vals["response"], "response")
		if err != nil {
			return Raw{}, nil, err
		}
		return reading.Payload, reading, nil
	}
	return Raw{}, nil, errors.New("input holds none of payload, http, mcp, response, transport")
}

// vectorHTTP reads an "http" or "response" input: status, header pairs in order, body text (a
// response's after body_pad spaces).
func vectorHTTP(v *object, value any, kind string) (*Reading, error) {
	h, ok := value.(*object)
	if !ok {
		return nil, fmt.Errorf("%q must be an object", kind)
	}
	var headers []headerPair
	pairs, _ := h.vals["headers"].([]any)
	for _, p := range pairs {
		pair, ok := p.([]any)
		if !ok || len(pair) != 2 {
			return nil, errors.New("each header must be a [name, value] pair")
		}
		name, ok1 := pythonStr(pair[0])
		val, ok2 := pythonStr(pair[1])
		if !ok1 || !ok2 {
			return nil, errors.New("header names and values must be strings")
		}
		headers = append(headers, headerPair{name, val})
	}
	body, ok := h.vals["body"].(string)
	if !ok {
		return nil, errors.New(`"body" must be a string`)
	}
	pad, err := vectorInt(h, "body_pad", 0)
	if err != nil || pad < 0 || pad > 1<<30 {
		return nil, errors.New(`"body_pad" must be a small integer`)
	}
	nowMS, err := vectorInt(v, "now_ms", 0)
	if err != nil {
		return nil, err
	}
	text := strings.Repeat(" ", int(pad)) + body
	reading := readHTTP(vectorStatus(h.vals["status"]), headers, []byte(text), nowMS)
	return &reading, nil
}

// vectorStatus is the status as a reader sees it: a non-integer status counts as 0.
func vectorStatus(v any) int {
	n, ok := v.(json.Number)
	if !ok || !isIntegerText(string(n)) {
		return 0
	}
	status, err := strconv.Atoi(string(n))
	if err != nil {
		if strings.HasPrefix(string(n), "-") {
			return math.MinInt
		}
		return math.MaxInt
	}
	return status
}

// pythonStr is a JSON scalar as the Python runner's str() spells it.
func pythonStr(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case json.Number:
		// str() of a float spells infinity "inf", where json.dumps writes "Infinity".
		switch text := string(appendNumber(nil, string(t), true)); text {
		case "Infinity", "-Infinity":
			return strings.ToLower(strings.TrimSuffix(text, "inity")), true
		default:
			return text, true
		}
	case bool:
		if t {
			return "True", true
		}
		return "False", true
	case nil:
		return "None", true
	}
	return "", false
}

func vectorInt(o *object, key string, fallback int64) (int64, error) {
	value, ok := o.vals[key]
	if !ok {
		return fallback, nil
	}
	n, ok := integerIn(value, math.MinInt64, math.MaxInt64)
	if !ok {
		return 0, fmt.Errorf("%q must be an integer", key)
	}
	return n, nil
}

// ---- the writing vectors (writing.json) ----

// writingOutputs is what the writing functions make of a writing input (docs/conformance.md,
// "The writing vectors"): new_error's payload and what is written of it, the typed payload the
// tolerant parse makes of a wire payload, to_http's and to_mcp_result's of a given payload, or
// did_you_mean's suggestions.
func writingOutputs(input *object) (*object, error) {
	out := newObject()
	switch {
	case input.has("new_error"):
		spec, ok := input.vals["new_error"].(*object)
		if !ok {
			return nil, errors.New(`"new_error" must be an object`)
		}
		opts, err := errorOptions(spec)
		if err != nil {
			return nil, err
		}
		code, _ := spec.vals["code"].(string)
		id, _ := spec.vals["correlation_id"].(string)
		p, err := NewError(Code(code), id, opts...)
		if err != nil {
			for _, key := range []string{"payload", "http", "http_problem", "mcp"} {
				out.set(key, nil)
			}
			return out, nil
		}
		out.set("payload", normalize(p))
		return writtenOutputs(out, p), nil
	case input.has("parse"):
		// Through the typed struct, so a field it cannot hold is missing from the output.
		p, err := RawValue(input.vals["parse"]).Parse()
		out.set("payload", nil)
		if err == nil {
			out.set("payload", normalize(p))
		}
		return out, nil
	case input.has("to_http"):
		p, err := RawValue(input.vals["to_http"]).Parse()
		if err != nil {
			return nil, err
		}
		return writtenOutputs(out, p), nil
	}
	spec, ok := input.vals["did_you_mean"].(*object)
	if !ok {
		return nil, errors.New(`"did_you_mean" must be an object`)
	}
	value, _ := spec.vals["value"].(string)
	items, _ := spec.vals["allowed"].([]any)
	allowed := make([]string, 0, len(items))
	for _, item := range items {
		text, _ := item.(string)
		allowed = append(allowed, text)
	}
	var suggestions []string
	if spec.has("limit") {
		limit, err := vectorInt(spec, "limit", 0)
		if err != nil {
			return nil, err
		}
		suggestions = DidYouMeanN(value, allowed, int(limit))
	} else {
		suggestions = DidYouMean(value, allowed)
	}
	list := make([]any, len(suggestions))
	for i, s := range suggestions {
		list[i] = s
	}
	out.set("suggestions", list)
	return out, nil
}

// errorOptions are NewError's options for a new_error input's scope and fields (canonical
// names): WithRetryAfter for the delay, and every other field of the view set by its wire name,
// so a field the contract gains reaches the payload with no change here.
func errorOptions(spec *object) ([]ErrorOption, error) {
	var opts []ErrorOption
	if scope, ok := spec.vals["scope"].(string); ok {
		opts = append(opts, WithScope(Scope(scope)))
	}
	fields, _ := spec.vals["fields"].(*object)
	if fields == nil {
		return opts, nil
	}
	for _, name := range fields.keys {
		wire, known := wireOf[name]
		switch {
		case name == canonicalRetryAfterMS:
			ms, err := vectorInt(fields, name, 0)
			if err != nil {
				return nil, err
			}
			opts = append(opts, WithRetryAfter(time.Duration(ms)*time.Millisecond))
		case known:
			opts = append(opts, withWireValue(wire, fields.vals[name]))
		default:
			return nil, fmt.Errorf("new_error: no field %q", name)
		}
	}
	return opts, nil
}

// withWireValue sets the field of a wire name to a JSON value, through the payload's JSON form
// (its struct tags); a value the field cannot hold leaves the payload as it was.
func withWireValue(wire string, value any) ErrorOption {
	return func(p *ErrorPayload) {
		obj, ok := p.value().(*object)
		if !ok {
			return
		}
		obj.set(wire, value)
		if typed := payloadFrom(obj); typed != nil {
			*p = *typed
		}
	}
}

// writtenOutputs adds both HTTP forms and the MCP result of p to out.
func writtenOutputs(out *object, p *ErrorPayload) *object {
	out.set("http", httpOutput(ToHTTP(p)))
	out.set("http_problem", httpOutput(ToHTTP(p, AsProblem())))
	result := normalize(ToMCPResult(p)).(*object)
	mcp := newObject()
	var items []any
	contents, _ := result.vals["content"].([]any)
	for _, c := range contents {
		item, _ := c.(*object)
		text, _ := item.vals["text"].(string)
		parsed, _ := decodeJSON([]byte(text), -1)
		entry := newObject()
		entry.set("type", item.vals["type"])
		entry.set("json", parsed)
		items = append(items, entry)
	}
	mcp.set("content", items)
	mcp.set("structuredContent", result.vals["structuredContent"])
	mcp.set("isError", result.vals["isError"])
	out.set("mcp", mcp)
	return out
}

// httpOutput is a written response as the vectors state it: header names in lower case, sorted;
// the body parsed.
func httpOutput(status int, header http.Header, body []byte) *object {
	var pairs [][2]string
	for name, values := range header {
		for _, value := range values {
			pairs = append(pairs, [2]string{strings.ToLower(name), value})
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	headers := make([]any, len(pairs))
	for i, pair := range pairs {
		headers[i] = []any{pair[0], pair[1]}
	}
	parsed, ok := decodeJSON(body, -1)
	if !ok {
		parsed = string(body) // an XML API's body, compared as text
	}
	out := newObject()
	out.set("status", json.Number(strconv.Itoa(status)))
	out.set("headers", headers)
	out.set("body", parsed)
	return out
}

// sortedKeys is a value with every object's keys sorted: the SDKs need not agree on key order.
func sortedKeys(v any) any {
	switch t := v.(type) {
	case *object:
		keys := append([]string(nil), t.keys...)
		sort.Strings(keys)
		out := newObject()
		for _, k := range keys {
			out.set(k, sortedKeys(t.vals[k]))
		}
		return out
	case []any:
		items := make([]any, len(t))
		for i, item := range t {
			items[i] = sortedKeys(item)
		}
		return items
	}
	return v
}
