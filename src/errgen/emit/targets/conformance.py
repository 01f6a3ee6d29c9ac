"""conformance/vectors.json: inputs (payloads, HTTP responses, MCP results) and what every SDK must
make of them, in the format docs/conformance.md specifies.

Expectations are computed here from the contract view, never by running generated code: each HTTP
or MCP case states the raw payload its input must yield (by construction), and `expected` applies
the documented verdicts and decision to it. The strict problems come from
`errgen.payload_checks`, so `errgen validate` and every SDK are held to one verdict.
"""

from __future__ import annotations

import calendar
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from errgen import manual
from errgen.contract import TRANSPORT_FAILURES, ContractView, CodeRow, view
from errgen.emit.targets import _response_vectors as _responses, _writing_vectors as _writing
from errgen.emit.targets._payloads import HINT_VALUES, newer_code, payload_for, unknown_payload, value_of  # noqa: F401
from errgen.registry.model import Registry
from errgen.emit.render import to_json
from errgen.emit.targets._decisions import expected, status_decision, transport_decision
from errgen.envelope import envelope_depth, enveloped, enveloped_text

NAME = "conformance"
SUMMARY = ("conformance/vectors.json, responses.json and writing.json: inputs and the verdicts, decision and written "
           "output each must produce, for every SDK")



def utc_ms(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> int:
    return calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)) * 1000


# The clock of the HTTP-date cases: Wed, 21 Oct 2026 07:28:00 GMT.
NOW_MS = utc_ms(2026, 10, 21, 7, 28)


@dataclass
class Case:
    """One vector: its input, and the raw payload that input must yield (what `expected` judges)."""

    name: str
    input: dict[str, Any]
    raw: Any
    attempt: int | None = None
    max_attempts: int | None = None
    max_delay_ms: int | None = None
    now_ms: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    head = {
        # The command, never the `docs-url` setting: output depends on the registry alone.
        "$comment": f"{contract.header} The format and every rule: {manual.command('conformance')}.",
        "registry": contract.name,
        "policy": policy(contract),
    }
    header = to_json(head, indent=2)[:-2]  # without the closing "\n}"
    # One vector per line: readable in a diff, and written by json's C encoder (indent= is pure
    # Python, and was most of a large registry's build). Joined once: no copy of the whole text.
    lines = ["    " + to_json(vector(contract, case)) for case in cases(contract)]
    responses = {_responses.PATH: _responses.render(contract, head, expected, to_json),
                 _writing.PATH: _writing.render(contract, head, expected, to_json)}
    if not lines:
        return {"conformance/vectors.json": f'{header},\n  "vectors": []\n}}\n', **responses}
    lines[0] = f'{header},\n  "vectors": [\n{lines[0]}'
    lines[-1] += "\n  ]\n}\n"
    return {"conformance/vectors.json": ",\n".join(lines), **responses}


def policy(contract: ContractView) -> dict[str, Any]:
    p = contract.policy
    return {
        "default_max_attempts": p.default_max_attempts, "default_max_delay_ms": p.default_max_delay_ms,
        "backoff_base_ms": p.backoff_base_ms, "backoff_max_ms": p.backoff_max_ms, "backoff_max_exponent": p.backoff_max_exponent,
        "max_delay_value_ms": p.max_delay_value_ms, "max_json_depth": p.max_json_depth, "max_suggestions": p.max_suggestions,
    }


def vector(contract: ContractView, case: Case) -> dict[str, Any]:
    p = contract.policy
    attempt = 1 if case.attempt is None else case.attempt
    max_attempts = p.default_max_attempts if case.max_attempts is None else case.max_attempts
    max_delay = p.default_max_delay_ms if case.max_delay_ms is None else case.max_delay_ms
    out: dict[str, Any] = {"name": case.name, "input": case.input, "attempt": attempt, "max_attempts": max_attempts,
                           "max_delay_ms": max_delay}
    if case.now_ms is not None:
        out["now_ms"] = case.now_ms
    if "transport" in case.input:
        failure = case.input["transport"]
        out["expected"] = {"decision": transport_decision(contract, failure["failure"], failure["idempotent"], attempt,
                                                          max_attempts, max_delay)}
        return out
    out["expected"] = expected(contract, case.raw, attempt, max_attempts, max_delay)
    if "http" in case.input:
        given = case.input["http"]
        document = _responses._json_document(given["body"], contract.policy.max_json_depth)
        if not _responses.claimed(contract, given["status"], given["headers"], given["body"]):
            correlation = _responses.reference_code(contract.response["correlation_id"], given["status"], given["headers"], document)
            out["expected"]["decision"] = status_decision(contract, given["status"], correlation, None, attempt,
                                                          max_attempts, max_delay)
        elif out["expected"]["decision"]["code"] is not None:
            # The code as the API sent it (SPEC P: UPSTREAM_9, which the prefix UPSTREAM_ matched).
            read = _responses.reference_code(contract.response["code"], given["status"], given["headers"], document,
                                             _responses.known_codes(contract))
            out["expected"]["decision"]["wire_code"] = read if read is not None else out["expected"]["decision"]["wire_code"]
    return out


