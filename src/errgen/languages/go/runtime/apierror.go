package errgenruntime

import (
	"net/http"
	"strconv"

	"github.com/aws/smithy-go"
)

// APIError is the error ResponseError returns for an error response: its HTTP status and
// headers, what ReadHTTP read, and the payload it carried. It wraps that *ErrorPayload (or, for
// a body that is no payload, the *PayloadError saying why), so errors.As and errors.Is by code
// see through it; its Decide goes by the whole response (DecideResponse), so a proxy's HTML 502
// is retried by its status.
type APIError struct {
	// StatusCode is the response's HTTP status.
	StatusCode int
	// Header is a copy of the response's headers.
	Header http.Header
	// Reading is what ReadHTTP found in the response.
	Reading Reading
	// Payload is the error payload the response carried, nil when its body held none.
	Payload *ErrorPayload
	// Err is Payload, or the *PayloadError saying why the body is no payload.
	Err error
}

func newAPIError(reading Reading, header http.Header) *APIError {
	e := &APIError{StatusCode: reading.Status, Header: header.Clone(), Reading: reading}
	if e.Header == nil {
		e.Header = http.Header{}
	}
	e.Payload, e.Err = reading.Payload.Parse()
	if e.Payload != nil {
		e.Err = e.Payload
	}
	return e
}

// Error is the status and the payload's code and display text (never ids or hints: the error
// string may reach logs and people).
func (e *APIError) Error() string {
	text := "HTTP " + strconv.Itoa(e.StatusCode)
	if e.Payload != nil {
		return text + ": " + e.Payload.Error()
	}
	return text + ": no error payload"
}

// Unwrap is the payload, or the *PayloadError.
func (e *APIError) Unwrap() error { return e.Err }

// Decide is what to do about the response at the given attempt (DecideResponse).
func (e *APIError) Decide(attempt, maxAttempts int, opts ...DecideOption) Decision {
	return DecideResponse(e.Reading, attempt, maxAttempts, opts...)
}

// HTTPStatusCode is the status (the method smithy-go's HTTP response errors have).
func (e *APIError) HTTPStatusCode() int { return e.StatusCode }

// ErrorCode is the payload's code as sent, "" when the body held none (smithy-go's APIError).
func (e *APIError) ErrorCode() string { return e.Payload.ErrorCode() }

// ErrorMessage is the payload's display text (smithy-go's APIError).
func (e *APIError) ErrorMessage() string { return e.Payload.ErrorMessage() }

// ErrorFault says whose fault the error is by its status: the server's for 5xx, the client's
// for 4xx (smithy-go's values).
func (e *APIError) ErrorFault() ErrorFault { return faultOf(e.StatusCode) }

// RetryableError reports whether the response is worth calling again: its decision at the
// first attempt is to retry or pause (the AWS SDK's retry.IsErrorRetryable looks for it).
func (e *APIError) RetryableError() bool {
	action := e.Decide(1, 2).Action
	return action == ActionRetry || action == ActionPause
}

// ErrorFault is whose fault an error is: smithy-go's own type, so *APIError and *ErrorPayload
// are smithy.APIError values (errors.As(err, &apiErr) finds them, as it finds an AWS SDK error).
type ErrorFault = smithy.ErrorFault

// The faults, smithy-go's values ("unknown", "server", "client").
const (
	FaultUnknown = smithy.FaultUnknown
	FaultServer  = smithy.FaultServer
	FaultClient  = smithy.FaultClient
)

// Code written against the AWS SDK's errors reads both error types as they are.
var (
	_ smithy.APIError = (*APIError)(nil)
	_ smithy.APIError = (*ErrorPayload)(nil)
)

func faultOf(status int) ErrorFault {
	switch {
	case status >= 500 && status <= 599:
		return FaultServer
	case status >= 400 && status <= 499:
		return FaultClient
	}
	return FaultUnknown
}
