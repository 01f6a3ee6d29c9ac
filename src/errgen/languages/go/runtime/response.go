package errgenruntime

import "strconv"

// Deciding a whole response (docs/conformance.md, "Deciding a response"): its payload as Decide
// does; a response that carries no payload at all (a proxy's HTML 502, a gateway's bare 429, an
// empty 503) by its HTTP status, as the official API clients do.

// StatusAction is how a response without a readable code is decided by its status: the
// registry's `wire.statuses` over errgen's defaults (401 and 403 stop, 404 and 410 skip, 408 and
// 5xx retry, 429 and 503 pause, other 4xx fix), by the exact status, else its class ("5xx"),
// else escalate. A status outside 100..599 escalates.
func StatusAction(status int) Action {
	if status < 100 || status > 599 {
		return ActionEscalate
	}
	if action, ok := response.statusActions[strconv.Itoa(status)]; ok {
		return action
	}
	if action, ok := response.statusActions[strconv.Itoa(status/100)+"xx"]; ok {
		return action
	}
	return ActionEscalate
}

// DecideResponse is what to do about a response ReadHTTP read (Reading.Decide says the same):
// for a response that is no error, or one whose body claims to be the API's error shape (a code
// was read, or a JSON object holds where the code would be), Decide on its payload; for any
// other (no payload at all), StatusAction on its status with reason status-fallback, waiting
// what its Retry-After asks for (a 403 that names a wait pauses: GitHub's secondary rate limits),
// else the backoff, through the same attempts and delay bounds as Decide.
func DecideResponse(r Reading, attempt, maxAttempts int, opts ...DecideOption) Decision {
	if !r.IsError || !r.unclaimed {
		d := r.Payload.Decide(attempt, maxAttempts, opts...)
		if d.hasCode && r.Code != "" {
			// The code as the API sent it: 08006 for the registry code its prefix 08 matched.
			d.WireCode = r.Code
		}
		return d
	}
	action := StatusAction(r.Status)
	var named *int64
	if r.hasFallbackDelay {
		named = &r.fallbackDelayMS
		if _, isTimed := exhaustedActions[action]; !isTimed && containsInt(response.pausedWithDelay, r.Status) {
			action = ActionPause
		}
	}
	action, reason, delay := timed(action, ReasonStatusFallback, attempt, maxAttempts, named, options(opts))
	d := bare(action, reason, delay)
	d.CorrelationID, d.hasCorrelation = r.CorrelationID, r.CorrelationID != ""
	return d
}

// Decide is DecideResponse(r, ...).
func (r Reading) Decide(attempt, maxAttempts int, opts ...DecideOption) Decision {
	return DecideResponse(r, attempt, maxAttempts, opts...)
}

// claims reports whether a JSON document holds where the registry reads the code (the first key
// of a body source): the API's own error shape, which a payload breaking the contract must not
// escape by being decided on its status.
func claims(document any) bool {
	obj, ok := document.(*object)
	if !ok {
		return false
	}
	for _, s := range response.code {
		if s.in == "body" && len(s.path) > 0 && s.path[0].isKey && obj.has(s.path[0].key) {
			return true
		}
	}
	return false
}