# ---- the cases --------------------------------------------------------------------------------------

def cases(contract: ContractView) -> Iterator[Case]:
    """Every case, made as it is written (a large registry has tens of thousands)."""
    if not contract.codes or not contract.categories:
        return  # the generic vectors are built around a known code and category
    names: set[str] = set()
    for case in _all_cases(contract):
        assert case.name not in names, f"vector names must be unique: {case.name}"
        names.add(case.name)
        yield case


def _all_cases(contract: ContractView) -> Iterator[Case]:
    yield from article_examples(contract)
    # Every code on every scope: that checks each SDK's table row by row. Each variant (timing,
    # contradictions) runs once per value of the facts its outcome depends on, so the file grows
    # with the codes, not with the codes times their distinct combinations of facts.
    seen: set[tuple[object, ...]] = set()

    def first(*key: object) -> bool:
        new = key not in seen
        seen.add(key)
        return new

    for row in contract.codes:
        yield from code_cases(contract, row, first)
    for more in (unknown_codes, invalid_payloads, timing, http_cases, transport_cases, mcp_cases):
        yield from (case for case in more(contract) if "http" not in case.input
                    or _responses.generic_http_case_holds(contract, case.input["http"], case.raw)
                    and not _fallback_with_delay(contract, case.input["http"]))


def _fallback_with_delay(contract: ContractView, given: dict[str, Any]) -> bool:
    """An errgen-shaped HTTP case this registry does not read as a payload (an API's own shape),
    with delay headers: its delay is pinned by responses.json's cases of that API, not here."""
    names = {e["at"]["name"] for e in (*contract.response["retry_after"], *contract.response["own_retry_after"])
             if e["at"]["in"] == "header"}
    return (any(name.lower() in names for name, _ in given["headers"])
            and not _responses.claimed(contract, given["status"], given["headers"], given["body"]))


def payload_case(name: str, raw: Any, **options: Any) -> Case:
    return Case(name, {"payload": raw}, raw, **options)


def code_cases(contract: ContractView, row: CodeRow, first: Callable[..., bool]) -> Iterator[Case]:
    """The code on each of its scopes, and the variants `first` has not seen for these facts."""
    w = {f.name: f.wire for f in contract.fields}
    for scope in row.scopes:
        p = payload_for(contract, row, scope)
        yield payload_case(f"{row.code}/{scope}", p)
        action = row.actions[scope]
        if action in contract.exhausted and first("timing", action, row.retry_after_ms is None):
            yield payload_case(f"{row.code}/{scope}/last-attempt", p, attempt=contract.policy.default_max_attempts)
            yield payload_case(f"{row.code}/{scope}/attempt-3", p, attempt=3)
            yield payload_case(f"{row.code}/{scope}/payload-delay", {**p, w["retry_after_ms"]: 1234}, attempt=2)
            yield payload_case(f"{row.code}/{scope}/payload-delay-exceeds-max", {**p, w["retry_after_ms"]: 3_600_001})
            yield payload_case(f"{row.code}/{scope}/small-max-delay", p, max_delay_ms=1)
    base = payload_for(contract, row, row.scope, hints=False)
    other = next((c.name for c in contract.categories if c.name != row.category), None)
    if other and first("category", row.category):
        yield payload_case(f"{row.code}/contradiction/category", {**base, w["category"]: other})
    if first("retryable", row.retryable):
        yield payload_case(f"{row.code}/contradiction/retryable", {**base, w["retryable"]: not row.retryable})
    if first("scopes", row.scope, row.scopes):
        for scope in contract.scopes:
            if scope not in row.scopes:
                yield payload_case(f"{row.code}/contradiction/scope-{scope}", {**base, w["scope"]: scope, w["resource_id"]: "r-1"})
    if first("hints", row.hints):
        for hint in contract.hints:
            if hint not in row.hints:
                yield payload_case(f"{row.code}/contradiction/hint-{hint}", {**base, w[hint]: value_of(contract, hint)})
    if not row.retryable and first("delay-on-final", row.scope):
        yield payload_case(f"{row.code}/delay-on-final", {**base, w["retry_after_ms"]: 100})


