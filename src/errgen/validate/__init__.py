"""errgen validate: check real payloads (fixtures, recorded responses, logs) against the registry,
and catch what must never cross the boundary. Findings stream out as they are found."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from errgen.formats import visible
from errgen.registry.model import Registry
from errgen.validate.verdicts import ContractChecker, prose_findings
from errgen.validate.inputs import Record, records
from errgen.validate.leaks import LeakScanner


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
    def __init__(self, registry: Registry, scanner: LeakScanner) -> None:
        self.contract = ContractChecker(registry)
        self.scanner = scanner
        # An HTTP body carries the payload under this key when the registry's `wire:` says so.
        self.envelope = registry.wire.envelope

    def file(self, name: str) -> Iterator[PayloadFinding]:
        """Raises inputs.Unreadable when the file cannot be read at all."""
        for record in records(name):
            yield from self.record(name, record)

    def record(self, name: str, record: Record) -> Iterator[PayloadFinding]:
        """Every message is masked as a whole: a secret can sit in a code, a category, a key or
        a suggestion as well as in a value, and each of those is quoted in some message."""
        body = record.value  # leaks are looked for in all of it, the envelope's siblings too
        if record.http is not None and self.envelope and isinstance(record.value, dict) and self.envelope in record.value:
            record.value = record.value[self.envelope]
        for rule, severity, message, line in self._findings(record, body):
            yield PayloadFinding(rule, severity, self.scanner.redact(message), name, line, record.index)

    def _findings(self, record: Record, body: Any) -> Iterator[tuple[str, str, str, int]]:
        if record.error is not None:
            yield "invalid-json", "error", record.error, record.line
            return
        for rule, severity, message, field in self.contract.check(record.value, record.http):
            yield rule, severity, message, record.line_of(field) if field else record.line
        if isinstance(record.value, dict):
            for rule, severity, message, field in prose_findings(record.value):
                yield rule, severity, message, record.line_of(field) if field else record.line
        yield from self._leaks(record, body)

    def _leaks(self, record: Record, body: Any) -> Iterator[tuple[str, str, str, int]]:
        """Every string a consumer receives: a recorded response's headers (a token in
        `Set-Cookie`), and the body whatever its shape (a text or HTML 500 page with a stack
        trace is a string, not an object), the envelope's siblings included."""
        for key, text, field in _places(record, body):
            for leak in self.scanner.scan(text):
                # In brackets, not after a colon: `a token: 'ghp_****'` reads as a credential
                # to the masking of the whole message, which would star the recognisable prefix.
                msg = f"{key} contains {leak.kind} ({leak.shown!r}); it must never cross the boundary"
                yield leak.rule, "error", msg, record.line_of(field)


def _places(record: Record, body: Any) -> Iterator[tuple[str, str, str]]:
    """(where, text, the top-level key whose line is reported) for each string to scan."""
    # A header is scanned as `name: value`, as it travels: the name is the context that makes
    # `X-Api-Key: 4f9c...` a key.
    for name, value in (record.http[1] if record.http is not None else {}).items():
        yield f"headers.{name}", f"{name}: {value}", "headers"
    if body is not record.value and isinstance(body, dict):  # what sits beside the envelope
        yield from _top_level(_strings({key: value for key, value in body.items() if value is not record.value}))
    yield from _top_level(_strings(record.value))


def _top_level(strings: Iterator[tuple[str, str]]) -> Iterator[tuple[str, str, str]]:
    return ((key, text, key.split(".")[0].split("[")[0]) for key, text in strings)


def _strings(value: Any) -> Iterator[tuple[str, str]]:
    """Every string in the payload with a dotted path to it, keys included (they can leak too),
    except the contract's own top-level keys. Iterative: any depth the JSON reader accepts."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        prefix, item = stack.pop()
        if isinstance(item, str):
            yield prefix or "payload", item
        elif isinstance(item, dict):
            for key, inner in reversed(item.items()):
                path = f"{prefix}.{key}" if prefix else str(key)
                stack.append((path, inner))
                if prefix or key not in _KNOWN_KEYS:
                    stack.append((path, key))
        elif isinstance(item, list):
            stack.extend((f"{prefix}[{i}]", inner) for i, inner in reversed(list(enumerate(item))))


_KNOWN_KEYS = frozenset(("code", "category", "retryable", "retry_after_ms", "scope", "resource_id", "correlation_id", "message",
                         "searched", "did_you_mean", "accepted", "state", "safe_to_replay"))
