"""What a diff reports: changes between two registries, each with the semver bump it requires."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from errgen.diagnostics import Loc
from errgen.semver import BUMP_ORDER, Bump


@dataclass(frozen=True)
class Place:
    path: str
    line: int
    column: int

    @classmethod
    def at(cls, path: str, loc: Loc) -> "Place":
        return cls(path, loc.line, loc.column)


@dataclass(frozen=True)
class Change:
    rule: str
    bump: Bump
    message: str
    code: str | None = None  # the code concerned, if any
    category: str | None = None  # the category concerned, for category-level changes
    detail: str = ""  # what distinguishes two changes of one rule on one subject (a scope, a hint)
    old: Place | None = None
    new: Place | None = None
    affects: tuple[str, ...] = ()  # every code a consumer must hear about (for the changelog check)
    accepted: bool = False
    severity: str = "info"  # error: blocks CI; warning: breaking but announced; info: minor or patch

    @property
    def fingerprint(self) -> str:
        """Stable across message rewording: rule, subject and detail only."""
        key = "\0".join((self.rule, self.code or "", self.category or "", self.detail))
        return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]

    @property
    def where(self) -> Place | None:
        return self.new or self.old


@dataclass
class DiffReport:
    old_version: str
    new_version: str
    changes: list[Change] = field(default_factory=list)
    required_bump: Bump = "none"
    declared_bump: Bump = "none"
    checks: list[Change] = field(default_factory=list)  # version and announcement findings

    @property
    def ok(self) -> bool:
        return not any(c.severity == "error" for c in self.changes + self.checks)

    @property
    def all(self) -> list[Change]:
        return self.changes + self.checks


def max_bump(bumps: list[Bump]) -> Bump:
    return max(bumps, key=BUMP_ORDER.__getitem__, default="none")