def unknown_codes(contract: ContractView) -> Iterator[Case]:
    for retryable in (True, False):
        for scope in contract.scopes:
            kind = "retryable" if retryable else "final"
            yield payload_case(f"unknown-code/{scope}/{kind}", unknown_payload(contract, retryable, scope), attempt=2)
    row = contract.codes[0]
    w = {f.name: f.wire for f in contract.fields}
    known_code = {**payload_for(contract, row, row.scope, hints=False), w["category"]: "category_from_a_newer_server"}
    yield payload_case("unknown-category/known-code", known_code)
    yield payload_case("unknown-category/retryable", {**unknown_payload(contract, True, "request", retry_after_ms=750),
                                                      w["category"]: "category_from_a_newer_server"})
    yield payload_case("unknown-code/last-attempt", unknown_payload(contract, True, "service", did_you_mean=["x"]),
                       attempt=contract.policy.default_max_attempts)
    yield payload_case("unknown-code/delay-on-final", unknown_payload(contract, False, "request", retry_after_ms=100))
    yield payload_case("unknown-code/hints-carried", unknown_payload(contract, False, "request", **{h: value_of(contract, h) for h in contract.hints}))
    yield payload_case("unknown-code/constructor", {**unknown_payload(contract, True, "request"), w["code"]: "constructor"})
    yield payload_case("unknown-code/proto", {**unknown_payload(contract, True, "request"), w["code"]: "__proto__"})


def invalid_payloads(contract: ContractView) -> Iterator[Case]:
    row = contract.codes[0]
    w = {f.name: f.wire for f in contract.fields}
    base = payload_for(contract, row, row.scope, hints=False)
    for name, value in (("array", []), ("string", "RATE_LIMITED"), ("null", None), ("number", 5), ("boolean", True),
                        ("nested-array", [base])):
        yield payload_case(f"invalid/not-an-object/{name}", value)
    yield payload_case("invalid/empty-object", {})
    for spec in contract.fields:
        if spec.required:
            yield payload_case(f"invalid/missing-{spec.name}", {k: v for k, v in base.items() if k != spec.wire})
    bad: list[tuple[str, str, Any]] = [
        ("retryable", "string", "yes"), ("retryable", "number", 1), ("retryable", "null", None),
        ("scope", "unknown", "galaxy"), ("scope", "object", {}), ("scope", "array", ["request"]), ("scope", "null", None),
        ("scope", "upper-case", "REQUEST"), ("correlation_id", "number", 42), ("code", "number", 7), ("code", "null", None),
        ("category", "null", None), ("category", "object", {}), ("message", "null", None), ("resource_id", "number", 7),
        ("state", "unknown", "maybe"), ("safe_to_replay", "string", "yes"), ("did_you_mean", "string", "www"),
        ("did_you_mean", "numbers", [1]), ("did_you_mean", "eleven", [f"s{i}" for i in range(11)]),
        ("accepted", "object", {"eq": True}), ("searched", "nested", {"a": {"b": 1}}), ("searched", "null-value", {"a": None}),
        ("searched", "array", ["a"]),
    ]
    for key, label, value in bad:
        yield payload_case(f"invalid/{key}/{label}", {**base, w[key]: value})
    delays: list[tuple[str, Any]] = [("negative", -1), ("fraction", 1.5), ("string", "5"), ("boolean", True), ("null", None),
                                     ("two-to-the-53", 2**53), ("1e300", 1e300), ("huge-integer", 10**30), ("fraction-large", 12345.5)]
    retryable = next((r for r in contract.codes if r.retryable), None)
    timed = payload_for(contract, retryable, retryable.scope, hints=False) if retryable else unknown_payload(contract, True, "request")
    for label, value in delays:
        yield payload_case(f"invalid/retry_after_ms/{label}", {**timed, w["retry_after_ms"]: value})
    yield payload_case("valid/retry_after_ms/largest", {**timed, w["retry_after_ms"]: 2**53 - 1}, max_delay_ms=2**53 - 1)
    yield payload_case("valid/retry_after_ms/integral-float", {**timed, w["retry_after_ms"]: 2000.0})
    yield payload_case("valid/retry_after_ms/zero", {**timed, w["retry_after_ms"]: 0})
    yield payload_case("invalid/extra-field", {**base, "stack_trace": "Traceback (most recent call last): ..."})
    yield payload_case("invalid/proto-field", {**base, "__proto__": {"x": 1}})
    resource = {**base, w["scope"]: "resource"}
    resource.pop(w["resource_id"], None)
    yield payload_case("invalid/resource-without-id", resource)
    yield payload_case("invalid/several-problems", {w["code"]: 5, w["scope"]: "resource", "extra": 1})
    hinted = next((r for r in contract.codes if {"did_you_mean", "searched"} <= set(r.hints)), None)
    if hinted:
        ok = payload_for(contract, hinted, hinted.scope, hints=False)
        yield payload_case("valid/did_you_mean/ten", {**ok, w["did_you_mean"]: [f"s{i}" for i in range(10)]})
        yield payload_case("valid/searched/empty", {**ok, w["searched"]: {}})
        yield payload_case("valid/searched/scalars", {**ok, w["searched"]: {"a": "x", "b": 2.5, "c": False, "d": -1}})


