package errgenruntime

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// FromResponse reads an error response into a raw payload (see ReadResponse); decide on it
// with Raw.Decide.
func FromResponse(resp *http.Response) (Raw, error) {
	reading, err := ReadResponse(resp)
	return reading.Payload, err
}

// ReadResponse reads a response as ReadHTTP does, against the current time. It reads at most
// one byte past the contract's body limit (a longer body is unreadable, so its payload is the
// text read, not the whole body); closing resp.Body is left to the caller.
func ReadResponse(resp *http.Response) (Reading, error) {
	body, err := readBody(resp)
	if err != nil {
		return Reading{}, err
	}
	return ReadHTTP(resp.StatusCode, resp.Header, body, time.Now()), nil
}

// readBody reads at most one byte past the contract's body limit.
func readBody(resp *http.Response) ([]byte, error) {
	if resp == nil {
		return nil, errors.New("no response")
	}
	if resp.Body == nil {
		return nil, nil
	}
	return io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
}

// ResponseError is the error a response carries, for a client's `if err := ...; err != nil`:
// nil when the response is no error (see Reading.IsError), else an *APIError with the status,
// the headers and the reading, which wraps the *ErrorPayload the response carries (read
// tolerantly: a code from a newer server is kept), or a *PayloadError saying why the body is
// no payload (an HTML 502 page, say): errors.As finds either. An error reading the body is
// returned as is.
//
// When it returns nil, resp.Body still reads the whole body: a success below 300 is not read
// at all unless the registry's error_when says errors can come with it (Slack's `ok: false`),
// and then what was read is put back in front of the rest.
func ResponseError(resp *http.Response) error {
	if resp != nil && resp.StatusCode < 300 && len(response.errorWhen) == 0 {
		return nil
	}
	body, err := readBody(resp)
	if err != nil {
		return err
	}
	reading := ReadHTTP(resp.StatusCode, resp.Header, body, time.Now())
	if !reading.IsError {
		if resp.Body != nil {
			resp.Body = replayed{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
		}
		return nil
	}
	return newAPIError(reading, resp.Header)
}

// replayed is a body whose first bytes were read already: they come again, then the rest, and
// Close closes the original.
type replayed struct {
	io.Reader
	io.Closer
}

// FromHTTP is the payload ReadHTTP reads: errgen's payload as sent, or the one built from a real
// API's response; the body text when it cannot be read; a null Raw when the response is not an
// error. now is the clock an HTTP-date Retry-After is read against.
func FromHTTP(status int, header http.Header, body []byte, now time.Time) Raw {
	return ReadHTTP(status, header, body, now).Payload
}

// Reading is what ReadHTTP found in a response.
type Reading struct {
	// IsError: the status is 300 or more, or the registry's error_when marks a 1xx/2xx as one.
	IsError bool
	// Payload is what FromHTTP returns; judge it with Raw.Parse or Raw.Decide.
	Payload Raw
	// Code and CorrelationID are what the registry's response sources yield, as sent ("": none).
	Code          string
	CorrelationID string
	// DelayMS is the delay the response asks for, when HasDelay.
	DelayMS  int64
	HasDelay bool
	// Status is the HTTP status the response was read with.
	Status int
	// Document is the whole parsed body, as encoding/json decodes into an `any` with UseNumber
	// (map[string]any, []any, json.Number, string, bool, nil; XML as nested maps of strings), so
	// the API's own fields stay at hand; nil when the body could not be read.
	Document any

	// unclaimed: no code was read and the body is not the API's error shape (see claims), so
	// DecideResponse goes by the status. The fallback delay is DelayMS, else the standard
	// delay headers' (the registry's own_retry_after).
	unclaimed        bool
	fallbackDelayMS  int64
	hasFallbackDelay bool
}

// ReadHTTP reads a response where the registry says each fact is (docs/conformance.md, "Reading a
// real response"); facts the response does not carry come from the registry row of the code it
// carries (an unknown code: from the status). It never panics on what a server sends. Header
// values are taken in name order, each name's values in order.
func ReadHTTP(status int, header http.Header, body []byte, now time.Time) Reading {
	names := make([]string, 0, len(header))
	count := 0
	for name, values := range header {
		names = append(names, name)
		count += len(values)
	}
	sort.Strings(names)
	pairs := make([]headerPair, 0, min(count, maxHeaders))
	for _, name := range names {
		for _, value := range header[name] {
			if len(pairs) == maxHeaders {
				break
			}
			pairs = append(pairs, headerPair{name, value})
		}
	}
	return readHTTP(status, pairs, body, now.UnixMilli())
}

var byteOrderMark = []byte("\ufeff")

func readHTTP(status int, headers []headerPair, body []byte, nowMS int64) Reading {
	tooLarge := len(body) > maxBodyBytes
	body = bytes.TrimPrefix(body, byteOrderMark)
	valid := utf8.Valid(body)
	text := string(body)
	if !valid {
		// Each byte that is not UTF-8 becomes U+FFFD, as a lenient decoder writes it.
		text = strings.Map(func(r rune) rune { return r }, text)
	}
	// An xml registry reads a body that starts with "<" as XML, any other as JSON (what ToHTTP writes).
	xml := response.format == "xml" && strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "<")
	var document any
	parsed := false
	if valid && !tooLarge {
		if xml {
			document, parsed = readXML(text)
		} else {
			document, parsed = decodeJSON(body, maxJSONDepth)
		}
	}
	if !parsed {
		document = nil
	}
	r := Reading{}
	r.Code = readCode(response.code, document, headers, status)
	r.CorrelationID, _ = firstText(response.correlationID, document, headers, codeText, 0)
	r.DelayMS, r.HasDelay = delayOf(delayEntries(r.Code, status, document, headers), document, headers, nowMS)
	r.IsError = isErrorResponse(status, document, headers)
	r.Status = status
	r.unclaimed = r.Code == "" && (xml || !claims(document))
	r.fallbackDelayMS, r.hasFallbackDelay = r.DelayMS, r.HasDelay
	if !r.HasDelay && r.IsError && r.unclaimed {
		r.fallbackDelayMS, r.hasFallbackDelay = delayOf(response.ownRetryAfter, document, headers, nowMS)
	}
	if r.IsError {
		// A body that cannot be read, or an XML one without a code, is the payload as its text,
		// unless a header carries the code.
		if r.Code != "" || parsed && !xml {
			r.Payload = Raw{readPayload(status, headers, document, r, xml, nowMS)}
		} else {
			r.Payload = Raw{text}
		}
	}
	r.Document = plainValue(document)
	return r
}

