"""Acting on errors: `decide()` for agents, strict and tolerant parsing, MCP and HTTP mapping,
`new_error()` for services and `did_you_mean()` for near-miss suggestions.

Every SDK errgen generates behaves the same way (docs/conformance.md); this one proves it with
`python -m <package>._conformance check vectors.json`. No function here raises on what a server
sends: a bad payload is a verdict, and `decide` escalates it.
"""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, Callable, List, Mapping, Optional, Tuple, Union

from . import _reading, _validate, _wire, _writing
from ._contract import (
    BACKOFF_BASE_MS,
    BACKOFF_MAX_EXPONENT,
    BACKOFF_MAX_MS,
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_MAX_DELAY_MS,
    DID_YOU_MEAN_LIMIT,
    ENVELOPE,
    ENVELOPE_ARRAY,
    EXHAUSTED,
    FALLBACK_ACTIONS,
    FIELDS,
    MAX_DELAY_VALUE_MS,
    PROBLEM_BASE,
    REGISTRY_NAME,
    RESPONSE,
)
from ._transport import NOT_SENT
from ._wire import Headers
from .enums import Action, Code, Parsed, Reason, Scope, UnknownCode
from .models import ErrorPayload
from .recovery import RecoveryEntry, recovery_entry

Searched = Mapping[str, Union[str, int, float, bool]]
_W = _validate.WIRE