def timing(contract: ContractView) -> Iterator[Case]:
    """The backoff (no delay in payload or registry), attempt limits, and the delay bound."""
    p = unknown_payload(contract, True, "request")
    for attempt in (1, 2, 3, 4, 0, -3):
        yield payload_case(f"backoff/attempt-{attempt}", p, attempt=attempt, max_attempts=100)
    for attempt in (7, 31, 40, 10_000):
        yield payload_case(f"backoff/capped/attempt-{attempt}", p, attempt=attempt, max_attempts=100_000)
    yield payload_case("attempts/max-1", p, attempt=1, max_attempts=1)
    yield payload_case("attempts/max-0", p, attempt=1, max_attempts=0)
    yield payload_case("attempts/past-the-limit", p, attempt=9, max_attempts=5)
    service = unknown_payload(contract, True, "service")
    yield payload_case("attempts/pause-exhausted", service, attempt=5, max_attempts=5)
    yield payload_case("max-delay/backoff-above", p, attempt=3, max_delay_ms=1999)
    yield payload_case("max-delay/backoff-equal", p, attempt=3, max_delay_ms=2000)
    yield payload_case("max-delay/payload-above", unknown_payload(contract, True, "request", retry_after_ms=3_600_001))
    yield payload_case("max-delay/payload-equal", unknown_payload(contract, True, "request", retry_after_ms=3_600_000))
    yield payload_case("max-delay/zero", unknown_payload(contract, True, "service", retry_after_ms=1), max_delay_ms=0)


# ---- HTTP and MCP inputs --------------------------------------------------------------------------------

