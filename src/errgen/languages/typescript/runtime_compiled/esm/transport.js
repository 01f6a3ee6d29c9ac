// Naming a transport failure (docs/conformance.md, "Transport failures"): what an error thrown by
// fetch (the platform's, undici's, a browser's), node's http, net and tls, or axios means for
// whether the request left. Recognised by name, code and message along the chain of causes, so the
// SDK imports none of those clients.
// System and client error codes (node's `error.code`, undici's, axios') -> failure.
const BY_CODE = {
    // Never connected: refused, unresolvable, unreachable, or the connection itself timed out.
    ECONNREFUSED: "refused", ENOTFOUND: "refused", EAI_AGAIN: "refused", EAI_NONAME: "refused", EAI_FAIL: "refused",
    EHOSTUNREACH: "refused", ENETUNREACH: "refused", EHOSTDOWN: "refused", ENETDOWN: "refused", EADDRNOTAVAIL: "refused",
    UND_ERR_CONNECT_TIMEOUT: "refused",
    // Waited for an answer that did not come (axios names its timeout ECONNABORTED).
    ETIMEDOUT: "timeout", ESOCKETTIMEDOUT: "timeout", ECONNABORTED: "timeout", UND_ERR_HEADERS_TIMEOUT: "timeout",
    UND_ERR_BODY_TIMEOUT: "timeout",
    // The connection broke while the request was in flight.
    ECONNRESET: "reset", EPIPE: "reset", UND_ERR_SOCKET: "reset", UND_ERR_CLOSED: "reset", ERR_NETWORK: "reset",
};
// node's certificate and TLS codes: the handshake failed before the request was written.
const TLS_CODE = /^(?:CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_(?:GET|VERIFY|DECRYPT)_|DEPTH_ZERO_SELF_SIGNED|SELF_SIGNED_CERT|HOSTNAME_MISMATCH)/;
// What fetch's TypeError says when the network failed (undici, Chrome, Firefox, Safari, React Native).
const FETCH_FAILED = /^(?:fetch failed|Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed|Network request failed)$/;
// A chain of causes is followed this far (a cycle ends it too).
const MAX_CAUSES = 16;
function fields(error) {
    return typeof error === "object" && error !== null ? error : null;
}
/** The failure one error names itself, without its causes; null when it names none. */
function named(error) {
    if (error.name === "AbortError" || error.name === "TimeoutError")
        return "timeout";
    const code = typeof error.code === "string" ? error.code : "";
    if (Object.prototype.hasOwnProperty.call(BY_CODE, code))
        return BY_CODE[code] ?? null;
    return TLS_CODE.test(code) ? "tls" : null;
}
/** Whether an error is a network failure whose kind its causes may tell: fetch's TypeError, or an
 * axios error that came without a response. */
function wrapper(error) {
    if (error.isAxiosError === true)
        return error.response === undefined || error.response === null;
    return error.name === "TypeError" && typeof error.message === "string" && FETCH_FAILED.test(error.message);
}
/** `refused`, `tls`, `reset` or `timeout` for an error that means no response came (fetch's
 * network TypeError, `AbortError` and `TimeoutError`, node's ECONNREFUSED, ECONNRESET, ETIMEDOUT
 * and certificate errors, axios errors without a response); null for any other (a bug in the
 * caller, an ErrorPayloadError, an HTTP error). A fetch TypeError whose causes name nothing
 * counts as `reset`: it may have been sent. */
export function failureOf(error) {
    const seen = new Set();
    let found = null;
    for (let current = fields(error); current !== null && !seen.has(current) && seen.size < MAX_CAUSES; current = fields(current.cause)) {
        seen.add(current);
        if (seen.size === 1 && current.isAxiosError === true && !wrapper(current))
            return null; // an HTTP status: not ours
        const kind = named(current);
        if (kind !== null)
            return kind;
        if (wrapper(current))
            found ?? (found = "reset");
    }
    return found;
}
