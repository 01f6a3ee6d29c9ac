/** Why no response came: `refused` and `tls`, the request never left (connection refused, DNS, the
 * TLS handshake); `reset` and `timeout`, it may have been applied (the connection broke after the
 * request was written, no answer in time). */
export type TransportFailure = "refused" | "tls" | "reset" | "timeout";
/** `refused`, `tls`, `reset` or `timeout` for an error that means no response came (fetch's
 * network TypeError, `AbortError` and `TimeoutError`, node's ECONNREFUSED, ECONNRESET, ETIMEDOUT
 * and certificate errors, axios errors without a response); null for any other (a bug in the
 * caller, an ErrorPayloadError, an HTTP error). A fetch TypeError whose causes name nothing
 * counts as `reset`: it may have been sent. */
export declare function failureOf(error: unknown): TransportFailure | null;