def http(status: int, body: str, headers: list[list[str]] | None = None) -> dict[str, Any]:
    return {"http": {"status": status, "headers": headers or [], "body": body}}


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def http_cases(contract: ContractView) -> Iterator[Case]:
    w = {f.name: f.wire for f in contract.fields}
    env = contract.envelope
    array = contract.envelope_array
    retryable = next((r for r in contract.codes if r.retryable and "request" in r.scopes), None)
    bare = payload_for(contract, retryable, "request", hints=False) if retryable else unknown_payload(contract, True, "request")
    final_row = next((r for r in contract.codes if not r.retryable), None)
    final = payload_for(contract, final_row, final_row.scope, hints=False) if final_row else unknown_payload(contract, False, "request")

    def body(payload: Any) -> str:
        return compact(enveloped(contract, payload))

    def with_delay(ms: int) -> dict[str, Any]:
        return {**bare, w["retry_after_ms"]: ms}

    yield Case("http/plain-json", http(429, body(bare), [["Content-Type", "application/json"]]), bare)
    yield Case("http/final", http(400, body(final)), final)
    problem = {"type": contract.policy.problem_base + str(bare[w["code"]]), "title": "Too many", "status": 429,
               "detail": "Slow down.", "instance": "/req/1", **bare}
    yield Case("http/problem-json/detail", http(429, body(problem), [["Content-Type", "application/problem+json"]]),
               {**bare, w["message"]: "Slow down."})
    yield Case("http/problem-json/message-kept", http(429, body({**problem, w["message"]: "Own."})), {**bare, w["message"]: "Own."})
    no_code = {k: v for k, v in problem.items() if k != w["code"]}
    # No entry of an array envelope holds every required field: the array is read as it is.
    read = [no_code] if array else {k: v for k, v in bare.items() if k != w["code"]}
    yield Case("http/problem-json/no-code", http(429, body(no_code)), read)
    headers: list[tuple[str, list[list[str]], int | None]] = [
        ("retry-after-ms", [["retry-after-ms", "250"], ["Retry-After", "9"]], 250),
        ("retry-after-ms/case", [["Retry-After-Ms", "250"]], 250),
        ("retry-after-ms/spaces", [["retry-after-ms", "  250\t"]], 250),
        ("retry-after-ms/invalid-then-seconds", [["retry-after-ms", "2.5"], ["Retry-After", "4"]], 4000),
        ("retry-after-ms/zero", [["retry-after-ms", "0"]], 0),
        ("seconds", [["Retry-After", "3"]], 3000),
        ("seconds/decimal", [["Retry-After", "1.5"]], 1500),
        ("seconds/decimal-rounds-up", [["Retry-After", "2.1281"]], 2129),
        ("seconds/decimal-nanoseconds", [["Retry-After", "0.000000001"]], 1),
        ("seconds/decimal-saturates", [["Retry-After", "9007199254741.5"]], contract.policy.max_delay_value_ms),
        ("seconds/upper-case-name", [["RETRY-AFTER", "3"]], 3000),
        ("seconds/spaces", [["Retry-After", " 7 "]], 7000),
        ("seconds/leading-zeros", [["Retry-After", "007"]], 7000),
        ("seconds/repeated-name-first-wins", [["Retry-After", "4"], ["retry-after", "9"]], 4000),
        ("seconds/largest-exact", [["Retry-After", "9007199254740"]], 9_007_199_254_740_000),
        ("seconds/saturates", [["Retry-After", "9007199254741"]], contract.policy.max_delay_value_ms),
        ("seconds/5000-digits", [["Retry-After", "9" * 5000]], contract.policy.max_delay_value_ms),
        ("retry-after-ms/5000-digits", [["retry-after-ms", "1" + "0" * 4999]], contract.policy.max_delay_value_ms),
        ("retry-after-ms/saturates", [["retry-after-ms", "9007199254740992"]], contract.policy.max_delay_value_ms),
        ("date", [["Retry-After", "Wed, 21 Oct 2026 07:28:05 GMT"]], 5000),
        ("date/past", [["Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT"]], 0),
        ("date/now", [["Retry-After", "Wed, 21 Oct 2026 07:28:00 GMT"]], 0),
        ("date/leap-day", [["Retry-After", "Tue, 29 Feb 2028 00:00:00 GMT"]], utc_ms(2028, 2, 29) - NOW_MS),
        ("date/year-9999", [["Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT"]], utc_ms(9999, 12, 31, 23, 59, 59) - NOW_MS),
        ("date/year-0000", [["Retry-After", "Sat, 01 Jan 0000 00:00:00 GMT"]], 0),
        ("date/leap-second", [["Retry-After", "Wed, 21 Oct 2026 07:28:60 GMT"]], 60_000),
        ("date/day-name-not-checked", [["Retry-After", "Mon, 21 Oct 2026 07:28:10 GMT"]], 10_000),
    ]
    ignored: list[tuple[str, str]] = [
        ("negative", "-1"), ("fraction-ten-digits", "1.0000000001"), ("fraction-no-digits", "1."),
        ("fraction-no-whole", ".5"), ("fraction-comma", "1,5"), ("plus-sign", "+5"), ("iso-date", "2099-01-01"), ("superscript-two", "²"),
        ("arabic-indic-digits", "٣"), ("fullwidth-digits", "３"), ("inner-space", "1 0"), ("hex", "0x10"), ("exponent", "1e3"),
        ("empty", ""), ("unit", "5s"), ("rfc-850", "Sunday, 06-Nov-94 08:49:37 GMT"), ("asctime", "Sun Nov  6 08:49:37 1994"),
        ("lower-case-gmt", "Wed, 21 Oct 2026 07:28:05 gmt"), ("utc-zone", "Wed, 21 Oct 2026 07:28:05 UTC"),
        ("numeric-zone", "Wed, 21 Oct 2026 07:28:05 +0000"), ("double-space", "Wed,  21 Oct 2026 07:28:05 GMT"),
        ("no-day-name", "21 Oct 2026 07:28:05 GMT"), ("one-digit-day", "Wed, 1 Oct 2026 07:28:05 GMT"),
        ("february-30", "Mon, 30 Feb 2026 07:28:05 GMT"), ("hour-24", "Wed, 21 Oct 2026 24:00:00 GMT"),
        ("second-61", "Wed, 21 Oct 2026 07:28:61 GMT"), ("minute-60", "Wed, 21 Oct 2026 07:60:00 GMT"), ("month-case", "Wed, 21 OCT 2026 07:28:05 GMT"),
        ("two-digit-year", "Wed, 21 Oct 26 07:28:05 GMT"), ("trailing-text", "Wed, 21 Oct 2026 07:28:05 GMT x"),
    ]
    for label, value in ignored:
        headers.append((f"ignored/{label}", [["Retry-After", value]], None))
    for label, pairs, delay in headers:
        raw = with_delay(delay) if delay is not None else bare
        # Dates far ahead show their exact delay under the largest bound.
        bound = contract.policy.max_delay_value_ms if label.startswith(("date", "seconds/", "retry-after-ms/")) else None
        yield Case(f"http/header/{label}", http(429, body(bare), pairs), raw, now_ms=NOW_MS, max_delay_ms=bound)
    yield Case("http/header/date/year-9999/default-bound", http(429, body(bare), [["Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT"]]),
               with_delay(utc_ms(9999, 12, 31, 23, 59, 59) - NOW_MS), now_ms=NOW_MS)
    yield Case("http/header/saturated/default-bound", http(429, body(bare), [["Retry-After", "9" * 40]]),
               with_delay(contract.policy.max_delay_value_ms))
    yield Case("http/header/retry-after-ms/5000-zeros", http(429, body(bare), [["retry-after-ms", "0" * 5000]]), with_delay(0))
    yield Case("http/header/default-clock", http(429, body(bare), [["Retry-After", "Thu, 01 Jan 1970 00:00:02 GMT"]]), with_delay(2000))
    yield Case("http/header/body-delay-wins", http(429, body(with_delay(1500)), [["Retry-After", "9"]]), with_delay(1500))
    yield Case("http/header/not-retryable", http(400, body(final), [["Retry-After", "9"]]), final)
    not_true = {**bare, w["retryable"]: "true"}
    yield Case("http/header/retryable-not-boolean", http(429, body(not_true), [["Retry-After", "9"]]), not_true)
    yield Case("http/header/exceeds-max", http(429, body(bare), [["Retry-After", "3601"]]), with_delay(3_601_000))
    text = body(bare)

    def with_member(member: str) -> str:
        """The payload's JSON text with one more member written as raw text, enveloped if need be."""
        return enveloped_text(contract, compact(bare)[:-1] + "," + member + "}")

    delay_key = compact(w["retry_after_ms"])
    limit = contract.policy.max_json_depth
    not_json: list[tuple[str, str]] = [
        ("html", "<html><body>Bad Gateway</body></html>"), ("empty", ""), ("trailing-garbage", text + " x"),
        ("two-values", text + text), ("array-without-comma", "[1 2]"), ("1000-brackets", "[" * 1000),
        ("1000-closed-brackets", "[" * 1000 + "]" * 1000), ("nan", with_member(delay_key + ":NaN")),
        ("infinity", "Infinity"), ("single-quotes", "{'code': 'X'}"), ("truncated", text[:-1]),
        ("too-deep", with_member('"extra":' + "[" * limit + "]" * limit)),
    ]
    for label, value in not_json:
        yield Case(f"http/not-json/{label}", http(502, value), value)
    depth = limit - 1 - envelope_depth(contract)  # the arrays that fit below the payload object (and envelope)
    deep = with_member('"extra":' + "[" * depth + "]" * depth)
    yield Case("http/deepest-allowed", http(502, deep), bare)  # read, and the extra member dropped
    api_members = with_member('"param":"amount","ok":false,"doc_url":"https://example.com/x"')
    yield Case("http/api-members-dropped", http(402, api_members), bare)
    for label, value in (("string", '"busy"'), ("number", "5"), ("null", "null"), ("array", "[]"), ("true", "true")):
        yield Case(f"http/not-an-object/{label}", http(503, value), json.loads(value))
    yield Case("http/whitespace-around", http(429, " \n\t" + text + "\r\n "), bare)
    huge = with_member(delay_key + ":1e400")
    yield Case("http/retry_after_ms/1e400", http(429, huge), {**bare, w["retry_after_ms"]: float("inf")})
    digits = with_member(delay_key + ":" + "9" * 5000)
    yield Case("http/retry_after_ms/5000-digits", http(429, digits), {**bare, w["retry_after_ms"]: 10**5000 - 1})
    if env:
        yield Case("http/envelope/missing", http(429, compact(bare)), bare)
    if array:
        yield from array_envelope(contract, final)
    yield from lone_surrogates(contract, bare, body)
    yield from prefixed(contract, body)


