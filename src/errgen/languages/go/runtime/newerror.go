package errgenruntime

import (
	"fmt"
	"time"
)

// ErrorOption sets an optional field of a payload made by NewError.
type ErrorOption func(*ErrorPayload)

// WithScope overrides the code's default scope (it must be one the code allows).
func WithScope(s Scope) ErrorOption { return func(p *ErrorPayload) { p.Scope = s } }

// WithResourceID names the resource that failed (required with the resource scope).
func WithResourceID(id string) ErrorOption { return func(p *ErrorPayload) { p.ResourceID = id } }

// WithMessage sets the display text; callers never branch on it.
func WithMessage(text string) ErrorOption { return func(p *ErrorPayload) { p.Message = text } }

// WithRetryAfter asks the caller to wait d (rounded up to a millisecond) before retrying.
func WithRetryAfter(d time.Duration) ErrorOption {
	ms := int64((d + time.Millisecond - 1) / time.Millisecond)
	return func(p *ErrorPayload) { p.RetryAfterMS = &ms }
}

// WithSearched reports the parameters the server actually resolved.
func WithSearched(searched map[string]any) ErrorOption {
	return func(p *ErrorPayload) { p.Searched = searched }
}

// WithDidYouMean suggests near misses; draw them only from values the caller may read.
func WithDidYouMean(values ...string) ErrorOption {
	return func(p *ErrorPayload) { p.DidYouMean = values }
}

// WithAccepted lists the values that would have been accepted.
func WithAccepted(values ...string) ErrorOption {
	return func(p *ErrorPayload) { p.Accepted = values }
}

// WithState says whether anything was read or written before the failure.
func WithState(s State) ErrorOption { return func(p *ErrorPayload) { p.State = s } }

// WithSafeToReplay says whether replaying the call with the same idempotency key is safe.
func WithSafeToReplay(safe bool) ErrorOption {
	return func(p *ErrorPayload) { p.SafeToReplay = &safe }
}

// NewError is a payload for code with category, retryable and the default scope filled from
// the recovery table, so a service cannot send a contradictory one. The error (a
// *PayloadError) lists everything the strict contract rejects.
func NewError(code Code, correlationID string, opts ...ErrorOption) (*ErrorPayload, error) {
	e, ok := entries[code]
	if !ok {
		return nil, &PayloadError{[]Problem{{ProblemUnknownCode, fmt.Sprintf("code %q is not in registry %s", code, RegistryName)}}}
	}
	p := &ErrorPayload{Code: e.Code, Category: e.Category, Retryable: e.Retryable, Scope: e.Scope, CorrelationID: correlationID}
	for _, opt := range opts {
		if opt != nil {
			opt(p)
		}
	}
	if problems := strictProblems(p.value()); len(problems) > 0 {
		return nil, &PayloadError{problems}
	}
	return p, nil
}
