"""conformance/writing.json: the writing half of every SDK (`new_error`, `to_http`, `to_mcp_result`,
`did_you_mean`) and jitter with an injected draw (docs/conformance.md, "The writing vectors").

Expectations are what the Python SDK does, computed here from the contract view (as vectors.json's
are): the payload `new_error` builds, the response `to_http` writes (status, headers, body; the API's
own shape: variants and header-carried code and correlation id), the MCP result, the suggestions,
and the decision under a given draw. Every runner, the Python one included, is checked against it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from errgen.contract import CodeRow, ContractView
from errgen.envelope import enveloped, inner
from errgen.wire import ANY

PATH = "conformance/writing.json"

# A message no SDK may mangle: quotes, a backslash, U+2028, a bidi control, an astral character.
HOSTILE = 'Line "one"\\ \u2028two \u202eevil <b>&amp; \U0001f600'


def render(contract: ContractView, vector_head: dict[str, Any], expected: Callable[..., dict[str, Any]],
           to_json: Callable[..., str]) -> str:
    """The file, one vector a line. `expected` is conformance.py's verdicts and decision of a raw payload."""
    lines = ["    " + to_json(v) for v in vectors(contract, expected)]
    head = to_json(vector_head, indent=2)[:-2]
    if not lines:
        return f'{head},\n  "vectors": []\n}}\n'
    return f'{head},\n  "vectors": [\n' + ",\n".join(lines) + "\n  ]\n}\n"


def vectors(contract: ContractView, expected: Callable[..., dict[str, Any]]) -> Iterator[dict[str, Any]]:
    if contract.codes and contract.categories:
        yield from new_error_vectors(contract)
        yield from field_vectors(contract)
        yield from to_http_vectors(contract)
        yield from jitter_vectors(contract, expected)
    yield from did_you_mean_vectors()


# ---- new_error, to_http, to_mcp_result ----------------------------------------------------------------

def _w(contract: ContractView) -> dict[str, str]:
    return {f.name: f.wire for f in contract.fields}


def built(contract: ContractView, row: CodeRow, correlation_id: str, scope: str | None, fields: dict[str, Any]) -> dict[str, Any] | None:
    """The wire payload `new_error` returns, or None when it must refuse (the strict verdict)."""
    from errgen.payload_checks import problem_ids

    w = _w(contract)
    payload: dict[str, Any] = {w["code"]: row.code, w["category"]: row.category, w["retryable"]: row.retryable,
                               w["scope"]: scope if scope is not None else row.scope, w["correlation_id"]: correlation_id}
    payload.update({w[name]: value for name, value in fields.items()})
    return None if problem_ids(contract, payload) else payload


def written(contract: ContractView, payload: dict[str, Any]) -> dict[str, Any]:
    """What the writing functions make of a payload: both HTTP forms and the MCP result."""
    return {"http": http(contract, payload, False), "http_problem": http(contract, payload, True), "mcp": mcp(payload)}


def new_error_case(contract: ContractView, name: str, code: str, scope: str | None, fields: dict[str, Any],
                   correlation_id: str = "c-1") -> dict[str, Any]:
    given: dict[str, Any] = {"code": code, "correlation_id": correlation_id}
    if scope is not None:
        given["scope"] = scope
    given["fields"] = fields
    row = contract.code_map.get(code)
    payload = built(contract, row, correlation_id, scope, fields) if row is not None else None
    out = written(contract, payload) if payload is not None else {"http": None, "http_problem": None, "mcp": None}
    return {"name": name, "input": {"new_error": given}, "expected": {"payload": payload, **out}}


def hint_fields(contract: ContractView, row: CodeRow) -> dict[str, Any]:
    from errgen.emit.targets._payloads import value_of

    return {h: value_of(contract, h) for h in row.hints}