def array_envelope(contract: ContractView, final: dict[str, Any]) -> Iterator[Case]:
    """`envelope: "errors[*]"` (docs/conformance.md, "Reading an HTTP response"): the payload is the
    array's first entry holding every required field; when none does, the array is read by the
    registry's sources like any API's errors."""
    w = {f.name: f.wire for f in contract.fields}
    env = contract.envelope
    assert env is not None
    other = {w["code"]: "X", w["message"]: "m"}
    # An API's own entry first: the payload after it is read, and its known code is the one sent.
    yield Case("http/envelope-array/second-entry", http(400, compact({env: [other, final]})), final)
    yield Case("http/envelope-array/object", http(400, compact({env: final})), final)
    empty: dict[str, Any] = {env: []}
    yield Case("http/envelope-array/empty", http(429, compact(empty)), _responses.unread(contract, empty))
    row = next(iter(_responses.plain_rows(contract)), None)
    if row is not None:
        sent = _responses.Response(row.http_status)
        sent.document = {env: [{w["code"]: row.wire_code, w["message"]: "m"}]}
        reading = _responses.read_case(contract, "http/envelope-array/no-payload-known-code", sent, row.wire_code,
                                       registry_code=row.code, message="m")
        if reading is not None and reading.raw is not None:
            yield Case(reading.name, http(reading.status, reading.body, reading.headers), reading.raw)


