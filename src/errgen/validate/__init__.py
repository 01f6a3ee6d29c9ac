"""errgen validate: check real payloads (fixtures, recorded responses, logs) against the registry,
and catch what must never cross the boundary. Findings stream out as they are found."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from errgen.envelope import unenveloped
from errgen.formats import visible
from errgen.registry.model import Registry
from errgen.payload_checks import ContractChecker, prose_findings
from errgen.validate.inputs import Record, records
from errgen.validate.responses import ResponseChecker, as_response
from errgen.leaks import LeakScanner


@dataclass(frozen=True, slots=True)
class PayloadFinding:
    rule: str
    severity: str
    message: str
    path: str
    line: int
    index: int  # 0-based, as in a JSON array (the json format's `index`)

    @property
    def number(self) -> int:
        """The payload's 1-based number, as people (and line numbers) count: `payload 1` is the first."""
        return self.index + 1

    def text(self) -> str:
        # One line, whatever the payload holds: never a workflow command or an escape sequence.
        return f"{visible(self.path)}:{self.line}: {self.severity}[{self.rule}]: payload {self.number}: {visible(self.message)}"


class Validator:
    """`responses`: every record is a recorded real response, read through the registry's
    response spec (errgen.validate.responses) rather than checked as a payload."""

    def __init__(self, registry: Registry, scanner: LeakScanner, responses: bool = False) -> None:
        self.contract = ContractChecker(registry)
        self.scanner = scanner
        self.responses = ResponseChecker(registry, self.contract.contract) if responses else None
        self.known = self.contract.contract.on_wire.all()  # the payload's own keys, on the wire

    def file(self, name: str) -> Iterator[PayloadFinding]:
        """Raises inputs.Unreadable when the file cannot be read at all."""
        for record in records(name, as_response if self.responses else None):
            yield from self.record(name, record)

    def record(self, name: str, record: Record) -> Iterator[PayloadFinding]:
        """Every message is masked as a whole: a secret can sit in a code, a category, a key or
        a suggestion as well as in a value, and each of those is quoted in some message."""
        if self.responses is not None:
            found = self._response(record)
        else:
            body = record.value  # leaks are looked for in all of it, the envelope's siblings too
            record.value = unenveloped(self.contract.contract, record.value)  # as every SDK's read_http takes it
            found = self._findings(record, body)
        listed = list(found)
        # Most records' messages hold no secret's needle: found in one pass over them all joined,
        # rather than one per message (a payload of 40,000 unknown keys is 40,000 messages).
        redact = self.scanner.redact if self.scanner.may_mask("\n".join(m for _, _, m, _ in listed)) else str
        for rule, severity, message, line in listed:
            yield PayloadFinding(rule, severity, redact(message), name, line, record.index)

    def _response(self, record: Record) -> Iterator[tuple[str, str, str, int]]:
        if record.error is not None:
            yield record.error_rule, "error", record.error, record.line
            return
        assert self.responses is not None
        reading, findings = self.responses.check(record.value)
        for rule, severity, message, _field in findings:
            yield rule, severity, message, record.line
        # Leaks: the headers, and the body as the reader read it (its text when it read none).
        record.value = reading.document if reading.document is not None else reading.text
        yield from self._leaks(record, record.value)

    def _findings(self, record: Record, body: Any) -> Iterator[tuple[str, str, str, int]]:
        if record.error is not None:
            yield record.error_rule, "error", record.error, record.line
            return
        for rule, severity, message, field in self.contract.check(record.value, record.http):
            yield rule, severity, message, record.line_of(field) if field else record.line
        if isinstance(record.value, dict):
            for rule, severity, message, field in prose_findings(self.contract.contract, record.value):
                yield rule, severity, message, record.line_of(field) if field else record.line
        yield from self._leaks(record, body)

    def _leaks(self, record: Record, body: Any) -> Iterator[tuple[str, str, str, int]]:
        """Every string a consumer receives: a recorded response's headers (a token in
        `Set-Cookie`), and the body whatever its shape (a text or HTML 500 page with a stack
        trace is a string, not an object), the envelope's siblings included."""
        places = list(_places(record, body, self.known))
        if not self.scanner.may_leak("\n".join(text for _, text, _ in places)):
            return  # no pattern's needle in any of them: found in one pass, not one per string
        for key, text, field in places:
            for leak in self.scanner.scan(text):
                # In brackets, not after a colon: `a token: 'ghp_****'` reads as a credential
                # to the masking of the whole message, which would star the recognisable prefix.
                msg = f"{key} contains {leak.kind} ({leak.shown!r}); it must never cross the boundary"
                yield leak.rule, "error", msg, record.line_of(field)


def _places(record: Record, body: Any, known: frozenset[str]) -> Iterator[tuple[str, str, str]]:
    """(where, text, the top-level key whose line is reported) for each string to scan."""
    # A header is scanned as `name: value`, as it travels: the name is the context that makes
    # `X-Api-Key: 4f9c...` a key.
    for name, value in (record.http[1] if record.http is not None else {}).items():
        yield f"headers.{name}", f"{name}: {value}", "headers"
    if body is not record.value and isinstance(body, dict):  # what sits beside the envelope
        yield from _top_level(_strings({key: _besides(value, record.value) for key, value in body.items()
                                        if value is not record.value}, frozenset()))
    yield from _top_level(_strings(record.value, known))


def _besides(value: Any, payload: Any) -> Any:
    """An array envelope's entries other than the payload (scanned as the API's own; the payload
    itself, with its known keys, below), each at its own index."""
    if isinstance(value, list) and any(entry is payload for entry in value):
        return [None if entry is payload else entry for entry in value]
    return value


def _top_level(strings: Iterator[tuple[str, str]]) -> Iterator[tuple[str, str, str]]:
    return ((key, text, key.split(".")[0].split("[")[0]) for key, text in strings)


def _strings(value: Any, known: frozenset[str]) -> Iterator[tuple[str, str]]:
    """Every string in the payload with a dotted path to it, keys included (they can leak too),
    except the contract's own top-level keys (`known`, their wire names). Iterative: any depth the JSON reader accepts."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        prefix, item = stack.pop()
        if isinstance(item, str):
            yield prefix or "payload", item
        elif isinstance(item, dict):
            for key, inner in reversed(item.items()):
                path = f"{prefix}.{key}" if prefix else str(key)
                stack.append((path, inner))
                if prefix or key not in known:
                    stack.append((path, key))
        elif isinstance(item, list):
            stack.extend((f"{prefix}[{i}]", inner) for i, inner in reversed(list(enumerate(item))))

