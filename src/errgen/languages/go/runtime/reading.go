package errgenruntime

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Reading a real API's error response (docs/conformance.md, "Reading a real response"): where
// the registry's wire.response says each fact is (responseSpecJSON, data from the contract
// view), in a JSON or flat-XML body or a header. Nothing here panics on what a server sends.

// anyStep is the `[*]` path step.
const anyStep = -1

type source struct {
	in   string // "body", "header" or "status"
	name string // a header's lower-case name
	path []pathStep
}

type pathStep struct {
	key   string
	index int // anyStep: each element in turn
	isKey bool
}

type condition struct {
	isStatus bool
	statuses []int
	at       source
	// equals holds when a value at the source equals want; otherwise a non-empty string, array
	// or object must be there.
	equals bool
	want   any
}

// delaySource is one retry_after entry; with codes or categories it applies only to the
// registry codes listed or of the categories listed.
type delaySource struct {
	at         source
	unit       string
	codes      []string
	categories []string
	filtered   bool
}

// appliesTo reports whether the entry is read for a registry code of category ("", "": no
// registry code was read).
func (d delaySource) appliesTo(code, category string) bool {
	if !d.filtered {
		return true
	}
	return code != "" && contains(d.codes, code) || category != "" && contains(d.categories, category)
}

type variant struct {
	code string
	when []condition
}

type prefixRows struct {
	prefix string
	rows   []variant
}

type responseSpec struct {
	format                                   string
	errorWhen                                []condition
	code, message, correlationID, resourceID []source
	retryAfter, ownRetryAfter                []delaySource
	variants                                 map[string][]variant
	// prefixes are the registry's wire_prefix rows, the longest prefix first (ties: registry
	// order), each prefix's rows as a variant's: a code read that no wire code equals is
	// matched by the first prefix it starts with.
	prefixes                           []prefixRows
	retryableStatuses, serviceStatuses []int
	// statusActions decide a response without a readable code by its status ("429") or class
	// ("4xx"); pausedWithDelay are the statuses that pause when they name a delay.
	statusActions   map[string]Action
	pausedWithDelay []int
	// wireCode is the wire code each registry code goes out as, when several codes share one (a
	// code listed twice: its last listing, as the Python SDK has it).
	wireCode map[string]string
}

var response = loadResponseSpec(responseSpecJSON)

// loadResponseSpec reads the generated spec; errgen wrote it, so a malformed one is a bug.
func loadResponseSpec(text string) *responseSpec {
	doc, ok := decodeJSON([]byte(text), -1)
	root, isObject := doc.(*object)
	if !ok || !isObject {
		panic("errgen: malformed response spec")
	}
	spec := &responseSpec{variants: map[string][]variant{}, wireCode: map[string]string{}}
	spec.format, _ = root.vals["format"].(string)
	spec.errorWhen = conditionsOf(root.vals["error_when"])
	spec.code = sourcesOf(root.vals["code"])
	spec.message = sourcesOf(root.vals["message"])
	spec.correlationID = sourcesOf(root.vals["correlation_id"])
	spec.resourceID = sourcesOf(root.vals["resource_id"])
	spec.retryAfter = delaySourcesOf(root.vals["retry_after"])
	spec.ownRetryAfter = delaySourcesOf(root.vals["own_retry_after"])
	spec.retryableStatuses = intsOf(root.vals["retryable_statuses"])
	spec.serviceStatuses = intsOf(root.vals["service_statuses"])
	spec.statusActions = map[string]Action{}
	if actions, ok := root.vals["status_actions"].(*object); ok {
		for _, key := range actions.keys {
			if action, ok := actions.vals[key].(string); ok {
				spec.statusActions[key] = Action(action)
			}
		}
	}
	spec.pausedWithDelay = intsOf(root.vals["paused_with_delay"])
	if variants, ok := root.vals["variants"].(*object); ok {
		for _, wire := range variants.keys {
			spec.variants[wire] = variantsOf(variants.vals[wire])
			for _, row := range spec.variants[wire] {
				spec.wireCode[row.code] = wire
			}
		}
	}
	prefixes, _ := root.vals["prefixes"].([]any)
	for _, entry := range prefixes {
		pair, _ := entry.([]any)
		if len(pair) == 2 {
			prefix, _ := pair[0].(string)
			spec.prefixes = append(spec.prefixes, prefixRows{prefix, variantsOf(pair[1])})
		}
	}
	return spec
}

