package errgenruntime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// RunConformance runs a vectors file (docs/conformance.md). Mode "check" writes one line per
// vector whose outputs differ from its expectations, then "N passed, N failed"; mode "emit"
// writes one compact JSON line per vector. It returns how many vectors failed; an error means
// the file could not be run.
func RunConformance(mode string, vectorsJSON []byte, out io.Writer) (int, error) {
	if mode != "check" && mode != "emit" {
		return 0, fmt.Errorf("mode %q: expected check or emit", mode)
	}
	doc, ok := decodeJSON(vectorsJSON, -1)
	root, isObject := doc.(*object)
	if !ok || !isObject {
		return 0, errors.New("the vectors file is not a JSON object")
	}
	vectors, ok := root.vals["vectors"].([]any)
	if !ok {
		return 0, errors.New(`the vectors file has no "vectors" array`)
	}
	passed, failed := 0, 0
	for i, item := range vectors {
		vector, ok := item.(*object)
		if !ok {
			return failed, fmt.Errorf("vector %d is not an object", i)
		}
		name, _ := vector.vals["name"].(string)
		actual, err := runVector(vector)
		if err != nil {
			return failed, fmt.Errorf("vector %d (%s): %v", i, name, err)
		}
		if mode == "emit" {
			line := newObject()
			line.set("name", vector.vals["name"])
			for _, k := range actual.keys {
				line.set(k, actual.vals[k])
			}
			if _, err := fmt.Fprintf(out, "%s\n", encodeJSON(line, true)); err != nil {
				return failed, err
			}
			continue
		}
		expected, _ := vector.vals["expected"].(*object)
		if !vector.has("input") && expected != nil {
			// The first vectors format: the expectation is the decision itself.
			expected = &object{keys: []string{"decision"}, vals: map[string]any{"decision": expected}}
		}
		ok = true
		for _, k := range actual.keys {
			want, given := expected.valsOrEmpty()[k]
			if given && !jsonEqual(want, actual.vals[k]) {
				ok = false
				fmt.Fprintf(out, "FAIL %s: %s: expected %s, got %s\n", name, k, encodeJSON(want, true), encodeJSON(actual.vals[k], true))
			}
		}
		if ok {
			passed++
		} else {
			failed++
		}
	}
	if mode == "check" {
		fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
	}
	return failed, nil
}

func (o *object) valsOrEmpty() map[string]any {
	if o == nil {
		return nil
	}
	return o.vals
}

// runVector is the pipeline of one vector: input -> raw payload -> verdicts and decision.
func runVector(v *object) (*object, error) {
	raw, err := vectorInput(v)
	if err != nil {
		return nil, err
	}
	attempt, err1 := vectorInt(v, "attempt", 1)
	maxAttempts, err2 := vectorInt(v, "max_attempts", DefaultMaxAttempts)
	maxDelay, err3 := vectorInt(v, "max_delay_ms", DefaultMaxDelayMS)
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, err
	}
	problems := problemIDs(raw.Problems())
	result := newObject()
	result.set("valid", len(problems) == 0)
	result.set("problems", normalize(problems))
	result.set("parsed", string(raw.Parsed()))
	result.set("decision", raw.Decide(int(attempt), int(maxAttempts), WithMaxDelayMS(maxDelay)).value())
	return result, nil
}

func vectorInput(v *object) (Raw, error) {
	input, ok := v.vals["input"].(*object)
	if !ok {
		if v.has("payload") { // the first vectors format: the raw payload beside the name
			return Raw{v.vals["payload"]}, nil
		}
		return Raw{}, errors.New(`no "input" object`)
	}
	if len(input.keys) != 1 {
		return Raw{}, errors.New(`"input" must hold exactly one of payload, http, mcp`)
	}
	switch kind := input.keys[0]; kind {
	case "payload":
		return Raw{input.vals[kind]}, nil
	case "mcp":
		return FromMCPResult(input.vals[kind]), nil
	case "http":
		return vectorHTTP(v, input.vals[kind])
	default:
		return Raw{}, fmt.Errorf("unknown input kind %q", kind)
	}
}

func vectorHTTP(v *object, value any) (Raw, error) {
	h, ok := value.(*object)
	if !ok {
		return Raw{}, errors.New(`"http" must be an object`)
	}
	status, err := vectorInt(h, "status", 0)
	if err != nil {
		return Raw{}, err
	}
	header := http.Header{}
	pairs, _ := h.vals["headers"].([]any)
	for _, p := range pairs {
		pair, ok := p.([]any)
		if !ok || len(pair) != 2 {
			return Raw{}, errors.New("each header must be a [name, value] pair")
		}
		name, ok1 := pair[0].(string)
		val, ok2 := pair[1].(string)
		if !ok1 || !ok2 {
			return Raw{}, errors.New("header names and values must be strings")
		}
		header.Add(name, val)
	}
	body, _ := h.vals["body"].(string)
	nowMS, err := vectorInt(v, "now_ms", 0)
	if err != nil {
		return Raw{}, err
	}
	return FromHTTP(int(status), header, []byte(body), time.UnixMilli(nowMS)), nil
}

func vectorInt(o *object, key string, fallback int64) (int64, error) {
	value, ok := o.vals[key]
	if !ok || value == nil {
		return fallback, nil
	}
	n, isNumber := value.(json.Number)
	if !isNumber {
		return 0, fmt.Errorf("%q must be an integer", key)
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q must be an integer: %v", key, err)
	}
	return i, nil
}
