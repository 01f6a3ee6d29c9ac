package errgenruntime

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Raw is an error payload as received, before any verdict: any JSON value, or the text of a
// body that was not JSON. Every verdict and Decide accept any Raw; none of them panics.
type Raw struct {
	value any
}

// RawJSON reads JSON text. Text that is not exactly one JSON value (or nests deeper than the
// contract's limit, or is not UTF-8) is kept as a string, which every verdict rejects.
func RawJSON(data []byte) Raw {
	if value, ok := decodeJSON(data, maxJSONDepth); ok {
		return Raw{value}
	}
	return Raw{string(data)}
}

// RawValue takes decoded JSON: what encoding/json produces (map[string]any, []any, float64 or
// json.Number, string, bool, nil), an *ErrorPayload, or any value encoding/json can marshal.
func RawValue(v any) Raw { return Raw{normalize(v)} }

// Problems is the strict verdict: every reason the contract rejects the payload (none: valid).
func (r Raw) Problems() []Problem { return strictProblems(r.value) }

// Parsed is the tolerant verdict.
func (r Raw) Parsed() Parsed {
	verdict, _ := tolerant(r.value)
	return verdict
}

// Parse reads the payload tolerantly: a well-formed payload is returned even when its code or
// category is unknown to this SDK (a newer server; see ErrorPayload.Known). The error is a
// *PayloadError.
func (r Raw) Parse() (*ErrorPayload, error) {
	verdict, problems := tolerant(r.value)
	if verdict == ParsedInvalid {
		return nil, &PayloadError{problems}
	}
	return typed(r.value)
}

// Validate reads the payload strictly, as a service's tests should: unknown codes,
// contradictions with the registry and extra fields are errors (a *PayloadError).
func (r Raw) Validate() (*ErrorPayload, error) {
	if problems := strictProblems(r.value); len(problems) > 0 {
		return nil, &PayloadError{problems}
	}
	return typed(r.value)
}

func typed(value any) (*ErrorPayload, error) {
	if p := payloadFrom(value.(*object)); p != nil {
		return p, nil
	}
	return nil, &PayloadError{[]Problem{{ProblemWrongType, "payload does not fit the payload type"}}}
}

// MarshalJSON writes the raw value (a body that was not JSON, as a JSON string).
func (r Raw) MarshalJSON() ([]byte, error) { return encodeJSON(r.value, false), nil }

// Parse reads JSON text tolerantly (see Raw.Parse). It never panics, whatever the bytes.
func Parse(data []byte) (*ErrorPayload, error) { return RawJSON(data).Parse() }

// Validate reads JSON text strictly (see Raw.Validate).
func Validate(data []byte) (*ErrorPayload, error) { return RawJSON(data).Validate() }

// payloadFrom turns a well-formed payload into the typed struct through its JSON tags, so the
// wire names live only in the struct definition and the field specs.
func payloadFrom(obj *object) *ErrorPayload {
	if ms, ok := integerIn(obj.vals[wRetryAfterMS], 0, maxDelayValueMS); ok && obj.has(wRetryAfterMS) {
		// 2.0 is an integral delay on the wire; the struct field is an int64.
		copied := newObject()
		for _, k := range obj.keys {
			copied.set(k, obj.vals[k])
		}
		copied.set(wRetryAfterMS, json.Number(strconv.FormatInt(ms, 10)))
		obj = copied
	}
	dec := json.NewDecoder(bytes.NewReader(encodeJSON(obj, false)))
	dec.UseNumber()
	var p ErrorPayload
	if err := dec.Decode(&p); err != nil {
		return nil
	}
	return &p
}

// value is the payload as a JSON value with its wire names, or invalidValue when a field holds
// something JSON cannot carry.
func (p *ErrorPayload) value() any {
	data, err := json.Marshal(p)
	if err != nil {
		return invalidValue{}
	}
	v, ok := decodeJSON(data, -1)
	if !ok {
		return invalidValue{}
	}
	return v
}

// Error is the code and the display text only: the error string may reach logs and people, and
// everything else in the payload is for programs.
func (p *ErrorPayload) Error() string {
	if p == nil {
		return "<nil error payload>"
	}
	if p.Message == "" {
		return string(p.Code)
	}
	return string(p.Code) + ": " + p.Message
}

// ErrorCode is the payload's code as sent: the smithy-go APIError method, so code written
// against that interface (`interface{ ErrorCode() string }`) reads it.
func (p *ErrorPayload) ErrorCode() string {
	if p == nil {
		return ""
	}
	return string(p.Code)
}

// ErrorMessage is the display text (smithy-go's APIError).
func (p *ErrorPayload) ErrorMessage() string {
	if p == nil {
		return ""
	}
	return p.Message
}

// ErrorFault says whose fault the error is, by the HTTP status the registry gives its code: the
// server's for 5xx, the client's for 4xx, unknown for a code this SDK does not know (the
// smithy.APIError method).
func (p *ErrorPayload) ErrorFault() ErrorFault {
	if p == nil || entries[p.Code] == nil {
		return FaultUnknown
	}
	return faultOf(entries[p.Code].HTTPStatus)
}

// RetryableError reports whether the registry says the call may be made again, for retryers
// that look for this method (the AWS SDK's retry.IsErrorRetryable, for one).
func (p *ErrorPayload) RetryableError() bool { return p != nil && p.Retryable }

// Is makes errors.Is match a payload by code: errors.Is(err, CodeRateLimited) holds for any
// error that wraps a payload with that code, and so does a target payload with the same code.
func (p *ErrorPayload) Is(target error) bool {
	if p == nil {
		return false
	}
	switch t := target.(type) {
	case Code:
		return p.Code == t
	case *ErrorPayload:
		return t != nil && p.Code == t.Code
	}
	return false
}

// Known reports whether this SDK knows the payload's code and category.
func (p *ErrorPayload) Known() bool { return p.Code.IsKnown() && p.Category.IsKnown() }
