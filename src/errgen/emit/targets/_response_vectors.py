"""conformance/responses.json: real API responses (status, headers, body text, clock) and what
every SDK's `read_http` must make of them (docs/conformance.md, "Reading a real response").

A separate file from vectors.json: a runner reads it once its language reads real responses, so
runners that do not yet never see an input kind they do not know. Cases are made from the
registry's own response spec (each source, unit, condition and variant) plus a fixed set for the
generic behaviours (limits, byte-order mark, numbers, XML); each states by construction what the
reading yields and the raw payload it builds, and `conformance.expected` judges that payload.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

import calendar

from errgen.contract import MAX_DELAY_VALUE_MS, CodeRow, ContractView
from errgen.emit.targets._decisions import status_decision
from errgen.envelope import holds_required, unenveloped
from errgen.wire import ANY, mended

PATH = "conformance/responses.json"
# The clock of every response vector: Wed, 21 Oct 2026 07:28:00 GMT (as vectors.json's NOW_MS).
NOW_MS = calendar.timegm((2026, 10, 21, 7, 28, 0, 0, 0, 0)) * 1000


@dataclass
class Reading:
    """One response case: the input, what the reading yields, and the raw payload (by construction)."""

    name: str
    status: int
    headers: list[list[str]]
    body: str
    error: bool = True
    code: str | None = None
    correlation_id: str | None = None
    delay_ms: int | None = None
    raw: Any = None
    pad: int = 0  # spaces before the body (a long body without a long file)
    extra: dict[str, Any] = field(default_factory=dict)
    # A response without a payload: the delay its standard Retry-After headers ask for, when the
    # registry's own delay sources give none (stated by construction).
    fallback_delay: int | None = None
    attempt: int = 1


def render(contract: ContractView, vector_head: dict[str, Any], expected: Any, to_json: Any) -> str:
    p = contract.policy
    lines = []
    for case in cases(contract):
        response: dict[str, Any] = {"status": case.status, "headers": case.headers, "body": case.body}
        if case.pad:
            response["body_pad"] = case.pad
        judged = expected(contract, case.raw, case.attempt, p.default_max_attempts, p.default_max_delay_ms)
        if judged["decision"]["code"] is not None and case.code is not None:
            judged["decision"]["wire_code"] = case.code  # as the API sent it (SPEC P: 08006, not 08)
        if case.error and not claimed(contract, case.status, case.headers, " " * case.pad + case.body, case.code):
            delay = case.delay_ms if case.delay_ms is not None else case.fallback_delay
            judged["decision"] = status_decision(contract, case.status, case.correlation_id, delay, case.attempt,
                                                 p.default_max_attempts, p.default_max_delay_ms)
        reading = {"error": case.error, "code": case.code, "correlation_id": case.correlation_id, "delay_ms": case.delay_ms}
        lines.append("    " + to_json({"name": case.name, "input": {"response": response}, "now_ms": NOW_MS, "attempt": case.attempt,
                                        "max_attempts": p.default_max_attempts, "max_delay_ms": p.default_max_delay_ms,
                                        "expected": {"reading": reading, **judged}}))
    limits = {"max_body_bytes": p.max_body_bytes, "max_number_chars": p.max_number_chars, "max_headers": p.max_headers,
              "max_header_chars": p.max_header_chars, "max_xml_depth": p.max_xml_depth}
    head = to_json({**vector_head, "limits": limits, "response_spec": dict(contract.response)}, indent=2)[:-2]
    if not lines:
        return f'{head},\n  "vectors": []\n}}\n'
    return f'{head},\n  "vectors": [\n' + ",\n".join(lines) + "\n  ]\n}\n"


# ---- placing a value where a source reads it ------------------------------------------------------

def place(document: Any, path: list[Any], value: Any) -> Any:
    """`document` with `value` at `path` (objects and arrays made as needed; [*] is element 0);
    None when the path runs through something already there that is not a container."""
    if not path:
        return value if document is None else None
    step, rest = path[0], path[1:]
    if isinstance(step, str):
        if document is None:
            document = {}
        if not isinstance(document, dict):
            return None
        inner = place(document.get(step), rest, value)
        return None if inner is None else {**document, step: inner}
    index = 0 if step == ANY else step
    if document is None:
        document = []
    if not isinstance(document, list) or len(document) > index + 1:
        return None
    items = list(document) + [None] * (index + 1 - len(document))
    if index < len(document) and document[index] is not None and not rest:
        return None
    inner = place(items[index], rest, value)
    if inner is None:
        return None
    items[index] = inner
    # Elements before the index are filler: null never satisfies a source.
    return items


@dataclass
class Response:
    """A response being assembled: status, headers, and the body document (JSON or XML)."""

    status: int
    headers: list[list[str]] = field(default_factory=list)
    document: Any = None
    ok: bool = True

    def put(self, source: dict[str, Any], value: Any) -> "Response":
        if source["in"] == "status":
            fits = isinstance(value, str) and value.isascii() and value.isdigit() and 300 <= int(value) <= 599
            self.ok = self.ok and fits
            self.status = int(value) if fits else self.status
        elif source["in"] == "header":
            self.headers.append([source["name"], value if isinstance(value, str) else json.dumps(value)])
        else:
            placed = place(self.document, source["path"], value)
            self.ok = self.ok and placed is not None
            self.document = placed if placed is not None else self.document
        return self


def body_text(contract: ContractView, document: Any) -> str:
    if document is None:
        return ""
    if contract.response["format"] == "xml":
        return xml_text(document)
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def xml_text(document: Any) -> str:
    def element(name: str, value: Any) -> str:
        if isinstance(value, dict):
            inner = "".join(element(k, v) for k, v in value.items())
        else:
            inner = "" if value is None else str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return f"<{name}>{inner}</{name}>"

    if not isinstance(document, dict) or len(document) != 1:
        return ""
    (name, value), = document.items()
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + element(name, value)


# ---- what a reading builds -------------------------------------------------------------------------

def built(contract: ContractView, status: int, code: str, registry_code: str | None, correlation: str | None,
          message: str | None, delay: int | None) -> dict[str, Any]:
    """The payload `read_http` builds from a code it read (docs/registry.md, "What is decided")."""
    w = {f.name: f.wire for f in contract.fields}
    spec = contract.response
    row = contract.code_map.get(registry_code or code)
    if row is not None:
        payload: dict[str, Any] = {w["code"]: row.code, w["category"]: row.category, w["retryable"]: row.retryable,
                                   w["scope"]: row.scope}
    else:
        payload = {w["code"]: code, w["category"]: "", w["retryable"]: status in spec["retryable_statuses"],
                   w["scope"]: "service" if status in spec["service_statuses"] else "request"}
    payload[w["correlation_id"]] = correlation or ""
    if payload[w["scope"]] == "resource":
        payload[w["resource_id"]] = ""
    if message is not None:
        payload[w["message"]] = message
    if payload[w["retryable"]] is True and delay is not None:
        payload[w["retry_after_ms"]] = delay
    return payload


def plain_rows(contract: ContractView) -> list[CodeRow]:
    """Codes no other code shares a wire code with (their reading involves no `when`)."""
    return [r for r in contract.codes if r.code not in contract.response["variants"] and r.wire_code == r.code]


# ---- the cases -------------------------------------------------------------------------------------

def cases(contract: ContractView) -> Iterator[Reading]:
    spec = contract.response
    rows = plain_rows(contract)
    if not rows or not spec["code"]:
        return
    names: set[str] = set()
    for case in _all(contract, rows):
        assert case.name not in names, f"response vector names must be unique: {case.name}"
        names.add(case.name)
        yield _correlated(contract, case)


def _correlated(contract: ContractView, case: Reading) -> Reading:
    """SPEC R: the correlation id a case states is what the registry's correlation sources read
    from the response as sent, not only what the case put there: when one body path serves both
    the code and the correlation id, the code read is the correlation id too (a JSON body; the
    XML cases state theirs in `read_case`, from the document they build)."""
    if not case.error or contract.response["format"] != "json":
        return case
    text = " " * case.pad + case.body
    readable = len(text.encode("utf-8")) <= contract.policy.max_body_bytes
    document = _json_document(text, contract.policy.max_json_depth) if readable else None
    read = reference_code(contract.response["correlation_id"], case.status, case.headers, document)
    if read == case.correlation_id:
        return case
    w = {f.name: f.wire for f in contract.fields}
    if case.code is not None and isinstance(case.raw, dict) and _is_built(contract, document):
        case.raw = {**case.raw, w["correlation_id"]: read or ""}
    case.correlation_id = read
    return case


def _is_built(contract: ContractView, document: Any) -> bool:
    """Whether `read_http` builds the payload from the code read (step 5), rather than reading
    errgen's own payload from the body."""
    return not holds_required(contract, unenveloped(contract, document))