def prefixed(contract: ContractView, body: Callable[[Any], str]) -> Iterator[Case]:
    """errgen's own payload whose code only a `wire_prefix` matches: read as the registry code the
    prefix chooses among the codes that fit its category and scope (a code with `when` is left to
    responses.json, whose cases make its conditions hold)."""
    w = {f.name: f.wire for f in contract.fields}
    for prefix, options in contract.response["prefixes"]:
        sent = _responses.prefixed_code(contract, prefix)
        for code in (name for name, conditions in options if not conditions and sent is not None):
            row = contract.code_map[code]
            payload = payload_for(contract, row, row.scope, hints=False)
            fits = [o for o in options if contract.code_map[o[0]].category == row.category and row.scope in contract.code_map[o[0]].scopes]
            status = _responses.Response(row.http_status)
            chosen = next(name for name, conds in fits if all(_responses._holds(c, status) for c in conds))
            yield Case(f"http/prefix/{code}", http(row.http_status, body({**payload, w["code"]: sent})), {**payload, w["code"]: chosen})


def lone_surrogates(contract: ContractView, bare: dict[str, Any], body: Callable[[Any], str]) -> Iterator[Case]:
    """A message and a correlation id written with JSON escapes of half a surrogate pair: read as
    U+FFFD in every SDK (a whole pair is its one character), in an HTTP body and an MCP text."""
    w = {f.name: f.wire for f in contract.fields}
    for label, escaped, read in _responses.LONE_SURROGATES:
        marked = body({**bare, w["message"]: "@m", w["correlation_id"]: "c-@"})
        text = marked.replace('"@m"', f'"{escaped}"').replace('"c-@"', f'"c-{escaped}"')
        raw = {**bare, w["message"]: read, w["correlation_id"]: f"c-{read}"}
        yield Case(f"http/lone-surrogate/{label}", http(429, text), raw)
        mcp_text = compact(raw).replace(compact(read), f'"{escaped}"').replace(compact(f"c-{read}"), f'"c-{escaped}"')
        yield Case(f"mcp/lone-surrogate/{label}", {"mcp": {"content": [{"type": "text", "text": mcp_text}]}}, raw)


