package errgenruntime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// retryableEntry is a code whose first failure Decide retries or pauses on; none: skip.
func retryableEntry(t *testing.T) Entry {
	t.Helper()
	e := pick(t, func(e Entry) bool {
		return e.Retryable && (e.RetryAfterMS == nil || *e.RetryAfterMS <= DefaultMaxDelayMS)
	})
	if d := Decide(newErrorFor(t, e, "c"), 1, DefaultMaxAttempts); d.Action != ActionRetry && d.Action != ActionPause {
		t.Skip("the registry has no code to retry")
	}
	return e
}

// The smithy-go APIError shape and errors.Is by code (issue 26).
func TestErrorsIsByCodeAndAPIErrorShape(t *testing.T) {
	e := pick(t, func(e Entry) bool { return e.Retryable })
	p := newErrorFor(t, e, "c-is")
	err := fmt.Errorf("charge: %w", p)
	if !errors.Is(err, e.Code) {
		t.Errorf("errors.Is(wrapped, %s) = false", e.Code)
	}
	if errors.Is(err, Code("SOME_OTHER_CODE")) {
		t.Error("errors.Is matched another code")
	}
	if !errors.Is(err, &ErrorPayload{Code: e.Code}) {
		t.Error("errors.Is did not match a payload with the same code")
	}
	var api interface {
		ErrorCode() string
		ErrorMessage() string
	}
	if !errors.As(err, &api) || api.ErrorCode() != string(e.Code) || api.ErrorMessage() != "display text" {
		t.Errorf("errors.As(APIError) = %v", api)
	}
	var retryable interface{ RetryableError() bool }
	if !errors.As(err, &retryable) || !retryable.RetryableError() {
		t.Error("RetryableError is not the registry's retryable")
	}
}

// Retry applies Decide between calls, waits through the replaceable sleeper and stops where the
// registry says.
func TestRetryWaitsTheDecidedDelaysThenGivesUp(t *testing.T) {
	e := retryableEntry(t)
	p := newErrorFor(t, e, "c-retry")
	var slept []time.Duration
	sleeper := func(ctx context.Context, d time.Duration) error { slept = append(slept, d); return nil }
	calls := 0
	err := Retry(context.Background(), func(context.Context) error { calls++; return fmt.Errorf("call: %w", p) },
		WithSleeper(sleeper), WithMaxAttempts(3))
	if !errors.Is(err, e.Code) || calls != 3 || len(slept) != 2 {
		t.Fatalf("err %v after %d calls, slept %v", err, calls, slept)
	}
	for i, d := range slept {
		want := Decide(p, i+1, 3)
		if d != want.Delay {
			t.Errorf("attempt %d slept %v, Decide says %v", i+1, d, want.Delay)
		}
	}
	calls = 0
	err = Retry(context.Background(), func(context.Context) error {
		if calls++; calls < 2 {
			return p
		}
		return nil
	}, WithSleeper(sleeper))
	if err != nil || calls != 2 {
		t.Errorf("a later success: err %v after %d calls", err, calls)
	}
	plain := errors.New("not the contract's")
	calls = 0
	if err := Retry(context.Background(), func(context.Context) error { calls++; return plain }, WithSleeper(sleeper)); err != plain || calls != 1 {
		t.Errorf("an error without a payload is returned at once: %v after %d calls", err, calls)
	}
}

func TestRetryStopsWhenTheContextIsDone(t *testing.T) {
	e := retryableEntry(t)
	p := newErrorFor(t, e, "c-ctx")
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err := Retry(ctx, func(context.Context) error { calls++; cancel(); return p })
	if !errors.Is(err, context.Canceled) || !errors.Is(err, e.Code) || calls != 1 {
		t.Errorf("err %v after %d calls", err, calls)
	}
}

func TestDidYouMeanNLimitsTheSuggestions(t *testing.T) {
	allowed := []string{"acme", "acmea", "acmeb", "bcmex"}
	if got := DidYouMeanN("acmee", allowed, 2); len(got) != 2 || got[0] != "acme" {
		t.Errorf("got %v", got)
	}
	if got := DidYouMeanN("acmee", allowed, 0); len(got) != 0 {
		t.Errorf("limit 0: got %v", got)
	}
	many := make([]string, 3*didYouMeanLimit)
	for i := range many {
		many[i] = fmt.Sprintf("ab%d", i%10)
	}
	if got := DidYouMeanN("ab", many, 1000); len(got) > didYouMeanLimit {
		t.Errorf("past the contract's limit: %d suggestions", len(got))
	}
}

// ResponseError turns a response into the error it carries, in one call.
func TestResponseError(t *testing.T) {
	e := pick(t, func(Entry) bool { return true })
	status, header, body := ToHTTP(newErrorFor(t, e, "c-resp"))
	respond := func(status int, header http.Header, body string) *http.Response {
		return &http.Response{StatusCode: status, Header: header, Body: io.NopCloser(strings.NewReader(body))}
	}
	err := ResponseError(respond(status, header, string(body)))
	var p *ErrorPayload
	if !errors.As(err, &p) || !errors.Is(err, e.Code) || p.CorrelationID != "c-resp" {
		t.Errorf("got %v", err)
	}
	ok := respond(200, http.Header{}, `{"ok":true}`)
	if err := ResponseError(ok); err != nil {
		t.Errorf("a 200 carries no error: %v", err)
	}
	// The caller still reads a success's whole body (read and put back when error_when needs it).
	if rest, err := io.ReadAll(ok.Body); err != nil || string(rest) != `{"ok":true}` {
		t.Errorf("the success's body after ResponseError: %q, %v", rest, err)
	}
	// An HTML 502 names no code in its body: it is a *PayloadError, unless the registry reads
	// the code from the status (GitHub REST, Shopify), where it is the payload of code "502".
	var invalid *PayloadError
	var byStatus *ErrorPayload
	err = ResponseError(respond(502, http.Header{}, "<html>bad gateway</html>"))
	if !errors.As(err, &invalid) && !(errors.As(err, &byStatus) && byStatus.ErrorCode() == "502") {
		t.Errorf("an HTML 502 is a *PayloadError, or code 502 read from the status: %v", err)
	}
}

// A message names the registry, never its version: no file of the module names the version, so
// a release changes none of them (the version is the git tag; see ModuleVersion).
func TestUnknownCodeMessageNamesTheRegistryOnly(t *testing.T) {
	_, err := NewError(Code("NOT_A_CODE_OF_THIS_REGISTRY"), "c")
	var perr *PayloadError
	if !errors.As(err, &perr) || len(perr.Problems) != 1 {
		t.Fatalf("got %v", err)
	}
	want := fmt.Sprintf("code %q is not in registry %s", "NOT_A_CODE_OF_THIS_REGISTRY", RegistryName)
	if got := perr.Problems[0].Message; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Inside this module's own tests the build records no version of it.
	if v, ok := ModuleVersion(); ok {
		t.Errorf("ModuleVersion inside the module's own test: %q", v)
	}
}