def _all(contract: ContractView, rows: list[CodeRow]) -> Iterator[Reading]:
    yield from code_sources(contract, rows)
    yield from correlation_sources(contract, rows)
    yield from delay_sources(contract, rows)
    yield from conditions(contract, rows)
    yield from variants(contract)
    yield from prefixes(contract)
    yield from numbers(contract, rows)
    yield from limits(contract, rows)
    if contract.response["format"] == "xml":
        yield from xml(contract, rows)
    yield from infrastructure(contract)


def read_case(contract: ContractView, name: str, response: Response, code: str | None, *, registry_code: str | None = None,
             correlation: str | None = None, message: str | None = None, delay: int | None = None,
             error: bool = True) -> Reading | None:
    if not response.ok:
        return None
    if correlation is None:
        # What the registry's correlation sources read from this response, though the case put
        # none: a path that serves the code serves the correlation id too (SPEC R).
        correlation = reference_code(contract.response["correlation_id"], response.status, response.headers, response.document)
    body = body_text(contract, response.document)
    raw = built(contract, response.status, code, registry_code, correlation, message, delay) if code is not None and error else None
    return Reading(name, response.status, response.headers, body, error, code, correlation, delay, raw)


def code_sources(contract: ContractView, rows: list[CodeRow]) -> Iterator[Reading]:
    """A known code at each code source alone, and an unknown one by status."""
    row = rows[0]
    for index, source in enumerate(contract.response["code"]):
        case = read_case(contract, f"response/code/source-{index}", Response(row.http_status).put(source, row.wire_code), row.code)
        if case:
            yield case
    first = contract.response["code"][0]
    for status in (400, 429, 500, 503):
        response = Response(status).put(first, "code_from_a_newer_server")
        read = reference_code(contract.response["code"], status, response.headers, response.document, known_codes(contract))
        case = read_case(contract, f"response/code/unknown/{status}", response, "code_from_a_newer_server")
        if case and read == "code_from_a_newer_server":  # else a known code (the status) wins: known-wins cases
            yield case
    yield from known_code_wins(contract, row)
    message = next(iter(contract.response["message"]), None)
    if message is not None:
        response = Response(row.http_status).put(first, row.wire_code).put(message, "Said by the API.")
        case = read_case(contract, "response/message", response, row.code, message="Said by the API.")
        if case:
            yield case
    if not _status_code(contract):
        yield Reading("response/code/none", 500, [], body_text(contract, {"unrelated": "x"}), code=None,
                      raw=unread(contract, {"unrelated": "x"}))


