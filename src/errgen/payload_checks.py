"""The strict verdict on one payload, read from the contract view (not from a generated SDK, so any
registry can be checked without building it). The conformance vectors take their expected
`problems` from here, and every SDK's strict parser must agree with it (docs/conformance.md).
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterator

from errgen.contract import PROBLEM_MEMBERS, ContractView, view
from errgen.registry.model import Registry
from errgen.spelling import Speller, did_you_mean
from errgen import verdict as _verdict

Finding = tuple[str, str, str, str | None]  # (rule, severity, message, field it concerns)
Problem = _verdict.Problem


_SPECS: dict[int, tuple[object, tuple[_verdict.Spec, ...]]] = {}
_SPELLERS: dict[int, tuple[object, Speller]] = {}


def specs(contract: ContractView) -> tuple[_verdict.Spec, ...]:
    """The runtime's field specs, made once per view: a large registry's vectors ask for them
    on every payload."""
    fields = contract.fields
    hit = _SPECS.get(id(fields))
    if hit is None or hit[0] is not fields:
        if len(_SPECS) > 64:
            _SPECS.clear()
        made = tuple(_verdict.Spec(f.name, f.wire, f.type, f.required, f.values, f.hint, f.minimum, f.maximum, f.max_items)
                     for f in fields)
        hit = _SPECS[id(fields)] = (fields, made)
    return hit[1]


def _speller(contract: ContractView) -> Speller:
    """One speller per view, like `specs`: a file of unknown codes asks on every payload."""
    names = contract.code_names
    hit = _SPELLERS.get(id(names))
    if hit is None or hit[0] is not names:
        if len(_SPELLERS) > 64:
            _SPELLERS.clear()
        hit = _SPELLERS[id(names)] = (names, Speller(names))
    return hit[1]


def envelope_problems(contract: ContractView, raw: Any) -> list[Problem]:
    return _verdict.envelope_problems(specs(contract), raw)


def registry_problems(contract: ContractView, raw: dict[str, Any]) -> list[Problem]:
    """The registry's problems, with the nearest known codes named for an unknown one, and what
    the payload sent beside what the registry says for a contradicted `retryable`."""
    found = _verdict.registry_problems(specs(contract), contract.category_names, contract.code_map.get, raw)
    return [(rule, _explained(contract, raw, rule, message), field) for rule, message, field in found]


def _explained(contract: ContractView, raw: dict[str, Any], rule: str, message: str) -> str:
    if rule == "unknown-code":
        return message + _nearest(contract, raw)
    if rule == "retryable-mismatch":
        code = raw[contract.on_wire.code]
        sent = raw[contract.on_wire.retryable]
        said = contract.code_map[code].retryable
        return f"{code}: the payload sent retryable {str(sent).lower()}, but the registry says retryable {str(said).lower()}"
    return message


def _nearest(contract: ContractView, raw: dict[str, Any]) -> str:
    """Known codes that differ only in case or separators first (CARD_DECLINED for card_declined),
    else the closest spellings (errgen.spelling)."""
    return did_you_mean(_speller(contract).nearest(raw[contract.on_wire.code]))



def strict_problems(contract: ContractView, raw: Any) -> list[Problem]:
    """The strict verdict of docs/conformance.md: envelope problems, else registry problems."""
    found = envelope_problems(contract, raw)
    return found if found or not isinstance(raw, dict) else registry_problems(contract, raw)


def problem_ids(contract: ContractView, raw: Any, envelope: list[Problem] | None = None) -> list[str]:
    """Sorted, de-duplicated ids: what every SDK's runner prints as `problems` (no messages,
    so no suggestions are looked for). `envelope`: the payload's envelope problems, if known."""
    found = envelope_problems(contract, raw) if envelope is None else envelope
    if not found and isinstance(raw, dict):
        found = _verdict.registry_problems(specs(contract), contract.category_names, contract.code_map.get, raw)
    return sorted({p[0] for p in found})


def _integral(value: object) -> bool:
    return not isinstance(value, bool) and (isinstance(value, int) or (isinstance(value, float) and value.is_integer()))


class ContractChecker:
    """`errgen validate`'s contract findings: every envelope and registry problem at once (a
    payload is valid exactly when the strict verdict says so), deprecations, HTTP mismatches."""

    def __init__(self, registry: Registry) -> None:
        self.contract = view(registry)
        self.codes = registry.code_map

    def check(self, payload: Any, http: tuple[Any, dict[str, str]] | None) -> Iterator[Finding]:
        if http is not None and isinstance(payload, dict):
            payload = self._without_problem_members(payload)
        found = envelope_problems(self.contract, payload)
        if isinstance(payload, dict):
            found += registry_problems(self.contract, payload)
        for rule, message, field in found:
            yield (rule, "error", message, field)
        if not isinstance(payload, dict):
            return
        name = payload.get(self.contract.on_wire.code)
        code = self.codes.get(name) if isinstance(name, str) else None
        if code is None:
            return
        if code.deprecated:
            instead = f"; use {code.deprecated.replaced_by}" if code.deprecated.replaced_by else ""
            yield ("deprecated-code", "warning", f"{code.name} is deprecated since {code.deprecated.since}{instead}",
                   self.contract.on_wire.code)
        if http is not None:
            yield from self._http(code, payload, http)

    def _without_problem_members(self, payload: dict[str, Any]) -> dict[str, Any]:
        """An RFC 9457 body less the members it adds around the payload, as `from_http` drops
        them: a member that is one of the payload's own wire names (a field renamed `type`) stays."""
        if not {"title", "type"} <= payload.keys():
            return payload
        own = self.contract.on_wire.all()
        return {k: v for k, v in payload.items() if k not in PROBLEM_MEMBERS or k in own}

    def _http(self, code: Any, payload: dict[str, Any], http: tuple[Any, dict[str, str]]) -> Iterator[Finding]:
        status, headers = http
        expected_status = self.contract.code_map[code.name].http_status  # as the view resolves it
        if status != expected_status:
            yield ("http-status-mismatch", "error", f"{code.name} is sent with HTTP {expected_status}, not {status}", None)
        header = headers.get("retry-after", "").strip()
        wire = self.contract.on_wire.retry_after_ms
        delay: Any = payload.get(wire)
        if re.fullmatch(r"[0-9]{1,16}", header) and _integral(delay) and abs(delay) < 2**53:
            expected = math.ceil(int(delay) / 1000)
            if int(header) != expected:
                msg = f"Retry-After: {header} disagrees with {wire} {int(delay)} (expected {expected} s)"
                yield ("retry-after-header-mismatch", "error", msg, wire)


# Article 000's fourth leak: prose that carries what a hint field should.
PROSE_HINTS = re.compile(
    r"did you mean|(?:valid|accepted|allowed|supported) (?:values|options|operators|ones) (?:are|include)|must be one of|one of:|expected one of",
    re.IGNORECASE,
)


def prose_findings(contract: ContractView, payload: dict[str, Any]) -> Iterator[Finding]:
    names = contract.on_wire
    message = payload.get(names.message)
    if isinstance(message, str) and PROSE_HINTS.search(message):
        msg = (f"{names.message} lists suggestions or accepted values in prose; put them in {names.did_you_mean} / "
               f"{names.accepted} (agents branch on fields, never on prose)")
        yield ("message-carries-hints", "warning", msg, names.message)
