package errgenruntime

import (
	"fmt"
	"time"
)

// ErrorOption sets an optional field of a payload made by NewError. Each optional field has its
// option, With<Field> (options.go, rendered from the contract's fields).
type ErrorOption func(*ErrorPayload)

// WithScope overrides the code's default scope (it must be one the code allows).
func WithScope(s Scope) ErrorOption { return func(p *ErrorPayload) { p.Scope = s } }

// WithRetryAfter asks the caller to wait d (rounded up to a millisecond) before retrying.
func WithRetryAfter(d time.Duration) ErrorOption {
	ms := int64((d + time.Millisecond - 1) / time.Millisecond)
	return func(p *ErrorPayload) { p.RetryAfterMS = &ms }
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