def known_code_wins(contract: ContractView, row: CodeRow) -> Iterator[Reading]:
    """A known code wins over an unknown one: at a later source (Microsoft Graph's innerError.code
    after its outer code), and at a later element of an array (`[*]`)."""
    sources = contract.response["code"]
    unknown = "code_from_a_newer_server"
    for index, source in enumerate(sources[1:], 1):
        if source["in"] == "status":
            continue
        response = Response(row.http_status).put(sources[0], unknown).put(source, row.wire_code)
        if contract.response["format"] == "xml" and not (isinstance(response.document, dict) and len(response.document) == 1):
            continue  # two XML roots are no document
        case = read_case(contract, f"response/code/known-wins/source-{index}", response, row.wire_code, registry_code=row.code)
        if case and reference_code([sources[0]], response.status, response.headers, response.document) == unknown:
            yield case
    for index, source in enumerate(sources):
        path = source.get("path", [])
        if source["in"] != "body" or path.count(ANY) != 1 or contract.response["format"] != "json":
            continue
        at = path.index(ANY)
        items = [place(None, path[at + 1:], unknown), place(None, path[at + 1:], row.wire_code)]
        document = place(None, path[:at], items) if at else items
        if document is None or None in items:
            continue
        # No earlier source may read a code from this body: the array's known entry must win.
        if reference_code(sources[:index], row.http_status, [], document) is not None:
            continue
        body = body_text(contract, document)
        raw = built(contract, row.http_status, row.wire_code, row.code, None, None, None)
        yield Reading(f"response/code/known-wins/array-{index}", row.http_status, [], body, True, row.wire_code, raw=raw)


def _status_code(contract: ContractView) -> bool:
    """Whether the status is a code source: then every response has a code."""
    return any(source["in"] == "status" for source in contract.response["code"])


def generic_http_case_holds(contract: ContractView, http: dict[str, Any], raw: Any) -> bool:
    """Whether a vectors.json HTTP case (errgen's own bodies) holds for this registry: a body that
    is not errgen's whole payload must give no code where this registry reads one (its problem
    members, its status)."""
    required = [f.wire for f in contract.fields if f.required]
    if isinstance(raw, dict) and all(name in raw for name in required):
        return True
    document = _json_document(http["body"], contract.policy.max_json_depth)
    return reference_code(contract.response["code"], http["status"], http["headers"], document) is None


def claimed(contract: ContractView, status: int, headers: list[list[str]], body: str, code: Any = ...) -> bool:
    """Whether a response carries a payload to decide (docs/conformance.md, "Deciding a response"):
    a code is read (`code`, when the case states it; else read here from a JSON body), or its JSON
    body holds where the registry reads the code (its first key). Otherwise it is decided by its
    status."""
    text = body[1:] if body.startswith("\ufeff") else body
    readable = len(body.encode("utf-8", "surrogatepass")) <= contract.policy.max_body_bytes
    xml = contract.response["format"] == "xml" and text.lstrip(" \t\r\n").startswith("<")
    document = _json_document(body, contract.policy.max_json_depth) if readable and not xml else None
    if code is ...:
        code = reference_code(contract.response["code"], status, headers, document)
    if code is not None:
        return True
    return isinstance(document, dict) and any(
        source["in"] == "body" and source["path"] and isinstance(source["path"][0], str) and source["path"][0] in document
        for source in contract.response["code"])


def unread(contract: ContractView, document: Any) -> Any:
    """What `read_http` returns for a body holding no code: the body's value as read, with only
    the payload fields' wire names kept (docs/conformance.md, from_http step 4)."""
    if contract.response["format"] == "xml":
        return body_text(contract, document)
    value = unenveloped(contract, document)
    if not isinstance(value, dict):
        return value
    names = {f.wire for f in contract.fields}
    return {k: v for k, v in value.items() if k in names}


def _code_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value or None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return str(int(value)) if abs(value) <= MAX_DELAY_VALUE_MS else None


def _walk(value: Any, path: list[Any], accept: Any = lambda code: True) -> str | None:
    for at, step in enumerate(path):
        if step == ANY:
            items = value if isinstance(value, list) else []
            return next((found for item in items if (found := _walk(item, path[at + 1:], accept)) is not None), None)
        if isinstance(step, str):
            value = value.get(step) if isinstance(value, dict) else None
        else:
            value = value[step] if isinstance(value, list) and step < len(value) else None
        if value is None:
            return None
    code = _code_text(value)
    return code if code is not None and accept(code) else None


