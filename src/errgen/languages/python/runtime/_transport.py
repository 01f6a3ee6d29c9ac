"""Naming a transport failure (docs/conformance.md, "Transport failures"): what an exception from
the standard library, httpx, requests, urllib3 or aiohttp means for whether the request left.

Recognised by class name along the exception's class hierarchy and its chain of causes, so the SDK
imports none of those clients.
"""

from __future__ import annotations

from typing import Optional

# The failures where the request never reached the server: always safe to send again.
NOT_SENT = ("refused", "tls")

# Class name -> failure, most specific names first within each client.
_BY_NAME = {
    # TLS: the handshake failed before the request was written.
    "SSLError": "tls",
    "SSLCertVerificationError": "tls",
    "ClientConnectorCertificateError": "tls",
    "ClientConnectorSSLError": "tls",
    "ClientSSLError": "tls",
    # Never connected (refused, unresolvable, no connection from the pool in time).
    "ConnectionRefusedError": "refused",
    "gaierror": "refused",
    "NewConnectionError": "refused",
    "NameResolutionError": "refused",
    "ConnectTimeout": "refused",
    "ConnectTimeoutError": "refused",
    "PoolTimeout": "refused",
    "ConnectError": "refused",
    "ClientConnectorError": "refused",
    "ClientConnectorDNSError": "refused",
    # Waited for an answer that did not come: the request may have been applied.
    "ReadTimeout": "timeout",
    "ReadTimeoutError": "timeout",
    "WriteTimeout": "timeout",
    "TimeoutException": "timeout",
    "ServerTimeoutError": "timeout",
    "SocketTimeoutError": "timeout",
    "TimeoutError": "timeout",
    "timeout": "timeout",
    # The connection broke while the request was in flight.
    "ConnectionResetError": "reset",
    "BrokenPipeError": "reset",
    "ConnectionAbortedError": "reset",
    "RemoteDisconnected": "reset",
    "RemoteProtocolError": "reset",
    "ProtocolError": "reset",
    "ReadError": "reset",
    "WriteError": "reset",
    "ServerDisconnectedError": "reset",
    "IncompleteRead": "reset",
    "ChunkedEncodingError": "reset",
}
# Wrappers whose own name says less than their cause (requests' ConnectionError around urllib3's
# NewConnectionError, urllib's URLError around a socket error).
_WRAPPERS = ("ConnectionError", "URLError", "MaxRetryError", "ClientOSError", "TransportError")


def failure_of(error: BaseException) -> Optional[str]:
    """`refused`, `tls`, `reset` or `timeout` for an exception that means no response came; None
    for any other exception (a bug in the caller, an APIError, a cancelled task)."""
    if type(error).__module__.startswith(f"{__package__}."):
        return None  # this SDK's own errors (APIError and its classes): a response came

    seen: set[int] = set()
    found: Optional[str] = None
    current: Optional[BaseException] = error
    while current is not None and id(current) not in seen and len(seen) < 16:
        seen.add(id(current))
        for kind in type(current).__mro__:
            named = _BY_NAME.get(kind.__name__)
            if named is not None:
                return named
            if kind.__name__ in _WRAPPERS:
                found = found or "reset"
        current = _cause(current)
    return found


def _cause(error: BaseException) -> Optional[BaseException]:
    reason = getattr(error, "reason", None)  # urllib's URLError, urllib3's MaxRetryError
    if isinstance(reason, BaseException):
        return reason
    for arg in error.args[:2]:
        if isinstance(arg, BaseException):
            return arg
    return error.__cause__ or error.__context__
