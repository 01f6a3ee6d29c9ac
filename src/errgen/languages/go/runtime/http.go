package errgenruntime

import (
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// FromResponse reads an error response (plain JSON or RFC 9457 problem+json) into a raw payload;
// decide on it with Raw.Decide. It reads resp.Body to the end; closing it is left to the caller.
func FromResponse(resp *http.Response) (Raw, error) {
	if resp == nil {
		return Raw{}, errors.New("no response")
	}
	var body []byte
	if resp.Body != nil {
		var err error
		if body, err = io.ReadAll(resp.Body); err != nil {
			return Raw{}, err
		}
	}
	return FromHTTP(resp.StatusCode, resp.Header, body, time.Now()), nil
}

// FromHTTP is FromResponse on plain values; now is the clock an HTTP-date Retry-After is read
// against. When the body has no delay and says retryable, a `retry-after-ms` header, else
// `Retry-After` (delta-seconds or IMF-fixdate), is added as the delay.
func FromHTTP(status int, header http.Header, body []byte, now time.Time) Raw {
	parsed, ok := decodeJSON(body, maxJSONDepth)
	if !ok {
		return Raw{string(body)}
	}
	obj, isObject := parsed.(*object)
	if isObject && envelope != "" && obj.has(envelope) {
		parsed = obj.vals[envelope]
		obj, isObject = parsed.(*object)
	}
	if !isObject {
		return Raw{parsed}
	}
	payload := newObject()
	for _, k := range obj.keys {
		if !problemMembers[k] {
			payload.set(k, obj.vals[k])
		}
	}
	if detail, ok := obj.vals["detail"]; ok && !payload.has(wMessage) && payload.has(wCode) {
		payload.set(wMessage, detail)
	}
	if retryable, _ := payload.vals[wRetryable].(bool); retryable && !payload.has(wRetryAfterMS) {
		if ms, ok := headerDelayMS(header, now); ok {
			payload.set(wRetryAfterMS, json.Number(strconv.FormatInt(ms, 10)))
		}
	}
	return Raw{payload}
}

func firstHeader(header http.Header, name string) (string, bool) {
	values := header.Values(name)
	if len(values) == 0 {
		return "", false
	}
	return strings.Trim(values[0], " \t"), true
}

func headerDelayMS(header http.Header, now time.Time) (int64, bool) {
	if v, ok := firstHeader(header, "Retry-After-Ms"); ok && isDigits(v) {
		return saturatingProduct(v, 1), true
	}
	v, ok := firstHeader(header, "Retry-After")
	if !ok {
		return 0, false
	}
	if isDigits(v) {
		return saturatingProduct(v, 1000), true
	}
	when, ok := parseIMFFixdate(v)
	if !ok {
		return 0, false
	}
	delay := when - now.UnixMilli()
	if delay < 0 {
		delay = 0
	}
	if delay > maxDelayValueMS {
		delay = maxDelayValueMS
	}
	return delay, true
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
// or for a retryable payload the registry, names a delay.
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
	if retryable, _ := obj.vals[wRetryable].(bool); retryable {
		header.Set("X-Should-Retry", "true")
	} else {
		header.Set("X-Should-Retry", "false")
	}
	if delay, ok := payloadDelay(obj, e); ok {
		header.Set("Retry-After", strconv.FormatInt((delay+999)/1000, 10))
		header.Set("Retry-After-Ms", strconv.FormatInt(delay, 10))
	}
	var out any = obj
	if envelope != "" {
		wrapped := newObject()
		wrapped.set(envelope, obj)
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