def _reject(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _depth(value: Any) -> int:
    """How deep arrays and objects nest (iterative: any depth json.loads returns)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            stack.extend((inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item))
    return deepest


def _json_document(text: str, max_depth: int) -> Any:
    """The document `read_http` reads from a JSON body (one BOM removed), None when it reads none."""
    try:
        # Past Python's limit on digits an int may have, a number is still JSON (out of range).
        document = json.loads(text[1:] if text.startswith("\ufeff") else text, parse_constant=_reject,
                              parse_int=lambda digits: int(digits) if len(digits) <= 4000 else float("inf"))
    except (ValueError, RecursionError):  # not JSON, or nested past any reader's limit
        return None
    return mended(document) if _depth(document) <= max_depth else None


def reference_code(sources: list[dict[str, Any]], status: int, headers: list[list[str]], document: Any,
                   known: Any = None) -> str | None:
    """The code `read_http` reads (docs/conformance.md step 3), for the generator's own checks:
    given `known` (the codes the SDK knows), the first known one, else the first usable one."""
    if known:
        found = _first_code(sources, status, headers, document, lambda code: code in known)
        if found is not None:
            return found
    return _first_code(sources, status, headers, document, lambda code: True)


class Known:
    """The codes an SDK decides by its registry: registry codes, wire codes, and (SPEC P) any code
    that starts with a `wire_prefix`."""

    def __init__(self, contract: ContractView) -> None:
        self.exact = frozenset(contract.code_map) | frozenset(contract.response["variants"])
        self.prefixes = tuple(prefix for prefix, _ in contract.response["prefixes"])

    def __contains__(self, code: object) -> bool:
        return isinstance(code, str) and (code in self.exact or code.startswith(self.prefixes))

    def __bool__(self) -> bool:
        return bool(self.exact or self.prefixes)


def known_codes(contract: ContractView) -> Known:
    return Known(contract)


def _first_code(sources: list[dict[str, Any]], status: int, headers: list[list[str]], document: Any,
                accept: Any) -> str | None:
    for source in sources:
        if source["in"] == "status":
            found: str | None = str(status)
        elif source["in"] == "header":
            value = next((v for n, v in headers if n.lower() == source["name"]), "").strip(" \t")
            found = value or None
        else:
            found = _walk(document, source["path"], accept)
        if found is not None and accept(found):
            return found
    return None


def correlation_sources(contract: ContractView, rows: list[CodeRow]) -> Iterator[Reading]:
    row, first = rows[0], contract.response["code"][0]
    for index, source in enumerate(contract.response["correlation_id"]):
        response = Response(row.http_status).put(first, row.wire_code).put(source, f"req-{index}")
        case = read_case(contract, f"response/correlation-id/source-{index}", response, row.code, correlation=f"req-{index}")
        if case:
            yield case
    yield from lone_surrogates(contract, row)


# A JSON escape that leaves half a surrogate pair is read as U+FFFD; a whole pair is one character.
LONE_SURROGATES = (("high", "\\ud800", "\ufffd"), ("low-then-text", "\\udc00x", "\ufffdx"),
                   ("reversed-pair", "\\ude00\\ud83d", "\ufffd\ufffd"), ("pair", "\\ud83d\\ude00", "\U0001f600"))


def lone_surrogates(contract: ContractView, row: CodeRow) -> Iterator[Reading]:
    """The correlation id at its first body source, written with each escape of LONE_SURROGATES."""
    source = next((s for s in contract.response["correlation_id"] if s["in"] == "body"), None)
    if source is None or contract.response["format"] != "json":
        return
    for label, escaped, read in LONE_SURROGATES:
        response = Response(row.http_status).put(contract.response["code"][0], row.wire_code).put(source, "req-@")
        case = read_case(contract, f"response/correlation-id/lone-surrogate/{label}", response, row.code, correlation=f"req-{read}")
        if case and case.body.count('"req-@"') == 1:
            case.body = case.body.replace('"req-@"', f'"req-{escaped}"')
            yield case


# Each unit: (label, value as sent, delay in ms at NOW_MS).
UNIT_VALUES: dict[str, list[tuple[str, Any, int | None]]] = {
    "http": [("seconds", "7", 7000), ("date", "Wed, 21 Oct 2026 07:28:05 GMT", 5000), ("fraction", "1.5", 1500),
             ("fraction-graph", "2.128", 2128), ("number-fraction", 64.57, 64570), ("fraction-comma", "1,5", None)],
    "seconds": [("text", "7", 7000), ("number", 7, 7000), ("negative", -1, None), ("text-fraction", "2.128", 2128),
                ("number-fraction-discord", 64.57, 64570), ("number-fraction-rounds-up", 0.0001, 1),
                ("number-negative-fraction", -0.5, None), ("number-fraction-huge", 1e300, MAX_DELAY_VALUE_MS)],
    "ms": [("text", "250", 250), ("number", 250, 250), ("fraction", 2.5, None)],
    "epoch_seconds": [("future", str(NOW_MS // 1000 + 60), 60_000), ("past", "1000", 0), ("number", NOW_MS // 1000 + 2, 2000)],
    "duration": [("seconds", "30s", 30_000), ("fraction", "1.5s", 1500), ("compound", "6m0s", 360_000),
                 ("milliseconds", "20ms", 20), ("nanos-round-up", "0.000000001s", 1), ("bare-number", "30", None)],
}


def applies(contract: ContractView, entry: dict[str, Any], code: str | None) -> bool:
    """Whether a delay entry is read for the registry code `code` (None: no registry code): one
    with `codes` or `categories` only when it lists the code or its category (SPEC D)."""
    if "codes" not in entry and "categories" not in entry:
        return True
    row = contract.code_map.get(code) if code is not None else None
    return row is not None and (row.code in entry.get("codes", ()) or row.category in entry.get("categories", ()))


def unfiltered(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The delay entries a response without a registry code reads."""
    return [entry for entry in entries if "codes" not in entry and "categories" not in entry]


def delay_sources(contract: ContractView, rows: list[CodeRow]) -> Iterator[Reading]:
    first = contract.response["code"][0]
    for index, entry in enumerate(contract.response["retry_after"]):
        retryable = next((r for r in rows if r.retryable and applies(contract, entry, r.code)), None)
        final = next((r for r in rows if not r.retryable and applies(contract, entry, r.code)), None)
        yield from _filtered_out(contract, rows, index, entry)
        for label, value, delay in UNIT_VALUES[entry["unit"]]:
            if entry["at"]["in"] == "header" and not isinstance(value, str):
                continue
            if retryable is not None:
                response = Response(retryable.http_status).put(first, retryable.wire_code).put(entry["at"], value)
                case = read_case(contract, f"response/delay/source-{index}/{label}", response, retryable.code, delay=delay)
                if case:
                    yield case
        if final is not None and (index == 0 or index == _first_filtered(contract)):
            value = UNIT_VALUES[entry["unit"]][0][1]
            response = Response(final.http_status).put(first, final.wire_code).put(entry["at"], value)
            case = read_case(contract, f"response/delay/source-{index}/not-retryable", response, final.code,
                            delay=UNIT_VALUES[entry["unit"]][0][2])
            if case:
                yield case


def _first_filtered(contract: ContractView) -> int | None:
    return next((i for i, e in enumerate(contract.response["retry_after"]) if not unfiltered([e])), None)


def _filtered_out(contract: ContractView, rows: list[CodeRow], index: int, entry: dict[str, Any]) -> Iterator[Reading]:
    """A filtered entry's source on a retryable code it does not list: no delay is read from it."""
    other = next((r for r in rows if r.retryable and not applies(contract, entry, r.code)), None)
    shared = any(e["at"] == entry["at"] for e in contract.response["retry_after"] if e is not entry)
    if other is None or shared:
        return
    value = next((v for _, v, delay in UNIT_VALUES[entry["unit"]] if delay is not None and isinstance(v, str)), None)
    first = contract.response["code"][0]
    response = Response(other.http_status).put(first, other.wire_code).put(entry["at"], value)
    case = read_case(contract, f"response/delay/source-{index}/not-for-{other.code}", response, other.code)
    if case:
        yield case
    unknown = "code_from_a_newer_server"
    response = Response(429).put(first, unknown).put(entry["at"], value)
    if reference_code(contract.response["code"], 429, response.headers, response.document, known_codes(contract)) == unknown:
        case = read_case(contract, f"response/delay/source-{index}/not-for-unknown-code", response, unknown)
        if case:
            yield case
    yield from _filtered_by_prefix(contract, index, entry, value)


def _filtered_by_prefix(contract: ContractView, index: int, entry: dict[str, Any], value: Any) -> Iterator[Reading]:
    """A filtered entry on a code only a `wire_prefix` matches: the registry code it matches counts."""
    first = contract.response["code"][0]
    for prefix, options in contract.response["prefixes"]:
        sent = prefixed_code(contract, prefix)
        name = next((n for n, conds in options if not conds), None)
        row = contract.code_map.get(name) if name is not None else None
        if sent is None or row is None or not row.retryable or not applies(contract, entry, row.code):
            continue
        response = Response(row.http_status).put(first, sent).put(entry["at"], value)
        if all(not _holds(c, response) for _, conds in options for c in conds):  # the row without `when` is chosen
            case = read_case(contract, f"response/delay/source-{index}/prefix-{prefix}", response, sent, registry_code=row.code,
                            delay=next(d for _, v, d in UNIT_VALUES[entry["unit"]] if v == value))
            if case:
                yield case


def _at(document: Any, path: list[Any]) -> Any:
    """The value at a path (element 0 for [*]); None when absent."""
    for step in path:
        if isinstance(step, str):
            document = document.get(step) if isinstance(document, dict) else None
        else:
            index = 0 if step == ANY else step
            document = document[index] if isinstance(document, list) and index < len(document) else None
    return document


def conditions(contract: ContractView, rows: list[CodeRow]) -> Iterator[Reading]:
    """Each `error_when` condition makes a 200 an error, alone (or along with the code it reads)."""
    row, first = rows[0], contract.response["code"][0]
    for index, cond in enumerate(contract.response["error_when"]):
        value = cond["equals"] if "equals" in cond else ["x"] if cond["at"]["in"] == "body" else "x"
        response = Response(200).put(first, row.wire_code)
        if cond["at"]["in"] == "body" and "non_empty" in cond and _at(response.document, cond["at"]["path"]):
            pass  # the code's own place makes it non-empty (JSON-RPC's `error`, Slack's `error`)
        else:
            response.put(cond["at"], value)
        case = read_case(contract, f"response/error-when/{index}", response, row.code)
        if case:
            yield case
    yield Reading("response/error-when/none-at-200", 200, [], body_text(contract, None), error=False,
                  code="200" if _status_code(contract) else None, raw=None)


def variants(contract: ContractView) -> Iterator[Reading]:
    first = contract.response["code"][0]
    for wire_code, options in contract.response["variants"].items():
        for code, conds in options:
            row = contract.code_map[code]
            response = Response(row.http_status).put(first, wire_code)
            for cond in conds:
                if "status" in cond:
                    response.status = cond["status"][0]
                else:
                    response.put(cond["at"], cond["equals"] if "equals" in cond else "x")
            case = read_case(contract, f"response/variant/{code}", response, wire_code, registry_code=code)
            if case:
                yield case


def prefixed_code(contract: ContractView, prefix: str) -> str | None:
    """A code that starts with `prefix`, equals no wire code and starts with no longer prefix."""
    table, known = contract.response["prefixes"], known_codes(contract)
    for suffix in ("9", "_X9", "-x9", "/x9", ".x9", ":x9", "#x9"):
        sent = prefix + suffix
        if sent not in known.exact and next(p for p, _ in table if sent.startswith(p)) == prefix:
            return sent
    return None


def _holds(cond: dict[str, Any], response: Response) -> bool:
    """Whether a `when` condition holds on a response made here (docs/conformance.md step 4)."""
    if "status" in cond:
        return response.status in cond["status"]
    at = cond["at"]
    if at["in"] == "header":
        value: Any = next((v for n, v in response.headers if n.lower() == at["name"]), None)
    else:
        value = _at(response.document, at["path"])
    if "equals" in cond:
        wanted = cond["equals"]
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (value, wanted))
        return value == wanted if numbers else type(value) is type(wanted) and value == wanted
    return isinstance(value, (str, list, dict)) and len(value) > 0