def new_error_vectors(contract: ContractView) -> Iterator[dict[str, Any]]:
    """Every code once on its default scope with every hint it allows (its table row, its status,
    its API shape); then the delays, each other scope once, hostile text, and what must be refused."""
    for row in contract.codes:
        fields: dict[str, Any] = {"message": f"m-{row.code}", **hint_fields(contract, row)}
        if row.scope == "resource":
            fields = {"resource_id": "item_4127", **fields}
        yield new_error_case(contract, f"new_error/{row.code}", row.code, None, fields, f"c-{row.code}")
    first = contract.codes[0]
    for scope in first.scopes:
        if scope != first.scope:
            extra = {"resource_id": "r-1"} if scope == "resource" else {}
            yield new_error_case(contract, f"new_error/scope-{scope}", first.code, scope, extra)
    retryable = next((r for r in contract.codes if r.retryable), None)
    if retryable is not None:
        base = {"resource_id": "r-1"} if retryable.scope == "resource" else {}
        for label, ms in (("1500", 1500), ("2001-rounds-up", 2001), ("zero", 0), ("999", 999)):
            yield new_error_case(contract, f"new_error/retry-after-{label}", retryable.code, None, {**base, "retry_after_ms": ms})
    base = {"resource_id": "r-1"} if first.scope == "resource" else {}
    yield new_error_case(contract, "new_error/hostile-text", first.code, None, {**base, "message": HOSTILE}, correlation_id=HOSTILE)
    # Header injection: a value a header would carry (correlation id, message, code in an API's
    # own shape) is written to a header only when it is visible ASCII within the header limit.
    limit = contract.policy.max_header_chars
    for label, value in (("crlf", "c-1\r\nSet-Cookie: session=stolen"), ("lf", "c-1\nX-Injected: 1"), ("nul", "c-1\u0000x"),
                         ("tab", "c-1\tx"), ("del", "c-1\u007fx"), ("non-ascii", "c-\u00e9t\u00e9"), ("at-limit", "c" * limit),
                         ("over-limit", "c" * (limit + 1))):
        yield new_error_case(contract, f"new_error/header-value/{label}", first.code, None, {**base, "message": value},
                             correlation_id=value)
    yield from refused(contract)


def refused(contract: ContractView) -> Iterator[dict[str, Any]]:
    from errgen.emit.targets._payloads import newer_code, value_of

    first = contract.codes[0]
    yield new_error_case(contract, "new_error/refused/unknown-code", newer_code(contract), None, {})
    missing = next(((r, s) for r in contract.codes for s in contract.scopes if s not in r.scopes), None)
    if missing is not None:
        yield new_error_case(contract, "new_error/refused/scope-not-allowed", missing[0].code, missing[1], {"resource_id": "r-1"})
    hinted = next(((r, h) for r in contract.codes for h in contract.hints if h not in r.hints), None)
    if hinted is not None:
        row, hint = hinted
        extra = {"resource_id": "r-1"} if row.scope == "resource" else {}
        yield new_error_case(contract, f"new_error/refused/hint-{hint}", row.code, None, {**extra, hint: value_of(contract, hint)})
    final = next((r for r in contract.codes if not r.retryable), None)
    if final is not None:
        extra = {"resource_id": "r-1"} if final.scope == "resource" else {}
        yield new_error_case(contract, "new_error/refused/delay-on-final", final.code, None, {**extra, "retry_after_ms": 100})
    if "resource" in first.scopes:
        yield new_error_case(contract, "new_error/refused/resource-without-id", first.code, "resource", {})


