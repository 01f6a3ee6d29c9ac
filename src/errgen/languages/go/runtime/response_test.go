package errgenruntime

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Seconds as APIs send them (issue 39.3): decimal texts exactly, JSON fractions rounded to the
// microsecond first, both rounded up to a whole millisecond and saturated.
func TestSecondsAcceptDecimals(t *testing.T) {
	max := strconv.FormatInt(maxDelayValueMS, 10)
	cases := []struct {
		value any
		want  string // "" when the value is no delay
	}{
		{"2.128", "2128"}, {"1.0001", "1001"}, {"64.57", "64570"}, {"7", "7000"}, {"0.0000000001", ""},
		{json.Number("64.57"), "64570"}, {json.Number("2.5"), "2500"}, {json.Number("0.0001"), "1"},
		{json.Number("2.0"), "2000"}, {json.Number("6.457e1"), "64570"}, {json.Number("-0.5"), ""},
		{json.Number("1e400"), ""}, {json.Number("1e300"), max}, {json.Number("9007199254741.5"), max},
		{json.Number("9007199254740.5"), "9007199254740501"}, // the double's microseconds, as in every SDK
	}
	for _, c := range cases {
		got, ok := secondsMS(c.value)
		if (c.want == "") == ok || ok && strconv.FormatInt(got, 10) != c.want {
			t.Errorf("secondsMS(%v) = %d, %v; want %q", c.value, got, ok, c.want)
		}
	}
}

func TestStatusActionByStatusThenClass(t *testing.T) {
	if len(response.statusActions) == 0 {
		t.Fatal("no status actions in the response spec")
	}
	for _, status := range []int{0, 99, 600, -1} {
		if got := StatusAction(status); got != ActionEscalate {
			t.Errorf("StatusAction(%d) = %s, want escalate", status, got)
		}
	}
	for _, status := range []int{200, 301, 404, 429, 499, 502, 599} {
		want, ok := response.statusActions[strconv.Itoa(status)]
		if !ok {
			want, ok = response.statusActions[strconv.Itoa(status/100)+"xx"]
		}
		if !ok {
			want = ActionEscalate
		}
		if got := StatusAction(status); got != want {
			t.Errorf("StatusAction(%d) = %s, want %s", status, got, want)
		}
	}
}

// unclaimedReading is what a proxy sends: a body that is no payload of the API's. A registry
// that reads the code from the status (GitHub REST) claims every response: the test skips.
func unclaimedReading(t *testing.T, status int, headers []headerPair, body string) Reading {
	t.Helper()
	r := readHTTP(status, headers, []byte(body), 0)
	if !r.unclaimed {
		t.Skip("the registry reads a code from every response")
	}
	return r
}

func TestDecideResponseFallsBackOnTheStatus(t *testing.T) {
	r := unclaimedReading(t, 502, nil, "<html>bad gateway</html>")
	d := DecideResponse(r, 1, 3)
	want, _, delay := timed(StatusAction(502), ReasonStatusFallback, 1, 3, nil, options(nil))
	if d.Action != want || d.DelayMS != delay || d.hasCode || d.Payload != nil {
		t.Errorf("502: %+v, want %s after %d ms", d, want, delay)
	}
	if got := r.Decide(1, 3); got.Action != d.Action || got.Reason != d.Reason {
		t.Errorf("Reading.Decide differs from DecideResponse: %+v", got)
	}
	if _, isTimed := exhaustedActions[want]; isTimed && d.Reason != ReasonStatusFallback {
		t.Errorf("502: reason %s", d.Reason)
	}
	// The response's Retry-After is waited as named, and the attempts still run out.
	r = unclaimedReading(t, 429, []headerPair{{"Retry-After", "2.5"}}, "")
	if d := DecideResponse(r, 1, 3); StatusAction(429) == ActionPause && (d.Action != ActionPause || d.DelayMS != 2500) {
		t.Errorf("429 with Retry-After 2.5: %+v", d)
	}
	if d := DecideResponse(r, 3, 3); d.Reason != ReasonAttemptsExhausted && StatusAction(429) == ActionPause {
		t.Errorf("429 at the last attempt: %+v", d)
	}
	// A 403 naming a wait is a rate limit.
	r = unclaimedReading(t, 403, []headerPair{{"Retry-After", "60"}}, "")
	if d := DecideResponse(r, 1, 3); containsInt(response.pausedWithDelay, 403) && (d.Action != ActionPause || d.DelayMS != 60000) {
		t.Errorf("403 with Retry-After: %+v", d)
	}
	// No error: the payload's decision, as Decide gives it.
	r = readHTTP(200, nil, []byte(`{}`), 0)
	if !r.IsError {
		if d, want := DecideResponse(r, 1, 3), r.Payload.Decide(1, 3); d.Reason != want.Reason || d.Action != want.Action {
			t.Errorf("200: %+v, want %+v", d, want)
		}
	}
}

