package errgenruntime

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

// Sleeper waits d, or until ctx is done (then it returns ctx's error). Tests replace it.
type Sleeper func(ctx context.Context, d time.Duration) error

// RetryOption changes how Retry retries.
type RetryOption func(*retryOptions)

type retryOptions struct {
	maxAttempts int
	sleep       Sleeper
	decide      []DecideOption
	idempotent  bool
	onDecision  []func(attempt int, d Decision)
	onAttempt   []func(ctx context.Context, a Attempt)
	logger      *slog.Logger
}

// WithMaxAttempts sets the attempt budget (DefaultMaxAttempts unless set).
func WithMaxAttempts(n int) RetryOption { return func(o *retryOptions) { o.maxAttempts = n } }

// WithSleeper replaces how Retry waits (a test passes one that records the delays and returns).
func WithSleeper(s Sleeper) RetryOption { return func(o *retryOptions) { o.sleep = s } }

// WithDecideOptions passes options (WithMaxDelay, WithJitter) to each Decide.
func WithDecideOptions(opts ...DecideOption) RetryOption {
	return func(o *retryOptions) { o.decide = append(o.decide, opts...) }
}

// Idempotent says the call may reach the server twice without harm (a GET, a PUT, a request
// carrying an Idempotency-Key), so a connection reset or a timeout after the request was sent is
// retried too; without it those escalate with reason outcome-unknown (see DecideFailure).
// RetryResponse needs it for no request whose method is idempotent (RFC 9110: GET, HEAD,
// OPTIONS, TRACE, PUT, DELETE) or that carries an Idempotency-Key header.
func Idempotent() RetryOption { return func(o *retryOptions) { o.idempotent = true } }

// OnDecision is called with each decision Retry takes, before it waits (for logs and metrics).
// Given more than once, each is called, in the order given.
func OnDecision(f func(attempt int, d Decision)) RetryOption {
	return func(o *retryOptions) {
		if f != nil {
			o.onDecision = append(o.onDecision, f)
		}
	}
}

// OnAttempt is called after each failed call Retry decides on, before it waits, with the
// call's context (where a tracing span is at hand: set its error.type to a.ErrorType when
// a.Final). Given more than once (tracing and metrics each), each is called, in the order given.
func OnAttempt(f func(ctx context.Context, a Attempt)) RetryOption {
	return func(o *retryOptions) {
		if f != nil {
			o.onAttempt = append(o.onAttempt, f)
		}
	}
}

// WithLogger logs each decision on l (log/slog) as "<package>: attempt failed": a retry or
// pause at Info, any other action at Warn, with the attributes attempt, action, reason, delay,
// correlation_id and error.type.
func WithLogger(l *slog.Logger) RetryOption { return func(o *retryOptions) { o.logger = l } }

// Attempt is one failed call as Retry decided on it.
type Attempt struct {
	// Number is 1 for the first call.
	Number int
	// Err is the call's error.
	Err error
	// Decision is what Retry does about it.
	Decision Decision
	// ErrorType is the value for OpenTelemetry's error.type attribute (see ErrorType).
	ErrorType string
	// Final is true when Retry returns Err instead of calling again: the error the call ends
	// with, the only one to set as a span's error.type (OpenTelemetry sets none on an operation
	// that succeeded, so an attempt a later one recovered from sets nothing).
	Final bool
}

// ErrorType is the value OpenTelemetry's error.type attribute takes for err: the code of the
// payload it carries, else the HTTP status of a response without one ("502"), else the
// transport failure ("timeout"), else "_OTHER" (the convention's fallback); "" for nil.
func ErrorType(err error) string {
	var p *ErrorPayload
	var api *APIError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &p) && p.Code != "":
		return string(p.Code)
	case errors.As(err, &api):
		return strconv.Itoa(api.StatusCode)
	}
	if failure, ok := FailureOf(err); ok {
		return string(failure)
	}
	return "_OTHER"
}

// Retry calls call until it succeeds, or until the registry says to stop (RetryValue for a call
// that returns a value).
func Retry(ctx context.Context, call func(ctx context.Context) error, opts ...RetryOption) error {
	_, err := RetryValue(ctx, func(ctx context.Context) (struct{}, error) { return struct{}{}, call(ctx) }, opts...)
	return err
}

