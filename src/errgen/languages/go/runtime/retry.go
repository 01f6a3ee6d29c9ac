package errgenruntime

import (
	"context"
	"errors"
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
	onDecision  func(attempt int, d Decision)
}

// WithMaxAttempts sets the attempt budget (DefaultMaxAttempts unless set).
func WithMaxAttempts(n int) RetryOption { return func(o *retryOptions) { o.maxAttempts = n } }

// WithSleeper replaces how Retry waits (a test passes one that records the delays and returns).
func WithSleeper(s Sleeper) RetryOption { return func(o *retryOptions) { o.sleep = s } }

// WithDecideOptions passes options (WithMaxDelay, WithJitter) to each Decide.
func WithDecideOptions(opts ...DecideOption) RetryOption {
	return func(o *retryOptions) { o.decide = append(o.decide, opts...) }
}

// OnDecision is called with each decision Retry takes, before it waits (for logs and metrics).
func OnDecision(f func(attempt int, d Decision)) RetryOption {
	return func(o *retryOptions) { o.onDecision = f }
}

// Retry calls call until it succeeds, or until the registry says to stop: after each error that
// wraps an *ErrorPayload it applies Decide, waits the decided delay and calls again for retry and
// pause, and returns the error for every other action (fix, skip, stop, escalate), once the
// attempts or the maximum delay run out, and for an error that carries no payload (not the
// contract's to judge). When ctx is done while waiting, the error holds both ctx's error and the
// call's last error (errors.Is and errors.As find either).
func Retry(ctx context.Context, call func(ctx context.Context) error, opts ...RetryOption) error {
	o := retryOptions{maxAttempts: DefaultMaxAttempts, sleep: sleepContext}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := call(ctx)
		var p *ErrorPayload
		if err == nil || !errors.As(err, &p) {
			return err
		}
		d := Decide(p, attempt, o.maxAttempts, o.decide...)
		if o.onDecision != nil {
			o.onDecision(attempt, d)
		}
		if d.Action != ActionRetry && d.Action != ActionPause {
			return err
		}
		if waitErr := o.sleep(ctx, d.Delay); waitErr != nil {
			return errors.Join(waitErr, err)
		}
	}
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
