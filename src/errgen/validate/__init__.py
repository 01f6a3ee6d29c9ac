"""errgen validate: check real payloads (fixtures, recorded responses, logs) against the registry,
and catch what must never cross the boundary. Findings stream out as they are found."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from errgen.model import Registry
from errgen.validate.contract import ContractChecker, prose_findings
from errgen.validate.inputs import Record, records
from errgen.validate.leaks import LeakScanner


@dataclass(frozen=True, slots=True)
class PayloadFinding:
    rule: str
    severity: str
    message: str
    path: str
    line: int
    index: int

    def text(self) -> str:
        return f"{self.path}:{self.line}: {self.severity}[{self.rule}]: payload {self.index}: {self.message}"


class Validator:
    def __init__(self, registry: Registry, scanner: LeakScanner) -> None:
        self.contract = ContractChecker(registry)
        self.scanner = scanner

    def file(self, name: str) -> Iterator[PayloadFinding]:
        """Raises inputs.Unreadable when the file cannot be read at all."""
        for record in records(name):
            yield from self.record(name, record)

    def record(self, name: str, record: Record) -> Iterator[PayloadFinding]:
        if record.error is not None:
            yield PayloadFinding("invalid-json", "error", record.error, name, record.line, record.index)
            return
        for rule, severity, message, field in self.contract.check(record.value, record.http):
            line = record.line_of(field) if field else record.line
            yield PayloadFinding(rule, severity, message, name, line, record.index)
        if isinstance(record.value, dict):
            for rule, severity, message, field in prose_findings(record.value):
                yield PayloadFinding(rule, severity, message, name, record.line_of(field) if field else record.line, record.index)
            for key, text in _strings(record.value):
                for leak in self.scanner.scan(text):
                    msg = f"{key} contains {leak.kind}: {leak.shown!r}; it must never cross the boundary"
                    yield PayloadFinding(leak.rule, "error", msg, name, record.line_of(key.split(".")[0]), record.index)


def _strings(value: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    """Every string in the payload with a dotted path to it (keys are scanned too: they can leak)."""
    if isinstance(value, str):
        yield prefix or "payload", value
    elif isinstance(value, dict):
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if isinstance(key, str) and not prefix and key not in _KNOWN_KEYS:
                yield path, key
            yield from _strings(item, path)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, f"{prefix}[{i}]")


_KNOWN_KEYS = frozenset(("code", "category", "retryable", "retry_after_ms", "scope", "resource_id", "correlation_id", "message",
                         "searched", "did_you_mean", "accepted", "state", "safe_to_replay"))