// requiredWire are the wire names of the required fields: a body holding them all is errgen's
// own payload.
var requiredWire = func() []string {
	var names []string
	for _, s := range fieldSpecs {
		if s.required {
			names = append(names, s.wire)
		}
	}
	return names
}()

func readPayload(status int, headers []headerPair, document any, r Reading, xml bool, nowMS int64) any {
	value := underEnvelope(document, xml)
	if obj, ok := value.(*object); ok && hasAll(obj, requiredWire) || r.Code == "" {
		delay, hasDelay := delayOf(response.ownRetryAfter, document, headers, nowMS)
		return asSent(status, headers, document, value, delay, hasDelay)
	}
	name := registryCode(r.Code, status, document, headers, nil)
	payload := newObject()
	var scope string
	var retryable bool
	if e, known := entries[Code(name)]; known {
		scope, retryable = string(e.Scope), e.Retryable
		payload.set(wCode, name)
		payload.set(wCategory, string(e.Category))
	} else {
		scope, retryable = string(ScopeRequest), containsInt(response.retryableStatuses, status)
		if containsInt(response.serviceStatuses, status) {
			scope = string(ScopeService)
		}
		payload.set(wCode, r.Code)
		payload.set(wCategory, "")
	}
	payload.set(wRetryable, retryable)
	payload.set(wScope, scope)
	payload.set(wCorrelationID, r.CorrelationID)
	resource, found := firstText(response.resourceID, document, headers, codeText, 0)
	if found || scope == string(ScopeResource) {
		payload.set(wResourceID, resource)
	}
	if message, found := firstText(response.message, document, headers, messageText, 0); found {
		payload.set(wMessage, message)
	}
	if retryable && r.HasDelay {
		payload.set(wRetryAfterMS, json.Number(strconv.FormatInt(r.DelayMS, 10)))
	}
	return payload
}

// underEnvelope is what a JSON body holds under the envelope key (the body itself without one).
// An array envelope's payload is the array's first entry holding every required field; with
// none, the array stays, and the response is read by its sources as any API's.
func underEnvelope(document any, xml bool) any {
	obj, ok := document.(*object)
	if !ok || envelope == "" || xml || !obj.has(envelope) {
		return document
	}
	value := obj.vals[envelope]
	if items, ok := value.([]any); ok && envelopeArray {
		for _, item := range items {
			if entry, ok := item.(*object); ok && hasAll(entry, requiredWire) {
				return entry
			}
		}
	}
	return value
}