def prefixes(contract: ContractView) -> Iterator[Reading]:
    """A code that no wire code equals but a `wire_prefix` starts: each code of the prefix with its
    `when` conditions made true (the longest prefix first, then the `when` rules of variants)."""
    first = contract.response["code"][0]
    for prefix, options in contract.response["prefixes"]:
        sent = prefixed_code(contract, prefix)
        if sent is None:
            continue
        for code, conds in options:
            response = Response(contract.code_map[code].http_status).put(first, sent)
            for cond in conds:
                if "status" in cond:
                    response.status = cond["status"][0]
                else:
                    response.put(cond["at"], cond["equals"] if "equals" in cond else "x")
            chosen = next((name for name, cs in options if all(_holds(c, response) for c in cs)), options[0][0])
            case = read_case(contract, f"response/prefix/{code}", response, sent, registry_code=chosen)
            if case and reference_code(contract.response["code"], response.status, response.headers, response.document,
                                       known_codes(contract)) == sent:
                yield case


def numbers(contract: ContractView, rows: list[CodeRow]) -> Iterator[Reading]:
    """Codes sent as JSON numbers: matched by their decimal text."""
    first = contract.response["code"][0]
    if first["in"] != "body" or contract.response["format"] != "json":
        return
    numeric = next((r for r in rows if r.code.lstrip("-").isdigit() and r.code.isascii()), None)
    cases: list[tuple[str, str, str | None]] = [
        ("integer", "-32601", "-32601"), ("whole-fraction", "32601.0", "32601"), ("exponent", "1e3", "1000"),
        ("negative-zero", "-0", "0"), ("largest", "9007199254740991", "9007199254740991"),
        ("past-largest", "9007199254740992", None), ("fraction", "1.5", None),
        ("65-chars", "1" * 65, None), ("64-chars", "1" * 64, None), ("true", "true", None),
    ]
    if numeric is not None:
        cases.append(("registry-code", numeric.code, numeric.code))
    for label, text, code in cases:
        marker = "__NUMBER__"
        response = Response(400).put(first, marker)
        if not response.ok:
            continue
        body = body_text(contract, response.document).replace(json.dumps(marker), text)
        # A number that is no code, or no code this SDK knows, lets a later source give one (the status).
        read = reference_code(contract.response["code"], 400, [], _json_document(body, contract.policy.max_json_depth),
                              known_codes(contract))
        if read != code:
            code = read if code is None or read in known_codes(contract) else code
        raw = built(contract, 400, code, None, None, None, None) if code is not None else unread(contract, json.loads(body))
        yield Reading(f"response/number/{label}", 400, [], body, True, code, None, None, raw)


