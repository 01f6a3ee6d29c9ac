"""Diagnostics: what every step reports instead of raising."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Iterable, Literal, NamedTuple

from errgen.render_text import visible

Severity = Literal["error", "warning"]


class Loc(NamedTuple):
    """A 1-based position in a file, as editors count (a tuple: the loader makes one per node).
    `path` names the file when it is not the registry's own (a fragment of a composed registry)."""

    line: int
    column: int
    path: str | None = None


@dataclass(frozen=True, slots=True)
class Diagnostic:
    rule: str
    message: str
    path: str
    line: int
    column: int
    severity: Severity = "error"

    def text(self) -> str:
        """One line, whatever the path or message holds: a CI log reads a line that starts with
        `::` as a workflow command, and a terminal obeys escape sequences."""
        return f"{visible(self.path)}:{self.line}:{self.column}: {self.severity}[{self.rule}]: {visible(self.message)}"


def diag(rule: str, message: str, path: str, loc: Loc, severity: Severity = "error") -> Diagnostic:
    return Diagnostic(rule, message, loc.path or path, loc.line, loc.column, severity)


def sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.path, d.line, d.column, d.rule)


def has_errors(diags: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diags)


def render(diags: list[Diagnostic], fmt: str) -> str:
    ordered = sorted(diags, key=sort_key)
    if fmt == "json":
        return json.dumps([asdict(d) for d in ordered], indent=2, ensure_ascii=False)
    lines = [d.text() for d in ordered]
    errors = sum(d.severity == "error" for d in ordered)
    warnings = len(ordered) - errors
    if ordered:
        lines.append(f"Found {errors} error(s), {warnings} warning(s).")
    return "\n".join(lines)


class Fatal(Exception):
    """A problem that stops a step before it can report anything else (unreadable file, bad YAML)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.text())
        self.diagnostic = diagnostic
