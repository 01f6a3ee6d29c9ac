"""`errgen validate --responses`: recorded real responses (`{status, headers, body}`, other keys
ignored) read through the registry's response spec by the Python runtime's own reading code, so
validate finds the code where every SDK's `read_http` does (docs/conformance.md, "Reading a real
response"). Findings: the code is unknown, the status is not one the registry gives that code, or
no code is where the registry reads it; not the missing category, retryable or scope a real API
never sends (the registry supplies those)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
import types
from pathlib import Path
from typing import Any, Iterator

from errgen.contract import ContractView
from errgen.registry.model import Registry
from errgen.spelling import Speller, did_you_mean
from errgen.validate.inputs import Record
from errgen.payload_checks import Finding
from errgen.wire import source_text

_RUNTIME = Path(__file__).resolve().parent.parent / "languages" / "python" / "runtime"
_BOUND: dict[int, tuple[object, types.ModuleType, types.ModuleType]] = {}


def reading_modules(contract: ContractView) -> tuple[types.ModuleType, types.ModuleType]:
    """The runtime's `_wire` and `_reading`, loaded from errgen's own copy of the runtime with a
    `_contract` made from this view (the data a built SDK's `_contract.py` holds): the reading
    code is the SDK's, not a restatement. Loaded once per view."""
    hit = _BOUND.get(id(contract))
    if hit is None or hit[0] is not contract:
        if len(_BOUND) > 8:
            _BOUND.clear()
        hit = _BOUND[id(contract)] = (contract, *_load(contract, f"errgen._response_reader_{len(_BOUND)}_{id(contract)}"))
    return hit[1], hit[2]


def _load(contract: ContractView, package: str) -> tuple[types.ModuleType, types.ModuleType]:
    parent = types.ModuleType(package)
    parent.__path__ = []
    data = types.ModuleType(f"{package}._contract")
    for item in dataclasses.fields(contract.policy):  # MAX_JSON_DEPTH, MAX_BODY_BYTES, ... as the template names them
        setattr(data, item.name.upper(), getattr(contract.policy, item.name))
    data.RESPONSE = json.loads(json.dumps(contract.response))  # type: ignore[attr-defined]  # as the SDK reads its literal
    names = [package, data.__name__]
    sys.modules[package], sys.modules[data.__name__] = parent, data
    loaded = []
    try:
        for name in ("_wire", "_reading"):
            spec = importlib.util.spec_from_file_location(f"{package}.{name}", _RUNTIME / f"{name}.py")
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            names.append(spec.name)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
            loaded.append(module)
    finally:  # the modules hold each other once imported: nothing stays registered per view
        for name in names:
            sys.modules.pop(name, None)
    return loaded[0], loaded[1]


@dataclasses.dataclass(frozen=True, slots=True)
class Reading:
    """What `read_http` reads of a response before it builds a payload."""

    error: bool
    code: str | None  # as sent
    registry_code: str | None  # the registry code it selects (a shared wire code resolved by `when`)
    document: Any  # the body as read (JSON or XML), None when unreadable
    text: str
    unreadable_delays: tuple[tuple[str, str], ...] = ()  # (source, value as sent)


def read(contract: ContractView, status: int, headers: Any, body: str) -> Reading:
    """The first steps of the Python runtime's `read_http`, on its own functions (a test holds
    this to the conformance responses' expected readings)."""
    wire, reading = reading_modules(contract)
    too_large = wire.body_too_large(body)
    ok, text = wire.as_text(body)
    text = text[1:] if text.startswith("\ufeff") else text
    xml = contract.response["format"] == "xml" and text.lstrip(" \t\r\n").startswith("<")
    parsed, document = False, None
    if ok and not too_large:
        parsed, document = reading.read_xml(text) if xml else wire.read_json(text)
    found = document if parsed else None
    code = reading.read_code(contract.code_sources, found, headers, status,
                             lambda code: code in contract.code_map or code in contract.response["variants"])
    error = reading.is_error(status, found, headers)
    name = reading.registry_code(code, status, found, headers) if code is not None else None
    return Reading(error, code, name, found, text, tuple(_unreadable_delays(contract, found, headers)))


def _unreadable_delays(contract: ContractView, document: Any, headers: Any) -> Iterator[tuple[str, str]]:
    """(source, value) of each delay source that holds a value its unit cannot read: a client
    then waits its own backoff instead of what the API asked for."""
    _, reading = reading_modules(contract)
    for entry in contract.response["retry_after"]:
        raw = reading.read_source(entry["at"], document, headers, lambda value: value)
        if raw is None or raw == "" or reading.read_source(entry["at"], document, headers, reading.delay_reader(entry["unit"], 0)) is not None:
            continue
        yield f"{source_text(entry['at'])} (unit {entry['unit']})", raw if isinstance(raw, str) else json.dumps(raw)


def as_response(record: Record) -> Record:
    """A record of `--responses` input: status and body taken, headers kept as given (an object or
    [name, value] pairs) for the reader and lower-cased for the leak scan; other keys ignored."""
    value = record.value
    status = value.get("status") if isinstance(value, dict) else None
    if not isinstance(status, int) or isinstance(status, bool) or "body" not in value:
        record.error = "not a recorded response: an object with status (an integer), body and optional headers"
        record.error_rule = "not-a-response"
        return record
    body = value["body"]
    record.value = {"status": status, "headers": value.get("headers") or {},
                    "body": body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)}
    record.http = (status, _lowered(record.value["headers"]))
    return record