func TestDecideFailureRetriesWhatNeverLeft(t *testing.T) {
	for _, c := range []struct {
		failure    Failure
		idempotent bool
		action     Action
		reason     Reason
	}{
		{FailureRefused, false, ActionRetry, ReasonTransportFailure},
		{FailureTLS, false, ActionRetry, ReasonTransportFailure},
		{FailureReset, false, ActionEscalate, ReasonOutcomeUnknown},
		{FailureTimeout, false, ActionEscalate, ReasonOutcomeUnknown},
		{FailureReset, true, ActionRetry, ReasonTransportFailure},
		{FailureTimeout, true, ActionRetry, ReasonTransportFailure},
		{Failure("bogus"), false, ActionEscalate, ReasonOutcomeUnknown},
	} {
		d := DecideFailure(c.failure, c.idempotent, 1, 3)
		if d.Action != c.action || d.Reason != c.reason {
			t.Errorf("%s idempotent=%v: %s %s", c.failure, c.idempotent, d.Action, d.Reason)
		}
		if c.action == ActionRetry && d.DelayMS != BackoffMS(1) {
			t.Errorf("%s: delay %d, want the backoff %d", c.failure, d.DelayMS, BackoffMS(1))
		}
	}
	if d := DecideFailure(FailureRefused, false, 3, 3); d.Action != ActionEscalate || d.Reason != ReasonAttemptsExhausted {
		t.Errorf("at the last attempt: %s %s", d.Action, d.Reason)
	}
	if d := DecideFailure(FailureRefused, false, 1, 3, WithMaxDelayMS(BackoffMS(1)-1)); d.Reason != ReasonDelayExceedsMax {
		t.Errorf("past the maximum delay: %s", d.Reason)
	}
	if d := DecideFailure(FailureRefused, false, 1, 3, WithJitterDraw(func() float64 { return 0.5 })); d.DelayMS != BackoffMS(1)/2 {
		t.Errorf("jitter: %d", d.DelayMS)
	}
}