def limits(contract: ContractView, rows: list[CodeRow]) -> Iterator[Reading]:
    """The limits of reading (Policy): body size, headers, and the byte-order mark."""
    p, row, first = contract.policy, rows[0], contract.response["code"][0]
    response = Response(row.http_status).put(first, row.wire_code)
    if not response.ok:
        return
    body = body_text(contract, response.document)
    reads_body = first["in"] == "body"
    yield Reading("response/bom", row.http_status, response.headers, "\ufeff" + body, True, row.code, raw=built(
        contract, row.http_status, row.code, None, None, None, None))
    if reads_body:
        # An unreadable body gives no code, unless a later source reads one without it (the status).
        unread = reference_code(contract.response["code"], row.http_status, [], None)

        def unreadable(text: str) -> Any:
            return built(contract, row.http_status, unread, None, None, None, None) if unread else text

        yield Reading("response/bom-twice", row.http_status, [], "\ufeff\ufeff" + body, True, unread,
                      raw=unreadable("\ufeff" + body))
        size = len(body.encode("utf-8"))
        yield Reading("response/body/at-limit", row.http_status, [], body, True, row.code, pad=p.max_body_bytes - size,
                      raw=built(contract, row.http_status, row.code, None, None, None, None))
        yield Reading("response/body/over-limit", row.http_status, [], body, True, unread, pad=p.max_body_bytes - size + 1,
                      raw=unreadable(" " * (p.max_body_bytes - size + 1) + body))
    retryable = next((r for r in rows if r.retryable), None)
    header = next((e for e in contract.response["retry_after"] if e["at"]["in"] == "header" and e["unit"] in ("ms", "http")
                   and applies(contract, e, retryable.code if retryable else None)), None)
    if retryable is None or header is None:
        return
    base = Response(retryable.http_status).put(first, retryable.wire_code)
    if not base.ok:
        return
    filler = [[f"x-filler-{i}", "1"] for i in range(p.max_headers)]
    name = header["at"]["name"]
    cases: list[tuple[str, list[list[str]], int | None]] = [
        ("headers/last-read", [*base.headers, *filler[: p.max_headers - 1 - len(base.headers)], [name, "7"]], 7000 if header["unit"] == "http" else 7),
        ("headers/past-count", [*base.headers, *filler[: p.max_headers - len(base.headers)], [name, "7"]], None),
        ("headers/value-at-limit", [*base.headers, [name, "0" * (p.max_header_chars - 1) + "7"]], 7000 if header["unit"] == "http" else 7),
        ("headers/value-over-limit", [*base.headers, [name, "0" * p.max_header_chars + "7"]], None),
    ]
    for label, headers, delay in cases:
        yield Reading(f"response/{label}", retryable.http_status, headers, body_text(contract, base.document), True,
                      retryable.code, None, delay, built(contract, retryable.http_status, retryable.code, None, None, None, delay))