def transport_cases(contract: ContractView) -> Iterator[Case]:
    """No response: each failure, sent twice or not, and the timing rule on a retried one."""
    for failure in (*TRANSPORT_FAILURES, "something-else"):
        for idempotent in (True, False):
            label = "idempotent" if idempotent else "not-idempotent"
            yield Case(f"transport/{failure}/{label}", {"transport": {"failure": failure, "idempotent": idempotent}}, None)
    reset = {"transport": {"failure": "reset", "idempotent": True}}
    yield Case("transport/reset/attempt-3", reset, None, attempt=3)
    yield Case("transport/reset/last-attempt", reset, None, attempt=contract.policy.default_max_attempts)
    yield Case("transport/refused/small-max-delay", {"transport": {"failure": "refused", "idempotent": False}}, None,
               max_delay_ms=1)


def mcp_cases(contract: ContractView) -> Iterator[Case]:
    row = contract.codes[0]
    p = payload_for(contract, row, row.scope)
    text = compact(p)

    def item(value: str) -> dict[str, Any]:
        return {"type": "text", "text": value}

    yield Case("mcp/structured-content", {"mcp": {"content": [item(text)], "structuredContent": p, "isError": True}}, p)
    yield Case("mcp/structured-wins-over-text", {"mcp": {"content": [item('{"code": 1}')], "structuredContent": p}}, p)
    yield Case("mcp/text-only", {"mcp": {"content": [item(text)], "isError": True}}, p)
    yield Case("mcp/structured-not-object", {"mcp": {"content": [item(text)], "structuredContent": [p]}}, p)
    yield Case("mcp/first-text-item", {"mcp": {"content": [{"type": "image", "data": "AA=="}, item(text), item("[]")]}}, p)
    yield Case("mcp/text-not-json", {"mcp": {"content": [item("Bad Gateway"), item(text)]}}, None)
    yield Case("mcp/text-array", {"mcp": {"content": [item("[1]")]}}, [1])
    yield Case("mcp/text-too-deep", {"mcp": {"content": [item("[" * 1000 + "]" * 1000)]}}, None)
    yield Case("mcp/text-trailing-garbage", {"mcp": {"content": [item(text + "}")]}}, None)
    no_payload: list[tuple[str, Any]] = [("content-true", {"content": True}), ("content-5", {"content": 5}), ("content-object", {"content": {"type": "text", "text": text}}),
                         ("text-5", {"content": [{"type": "text", "text": 5}]}), ("text-null", {"content": [{"type": "text", "text": None}]}),
                         ("item-not-object", {"content": [text]}), ("no-type", {"content": [{"text": text}]}), ("empty", {}),
                         ("structured-null", {"structuredContent": None})]
    for label, value in no_payload:
        yield Case(f"mcp/no-payload/{label}", {"mcp": value}, None)
    not_objects: list[tuple[str, Any]] = [("null", None), ("array", [p]), ("string", text), ("number", 5)]
    for label, value in not_objects:
        yield Case(f"mcp/not-an-object/{label}", {"mcp": value}, None)


def article_examples(contract: ContractView) -> Iterator[Case]:
    """Article 000's worked examples, when the registry has those codes."""
    codes = contract.code_map
    w = {f.name: f.wire for f in contract.fields}
    if "VALIDATION_FAILED" in codes and "resource" in codes["VALIDATION_FAILED"].scopes:
        c = codes["VALIDATION_FAILED"]
        p = {w["code"]: c.code, w["category"]: c.category, w["retryable"]: c.retryable, w["scope"]: "resource",
             w["resource_id"]: "contact_4127", w["correlation_id"]: "c-88a1"}
        yield payload_case("article-000/validation-failed", p)
    if "RATE_LIMITED" in codes and "service" in codes["RATE_LIMITED"].scopes:
        c = codes["RATE_LIMITED"]
        p = {w["code"]: c.code, w["category"]: c.category, w["retryable"]: c.retryable, w["retry_after_ms"]: 2000,
             w["scope"]: "service", w["correlation_id"]: "c-88b2"}
        yield payload_case("article-000/rate-limited", p)