func hasAll(obj *object, keys []string) bool {
	for _, k := range keys {
		if !obj.has(k) {
			return false
		}
	}
	return true
}

// kept: only the contract's own fields. An API's other members (and RFC 9457's) never make a
// client-side reading invalid; they stay in the reading's Document.
func kept(key string) bool { return specByWire[key] != nil }

// asSent is a payload the body carries itself (errgen's shape): members that are not the
// payload's own wire names dropped, detail as the message, a variant code resolved, and the
// response's delay when it is retryable and states none.
func asSent(status int, headers []headerPair, document, value any, delay int64, hasDelay bool) any {
	obj, ok := value.(*object)
	if !ok {
		return value
	}
	payload := newObject()
	for _, k := range obj.keys {
		if kept(k) {
			payload.set(k, obj.vals[k])
		}
	}
	if obj.has("detail") && !kept("detail") && !payload.has(wMessage) && payload.has(wCode) {
		payload.set(wMessage, obj.vals["detail"])
	}
	if code, ok := payload.vals[wCode].(string); ok {
		fits := func(name string) bool {
			e, known := entries[Code(name)]
			if !known {
				return false
			}
			category, _ := payload.vals[wCategory].(string)
			scope, isText := payload.vals[wScope].(string)
			_, allowed := e.Actions[Scope(scope)]
			return payload.has(wCategory) && category == string(e.Category) && isText && allowed
		}
		payload.set(wCode, registryCode(code, status, document, headers, fits))
	}
	if retryable, _ := payload.vals[wRetryable].(bool); retryable && !payload.has(wRetryAfterMS) && hasDelay {
		payload.set(wRetryAfterMS, json.Number(strconv.FormatInt(delay, 10)))
	}
	return payload
}