// RetryValue calls call until it succeeds and returns its value, or until the registry says to
// stop. After each error it decides (DecideFor): an *APIError by its whole response (a proxy's
// HTML 502 by its status), another error wrapping an *ErrorPayload by Decide, a transport
// failure (FailureOf) by DecideFailure; it waits the decided delay and calls again for retry and
// pause, and returns the error for every other action (fix, skip, stop, escalate), once the
// attempts or the maximum delay run out, and for any other error (not the contract's to judge).
// When ctx is done while waiting, the error holds both ctx's error and the call's last error
// (errors.Is and errors.As find either).
func RetryValue[T any](ctx context.Context, call func(ctx context.Context) (T, error), opts ...RetryOption) (T, error) {
	o := retryOptionsOf(opts)
	var zero T
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return zero, err
		}
		value, err := call(ctx)
		if err == nil {
			return value, nil
		}
		d, ok := DecideFor(err, o.idempotent, attempt, o.maxAttempts, o.decide...)
		if !ok {
			return value, err
		}
		final := d.Action != ActionRetry && d.Action != ActionPause
		o.observe(ctx, Attempt{Number: attempt, Err: err, Decision: d, ErrorType: ErrorType(err), Final: final})
		if final {
			return value, err
		}
		if waitErr := o.sleep(ctx, d.Delay); waitErr != nil {
			return value, errors.Join(waitErr, err)
		}
	}
}

// RetryResponse sends req with client (nil: http.DefaultClient) until a response is no error,
// as RetryValue retries: the response of a success (its body yours to read and close), else the
// last error (an *APIError, whose response body is read and closed, or the client's). A request
// whose method is idempotent (GET, HEAD, OPTIONS, TRACE, PUT, DELETE: RFC 9110) or that carries
// an Idempotency-Key header counts as Idempotent, so a connection dropped after it was sent is
// retried too; a POST or PATCH without the header is not. A request with a body is sent again
// only when it has GetBody (http.NewRequest sets it for bytes, strings and their readers), so
// every attempt sends the whole body; without it, the first attempt is the only one.
func RetryResponse(ctx context.Context, client *http.Client, req *http.Request, opts ...RetryOption) (*http.Response, error) {
	if client == nil {
		client = http.DefaultClient
	}
	if idempotentMethods[req.Method] || req.Header.Get("Idempotency-Key") != "" {
		opts = append(opts, Idempotent())
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		opts = append(opts, WithMaxAttempts(1))
	}
	return RetryValue(ctx, func(ctx context.Context) (*http.Response, error) {
		attempt := req.Clone(ctx)
		if req.Body != nil && req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			attempt.Body = body
		}
		resp, err := client.Do(attempt)
		if err != nil {
			return nil, err
		}
		if err := ResponseError(resp); err != nil {
			resp.Body.Close()
			return nil, err
		}
		return resp, nil
	}, opts...)
}

// idempotentMethods are RFC 9110's idempotent methods ("" is net/http's GET).
var idempotentMethods = map[string]bool{"": true, http.MethodGet: true, http.MethodHead: true, http.MethodOptions: true,
	http.MethodTrace: true, http.MethodPut: true, http.MethodDelete: true}

// DecideFor is the decision about an error a call returned, and false for an error that is
// not the contract's to judge: an *APIError by its response (DecideResponse), an error wrapping
// an *ErrorPayload by Decide, a transport failure (FailureOf) by DecideFailure.
func DecideFor(err error, idempotent bool, attempt, maxAttempts int, opts ...DecideOption) (Decision, bool) {
	var api *APIError
	var p *ErrorPayload
	switch {
	case err == nil:
		return Decision{}, false
	case errors.As(err, &api):
		return api.Decide(attempt, maxAttempts, opts...), true
	case errors.As(err, &p):
		return Decide(p, attempt, maxAttempts, opts...), true
	}
	if failure, ok := FailureOf(err); ok {
		return DecideFailure(failure, idempotent, attempt, maxAttempts, opts...), true
	}
	return Decision{}, false
}

func retryOptionsOf(opts []RetryOption) retryOptions {
	o := retryOptions{maxAttempts: DefaultMaxAttempts, sleep: sleepContext}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// observe hands one decision to the hooks and the logger.
func (o *retryOptions) observe(ctx context.Context, a Attempt) {
	for _, f := range o.onDecision {
		f(a.Number, a.Decision)
	}
	for _, f := range o.onAttempt {
		f(ctx, a)
	}
	if o.logger == nil {
		return
	}
	level := slog.LevelInfo
	if a.Final {
		level = slog.LevelWarn
	}
	o.logger.LogAttrs(ctx, level, packageName+": attempt failed", slog.Int("attempt", a.Number),
		slog.String("action", string(a.Decision.Action)), slog.String("reason", string(a.Decision.Reason)),
		slog.Duration("delay", a.Decision.Delay), slog.String("correlation_id", a.Decision.CorrelationID),
		slog.String("error.type", a.ErrorType))
}

// sleepContext is the default Sleeper: a timer, stopped when ctx is done first.
func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
