"""The conformance runner of docs/conformance.md:

    python -m <package>._conformance check VECTORS.json   # compare with `expected`, exit 0 / 1
    python -m <package>._conformance emit VECTORS.json    # one JSON line of actual outputs per input

Exit 2 when the vectors file cannot be read.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Iterator, Mapping, Optional, Sequence, TextIO

from . import _wire
from ._contract import DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS
from .models import ErrorPayload
from .runtime import (
    Decision,
    HttpReading,
    HttpResponse,
    PayloadError,
    check_payload,
    decide,
    decide_failure,
    decide_response,
    did_you_mean,
    from_http,
    from_mcp_result,
    new_error,
    parse_payload,
    read_http,
    to_http,
    to_mcp_result,
)

OUTPUTS = (
    "reading",
    "valid",
    "problems",
    "parsed",
    "decision",
    "payload",
    "http",
    "http_problem",
    "mcp",
    "suggestions",
)
# The input kinds of writing.json, and what each yields (docs/conformance.md, "The writing vectors").
WRITING = ("new_error", "parse", "to_http", "did_you_mean")


def response_reading(given: Mapping[str, Any], now_ms: int) -> HttpReading:
    """A `response` input (responses.json): status, header pairs, body text after `body_pad` spaces."""
    headers = [(str(name), str(value)) for name, value in given.get("headers", [])]
    body = " " * given.get("body_pad", 0) + given["body"]
    return read_http(given["status"], headers, body, now_ms=now_ms)


def reading_json(reading: HttpReading) -> dict[str, Any]:
    return {
        "error": reading.error,
        "code": reading.code,
        "correlation_id": reading.correlation_id,
        "delay_ms": reading.delay_ms,
    }


def raw_payload(given: Mapping[str, Any], now_ms: int) -> object:
    """The raw payload of a vector's input: a payload, an HTTP response or an MCP result."""
    if "payload" in given:
        return given["payload"]
    if "http" in given:
        response = given["http"]
        headers = [(str(name), str(value)) for name, value in response.get("headers", [])]
        return from_http(response["status"], headers, response["body"], now_ms=now_ms)
    if "mcp" in given:
        return from_mcp_result(given["mcp"])
    if "response" in given:
        return response_reading(given["response"], now_ms).payload
    raise ValueError("input holds none of payload, http, mcp, response")


def decision_json(decision: Decision) -> dict[str, Any]:
    return {
        "action": decision.action.value,
        "reason": decision.reason.value,
        "code": None if decision.code is None else str(decision.code),
        "wire_code": decision.wire_code,
        "delay_ms": decision.delay_ms,
        "correlation_id": decision.correlation_id,
        "resource_id": decision.resource_id,
        "did_you_mean": list(decision.did_you_mean),
        "accepted": list(decision.accepted),
        "searched": dict(decision.searched),
    }


def http_json(response: HttpResponse) -> dict[str, Any]:
    """A written response as the vectors state it: header names in lower case, sorted; a JSON body
    parsed, any other as its text."""
    headers = sorted([name.lower(), value] for name, value in response.headers.items())
    try:
        body: Any = json.loads(response.body)
    except ValueError:
        body = response.body  # an XML API's body, compared as text
    return {"status": response.status, "headers": headers, "body": body}


def mcp_json(result: Mapping[str, Any]) -> dict[str, Any]:
    """An MCP result as the vectors state it: each text item's JSON text given parsed, as `json`."""
    items = [{"type": item["type"], "json": json.loads(item["text"])} for item in result["content"]]
    return {
        "content": items,
        "structuredContent": result["structuredContent"],
        "isError": result["isError"],
    }


def sorted_keys(value: Any) -> Any:
    """Writing outputs with every object's keys sorted: the SDKs need not agree on key order."""
    if isinstance(value, dict):
        return {key: sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_keys(item) for item in value]
    return value


def written(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "http": http_json(to_http(payload)),
        "http_problem": http_json(to_http(payload, problem=True)),
        "mcp": mcp_json(to_mcp_result(payload)),
    }


def parsed_wire(raw: object) -> Optional[dict[str, Any]]:
    """The tolerant parse's payload as wire data (null when it refuses): every field it read."""
    try:
        made = parse_payload(raw)
    except PayloadError:
        return None
    return made.to_wire() if isinstance(made, ErrorPayload) else dict(made.raw)


def writing_outputs(given: Mapping[str, Any]) -> dict[str, Any]:
    """What the writing functions make of a writing input: a payload, responses, suggestions."""
    if "new_error" in given:
        spec = given["new_error"]
        try:
            made = new_error(
                spec["code"], spec["correlation_id"], scope=spec.get("scope"), **spec["fields"]
            )
        except PayloadError:
            return {"payload": None, "http": None, "http_problem": None, "mcp": None}
        payload = made.to_wire()
        return {"payload": payload, **written(payload)}
    if "parse" in given:
        return {"payload": parsed_wire(given["parse"])}
    if "to_http" in given:
        return written(given["to_http"])
    spec = given["did_you_mean"]
    limit = {"limit": spec["limit"]} if "limit" in spec else {}
    return {"suggestions": did_you_mean(spec["value"], spec["allowed"], **limit)}