// plainValue is a document as encoding/json decodes into an `any` with UseNumber.
func plainValue(v any) any {
	switch t := v.(type) {
	case *object:
		m := make(map[string]any, len(t.keys))
		for _, k := range t.keys {
			m[k] = plainValue(t.vals[k])
		}
		return m
	case []any:
		items := make([]any, len(t))
		for i, item := range t {
			items[i] = plainValue(item)
		}
		return items
	}
	return v
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// saturatingProduct is digits x factor, capped at the largest delay any SDK represents.
func saturatingProduct(digits string, factor int64) int64 {
	digits = strings.TrimLeft(digits, "0")
	if len(digits) > 16 {
		return maxDelayValueMS
	}
	n, err := strconv.ParseInt("0"+digits, 10, 64)
	if err != nil || n > maxDelayValueMS/factor {
		return maxDelayValueMS
	}
	return n * factor
}

var (
	dayNames   = map[string]bool{"Mon": true, "Tue": true, "Wed": true, "Thu": true, "Fri": true, "Sat": true, "Sun": true}
	monthNames = map[string]time.Month{
		"Jan": time.January, "Feb": time.February, "Mar": time.March, "Apr": time.April, "May": time.May, "Jun": time.June,
		"Jul": time.July, "Aug": time.August, "Sep": time.September, "Oct": time.October, "Nov": time.November, "Dec": time.December,
	}
)

// parseIMFFixdate reads RFC 9110's preferred HTTP-date, `Sun, 06 Nov 1994 08:49:37 GMT`, and
// nothing else: the obsolete forms are ignored, as the contract says. Years 0000-9999 count
// (proleptic Gregorian); second 60, a leap second, is the next minute's first.
func parseIMFFixdate(s string) (int64, bool) {
	if len(s) != 29 || !dayNames[s[0:3]] || s[3:5] != ", " || s[7] != ' ' || s[11] != ' ' || s[16] != ' ' ||
		s[19] != ':' || s[22] != ':' || s[25:] != " GMT" {
		return 0, false
	}
	month, ok := monthNames[s[8:11]]
	day, ok1 := number(s[5:7])
	year, ok2 := number(s[12:16])
	hour, ok3 := number(s[17:19])
	minute, ok4 := number(s[20:22])
	second, ok5 := number(s[23:25])
	if !(ok && ok1 && ok2 && ok3 && ok4 && ok5) || hour > 23 || minute > 59 || second > 60 {
		return 0, false
	}
	// time.Date normalizes 31 Feb into March; a date that does not exist is no date.
	midnight := time.Date(year, month, day, 0, 0, 0, 0, time.UTC)
	if day < 1 || midnight.Day() != day || midnight.Month() != month {
		return 0, false
	}
	return midnight.UnixMilli() + int64(hour*3600+minute*60+second)*1000, true
}

func number(s string) (int, bool) {
	if !isDigits(s) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// HTTPOption changes how ToHTTP and WriteHTTP write an error.
type HTTPOption func(*httpOptions)

type httpOptions struct{ problem bool }

// AsProblem writes an RFC 9457 application/problem+json body: type, title, status and detail,
// with the payload's fields as extension members.
func AsProblem() HTTPOption { return func(o *httpOptions) { o.problem = true } }

// ToHTTP is the response for p: the code's HTTP status (500 for a code this SDK does not know),
// Content-Type, and Retry-After (whole seconds, rounded up) with retry-after-ms when the payload,
// or for a retryable payload the registry, names a delay. A registry for an existing API makes it
// write that API's own shape (docs/conformance.md, "Writing in the API's own shape"): a code that
// shares its wire code with others goes out as that wire code, each fact also sits where the API
// carries it first in the body and in a header, every `equals` condition holds, and an XML API
// gets an XML body of those writes alone. A header value is written only when it is non-empty, at
// most 8,192 characters and visible ASCII or space throughout (no CR, LF or NUL can split the
// response); otherwise that header is left out and the body still carries the value.
func ToHTTP(p *ErrorPayload, opts ...HTTPOption) (status int, header http.Header, body []byte) {
	var o httpOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	value := normalize(p)
	obj, ok := value.(*object)
	if !ok {
		obj = newObject()
	}
	var code Code
	if s, ok := obj.vals[wCode].(string); ok {
		code = Code(s)
		obj.set(wCode, sentCode(s))
	}
	e, known := entries[code]
	status = http.StatusInternalServerError
	if known {
		status = e.HTTPStatus
	}
	header = http.Header{}
	header.Set("Content-Type", "application/json")
	if o.problem {
		header.Set("Content-Type", "application/problem+json")
	}
	// For clients that never read the body (the official API SDKs' retry policy obeys it).
	retryable, _ := obj.vals[wRetryable].(bool)
	setHeader(header, "X-Should-Retry", strconv.FormatBool(retryable))
	if delay, ok := payloadDelay(obj, e); ok {
		setHeader(header, "Retry-After", strconv.FormatInt((delay+999)/1000, 10))
		setHeader(header, "Retry-After-Ms", strconv.FormatInt(delay, 10))
	}
	var out any = obj
	if envelope != "" {
		wrapped := newObject()
		if envelopeArray {
			wrapped.set(envelope, []any{obj})
		} else {
			wrapped.set(envelope, obj)
		}
		out = wrapped
	}
	if o.problem {
		problem := newObject()
		problem.set("type", problemBase+string(code))
		problem.set("title", string(code))
		if known {
			problem.set("type", e.TypeURI) // the code's own type_uri when it has one, as in every SDK
			problem.set("title", e.Description)
		}
		problem.set("status", json.Number(strconv.Itoa(status)))
		if message, ok := obj.vals[wMessage].(string); ok {
			problem.set("detail", message)
		}
		members := out.(*object)
		for _, k := range members.keys {
			problem.set(k, members.vals[k])
		}
		out = problem
	}
	out = apiShape(string(code), obj, out, header)
	if response.format == "xml" {
		header.Set("Content-Type", "application/xml")
		return status, header, toXML(out)
	}
	return status, header, encodeJSON(out, false)
}

// payloadDelay is the delay a response announces: the payload's, when it is a non-negative
// integral number (saturated), else for a retryable payload without one, the registry's.
func payloadDelay(obj *object, e *Entry) (int64, bool) {
	given := obj.vals[wRetryAfterMS]
	if n, ok := given.(json.Number); ok {
		r, finite := exactNumber(string(n))
		if !finite || !r.IsInt() || r.Sign() < 0 {
			return 0, false
		}
		if r.Num().Cmp(big.NewInt(maxDelayValueMS)) > 0 {
			return maxDelayValueMS, true
		}
		return r.Num().Int64(), true
	}
	if retryable, _ := obj.vals[wRetryable].(bool); given == nil && retryable && e != nil && e.RetryAfterMS != nil {
		return *e.RetryAfterMS, true
	}
	return 0, false
}

// WriteHTTP writes p as an error response (see ToHTTP).
func WriteHTTP(w http.ResponseWriter, p *ErrorPayload, opts ...HTTPOption) error {
	status, header, body := ToHTTP(p, opts...)
	for name, values := range header {
		w.Header()[name] = values
	}
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}