class PayloadError(ValueError):
    """A payload the contract rejects; `problems` holds (problem id, message) pairs."""

    def __init__(self, problems: list[Tuple[str, str]]) -> None:
        super().__init__("; ".join(message for _, message in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Decision:
    """What to do about one error, and which rule decided (`reason`)."""

    action: Action
    reason: Reason
    # The payload's code: a `Code` member when this SDK knows it, an `UnknownCode` holding the
    # text a newer server sent when it does not, None when there is no valid payload.
    code: Optional[Union[Code, UnknownCode]] = None
    delay_ms: Optional[int] = None
    # The code as the API sends it: `code`'s wire code when several registry codes share one
    # (OpenAI's rate_limit_exceeded for its tokens and requests variants), else `code` itself.
    wire_code: Optional[str] = None
    correlation_id: Optional[str] = None
    resource_id: Optional[str] = None
    did_you_mean: Tuple[str, ...] = ()
    accepted: Tuple[str, ...] = ()
    searched: Searched = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Verdict:
    """The strict problems of a raw payload (none: valid) and its tolerant reading."""

    problems: Tuple[Tuple[str, str], ...]
    parsed: Parsed

    @property
    def valid(self) -> bool:
        return not self.problems


def backoff_ms(attempt: int, jitter: bool = False) -> int:
    """The wait when neither payload nor registry gives one: base * 2^(attempt-1), capped; with
    jitter, a uniform draw below that ("full jitter")."""
    exponent = min(max(attempt - 1, 0), BACKOFF_MAX_EXPONENT)
    delay = min(BACKOFF_BASE_MS * 2**exponent, BACKOFF_MAX_MS)
    return int(random.random() * delay) if jitter else delay


def _delay_on_final(payload: Mapping[str, Any]) -> bool:
    return payload[_W["retryable"]] is False and _W["retry_after_ms"] in payload


def _unknown(payload: Mapping[str, Any]) -> bool:
    return (
        recovery_entry(payload[_W["code"]]) is None
        or payload[_W["category"]] not in _validate.CATEGORY_NAMES
    )


def check_payload(payload: object) -> Verdict:
    """Both verdicts at once: strict problems, and known / unknown / invalid."""
    payload = _raw(payload)
    problems = tuple(_validate.problems(payload))
    if (
        not isinstance(payload, dict)
        or _validate.envelope_problems(payload)
        or _delay_on_final(payload)
    ):
        return Verdict(problems, Parsed.INVALID)
    return Verdict(problems, Parsed.UNKNOWN if _unknown(payload) else Parsed.KNOWN)


def decide(
    payload: object,
    attempt: int = 1,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
    *,
    jitter: bool = False,
    draw: Callable[[], float] = random.random,
) -> Decision:
    """The action the registry prescribes for a payload: an `ErrorPayload`, an
    `UnknownErrorPayload`, or raw JSON data as received (any value). With `jitter`, a backoff is
    `int(draw() * backoff)`, `draw` giving a number in [0, 1) (the conformance vectors inject it).
    """
    payload = _raw(payload)
    envelope = _validate.envelope_problems(payload) if isinstance(payload, dict) else None
    return _decide(payload, envelope, None, attempt, max_attempts, max_delay_ms, jitter, draw)


@dataclass(frozen=True, slots=True)
class Checked:
    """A received payload checked once (`check`): its strict problems (none: valid) and what to
    do about it."""

    problems: Tuple[Tuple[str, str], ...]
    decision: Decision

    @property
    def valid(self) -> bool:
        return not self.problems


def check(
    payload: object,
    attempt: int = 1,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
    *,
    jitter: bool = False,
    draw: Callable[[], float] = random.random,
) -> Checked:
    """`validate_payload`'s problems (without raising) and `decide`'s decision from one look at
    the payload: what a client calls on an error body it received."""
    payload = _raw(payload)
    envelope = _validate.envelope_problems(payload)
    if not isinstance(payload, dict):
        decision = _decide(payload, None, None, attempt, max_attempts, max_delay_ms, jitter, draw)
        return Checked(tuple(envelope), decision)
    registry = None if envelope else _validate.registry_problems(payload)
    decision = _decide(
        payload, envelope, registry, attempt, max_attempts, max_delay_ms, jitter, draw
    )
    return Checked(tuple(envelope or registry or ()), decision)


def _decide(
    payload: object,
    envelope: Optional[list[Tuple[str, str]]],
    registry: Optional[list[Tuple[str, str]]],
    attempt: int,
    max_attempts: int,
    max_delay_ms: int,
    jitter: bool,
    draw: Callable[[], float],
) -> Decision:
    """`decide` given the payload's envelope problems (None: not an object) and, when already
    known, its registry problems (None: not looked for yet)."""
    if not isinstance(payload, dict) or envelope is None or envelope:
        correlation = payload.get(_W["correlation_id"]) if isinstance(payload, dict) else None
        return Decision(
            Action.ESCALATE,
            Reason.INVALID_PAYLOAD,
            correlation_id=correlation if isinstance(correlation, str) else None,
        )
    if _delay_on_final(payload):
        return _decision(payload, Action.ESCALATE, Reason.INVALID_PAYLOAD)
    registry_delay: Optional[int] = None
    entry = recovery_entry(payload[_W["code"]])
    if entry is None or _unknown(payload):
        action, reason = (
            Action(FALLBACK_ACTIONS[(payload[_W["scope"]], payload[_W["retryable"]])]),
            Reason.UNKNOWN_CODE,
        )
    elif registry if registry is not None else _validate.registry_problems(payload):
        return _decision(payload, Action.ESCALATE, Reason.CONTRADICTS_REGISTRY)
    else:
        action, reason, registry_delay = (
            entry.actions[payload[_W["scope"]]],
            Reason.REGISTRY,
            entry.retry_after_ms,
        )
    named = None
    if action.value in EXHAUSTED:
        given = payload.get(_W["retry_after_ms"])
        named = int(given) if given is not None else registry_delay
    action, reason, delay = _timed(
        action, reason, attempt, max_attempts, max_delay_ms, named, jitter, draw
    )
    return _decision(payload, action, reason, delay)


def _timed(
    action: Action,
    reason: Reason,
    attempt: int,
    max_attempts: int,
    max_delay_ms: int,
    named: Optional[int],
    jitter: bool,
    draw: Callable[[], float],
) -> Tuple[Action, Reason, Optional[int]]:
    """The timing rule of a timed action (retry, pause): attempts, then the delay (`named`, else
    the backoff) and its bound. The bound is on the delay the rule asks for, so escalating never
    depends on a random draw; jitter then spreads only a backoff (a named delay is waited as
    named), as in every SDK."""
    if action.value not in EXHAUSTED:
        return action, reason, None
    if attempt >= max_attempts:
        return Action(EXHAUSTED[action.value]), Reason.ATTEMPTS_EXHAUSTED, None
    delay = named if named is not None else backoff_ms(attempt)
    if delay > max_delay_ms:
        return Action.ESCALATE, Reason.DELAY_EXCEEDS_MAX, None
    if jitter and named is None:
        delay = int(draw() * delay)
    return action, reason, delay


def _decision(
    payload: Mapping[str, Any], action: Action, reason: Reason, delay: Optional[int] = None
) -> Decision:
    return Decision(
        action=action,
        reason=reason,
        code=code_of(payload[_W["code"]]),
        delay_ms=delay,
        wire_code=_reading.WIRE_CODE.get(payload[_W["code"]], payload[_W["code"]]),
        correlation_id=payload[_W["correlation_id"]],
        resource_id=payload.get(_W["resource_id"]),
        did_you_mean=tuple(payload.get(_W["did_you_mean"], ())),
        accepted=tuple(payload.get(_W["accepted"], ())),
        searched=MappingProxyType(dict(payload.get(_W["searched"], {}))),
    )


def code_of(code: str) -> Union[Code, UnknownCode]:
    """A code's text as the SDK types it: its `Code` member, else an `UnknownCode`."""
    entry = recovery_entry(code)
    return entry.code if entry is not None else UnknownCode(code)


def _raw(payload: object) -> object:
    """The wire data of the SDK's own payload types; any other value as it is."""
    if isinstance(payload, ErrorPayload):
        return payload.to_wire()
    if isinstance(payload, UnknownErrorPayload):
        return dict(payload.raw)
    return payload


def _wire_data(payload: Union[Payload, Mapping[str, Any]]) -> dict[str, Any]:
    raw = _raw(payload)
    return dict(raw) if isinstance(raw, Mapping) else {}


def validate_payload(payload: object) -> ErrorPayload:
    """Strict (a service, before sending): reject unknown codes, contradictions, extra fields."""
    payload = _raw(payload)
    problems = _validate.problems(payload)
    if problems:
        raise PayloadError(problems)
    return ErrorPayload.model_validate(payload)


@dataclass(frozen=True, slots=True)
class UnknownErrorPayload:
    """A well-formed payload whose code (or category) this SDK does not know: a newer server."""

    code: str
    category: str
    retryable: bool
    scope: str
    correlation_id: str
    raw: Mapping[str, Any]


# What `parse_payload` returns: a payload of a code this SDK knows, or of one it does not.
Payload = Union[ErrorPayload, UnknownErrorPayload]


def parse_payload(payload: object) -> Payload:
    """Tolerant (a client): a code from a newer server comes back as UnknownErrorPayload, never as
    a failure. Raises PayloadError for an invalid payload, and for a known code that contradicts
    the registry (`check_payload` reports that case as known without raising)."""
    payload = _raw(payload)
    verdict = check_payload(payload)
    if verdict.parsed is Parsed.INVALID or not isinstance(payload, dict):
        raise PayloadError(
            list(verdict.problems)
            or _validate.problems(payload)
            or [("invalid", "invalid payload")]
        )
    if verdict.parsed is Parsed.UNKNOWN:
        return UnknownErrorPayload(
            code=payload[_W["code"]],
            category=payload[_W["category"]],
            retryable=payload[_W["retryable"]],
            scope=payload[_W["scope"]],
            correlation_id=payload[_W["correlation_id"]],
            raw=MappingProxyType(dict(payload)),
        )
    return validate_payload(payload)


def new_error(
    code: Union[Code, str],
    correlation_id: str,
    *,
    scope: Optional[Union[Scope, str]] = None,
    **fields: Any,
) -> ErrorPayload:
    """A payload for `code` with category, retryable and default scope filled from the table, so a
    service cannot emit a contradictory one. `fields` (by their Python names): resource_id, message,
    retry_after_ms and the hint fields the code allows. Raises PayloadError on anything the
    contract rejects. `.to_wire()` gives the JSON data under the wire names."""
    entry = recovery_entry(code)
    if entry is None:
        raise PayloadError([("unknown-code", f"code {code!r} is not in registry {REGISTRY_NAME}")])
    payload: dict[str, Any] = {
        _W["code"]: entry.code.value,
        _W["category"]: entry.category.value,
        _W["retryable"]: entry.retryable,
        _W["scope"]: _plain(scope) if scope is not None else entry.scope.value,
        _W["correlation_id"]: correlation_id,
    }
    payload.update(
        {_W.get(key, key): _plain(value) for key, value in fields.items() if value is not None}
    )
    problems = _validate.problems(payload)
    if problems:
        raise PayloadError(problems)
    return ErrorPayload.model_validate(payload)


def _plain(value: object) -> object:
    """An enum member as its wire string (State.UNCHANGED -> "unchanged"); anything else as is."""
    return value.value if isinstance(value, Enum) else value


def to_mcp_result(payload: Union[Payload, Mapping[str, Any]]) -> dict[str, Any]:
    """An MCP tools/call result: isError, the payload as compact JSON text, and as structuredContent.
    `payload`: an `ErrorPayload`, an `UnknownErrorPayload` or wire data."""
    data = _wire_data(payload)
    return {
        "content": [{"type": "text", "text": _wire.to_json(data)}],
        "structuredContent": data,
        "isError": True,
    }


def from_mcp_result(result: object) -> object:
    """The raw payload of an MCP tools/call result (structuredContent, else the first text item's
    JSON), or None when it carries none; judge it with check_payload or decide."""
    return _wire.mcp_payload(result)


@dataclass(frozen=True, slots=True)
class HttpResponse:
    status: int
    headers: Mapping[str, str]
    body: str


def _delay_of(payload: Mapping[str, Any], entry: Optional[RecoveryEntry]) -> Optional[int]:
    given = payload.get(_W["retry_after_ms"])
    if isinstance(given, int) and not isinstance(given, bool) and given >= 0:
        return min(given, MAX_DELAY_VALUE_MS)
    if isinstance(given, float) and given.is_integer() and given >= 0:
        return int(min(given, float(MAX_DELAY_VALUE_MS)))
    if given is None and entry is not None and payload.get(_W["retryable"]) is True:
        return entry.retry_after_ms
    return None


def to_http(payload: Union[Payload, Mapping[str, Any]], problem: bool = False) -> HttpResponse:
    """`payload` (an `ErrorPayload`, an `UnknownErrorPayload` or wire data) as an HTTP response. Status from the code's http_status (500 for a code this SDK does not know); Retry-After in
    whole seconds, rounded up, and retry-after-ms when there is a delay; x-should-retry from
    retryable, so that clients which never read the body (the official API SDKs' retry policy)
    still obey the contract; with problem=True an RFC 9457 application/problem+json body with the
    payload fields as extension members, its type the code's type URI."""
    return _http(_wire_data(payload), problem)


def _http(payload: Mapping[str, Any], problem: bool) -> HttpResponse:
    entry = recovery_entry(payload.get(_W["code"]))
    status = entry.http_status if entry is not None else 500
    headers = {"Content-Type": "application/problem+json" if problem else "application/json"}
    headers["x-should-retry"] = "true" if payload.get(_W["retryable"]) is True else "false"
    delay = _delay_of(payload, entry)
    if delay is not None:
        headers["Retry-After"] = str(-(-delay // 1000))
        headers["retry-after-ms"] = str(delay)
    body = _enveloped(dict(payload))
    if problem:
        code = payload.get(_W["code"])
        message = payload.get(_W["message"])
        members = {
            "type": (
                entry.type_uri
                if entry is not None
                else PROBLEM_BASE + (code if isinstance(code, str) else "")
            ),
            "title": entry.description if entry is not None else str(code),
            "status": status,
        }
        if isinstance(message, str):
            members["detail"] = message
        body = {**members, **body}
    shaped = _api_shape(payload, body, headers)
    headers = {name: value for name, value in headers.items() if _wire.writable(value)}
    if RESPONSE["format"] == "xml":
        headers["Content-Type"] = "application/xml"
        return HttpResponse(status, headers, _writing.to_xml(shaped))
    return HttpResponse(status, headers, _wire.to_json(shaped))


def _api_shape(payload: Mapping[str, Any], body: dict[str, Any], headers: dict[str, str]) -> Any:
    """What the API itself sends (docs/conformance.md, "Writing in the API's own shape"): a code
    that shares its wire code with others goes out as that wire code; each fact also sits where
    the registry reads it first, in the body and in a header, and every `equals` condition holds.
    An XML API's body holds those writes alone."""
    code = payload.get(_W["code"])
    sent = _reading.WIRE_CODE.get(code, code) if isinstance(code, str) else code
    if sent != code:
        _inner(body)[_W["code"]] = sent  # body's dicts are _http's own copies: edited in place
    rows = RESPONSE["variants"].get(sent, ()) if isinstance(sent, str) else ()
    variant = [c for name, cs in rows if name == code for c in cs]
    facts = {fact: payload.get(_W[fact]) for fact in ("message", "correlation_id", "resource_id")}
    todo = _writing.writes({**facts, "code": sent}, variant)
    return _writing.apply({} if RESPONSE["format"] == "xml" else body, headers, todo)


def _enveloped(payload: dict[str, Any]) -> dict[str, Any]:
    """The body errgen writes: the payload, under the envelope if any (in a one-entry array for
    `errors[*]`)."""
    if not ENVELOPE:
        return payload
    return {ENVELOPE: [payload] if ENVELOPE_ARRAY else payload}


def _inner(body: dict[str, Any]) -> dict[str, Any]:
    """The payload object inside a body `_enveloped` made."""
    if not ENVELOPE:
        return body
    found: dict[str, Any] = body[ENVELOPE][0] if ENVELOPE_ARRAY else body[ENVELOPE]
    return found


def _unenveloped(document: object) -> object:
    """The payload a JSON body carries (docs/conformance.md, "Reading an HTTP response"): the value
    under the envelope; for `errors[*]`, its array's first entry holding every required field, else
    the array itself (then read by the sources, like any API's errors)."""
    if not ENVELOPE or not isinstance(document, dict) or ENVELOPE not in document:
        return document
    value = document[ENVELOPE]
    if ENVELOPE_ARRAY and isinstance(value, list):
        return next((entry for entry in value if _holds_required(entry)), value)
    return value


def _holds_required(value: object) -> bool:
    return isinstance(value, dict) and all(name in value for name in _REQUIRED)


@dataclass(frozen=True, slots=True)
class HttpReading:
    """What `read_http` found in a response. `payload` is what `from_http` returns (judge it with
    check_payload or decide); `code`, `correlation_id` and `delay_ms` are what the registry's
    response sources yield (None: nothing usable); `document` is the whole parsed body (JSON, or
    XML as nested dicts), None when unreadable: the API's own fields, kept for the caller."""

    error: bool
    payload: object
    code: Optional[str]
    correlation_id: Optional[str]
    delay_ms: Optional[int]
    document: object
    # The status read (0 when it was not an int); whether the body claims to be the API's error
    # shape (a code was read, or a JSON object holds where the code would be); the delay a
    # response without one asks for (the registry's delay sources, else Retry-After).
    status: int = 0
    claimed: bool = True
    fallback_delay_ms: Optional[int] = None


_REQUIRED = tuple(spec.wire for spec in FIELDS if spec.required)
_WIRE_NAMES = frozenset(_W.values())


def read_http(
    status: int, headers: Headers, body: object, now_ms: Optional[int] = None
) -> HttpReading:
    """Read an HTTP response as docs/conformance.md ("Reading a real response") specifies: where
    the registry says each fact is; facts the response does not carry come from the registry row
    of the code it carries (an unknown code: from the status). Never raises on what a server sends.
    `headers`: a mapping or (name, value) pairs; `body`: text or bytes (anything else is empty)."""
    code_status = status if isinstance(status, int) and not isinstance(status, bool) else 0
    now = int(time.time() * 1000) if now_ms is None else now_ms
    too_large = _wire.body_too_large(body)
    ok, text = _wire.as_text(body)
    text = text[1:] if text.startswith("\ufeff") else text
    parsed, document = False, None
    # An xml registry reads a body that starts with "<" as XML, any other as JSON (what to_http writes).
    xml = RESPONSE["format"] == "xml" and text.lstrip(" \t\r\n").startswith("<")
    if ok and not too_large:
        parsed, document = _reading.read_xml(text) if xml else _wire.read_json(text)
    found = document if parsed else None
    code = _reading.read_code(RESPONSE["code"], found, headers, code_status, _known)
    correlation = _reading.first(RESPONSE["correlation_id"], found, headers, _reading.code_text)
    delay = _reading.delay_ms(
        found, headers, now, _delay_entries(code, code_status, found, headers)
    )
    error = _reading.is_error(code_status, found, headers)
    payload: object = None
    if error:
        # A body that cannot be read, or an XML one without a code, is returned as its text,
        # unless a header carries the code.
        payload = (
            _payload(code_status, headers, found, code, correlation, delay, xml, now)
            if code is not None or parsed and not xml
            else text
        )
    claimed = code is not None or (not xml and _claims(found))
    fallback = delay
    if fallback is None and error and not claimed:
        fallback = _reading.delay_ms(found, headers, now, RESPONSE["own_retry_after"])
    return HttpReading(
        error, payload, code, correlation, delay, found, code_status, claimed, fallback
    )


def _delay_entries(
    code: Optional[str], status: int, document: object, headers: Headers
) -> List[Any]:
    """The registry's delay sources that apply to the registry code read (SPEC D)."""
    name = (
        None
        if code is None
        else _reading.registry_code(code, status, document, headers, exact=_exact)
    )
    entry = None if name is None else recovery_entry(name)
    if entry is None:
        return _reading.applicable(RESPONSE["retry_after"], None, None)
    return _reading.applicable(RESPONSE["retry_after"], entry.code.value, entry.category.value)


def _exact(code: str) -> bool:
    return recovery_entry(code) is not None


def _known(code: str) -> bool:
    """A code this SDK decides by the registry: a wire code, a registry code or a prefix match."""
    return code in RESPONSE["variants"] or _exact(code) or _reading.prefixed(code) is not None


def _claims(document: object) -> bool:
    """Whether a JSON document holds where the registry reads the code (its first key): the
    API's own error shape, which a payload that breaks the contract must not escape."""
    return isinstance(document, dict) and any(
        source["in"] == "body" and source["path"] and source["path"][0] in document
        for source in RESPONSE["code"]
        if isinstance(source.get("path", [None])[0], str)
    )


def status_action(status: int) -> Action:
    """How a response without a readable code is decided by its status, as the official API
    clients do: the registry's `wire.statuses` over errgen's defaults (429 pause, 5xx retry, 401
    and 403 stop, 404 skip, other 4xx fix; docs/conformance.md)."""
    actions = RESPONSE["status_actions"]
    found = actions.get(str(status)) or actions.get(f"{status // 100}xx")
    return Action(found) if found and 100 <= status <= 599 else Action.ESCALATE


def decide_response(
    reading: HttpReading,
    attempt: int = 1,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
    *,
    jitter: bool = False,
    draw: Callable[[], float] = random.random,
) -> Decision:
    """What to do about a response (`read_http`): its payload decided as `decide` does; a
    response with no payload at all (a proxy's HTML 502, a gateway's bare 429, an empty 503) by
    its status, with reason `status-fallback`, honouring its Retry-After."""
    if not reading.error or reading.claimed:
        decided = decide(
            reading.payload, attempt, max_attempts, max_delay_ms, jitter=jitter, draw=draw
        )
        if decided.code is None or reading.code is None:
            return decided
        # The code as the API sent it: 08006 for the registry code its prefix 08 matched.
        return dataclasses.replace(decided, wire_code=reading.code)
    action = status_action(reading.status)
    delay = reading.fallback_delay_ms
    if action.value not in EXHAUSTED and delay is not None:
        if reading.status in RESPONSE["paused_with_delay"]:
            action = Action.PAUSE  # a 403 naming a wait is a rate limit (GitHub's secondary limits)
    action, reason, delay = _timed(
        action, Reason.STATUS_FALLBACK, attempt, max_attempts, max_delay_ms, delay, jitter, draw
    )
    return Decision(action, reason, delay_ms=delay, correlation_id=reading.correlation_id)


def decide_failure(
    failure: str,
    idempotent: bool = False,
    attempt: int = 1,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    max_delay_ms: int = DEFAULT_MAX_DELAY_MS,
    *,
    jitter: bool = False,
    draw: Callable[[], float] = random.random,
) -> Decision:
    """What to do when no response came (`failure_of(exception)` names it): `refused` and `tls`
    (the request never left) are retried; `reset` and `timeout` (the server may have applied it)
    only when the call is `idempotent`, else escalated with reason `outcome-unknown`."""
    if failure not in NOT_SENT and not idempotent:
        return Decision(Action.ESCALATE, Reason.OUTCOME_UNKNOWN)
    action, reason, delay = _timed(
        Action.RETRY,
        Reason.TRANSPORT_FAILURE,
        attempt,
        max_attempts,
        max_delay_ms,
        None,
        jitter,
        draw,
    )
    return Decision(action, reason, delay_ms=delay)


def _payload(
    status: int,
    headers: Headers,
    document: object,
    code: Optional[str],
    correlation: Optional[str],
    delay: Optional[int],
    xml: bool,
    now_ms: int,
) -> object:
    value = document if xml else _unenveloped(document)
    if _holds_required(value) or code is None:
        own = _reading.delay_ms(document, headers, now_ms, RESPONSE["own_retry_after"])
        return _as_sent(status, headers, document, value, own)
    name = _reading.registry_code(code, status, document, headers, exact=_exact)
    entry = recovery_entry(name)
    payload: dict[str, Any] = {_W["code"]: name if entry is not None else code}
    if entry is not None:
        payload[_W["category"]] = entry.category.value
        payload[_W["retryable"]] = entry.retryable
        payload[_W["scope"]] = entry.scope.value
    else:
        payload[_W["category"]] = ""
        payload[_W["retryable"]] = status in RESPONSE["retryable_statuses"]
        payload[_W["scope"]] = "service" if status in RESPONSE["service_statuses"] else "request"
    payload[_W["correlation_id"]] = correlation or ""
    resource = _reading.first(RESPONSE["resource_id"], document, headers, _reading.code_text)
    if resource is not None or payload[_W["scope"]] == "resource":
        payload[_W["resource_id"]] = resource or ""
    message = _reading.first(RESPONSE["message"], document, headers, _reading.message_text)
    if message is not None:
        payload[_W["message"]] = message
    if payload[_W["retryable"]] is True and delay is not None:
        payload[_W["retry_after_ms"]] = delay
    return payload


def _kept(key: str) -> bool:
    """Only the contract's own fields: an API's other members (and RFC 9457's) never make a
    client-side reading invalid; they stay in the reading's document."""
    return key in _WIRE_NAMES


def _as_sent(
    status: int, headers: Headers, document: object, value: object, delay: Optional[int]
) -> object:
    """A payload the body carries itself (errgen's shape): members that are not the payload's own
    wire names dropped, `detail` as the message, a variant code resolved, and the
    response's delay when it is retryable and states none."""
    if not isinstance(value, dict):
        return value
    payload = {key: item for key, item in value.items() if _kept(key)}
    if (
        "detail" in value
        and not _kept("detail")
        and _W["message"] not in payload
        and _W["code"] in payload
    ):
        payload[_W["message"]] = value["detail"]
    code = payload.get(_W["code"])
    if isinstance(code, str):

        def fits(name: str) -> bool:
            entry = recovery_entry(name)
            scope = payload.get(_W["scope"])  # any JSON value: a list must not be hashed
            return (
                entry is not None
                and entry.category.value == payload.get(_W["category"])
                and isinstance(scope, str)
                and scope in entry.actions
            )

        payload[_W["code"]] = _reading.registry_code(code, status, document, headers, fits, _exact)
    if _W["retry_after_ms"] not in payload and payload.get(_W["retryable"]) is True:
        if delay is not None:
            payload[_W["retry_after_ms"]] = delay
    return payload


def from_http(status: int, headers: Headers, body: object, now_ms: Optional[int] = None) -> object:
    """The raw payload of an HTTP error response, read tolerantly (`read_http`): errgen's payload
    as sent, or the one built from a real API's response; a body that cannot be read comes back
    as its text, and a response that is not an error as None. Judge it with check_payload or
    decide. `headers`: a mapping or (name, value) pairs; `now_ms` is the clock of HTTP-dates."""
    return read_http(status, headers, body, now_ms).payload


def did_you_mean(
    value: str, allowed: "list[str] | tuple[str, ...]", limit: int = DID_YOU_MEAN_LIMIT
) -> list[str]:
    """Near misses of `value` among `allowed`, closest first (Levenshtein distance, at most a third
    of the length). Pass only the values this caller may read (its own tenants, say), never a global
    list: a suggestion drawn from everything leaks the existence of what the caller cannot see."""
    if not isinstance(value, str):
        return []
    budget = max(1, len(value) // 3)
    scored = []
    for index, candidate in enumerate(allowed):
        if not isinstance(candidate, str):
            continue
        distance = _levenshtein(value, candidate, budget)
        if distance <= budget and candidate != value:
            scored.append((distance, index, candidate))
    return [candidate for _, _, candidate in sorted(scored)[:limit]]


def _levenshtein(a: str, b: str, budget: int) -> int:
    if abs(len(a) - len(b)) > budget:
        return budget + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]