def field_vectors(contract: ContractView) -> Iterator[dict[str, Any]]:
    """Every optional payload field through every reader and writer, taken from the view's fields
    (values by type), so a new field is in these vectors with no edit here: `new_error` with the
    field set on the first code that may carry it; then, for those codes and for an unknown code,
    a payload with every field it may carry through the tolerant parse and every writer."""
    from errgen.emit.targets._payloads import carrier, carriers, every_field, optional_fields, payload_for, sample_value, unknown_payload

    w, canonical = _w(contract), {f.wire: f.name for f in contract.fields}
    for spec in optional_fields(contract):
        row = carrier(contract, spec)
        if row is None:
            continue
        base = payload_for(contract, row, row.scope, hints=False)
        given = {canonical[k]: v for k, v in base.items() if not contract.field_map[canonical[k]].required}
        yield new_error_case(contract, f"new_error/field/{spec.name}", row.code, None, {**given, spec.name: sample_value(spec)},
                             base[w["correlation_id"]])
    full = [(row.code, every_field(contract, payload_for(contract, row, row.scope, hints=False))) for row in carriers(contract)]
    full.append(("unknown-code", every_field(contract, unknown_payload(contract, True, "request"))))
    for label, payload in full:
        yield {"name": f"parse/every-field/{label}", "input": {"parse": payload}, "expected": {"payload": payload}}
        yield {"name": f"to_http/every-field/{label}", "input": {"to_http": payload}, "expected": written(contract, payload)}


def to_http_vectors(contract: ContractView) -> Iterator[dict[str, Any]]:
    """A payload of a code this SDK does not know (a proxy passing on a newer server's error)."""
    from errgen.emit.targets._payloads import unknown_payload

    for label, payload in (("unknown-code/retryable", unknown_payload(contract, True, "request", retry_after_ms=2500)),
                           ("unknown-code/retryable-no-delay", unknown_payload(contract, True, "request")),
                           ("unknown-code/final", unknown_payload(contract, False, "request", message="gone"))):
        yield {"name": f"to_http/{label}", "input": {"to_http": payload}, "expected": written(contract, payload)}