// FailureOf names what the standard library's client really returns.
func TestFailureOfRealClientErrors(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := closed.Addr().String()
	closed.Close()
	_, refused := http.Get("http://" + address + "/")
	untrusted := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake this test fails on purpose
	untrusted.StartTLS()
	defer untrusted.Close()
	_, badCertificate := http.Get(untrusted.URL)
	// The server answers only once the client gave up; the timeout leaves the dial (a refused
	// failure) time to finish even on a loaded machine.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer slow.Close()
	_, timedOut := (&http.Client{Timeout: 300 * time.Millisecond}).Get(slow.URL)
	hangUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer hangUp.Close()
	_, reset := http.Post(hangUp.URL, "text/plain", strings.NewReader("x"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, slow.URL, nil)
	_, cancelled := http.DefaultClient.Do(req)
	for _, c := range []struct {
		err  error
		want Failure
	}{
		{refused, FailureRefused}, {badCertificate, FailureTLS}, {timedOut, FailureTimeout}, {reset, FailureReset},
		{fmt.Errorf("wrapped: %w", io.ErrUnexpectedEOF), FailureReset}, {context.DeadlineExceeded, FailureTimeout},
		{&net.DNSError{Err: "no such host", Name: "x.invalid"}, FailureRefused}, {tls.RecordHeaderError{}, FailureTLS},
	} {
		if got, ok := FailureOf(c.err); !ok || got != c.want {
			t.Errorf("FailureOf(%v) = %q, %v; want %q", c.err, got, ok, c.want)
		}
	}
	for _, err := range []error{nil, cancelled, errors.New("a bug"), &ErrorPayload{Code: "X"}} {
		if got, ok := FailureOf(err); ok {
			t.Errorf("FailureOf(%v) = %q: not a transport failure", err, got)
		}
	}
}

// The caught error (issue 40): status and headers, errors.As through it, and its decision by
// the whole response, so Retry retries a proxy's codeless 502 and a reset idempotent call.
func TestAPIErrorCarriesTheResponseAndRetryRetriesIt(t *testing.T) {
	unclaimedReading(t, 502, nil, "<html>bad gateway</html>")
	if _, isTimed := exhaustedActions[StatusAction(502)]; !isTimed {
		t.Skip("the registry does not retry a 502")
	}
	calls := 0
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls++; calls <= 2 {
			w.Header().Set("X-Proxy", "edge-1")
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, "<html>bad gateway</html>")
			return
		}
		fmt.Fprint(w, "ok")
	}))
	defer server.Close()
	resp, err := http.Get(server.URL)
	if err != nil {
		t.Fatal(err)
	}
	err = ResponseError(resp)
	resp.Body.Close()
	var api *APIError
	var invalid *PayloadError
	if !errors.As(err, &api) || !errors.As(err, &invalid) || api.StatusCode != 502 || api.Header.Get("X-Proxy") != "edge-1" {
		t.Fatalf("got %#v", err)
	}
	if d := api.Decide(1, 3); d.Reason != ReasonStatusFallback || api.ErrorFault() != FaultServer || !api.RetryableError() {
		t.Errorf("the 502's decision: %+v, fault %s", d, api.ErrorFault())
	}
	var slept []time.Duration
	var seen []Attempt
	var traced []string // a second hook (tracing beside metrics): both are called
	var logged strings.Builder
	req, _ := http.NewRequest(http.MethodGet, server.URL, nil)
	resp, err = RetryResponse(context.Background(), nil, req,
		WithSleeper(func(ctx context.Context, d time.Duration) error { slept = append(slept, d); return nil }),
		OnAttempt(func(ctx context.Context, a Attempt) { seen = append(seen, a) }),
		OnAttempt(func(ctx context.Context, a Attempt) { traced = append(traced, a.ErrorType) }),
		WithLogger(slog.New(slog.NewTextHandler(&logged, nil))))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" || calls != 3 || len(slept) != 1 || len(seen) != 1 || seen[0].ErrorType != "502" {
		t.Errorf("body %q after %d calls, slept %v, attempts %+v", body, calls, slept, seen)
	}
	if len(traced) != 1 || traced[0] != "502" {
		t.Errorf("the second OnAttempt hook saw %q", traced)
	}
	calls = 0
	value, err := RetryValue(context.Background(), func(ctx context.Context) (string, error) {
		if calls++; calls == 1 {
			return "", fmt.Errorf("call: %w", io.ErrUnexpectedEOF)
		}
		return "done", nil
	}, Idempotent(), WithSleeper(func(context.Context, time.Duration) error { return nil }))
	if value != "done" || err != nil || calls != 2 {
		t.Errorf("an idempotent reset: %q, %v after %d calls", value, err, calls)
	}
	calls = 0
	_, err = RetryValue(context.Background(), func(ctx context.Context) (string, error) {
		calls++
		return "", io.ErrUnexpectedEOF
	}, WithSleeper(func(context.Context, time.Duration) error { return nil }))
	if !errors.Is(err, io.ErrUnexpectedEOF) || calls != 1 {
		t.Errorf("a reset that may have been applied is not sent again: %v after %d calls", err, calls)
	}
	if !strings.Contains(logged.String(), "error.type=502") || !strings.Contains(logged.String(), "reason=status-fallback") {
		t.Errorf("the log: %s", logged.String())
	}
}

// RetryResponse sends the whole body again on every attempt, and a request carrying an
// Idempotency-Key is retried after a connection dropped mid-call.
func TestRetryResponseResendsTheBody(t *testing.T) {
	var bodies []string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bodies = append(bodies, string(body)); len(bodies) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close() // the request arrived; the answer never does
			}
			return
		}
		fmt.Fprint(w, "created")
	}))
	defer server.Close()
	noWait := WithSleeper(func(context.Context, time.Duration) error { return nil })
	req, _ := http.NewRequest(http.MethodPost, server.URL, strings.NewReader("charge=1"))
	if _, err := RetryResponse(context.Background(), nil, req, noWait); err == nil || len(bodies) != 1 {
		t.Fatalf("a POST without an idempotency key is sent once: %v, bodies %q", err, bodies)
	}
	bodies = nil
	req, _ = http.NewRequest(http.MethodPost, server.URL, strings.NewReader("charge=1"))
	req.Header.Set("Idempotency-Key", "k-1")
	resp, err := RetryResponse(context.Background(), nil, req, noWait)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(bodies) != 2 || bodies[0] != "charge=1" || bodies[1] != "charge=1" {
		t.Errorf("bodies sent: %q", bodies)
	}
	// A GET and a PUT are idempotent by their method: sent again without Idempotent().
	for _, method := range []string{http.MethodGet, http.MethodPut} {
		bodies = nil
		req, _ = http.NewRequest(method, server.URL, strings.NewReader("charge=1"))
		resp, err = RetryResponse(context.Background(), nil, req, noWait)
		if err != nil {
			t.Fatalf("a %s whose connection dropped: %v", method, err)
		}
		resp.Body.Close()
		if len(bodies) != 2 {
			t.Errorf("a %s is sent again: bodies %q", method, bodies)
		}
	}
}