// variantsOf reads rows of [code, conditions].
func variantsOf(v any) []variant {
	rows, _ := v.([]any)
	var out []variant
	for _, row := range rows {
		pair, _ := row.([]any)
		if len(pair) == 2 {
			name, _ := pair[0].(string)
			out = append(out, variant{name, conditionsOf(pair[1])})
		}
	}
	return out
}

func sourceOf(v any) source {
	obj, _ := v.(*object)
	if obj == nil {
		return source{}
	}
	s := source{}
	s.in, _ = obj.vals["in"].(string)
	s.name, _ = obj.vals["name"].(string)
	steps, _ := obj.vals["path"].([]any)
	for _, step := range steps {
		if key, ok := step.(string); ok {
			s.path = append(s.path, pathStep{key: key, isKey: true})
		} else if n, ok := integerIn(step, anyStep, 1<<31-1); ok {
			s.path = append(s.path, pathStep{index: int(n)})
		}
	}
	return s
}

func sourcesOf(v any) []source {
	items, _ := v.([]any)
	out := make([]source, 0, len(items))
	for _, item := range items {
		out = append(out, sourceOf(item))
	}
	return out
}

func delaySourcesOf(v any) []delaySource {
	items, _ := v.([]any)
	out := make([]delaySource, 0, len(items))
	for _, item := range items {
		if obj, ok := item.(*object); ok {
			d := delaySource{at: sourceOf(obj.vals["at"]), filtered: obj.has("codes") || obj.has("categories")}
			d.unit, _ = obj.vals["unit"].(string)
			d.codes = stringItems(obj.vals["codes"])
			d.categories = stringItems(obj.vals["categories"])
			out = append(out, d)
		}
	}
	return out
}

func conditionsOf(v any) []condition {
	items, _ := v.([]any)
	out := make([]condition, 0, len(items))
	for _, item := range items {
		obj, ok := item.(*object)
		if !ok {
			continue
		}
		if obj.has("status") {
			out = append(out, condition{isStatus: true, statuses: intsOf(obj.vals["status"])})
			continue
		}
		c := condition{at: sourceOf(obj.vals["at"])}
		c.want, c.equals = obj.vals["equals"]
		out = append(out, c)
	}
	return out
}

func intsOf(v any) []int {
	items, _ := v.([]any)
	out := make([]int, 0, len(items))
	for _, item := range items {
		if n, ok := integerIn(item, -1<<31, 1<<31-1); ok {
			out = append(out, int(n))
		}
	}
	return out
}

func containsInt(values []int, v int) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}

// ---- headers ----

// headerPair is one response header as sent: names repeat and keep their order.
type headerPair struct{ name, value string }

// headerValue is the first value of header name (lower case) among the first maxHeaders pairs,
// names compared ASCII case-insensitively; absent when the value is longer than maxHeaderChars.
func headerValue(headers []headerPair, name string) (string, bool) {
	for i, h := range headers {
		if i >= maxHeaders {
			return "", false
		}
		if asciiLowerEquals(h.name, name) {
			if len(h.value) > maxHeaderChars && utf8.RuneCountInString(h.value) > maxHeaderChars {
				return "", false
			}
			return h.value, true
		}
	}
	return "", false
}