def xml(contract: ContractView, rows: list[CodeRow]) -> Iterator[Reading]:
    """The flat-XML reader: what it accepts and what it refuses (no DTD, no entities)."""
    row, first = rows[0], contract.response["code"][0]
    if first["in"] != "body" or len(first["path"]) < 2 or not all(isinstance(s, str) for s in first["path"]):
        return
    root, *inner, leaf = first["path"]
    opening = "".join(f"<{k}>" for k in inner)
    closing = "".join(f"</{k}>" for k in reversed(inner))

    def doc(code_xml: str, before: str = "", after: str = "") -> str:
        return f"{before}<{root}>{opening}{code_xml}{closing}</{root}>{after}"

    known = built(contract, row.http_status, row.code, None, None, None, None)
    good: list[tuple[str, str]] = [
        ("attributes", doc(f'<{leaf} lang="en" x=\'1\'>{row.wire_code}</{leaf}>')),
        ("comment-and-pi", doc(f"<!-- c --><{leaf}>{row.wire_code}</{leaf}><?pi x?>", before="<?xml version=\"1.0\"?>\n<!-- top -->\n")),
        ("whitespace", doc(f"\n  <{leaf}>{row.wire_code}</{leaf}>\n", after="\n")),
        ("repeated-first-wins", doc(f"<{leaf}>{row.wire_code}</{leaf}><{leaf}>other</{leaf}>")),
        ("close-tag-space", doc(f"<{leaf}>{row.wire_code}</{leaf} >")),
    ]
    depth = contract.policy.max_xml_depth - 1 - len(inner) - 1  # elements that fit beside the code's
    if depth > 0:
        good.append(("deepest-allowed", doc(f"<{leaf}>{row.wire_code}</{leaf}>" + "<d>" * depth + "</d>" * depth)))
    for label, body in good:
        yield Reading(f"response/xml/{label}", row.http_status, [], body, True, row.code, raw=known)
    escaped = "a&lt;b&amp;&#x41;&#66;"
    yield Reading("response/xml/entities", 400, [], doc(f"<{leaf}>{escaped}</{leaf}>"), True, "a<b&AB",
                  raw=built(contract, 400, "a<b&AB", None, None, None, None))
    bad: list[tuple[str, str]] = [
        ("doctype", '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]>' + doc(f"<{leaf}>&x;</{leaf}>")),
        ("custom-entity", doc(f"<{leaf}>&x;</{leaf}>")),
        ("cdata", doc(f"<{leaf}><![CDATA[{row.wire_code}]]></{leaf}>")),
        ("mismatched-close", doc(f"<{leaf}>{row.wire_code}</other>")),
        ("unclosed", f"<{root}>{opening}<{leaf}>{row.wire_code}</{leaf}>"),
        ("two-roots", doc(f"<{leaf}>{row.wire_code}</{leaf}>") + f"<{root}/>"),
        ("text-after-root", doc(f"<{leaf}>{row.wire_code}</{leaf}>") + "x"),
        ("surrogate-reference", doc(f"<{leaf}>&#xD800;</{leaf}>")),
        ("too-deep", f"<{root}>" + "<d>" * contract.policy.max_xml_depth + "</d>" * contract.policy.max_xml_depth + f"</{root}>"),
    ]
    for label, body in bad:
        yield Reading(f"response/xml/refused/{label}", 400, [], body, True, None, raw=body)


# ---- what sits in front of the API ------------------------------------------------------------------

