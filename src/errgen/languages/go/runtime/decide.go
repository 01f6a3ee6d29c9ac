package errgenruntime

import (
	"encoding/json"
	"math/rand"
	"strconv"
	"time"
)

// Decision is what to do about one error.
type Decision struct {
	Action Action
	// Reason says which rule decided: registry, unknown-code, invalid-payload,
	// contradicts-registry, attempts-exhausted, delay-exceeds-max, status-fallback (a response
	// without a payload, decided by its status), transport-failure or outcome-unknown (no
	// response came; see DecideFailure).
	Reason Reason
	// Code is empty when the payload was not well-formed, or there was none.
	Code Code
	// WireCode is the code as the API sends it: Code's wire code when several registry codes
	// share one (OpenAI's rate_limit_exceeded for its tokens and requests variants), else Code
	// itself; empty with Code.
	WireCode string
	// Delay and DelayMS say how long to wait before the next call; set for the timed actions
	// (retry and pause) only.
	Delay         time.Duration
	DelayMS       int64
	CorrelationID string
	ResourceID    string
	// The hints a caller builds its next call from.
	DidYouMean []string
	Accepted   []string
	// Searched is the parameters the server resolved, as it sent them (empty when none).
	Searched ScalarMap
	// Payload is the payload decided on (nil when it was not well-formed).
	Payload *ErrorPayload

	hasCode        bool
	hasCorrelation bool
	hasResource    bool
	searched       *object
}

// DecideOption changes how Decide bounds and times its decision.
type DecideOption func(*decideOptions)

type decideOptions struct {
	maxDelayMS int64
	jitter     bool
	draw       func() float64
}

// WithMaxDelay makes a requested delay longer than d an escalation (reason delay-exceeds-max).
// The default is DefaultMaxDelayMS.
func WithMaxDelay(d time.Duration) DecideOption {
	return WithMaxDelayMS(int64((d + time.Millisecond - 1) / time.Millisecond))
}

// WithMaxDelayMS is WithMaxDelay in milliseconds.
func WithMaxDelayMS(ms int64) DecideOption {
	return func(o *decideOptions) { o.maxDelayMS = ms }
}

// WithJitter draws the backoff delay uniformly from [0, delay) ("full jitter"), so many callers
// do not retry in step. A delay the server or the registry names is never shortened.
func WithJitter() DecideOption {
	return func(o *decideOptions) { o.jitter = true }
}

// WithJitterDraw is WithJitter with the draw given: draw returns a number in [0, 1), and the
// backoff becomes int64(draw() * backoff) (tests and the conformance vectors pin it).
func WithJitterDraw(draw func() float64) DecideOption {
	return func(o *decideOptions) { o.jitter, o.draw = true, draw }
}

// Decide is the action the registry prescribes for p at the given attempt (1 for the first
// failure). Pass DefaultMaxAttempts unless the caller has its own budget.
func Decide(p *ErrorPayload, attempt, maxAttempts int, opts ...DecideOption) Decision {
	return RawValue(p).Decide(attempt, maxAttempts, opts...)
}

// Decide is the action the registry prescribes for this raw payload (see docs/conformance.md).
func (r Raw) Decide(attempt, maxAttempts int, opts ...DecideOption) Decision {
	o := options(opts)
	if len(envelopeProblems(r.value)) > 0 {
		d := Decision{Action: ActionEscalate, Reason: ReasonInvalidPayload}
		if obj, ok := r.value.(*object); ok {
			d.CorrelationID, d.hasCorrelation = obj.vals[wCorrelationID].(string)
		}
		return d
	}
	obj := r.value.(*object)
	retryable := obj.vals[wRetryable].(bool)
	if !retryable && obj.has(wRetryAfterMS) {
		return decision(obj, ActionEscalate, ReasonInvalidPayload, 0)
	}
	scope := Scope(obj.vals[wScope].(string))
	e, known := entries[Code(obj.vals[wCode].(string))]
	var action Action
	var reason Reason
	var fallback *int64
	switch {
	case !known || !Category(obj.vals[wCategory].(string)).IsKnown():
		action, reason = unknownCodeActions[retryable][scope], ReasonUnknownCode
	case len(registryProblems(obj, e)) > 0:
		return decision(obj, ActionEscalate, ReasonContradictsRegistry, 0)
	default:
		action, reason, fallback = e.Actions[scope], ReasonRegistry, e.RetryAfterMS
	}
	var named *int64
	if ms, ok := integerIn(obj.vals[wRetryAfterMS], 0, maxDelayValueMS); ok {
		named = &ms
	} else if fallback != nil {
		named = fallback
	}
	action, reason, delay := timed(action, reason, attempt, maxAttempts, named, o)
	return decision(obj, action, reason, delay)
}

