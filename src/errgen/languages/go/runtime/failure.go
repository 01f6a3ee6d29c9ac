package errgenruntime

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
)

// Transport failures (docs/conformance.md, "Transport failures"): what to do when no response
// came at all.

// Failure names how a call failed without a response.
type Failure string

const (
	// FailureRefused: the connection was never made (refused, DNS, a dial timeout): the request
	// never left.
	FailureRefused Failure = "refused"
	// FailureTLS: the TLS handshake failed: the request never left.
	FailureTLS Failure = "tls"
	// FailureReset: the connection broke after the request was written: the server may have
	// applied it.
	FailureReset Failure = "reset"
	// FailureTimeout: no answer in time: the server may have applied the request.
	FailureTimeout Failure = "timeout"
)

// DecideFailure is what to do when a call got no response: a refused connection or a failed TLS
// handshake (the request never left) is retried; a reset or a timeout (the server may have
// applied it) is retried only when the call is idempotent (a GET, or a request carrying an
// Idempotency-Key), else escalated with reason outcome-unknown. A retry goes through the same
// attempts, backoff, delay bound and jitter as Decide, with reason transport-failure. Any other
// failure string counts as a reset.
func DecideFailure(failure Failure, idempotent bool, attempt, maxAttempts int, opts ...DecideOption) Decision {
	if failure != FailureRefused && failure != FailureTLS && !idempotent {
		return bare(ActionEscalate, ReasonOutcomeUnknown, 0)
	}
	return bare(timed(ActionRetry, ReasonTransportFailure, attempt, maxAttempts, nil, options(opts)))
}

// FailureOf names the transport failure err stands for, and false for any other error (the
// contract's own errors, a cancelled context, a caller's bug): a TLS handshake or certificate
// error is tls; a failed dial or DNS lookup is refused (a dial timeout too: nothing was sent);
// any other timeout (a net.Error whose Timeout() holds, context.DeadlineExceeded) is timeout;
// a connection closed or reset after the request was written (an *net.OpError, io.EOF,
// io.ErrUnexpectedEOF, any other net.Error) is reset. It looks through wrapping, the HTTP
// client's *url.Error included.
func FailureOf(err error) (Failure, bool) {
	if err == nil || errors.Is(err, context.Canceled) {
		return "", false
	}
	var op *net.OpError
	var dns *net.DNSError
	var timeout interface{ Timeout() bool }
	switch {
	case isTLSFailure(err):
		return FailureTLS, true
	case errors.As(err, &op) && op.Op == "dial", errors.As(err, &dns):
		return FailureRefused, true
	case errors.As(err, &timeout) && timeout.Timeout():
		return FailureTimeout, true
	case errors.As(err, &op), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return FailureReset, true
	}
	var other net.Error // *url.Error, the HTTP client's wrapper, is one
	if errors.As(err, &other) {
		return FailureReset, true
	}
	return "", false
}

// isTLSFailure: the handshake failed (a record that is no TLS, an alert, a certificate the
// client does not trust or that names another host).
func isTLSFailure(err error) bool {
	var record tls.RecordHeaderError
	var alert tls.AlertError
	var verification *tls.CertificateVerificationError
	var authority x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &record) || errors.As(err, &alert) || errors.As(err, &verification) ||
		errors.As(err, &authority) || errors.As(err, &host) || errors.As(err, &invalid)
}