def outputs(vector: Mapping[str, Any]) -> dict[str, Any]:
    """What this SDK makes of one vector's input."""
    if any(kind in vector["input"] for kind in WRITING):
        return {"name": vector["name"], **sorted_keys(writing_outputs(vector["input"]))}
    now_ms = vector.get("now_ms", 0)
    given = vector["input"]
    given_draw: Optional[float] = vector.get("jitter_draw")
    attempt: int = vector.get("attempt", 1)
    max_attempts: int = vector.get("max_attempts", DEFAULT_MAX_ATTEMPTS)
    max_delay_ms: int = vector.get("max_delay_ms", DEFAULT_MAX_DELAY_MS)
    jitter = given_draw is not None

    def draw() -> float:
        return float(given_draw or 0)

    if "transport" in given:
        failure = given["transport"]
        decided = decide_failure(
            failure["failure"],
            failure["idempotent"],
            attempt,
            max_attempts,
            max_delay_ms,
            jitter=jitter,
            draw=draw,
        )
        return {"name": vector["name"], "decision": decision_json(decided)}
    reading = http_reading(given, now_ms)
    raw = reading.payload if reading is not None else raw_payload(given, now_ms)
    verdict = check_payload(raw)
    if reading is not None:
        decision = decide_response(
            reading, attempt, max_attempts, max_delay_ms, jitter=jitter, draw=draw
        )
    else:
        decision = decide(raw, attempt, max_attempts, max_delay_ms, jitter=jitter, draw=draw)
    return {
        "name": vector["name"],
        **(
            {"reading": reading_json(reading)}
            if reading is not None and "response" in given
            else {}
        ),
        "valid": verdict.valid,
        "problems": sorted({p[0] for p in verdict.problems}),
        "parsed": verdict.parsed.value,
        "decision": decision_json(decision),
    }


def http_reading(given: Mapping[str, Any], now_ms: int) -> Optional[HttpReading]:
    """The reading of an `http` or `response` input; None for the other kinds."""
    if "response" in given:
        return response_reading(given["response"], now_ms)
    if "http" in given:
        response = given["http"]
        headers = [(str(name), str(value)) for name, value in response.get("headers", [])]
        return read_http(response["status"], headers, response["body"], now_ms=now_ms)
    return None


def emitted(vector: Mapping[str, Any]) -> dict[str, Any]:
    """The emit line of one vector; a vector the runner cannot read says why instead."""
    try:
        return outputs(vector)
    except Exception as exc:  # a malformed vector (no input, say): reported, the others still run
        return {"name": vector.get("name"), "error": f"{type(exc).__name__}: {exc}"}


def same(a: Any, b: Any) -> bool:
    """Equal as JSON data: 2 equals 2.0, key order is ignored, true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def failures(vector: Mapping[str, Any]) -> Iterator[str]:
    name = vector.get("name", "?")
    try:
        got = outputs(vector)
    except Exception as exc:  # a runner reports, whatever happens: a raise is a failure to fix
        yield f"FAIL {name}: raised {type(exc).__name__}: {exc}"
        return
    expected = vector.get("expected", {})
    for key in OUTPUTS:
        if key in expected and not same(_sorted(key, expected[key]), got.get(key)):
            yield f"FAIL {name}: {key}: expected {_dump(expected[key])}, got {_dump(got[key])}"


def _sorted(key: str, value: Any) -> Any:
    return (
        sorted(set(value))
        if key == "problems" and isinstance(value, list) and all(isinstance(p, str) for p in value)
        else value
    )


_SURROGATE = re.compile("[\ud800-\udfff]")


def _printable(text: str) -> str:
    """Text safe to write as UTF-8: a lone surrogate (from a vector's JSON escapes) is written as
    its JSON escape instead of crashing the runner."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _dump(value: Any) -> str:
    return _printable(_wire.to_json(value))


def load(path: str) -> Sequence[Mapping[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    vectors = document.get("vectors") if isinstance(document, dict) else None
    if not isinstance(vectors, list) or not all(isinstance(v, dict) for v in vectors):
        raise ValueError("a vectors file is an object whose `vectors` is a list of objects")
    return vectors


def main(argv: Sequence[str], out: TextIO = sys.stdout) -> int:
    if len(argv) != 2 or argv[0] not in ("check", "emit"):
        print("usage: python -m <package>._conformance check|emit VECTORS.json", file=sys.stderr)
        return 2
    try:
        vectors = load(argv[1])
    except (OSError, ValueError) as exc:
        print(f"cannot read {argv[1]}: {exc}", file=sys.stderr)
        return 2
    if argv[0] == "emit":
        for vector in vectors:
            out.write(_dump(emitted(vector)) + "\n")
        return 0
    failed = 0
    for vector in vectors:
        lines = list(failures(vector))
        failed += bool(lines)
        for line in lines:
            out.write(_printable(line) + "\n")
    out.write(f"{len(vectors) - failed} passed, {failed} failed\n")
    return 1 if failed else 0


def _entry(argv: Optional[Sequence[str]] = None) -> None:
    sys.exit(main(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    _entry()