// options are the decide options given, over the defaults.
func options(opts []DecideOption) decideOptions {
	o := decideOptions{maxDelayMS: DefaultMaxDelayMS}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// timed is the timing rule of a timed action (retry, pause), the same for a payload, a response
// without one and a transport failure: attempts, then the delay (named, else the backoff) and
// its bound. The bound is on the delay the rule asks for, so escalating never depends on a
// random draw; jitter then spreads only a backoff (a named delay is waited as named).
func timed(action Action, reason Reason, attempt, maxAttempts int, named *int64, o decideOptions) (Action, Reason, int64) {
	exhausted, isTimed := exhaustedActions[action]
	if !isTimed {
		return action, reason, 0
	}
	if attempt >= maxAttempts {
		return exhausted, ReasonAttemptsExhausted, 0
	}
	delay, jitter := BackoffMS(attempt), o.jitter
	if named != nil {
		delay, jitter = *named, false
	}
	if delay > o.maxDelayMS {
		return ActionEscalate, ReasonDelayExceedsMax, 0
	}
	if jitter {
		draw := o.draw
		if draw == nil {
			draw = rand.Float64
		}
		delay = int64(draw() * float64(delay))
	}
	return action, reason, delay
}

// BackoffMS is the delay before attempt+1 when neither the server nor the registry names one:
// min(base * 2^(attempt-1), max), the exponent capped by the policy.
func BackoffMS(attempt int) int64 {
	e := attempt - 1
	if e < 0 {
		e = 0
	}
	if e > backoffMaxExponent {
		e = backoffMaxExponent
	}
	delay := int64(backoffBaseMS)
	for i := 0; i < e && delay < backoffMaxMS; i++ {
		delay *= 2
	}
	if delay > backoffMaxMS {
		delay = backoffMaxMS
	}
	return delay
}

// decision fills a Decision from a well-formed payload; delay counts for retry and pause only.
func decision(obj *object, action Action, reason Reason, delay int64) Decision {
	d := bare(action, reason, delay)
	d.Payload, d.hasCode, d.hasCorrelation = payloadFrom(obj), true, true
	d.Code = Code(obj.vals[wCode].(string))
	d.WireCode = sentCode(string(d.Code))
	d.CorrelationID = obj.vals[wCorrelationID].(string)
	d.ResourceID, d.hasResource = obj.vals[wResourceID].(string)
	d.DidYouMean = stringItems(obj.vals[wDidYouMean])
	d.Accepted = stringItems(obj.vals[wAccepted])
	d.searched, _ = obj.vals[wSearched].(*object)
	d.Searched = scalarMap(d.searched)
	return d
}

// bare is a decision without a payload (a response without one, a transport failure): no code,
// ids or hints; delay counts for retry and pause only.
func bare(action Action, reason Reason, delay int64) Decision {
	d := Decision{Action: action, Reason: reason}
	if _, isTimed := exhaustedActions[action]; isTimed {
		d.DelayMS = delay
		d.Delay = time.Duration(delay) * time.Millisecond
	}
	return d
}

// scalarMap is a well-formed scalar_map value (strings, numbers, booleans) as a ScalarMap,
// empty for none.
func scalarMap(obj *object) ScalarMap {
	out := ScalarMap{}
	if obj == nil {
		return out
	}
	for _, k := range obj.keys {
		switch t := obj.vals[k].(type) {
		case string:
			out[k] = StringScalar(t)
		case json.Number:
			out[k] = NumberScalar(t)
		case bool:
			out[k] = BoolScalar(t)
		}
	}
	return out
}

func stringItems(v any) []string {
	items, _ := v.([]any)
	out := make([]string, 0, len(items))
	for _, item := range items {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// value is the decision as docs/conformance.md spells it (null, [] and {} for what is absent).
func (d Decision) value() *object {
	o := newObject()
	o.set("action", string(d.Action))
	o.set("reason", string(d.Reason))
	o.set("code", nil)
	if d.hasCode {
		o.set("code", string(d.Code))
	}
	o.set("wire_code", nil)
	if d.hasCode {
		o.set("wire_code", d.WireCode)
	}
	o.set("delay_ms", nil)
	if _, timed := exhaustedActions[d.Action]; timed {
		o.set("delay_ms", json.Number(strconv.FormatInt(d.DelayMS, 10)))
	}
	o.set("correlation_id", nil)
	if d.hasCorrelation {
		o.set("correlation_id", d.CorrelationID)
	}
	o.set("resource_id", nil)
	if d.hasResource {
		o.set("resource_id", d.ResourceID)
	}
	o.set("did_you_mean", normalize(d.DidYouMean))
	o.set("accepted", normalize(d.Accepted))
	searched := d.searched
	if searched == nil {
		searched = newObject()
	}
	o.set("searched", searched)
	return o
}

// MarshalJSON writes the decision in the conformance vectors' form.
func (d Decision) MarshalJSON() ([]byte, error) { return encodeJSON(d.value(), false), nil }