// asciiLowerEquals reports whether an ASCII name lower-cased is lower (not Unicode folding: the
// Kelvin sign is no k).
func asciiLowerEquals(name, lower string) bool {
	if len(name) != len(lower) {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 0x80 {
			return false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

func trimSpaceTab(s string) string {
	start, end := 0, len(s)
	for start < end && (s[start] == ' ' || s[start] == '\t') {
		start++
	}
	for end > start && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	return s[start:end]
}

// ---- values ----

// accept turns the value at a source into a fact, or says it is not usable.
type accept func(v any) (any, bool)

// wholeValue is a JSON number's value when it is an integer of magnitude at most 2^53 - 1.
func wholeValue(v any) (int64, bool) {
	return integerIn(v, -maxDelayValueMS, maxDelayValueMS)
}

// codeText: a code or request id is a non-empty string, or a whole JSON number as its decimal text.
func codeText(v any) (any, bool) {
	if s, ok := v.(string); ok {
		return s, s != ""
	}
	if n, ok := wholeValue(v); ok {
		return strconv.FormatInt(n, 10), true
	}
	return nil, false
}

func messageText(v any) (any, bool) {
	s, ok := v.(string)
	return s, ok
}

// ---- sources ----

func walk(value any, path []pathStep, start int, take accept) (any, bool) {
	for at := start; at < len(path); at++ {
		step := path[at]
		switch {
		case step.isKey:
			obj, ok := value.(*object)
			if !ok || !obj.has(step.key) {
				return nil, false
			}
			value = obj.vals[step.key]
		case step.index == anyStep:
			items, _ := value.([]any)
			for _, item := range items {
				if found, ok := walk(item, path, at+1, take); ok {
					return found, true
				}
			}
			return nil, false
		default:
			items, ok := value.([]any)
			if !ok || step.index >= len(items) {
				return nil, false
			}
			value = items[step.index]
		}
	}
	return take(value)
}

// readSource is what take makes of the value at s; document is nil when absent.
func readSource(s source, document any, headers []headerPair, take accept, status int) (any, bool) {
	switch s.in {
	case "status":
		return take(strconv.Itoa(status))
	case "header":
		value, _ := headerValue(headers, s.name)
		if value = trimSpaceTab(value); value == "" {
			return nil, false
		}
		return take(value)
	case "body":
		return walk(document, s.path, 0, take)
	}
	return nil, false
}

func firstOf(sources []source, document any, headers []headerPair, take accept, status int) (any, bool) {
	for _, s := range sources {
		if found, ok := readSource(s, document, headers, take, status); ok {
			return found, true
		}
	}
	return nil, false
}

func firstText(sources []source, document any, headers []headerPair, take accept, status int) (string, bool) {
	found, ok := firstOf(sources, document, headers, take, status)
	text, _ := found.(string)
	return text, ok
}

// readCode is the code a response carries: the first source whose value is a code this SDK knows
// (the most specific known code wins: Microsoft Graph's innerError.code over its outer code, the
// first known entry of an array through [*]), and only when no source yields one the first usable
// value.
func readCode(sources []source, document any, headers []headerPair, status int) string {
	knownText := func(v any) (any, bool) {
		code, ok := codeText(v)
		if !ok || !knownCode(code.(string)) {
			return nil, false
		}
		return code, true
	}
	if code, ok := firstText(sources, document, headers, knownText, status); ok {
		return code
	}
	code, _ := firstText(sources, document, headers, codeText, status)
	return code
}

// knownCode: a registry code, a wire code several registry codes share (a key of variants), or
// a code a wire_prefix matches.
func knownCode(code string) bool {
	if _, ok := response.variants[code]; ok {
		return true
	}
	return isRegistryCode(code) || prefixed(code) != nil
}

func isRegistryCode(code string) bool {
	_, ok := entries[Code(code)]
	return ok
}

// prefixed is the rows of the longest wire_prefix code starts with (the table is longest
// first), nil for none.
func prefixed(code string) []variant {
	for _, p := range response.prefixes {
		if strings.HasPrefix(code, p.prefix) {
			return p.rows
		}
	}
	return nil
}

// ---- conditions ----

func (c condition) holds(status int, document any, headers []headerPair) bool {
	if c.isStatus {
		return containsInt(c.statuses, status)
	}
	take := func(v any) (any, bool) {
		switch t := v.(type) {
		case string:
			return nil, !c.equals && t != ""
		case []any:
			return nil, !c.equals && len(t) > 0
		case *object:
			return nil, !c.equals && len(t.keys) > 0
		}
		return nil, false
	}
	if c.equals {
		take = func(v any) (any, bool) { return nil, jsonEqual(v, c.want) }
	}
	_, ok := readSource(c.at, document, headers, take, status)
	return ok
}

func allHold(conditions []condition, status int, document any, headers []headerPair) bool {
	for _, c := range conditions {
		if !c.holds(status, document, headers) {
			return false
		}
	}
	return true
}

// isErrorResponse: any status >= 300, or a 1xx/2xx that an error_when condition marks.
func isErrorResponse(status int, document any, headers []headerPair) bool {
	if status >= 300 {
		return true
	}
	for _, c := range response.errorWhen {
		if c.holds(status, document, headers) {
			return true
		}
	}
	return false
}

// registryCode is the registry code of a wire code several codes send (wire_code/when), or,
// when no wire code equals it (a registry code is one), of the longest wire_prefix it starts
// with: the first whose conditions hold, else the first; among those that fit (a payload's own
// category and scope) when any does. Any other code is itself.
func registryCode(code string, status int, document any, headers []headerPair, fits func(string) bool) string {
	rows := response.variants[code]
	if len(rows) == 0 && !isRegistryCode(code) {
		rows = prefixed(code)
	}
	if len(rows) == 0 {
		return code
	}
	if fits != nil {
		var fitting []variant
		for _, row := range rows {
			if fits(row.code) {
				fitting = append(fitting, row)
			}
		}
		if len(fitting) > 0 {
			rows = fitting
		}
	}
	for _, row := range rows {
		if allHold(row.when, status, document, headers) {
			return row.code
		}
	}
	return rows[0].code
}

// ---- delays ----

// scaled is ASCII digits, or a whole JSON number >= 0 (not one out of range), times factor,
// saturated at maxDelayValueMS.
func scaled(v any, factor int64) (int64, bool) {
	switch t := v.(type) {
	case string:
		if !isDigits(t) {
			return 0, false
		}
		return saturatingProduct(t, factor), true
	case json.Number:
		r, finite := exactNumber(string(t))
		if !finite || r.Sign() < 0 || !r.IsInt() {
			return 0, false
		}
		if !r.Num().IsInt64() || r.Num().Int64() > maxDelayValueMS {
			return maxDelayValueMS, true
		}
		return min(r.Num().Int64()*factor, maxDelayValueMS), true
	}
	return 0, false
}

// secondsMS reads seconds as APIs send them, in milliseconds rounded up and saturated: what
// scaled reads, a decimal text `[0-9]+\.[0-9]{1,9}` (Microsoft Graph's `Retry-After: 2.128`), and
// a JSON number with a fraction (Discord's `retry_after: 64.57`), first rounded to the
// microsecond so that 64.57, which a double holds as 64.5699..., is 64,570 ms in every SDK.
func secondsMS(v any) (int64, bool) {
	switch t := v.(type) {
	case string:
		if whole, fraction, ok := strings.Cut(t, "."); ok && isDigits(whole) && isDigits(fraction) && len(fraction) <= 9 {
			return min(saturatingProduct(whole, 1000)+fractionMS(fraction, 1000), maxDelayValueMS), true
		}
	case json.Number:
		if ms, ok := fractionalSecondsMS(string(t)); ok {
			return ms, true
		}
	}
	return scaled(v, 1000)
}

// fractionalSecondsMS is a JSON number that a double holds as a finite, non-negative, non-integral
// value: floor(value * 1e6 + 0.5) microseconds (double arithmetic), then rounded up to a whole ms
// by integer arithmetic. Any other number is scaled's to judge.
func fractionalSecondsMS(text string) (int64, bool) {
	if isIntegerText(text) {
		return 0, false
	}
	value, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(value, 0) || math.IsNaN(value) || value < 0 || value == math.Trunc(value) {
		return 0, false
	}
	if value*1000 > maxDelayValueMS {
		return maxDelayValueMS, true
	}
	micro := int64(math.Floor(value*1_000_000 + 0.5))
	return min((micro+999)/1000, maxDelayValueMS), true
}

// fractionMS is 0.<fraction> of factor milliseconds, rounded up (exact integer arithmetic).
func fractionMS(fraction string, factor int64) int64 {
	digits, _ := strconv.ParseInt(fraction, 10, 64)
	scale := int64(1)
	for range fraction {
		scale *= 10
	}
	return (digits*factor + scale - 1) / scale
}

var unitMS = map[string]int64{"h": 3_600_000, "m": 60_000, "s": 1000, "ms": 1}

// durationMS reads `30s`, `1.5s`, `6m0s`, `20ms`: the sum of its parts, each rounded up to whole
// milliseconds; the whole text must be parts `[0-9]+(\.[0-9]{1,9})?(h|ms|m|s)`.
func durationMS(text string) (int64, bool) {
	var total int64
	at := 0
	for at < len(text) || at == 0 {
		start := at
		for at < len(text) && isDigit(text[at]) {
			at++
		}
		if at == start {
			return 0, false
		}
		whole := text[start:at]
		fraction := ""
		if at < len(text) && text[at] == '.' {
			at++
			fromDot := at
			for at < len(text) && isDigit(text[at]) {
				at++
			}
			if fraction = text[fromDot:at]; len(fraction) < 1 || len(fraction) > 9 {
				return 0, false
			}
		}
		var unit string
		switch {
		case at+1 < len(text) && text[at:at+2] == "ms":
			unit = "ms"
		case at < len(text) && (text[at] == 'h' || text[at] == 'm' || text[at] == 's'):
			unit = text[at : at+1]
		default:
			return 0, false
		}
		at += len(unit)
		factor := unitMS[unit]
		part := saturatingProduct(whole, factor)
		if fraction != "" {
			part += fractionMS(fraction, factor)
		}
		total = min(total+part, maxDelayValueMS)
	}
	return total, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// delayReader turns a delay source's value into milliseconds, by its unit.
func delayReader(unit string, nowMS int64) accept {
	return func(v any) (any, bool) {
		switch unit {
		case "ms":
			return maybe(scaled(v, 1))
		case "seconds":
			return maybe(secondsMS(v))
		case "epoch_seconds":
			when, ok := scaled(v, 1000)
			if !ok {
				return nil, false
			}
			return clampDelay(when - nowMS), true
		case "duration":
			text, ok := v.(string)
			if !ok {
				return nil, false
			}
			return maybe(durationMS(text))
		}
		// "http": (decimal) delta-seconds or an IMF-fixdate
		if seconds, ok := secondsMS(v); ok {
			return seconds, true
		}
		text, ok := v.(string)
		if !ok {
			return nil, false
		}
		when, ok := parseIMFFixdate(text)
		if !ok {
			return nil, false
		}
		return clampDelay(when - nowMS), true
	}
}

func maybe(n int64, ok bool) (any, bool) {
	if !ok {
		return nil, false
	}
	return n, true
}

func clampDelay(ms int64) int64 { return max(0, min(ms, maxDelayValueMS)) }

// delayEntries are the registry's delay sources that apply to the registry code a response's
// code read stands for (matched as the payload's code is, without the payload-fit refinement):
// an unknown code, or none, reads only the entries without a filter.
func delayEntries(code string, status int, document any, headers []headerPair) []delaySource {
	var name, category string
	if code != "" {
		if e, known := entries[Code(registryCode(code, status, document, headers, nil))]; known {
			name, category = string(e.Code), string(e.Category)
		}
	}
	var out []delaySource
	for _, d := range response.retryAfter {
		if d.appliesTo(name, category) {
			out = append(out, d)
		}
	}
	return out
}

func delayOf(entries []delaySource, document any, headers []headerPair, nowMS int64) (int64, bool) {
	for _, entry := range entries {
		if found, ok := readSource(entry.at, document, headers, delayReader(entry.unit, nowMS), 0); ok {
			return found.(int64), true
		}
	}
	return 0, false
}