NGINX_502 = ("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n"
             "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
HTML = [["Content-Type", "text/html"]]
# (label, status, headers, body, attempt): responses a proxy, gateway, CDN or load balancer sends
# on its own, with no payload of the API's. Each is decided by its status.
INFRASTRUCTURE: list[tuple[str, int, list[list[str]], str, int]] = [
    ("nginx-502", 502, HTML, NGINX_502, 1),
    ("nginx-502/attempt-3", 502, HTML, NGINX_502, 3),
    ("nginx-502/last-attempt", 502, HTML, NGINX_502, 5),
    ("cloudflare-520", 520, HTML, "<!DOCTYPE html><html><head><title>520: Web server is returning an unknown error</title></head></html>", 1),
    ("cloudflare-524", 524, HTML, "<html><body>A timeout occurred</body></html>", 1),
    ("alb-504", 504, HTML, "<html><body><center><h1>504 Gateway Time-out</h1></center></body></html>", 1),
    ("empty-503", 503, [], "", 1),
    ("empty-503/retry-after", 503, [["Retry-After", "30"]], "", 1),
    ("empty-503/last-attempt", 503, [], "", 5),
    ("html-503/retry-after-too-long", 503, [*HTML, ["Retry-After", "7200"]], "<html>maintenance</html>", 1),
    ("text-500", 500, [["Content-Type", "text/plain"]], "Internal Server Error", 1),
    ("bare-429", 429, [["Retry-After", "2"]], "", 1),
    ("bare-429/decimal", 429, [["Retry-After", "2.128"]], "", 1),
    ("bare-429/date", 429, [["Retry-After", "Wed, 21 Oct 2026 07:28:05 GMT"]], "", 1),
    ("bare-429/no-retry-after", 429, [], "", 1),
    ("api-gateway-429", 429, [["Content-Type", "application/json"], ["Retry-After", "1"]], '{"message":"Too Many Requests"}', 1),
    ("api-gateway-502", 502, [["Content-Type", "application/json"]], '{"message": "Internal server error"}', 1),
    ("html-408", 408, HTML, "<html>Request Timeout</html>", 1),
    ("html-401", 401, HTML, "<html>401 Authorization Required</html>", 1),
    ("html-403", 403, HTML, "<html>403 Forbidden</html>", 1),
    ("403-retry-after", 403, [["Retry-After", "60"]], "", 1),
    ("html-404", 404, HTML, "<html>404 Not Found</html>", 1),
    ("html-410", 410, HTML, "<html>410 Gone</html>", 1),
    ("nginx-413", 413, HTML, "<html><head><title>413 Request Entity Too Large</title></head></html>", 1),
    ("html-414", 414, HTML, "<html>414 Request-URI Too Large</html>", 1),
    ("html-400", 400, HTML, "<html>400 Bad Request</html>", 1),
    ("html-301", 301, [["Location", "https://example.com/"]], "<html>Moved Permanently</html>", 1),
    ("html-501", 501, HTML, "<html>Not Implemented</html>", 1),
    ("text-599", 599, [], "network connect timeout error", 1),
]
# What each Retry-After above asks for, in ms at NOW_MS, by unit of the source reading it.
_RETRY_AFTER: dict[str, dict[str, int | None]] = {
    "2": {"http": 2000, "seconds": 2000, "ms": 2}, "30": {"http": 30_000, "seconds": 30_000, "ms": 30},
    "7200": {"http": 7_200_000, "seconds": 7_200_000, "ms": 7200}, "1": {"http": 1000, "seconds": 1000, "ms": 1},
    "60": {"http": 60_000, "seconds": 60_000, "ms": 60}, "2.128": {"http": 2128, "seconds": 2128},
    "Wed, 21 Oct 2026 07:28:05 GMT": {"http": 5000},
}


def _header_delay(entries: list[dict[str, Any]], headers: list[list[str]]) -> int | None:
    """The delay the first delay source reading one of these headers gives (the values above)."""
    for entry in entries:
        if entry["at"]["in"] != "header":
            continue
        value = next((v for n, v in headers if n.lower() == entry["at"]["name"]), None)
        found = _RETRY_AFTER.get(value or "", {}).get(entry["unit"])
        if found is not None:
            return found
    return None


def infrastructure(contract: ContractView) -> Iterator[Reading]:
    """Responses with no payload of the API's: decided by status, never as an invalid payload."""
    spec = contract.response
    for label, status, headers, body, attempt in INFRASTRUCTURE:
        document = _json_document(body, contract.policy.max_json_depth) if not body.lstrip().startswith("<") else None
        if reference_code(spec["code"], status, headers, document) is not None:
            continue  # this registry reads a code from it (the status, a header): not a codeless response
        if any(entry["at"]["in"] == "body" for entry in unfiltered(spec["retry_after"])) and isinstance(document, dict):
            continue  # a body delay source might read this JSON: not stated by construction here
        correlation = reference_code(spec["correlation_id"], status, headers, document)
        raw: Any = body
        if document is not None:
            value = unenveloped(contract, document)
            names = {f.wire for f in contract.fields}
            raw = {k: v for k, v in value.items() if k in names} if isinstance(value, dict) else value
        yield Reading(f"response/infrastructure/{label}", status, headers, body, True, None, correlation,
                      _header_delay(unfiltered(spec["retry_after"]), headers), raw,
                      fallback_delay=_header_delay(spec["own_retry_after"], headers), attempt=attempt)