def _lowered(headers: Any) -> dict[str, str]:
    pairs = headers.items() if isinstance(headers, dict) else (h for h in headers if isinstance(h, list) and len(h) == 2) \
        if isinstance(headers, list) else ()
    # Repeated names join as HTTP folds them ("a, b"); the values are gathered first and joined
    # once, since adding to the string each time copied it, quadratic in the repeats.
    values: dict[str, list[str]] = {}
    for name, value in pairs:
        values.setdefault(str(name).lower(), []).append(str(value))
    return {key: ", ".join(parts) for key, parts in values.items()}


class ResponseChecker:
    def __init__(self, registry: Registry, contract: ContractView) -> None:
        self.contract = contract
        self.registry = registry
        # Every status each wire code is sent with: its codes' statuses and `when` status conditions.
        self.statuses: dict[str, set[int]] = {}
        for row in contract.codes:
            allowed = self.statuses.setdefault(row.wire_code, set())
            allowed.add(row.http_status)
            for cond in registry.code_map[row.code].when:
                if cond.op == "status":
                    allowed.update(cond.value)
        self.speller = Speller(sorted(self.statuses))

    def check(self, response: dict[str, Any]) -> tuple[Reading, list[Finding]]:
        status = response["status"]
        got = read(self.contract, status, response["headers"], response["body"])
        return got, list(self._findings(status, got))

    def _findings(self, status: int, got: Reading) -> Iterator[Finding]:
        if not got.error:
            return
        for where, value in got.unreadable_delays:
            yield ("delay-unreadable", "warning", f"{where} holds {value[:80]!r}, which is no delay: clients wait their own "
                   "backoff instead (docs/registry.md, retry_after units)", None)
        if got.code is None:
            where = ", ".join(source_text(s) for s in self.contract.code_sources) or "nowhere"
            yield ("no-code", "warning", f"HTTP {status} response carries no code where the registry reads it ({where}); "
                   "clients decide it by its status alone", None)
            return
        if got.registry_code not in self.contract.code_map:
            yield ("unknown-code", "error", f"unknown code {got.code!r}{self._nearest(got.code)}", None)
            return
        allowed = self.statuses.get(got.code) or {self.contract.code_map[got.code].http_status}
        # An error sent with a 1xx/2xx status (recognised by `error_when`: Slack's `ok: false`,
        # GraphQL's `errors`) carries its meaning in the body; the status says nothing about the code.
        if status >= 300 and status not in allowed:
            said = " or ".join(str(s) for s in sorted(allowed))
            yield ("http-status-mismatch", "error", f"{got.code} is sent with HTTP {said}, not {status}", None)

    def _nearest(self, code: str) -> str:
        return did_you_mean(self.speller.nearest(code))