def http(contract: ContractView, payload: dict[str, Any], problem: bool) -> dict[str, Any]:
    """`to_http` as docs/conformance.md ("Writing", "Writing in the API's own shape") says; headers
    by lower-case name, sorted; a JSON body parsed, an XML body as its text."""
    w = _w(contract)
    row = contract.code_map.get(payload[w["code"]])
    status = row.http_status if row is not None else 500
    headers = {"content-type": "application/problem+json" if problem else "application/json",
               "x-should-retry": "true" if payload[w["retryable"]] is True else "false"}
    delay = payload.get(w["retry_after_ms"])
    if delay is None and row is not None and payload[w["retryable"]] is True:
        delay = row.retry_after_ms
    if delay is not None:
        headers["retry-after"] = str(-(-delay // 1000))
        headers["retry-after-ms"] = str(delay)
    body: dict[str, Any] = enveloped(contract, dict(payload))
    if problem:
        code, message = payload[w["code"]], payload.get(w["message"])
        members: dict[str, Any] = {"type": row.type_uri if row is not None else contract.policy.problem_base + code,
                                   "title": row.description if row is not None else code, "status": status}
        if isinstance(message, str):
            members["detail"] = message
        body = {**members, **body}
    shaped = api_shape(contract, payload, body, headers)
    if contract.response["format"] == "xml":
        headers["content-type"] = "application/xml"
        shaped = to_xml(shaped)
    return {"status": status, "headers": sorted([k, v] for k, v in headers.items() if writable(contract, v)), "body": shaped}


def writable(contract: ContractView, value: str) -> bool:
    """The one rule for a header value (docs/conformance.md, "Writing"): 1 to max_header_chars
    characters, each visible ASCII or a space; any other is left out (the body keeps it)."""
    return 0 < len(value) <= contract.policy.max_header_chars and all(" " <= c <= "~" for c in value)


def api_shape(contract: ContractView, payload: dict[str, Any], body: dict[str, Any], headers: dict[str, str]) -> Any:
    """What the API itself sends: a variant's wire code; each fact at its first body and first
    header source; every `equals` condition (of `error_when`, then of the code's variant) made true.
    An XML API's document holds those writes alone."""
    w, spec = _w(contract), contract.response
    code = payload[w["code"]]
    sent = {str(name): wire for wire, rows in spec["variants"].items() for name, _ in rows}.get(code, code)
    if sent != code:
        inner(contract, body)[w["code"]] = sent  # body's dicts are http()'s own copies: edited in place
    variant = [c for name, conditions in spec["variants"].get(sent, ()) if name == code for c in conditions]
    facts = {fact: payload.get(w[fact]) for fact in ("message", "correlation_id", "resource_id")}
    writes: list[tuple[dict[str, Any], Any]] = []
    for fact, value in (("code", sent), *facts.items()):
        if isinstance(value, str):
            for kind in ("body", "header"):
                first = next((s for s in spec[fact] if s["in"] == kind), None)
                if first is not None:
                    writes.append((first, value))
    writes += [(c["at"], c["equals"]) for c in [*spec["error_when"], *variant] if "equals" in c]
    document: Any = {} if spec["format"] == "xml" else body
    for source, value in writes:
        if source["in"] == "header" and isinstance(value, str):
            headers[source["name"].lower()] = value
        elif source["in"] == "body":
            document = put(document, source["path"], value)
    return document


def put(node: Any, path: list[Any], value: Any) -> Any:
    """`node` with `value` at `path`: objects and arrays made on the way (an array padded with empty
    objects, `[*]` as index 0), a value in the way replaced; a new key goes last."""
    if not path:
        return value
    step, rest = path[0], path[1:]
    if isinstance(step, str):
        obj = dict(node) if isinstance(node, dict) else {}
        obj[step] = put(obj.get(step), rest, value)
        return obj
    index = 0 if step == ANY else step
    items = list(node) if isinstance(node, list) else []
    items += [{} for _ in range(index + 1 - len(items))]
    items[index] = put(items[index], rest, value)
    return items


# Characters the flat XML reader refuses in an element name.
_NOT_NAME = frozenset(" \t\r\n/>=<\"'&!?")


def to_xml(document: Any) -> str:
    """The document's first member as the root element, or "" when it has none."""
    if not isinstance(document, dict) or not document:
        return ""
    name, value = next(iter(document.items()))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + "".join(_element(name, value))


def _element(name: str, value: Any) -> list[str]:
    if not name or any(c in _NOT_NAME for c in name):
        return []
    if isinstance(value, list):
        return [part for item in value for part in _element(name, item)]
    if isinstance(value, dict):
        return [f"<{name}>", *(part for key, item in value.items() for part in _element(key, item)), f"</{name}>"]
    if not isinstance(value, str):
        return []
    text = "".join({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\x00": "\ufffd"}.get(c) or (f"&#{ord(c)};" if ord(c) < 0x20 else c)
                   for c in value)
    return [f"<{name}>{text}</{name}>"]


def mcp(payload: dict[str, Any]) -> dict[str, Any]:
    """The MCP result with its text item's JSON text given parsed (`json`), as runners report it."""
    return {"content": [{"type": "text", "json": payload}], "structuredContent": payload, "isError": True}


# ---- jitter ---------------------------------------------------------------------------------------------

def jitter_vectors(contract: ContractView, expected: Callable[..., dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Decisions with jitter on and the draw given: the bound is checked on the delay the rule asks
    for, then only a backoff is spread, to floor(draw * backoff)."""
    from errgen.emit.targets._payloads import payload_for, unknown_payload

    w = _w(contract)
    backoff = unknown_payload(contract, True, "request")
    cases: list[tuple[str, dict[str, Any], int, int, float]] = [
        # The case: attempt 4 asks 4,000 ms, above a 1,000 ms bound: escalate on every draw.
        ("bound-before-draw/draw-0.1", backoff, 4, 1000, 0.1),
        ("bound-before-draw/draw-0", backoff, 4, 1000, 0.0),
        ("backoff/draw-0", backoff, 4, 60_000, 0.0),
        ("backoff/draw-0.5", backoff, 4, 60_000, 0.5),
        ("backoff/draw-0.3", backoff, 3, 60_000, 0.3),
        # 1 - 2**-12: exact in binary and in 12 digits, so every JSON reader reads the same double.
        ("backoff/draw-near-1", backoff, 4, 60_000, 0.999755859375),
        ("backoff/capped", backoff, 40, 60_000, 0.25),
        ("backoff/bound-equal", backoff, 3, 2000, 0.75),
        ("payload-delay-not-drawn", {**backoff, w["retry_after_ms"]: 1234}, 2, 60_000, 0.5),
        ("exhausted", backoff, 9, 60_000, 0.5),
    ]
    named = next((r for r in contract.codes if r.retry_after_ms is not None and r.actions[r.scope] in contract.exhausted), None)
    if named is not None:
        cases.append(("registry-delay-not-drawn", payload_for(contract, named, named.scope, hints=False), 1,
                      contract.policy.default_max_delay_ms, 0.5))
    for label, payload, attempt, max_delay, draw in cases:
        max_attempts = 10
        decided = expected(contract, payload, attempt, max_attempts, max_delay)["decision"]
        if decided["delay_ms"] is not None and not _named(contract, payload):
            decided = {**decided, "delay_ms": int(draw * decided["delay_ms"])}
        yield {"name": f"jitter/{label}", "input": {"payload": payload}, "attempt": attempt, "max_attempts": max_attempts,
               "max_delay_ms": max_delay, "jitter_draw": draw, "expected": {"decision": decided}}


def _named(contract: ContractView, payload: dict[str, Any]) -> bool:
    """Whether the delay is one the payload or the registry names (never shortened)."""
    w = _w(contract)
    row = contract.code_map.get(payload[w["code"]])
    return w["retry_after_ms"] in payload or (row is not None and row.retry_after_ms is not None)


# ---- did_you_mean ---------------------------------------------------------------------------------------

# (label, value, allowed, limit or None for the SDK's default, the suggestions). Written by hand:
# the distance is in code points, at most a third of the value's length (at least 1), closest
# first, ties in the order given, the value itself never suggested.
DID_YOU_MEAN: list[tuple[str, str, list[str], int | None, list[str]]] = [
    ("one-edit", "wwww", ["www", "api", "wwx", "w"], 3, ["www"]),
    ("ties-keep-order", "cat", ["bat", "cut", "cat", "act"], 3, ["bat", "cut"]),
    ("closest-first", "tenant_id", ["tenant_ids", "tenent_ix", "tenant_id", "tenantid"], 3, ["tenant_ids", "tenantid", "tenent_ix"]),
    ("limit", "abcdef", ["abcdex", "abcdxx", "abcdeg", "abcxxx"], 2, ["abcdex", "abcdeg"]),
    ("limit-zero", "abcdef", ["abcdex"], 0, []),
    ("default-limit", "abcdef", ["abcdea", "abcdeb", "abcdec", "abcded"], None, ["abcdea", "abcdeb", "abcdec"]),
    ("code-points", "naïve", ["naive", "naïve", "nave"], 3, ["naive", "nave"]),
    ("astral", "a\U0001f600b", ["a\U0001f601b", "ab"], 3, ["a\U0001f601b", "ab"]),
    ("empty-value", "", ["a", "", "ab"], 3, ["a"]),
    ("none-near", "service", ["tenant", "region"], 3, []),
    ("no-candidates", "x", [], 3, []),
]


def did_you_mean_vectors() -> Iterator[dict[str, Any]]:
    for label, value, allowed, limit, suggestions in DID_YOU_MEAN:
        given: dict[str, Any] = {"value": value, "allowed": allowed}
        if limit is not None:
            given["limit"] = limit
        yield {"name": f"did_you_mean/{label}", "input": {"did_you_mean": given}, "expected": {"suggestions": suggestions}}
