"""What a diff reports: changes between two registries, each with the semver bump it requires,
and the rule declarations every change and check refers to."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

from errgen.diagnostics import Loc
from errgen.semver import BUMP_ORDER, Bump

Level = Literal["code", "category", "registry", "check"]
# How a breaking change was told to consumers: named in the history entry, shipped on purpose
# (`accepted_breaks`, with its reason), or not at all. Non-breaking changes carry None.
Announcement = Literal["announced", "accepted", "not-announced"]
DOCS = "diff-rules.md"  # the page of errgen's documentation (errgen.manual) every rule has a heading in


@dataclass(frozen=True)
class Place:
    path: str
    line: int
    column: int

    @classmethod
    def at(cls, path: str, loc: Loc) -> "Place":
        """`loc` in the registry at `path`, or in the fragment file it names."""
        return cls(loc.path or path, loc.line, loc.column)


@dataclass(frozen=True)
class RuleSpec:
    """One diff rule or check, declared once: docs/diff-rules.md and SARIF are rendered from it."""

    id: str
    bump: Bump  # what the change requires; "none" for checks
    level: Level
    description: str
    example: str  # a before -> after pair in registry terms
    # A registry-level break is announced by this word in the history entry (or the rule id).
    keyword: str = ""

    @property
    def doc(self) -> str | None:
        """The link to its section under the `docs-url` setting (absolute, so it resolves in a PR
        comment or a SARIF viewer); None without the setting."""
        from errgen import manual

        return manual.url(DOCS, self.id)

    @property
    def command(self) -> str:
        """The command that prints its section, wherever errgen is installed."""
        from errgen import manual

        return manual.command(self.id)


RULE_SPECS: dict[str, RuleSpec] = {}


def declare(id: str, bump: Bump, level: Level, description: str, example: str, keyword: str = "") -> RuleSpec:
    if id in RULE_SPECS:
        raise ValueError(f"diff rule {id} declared twice")
    if level == "registry" and bump == "major" and not keyword:
        raise ValueError(f"diff rule {id} is a registry-level break: declare the keyword that announces it")
    spec = RULE_SPECS[id] = RuleSpec(id, bump, level, description, example, keyword)
    return spec


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
    affects: tuple[str, ...] = ()  # every code a consumer must hear about
    announcement: Announcement | None = None
    reason: str = ""  # why a break was accepted
    # Where an annotation goes when the change has no place in NEW (a removal): the section of
    # the checked-out file it was removed from, never the old revision's path.
    anchor: Place | None = None
    severity: str = "info"  # error: a failed check; warning: a breaking change; info: the rest
    owner: str | None = None  # in a folder registry: the owner of the code's fragment (None: the header's)
    # Set on a masked copy for printing (diff.output.masked): the fingerprint of the text before masking.
    pinned_fingerprint: str = ""

    @property
    def fingerprint(self) -> str:
        """Stable across message rewording: rule, subject and detail only."""
        if self.pinned_fingerprint:
            return self.pinned_fingerprint
        key = "\0".join((self.rule, self.code or "", self.category or "", self.detail))
        return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]

    @property
    def where(self) -> Place | None:
        return self.new or self.anchor or self.old

    @property
    def subject(self) -> str:
        return self.code or self.category or (self.detail if RULE_SPECS[self.rule].level != "check" else "")


@dataclass
class DiffReport:
    old_version: str
    new_version: str
    changes: list[Change] = field(default_factory=list)
    required_bump: Bump = "none"
    declared_bump: Bump = "none"
    checks: list[Change] = field(default_factory=list)  # failed version, since and announcement checks
    new_registry: bool = False  # OLD did not exist: everything in NEW is added
    # A folder registry's report is grouped by owner; changes with no owner go under this name
    # (the header's file). None: a single file, no grouping.
    header: str | None = None

    @property
    def ok(self) -> bool:
        return not self.checks

    @property
    def all(self) -> list[Change]:
        return self.changes + self.checks

    def group(self, bump: Bump, changes: list[Change] | None = None) -> list[Change]:
        return [c for c in (self.changes if changes is None else changes) if c.bump == bump]

    def by_owner(self) -> list[tuple[str, list[Change]]]:
        """The changes per owner, owners in name order and the header's last; one group, named
        "", when the registry has no fragments."""
        if self.header is None:
            return [("", self.changes)]
        groups: dict[str, list[Change]] = {}
        for c in self.changes:
            groups.setdefault(c.owner or "", []).append(c)
        named = sorted(k for k in groups if k)
        return [(k, groups[k]) for k in named] + ([(f"{self.header} (no owner)", groups[""])] if "" in groups else [])


def max_bump(bumps: list[Bump]) -> Bump:
    return max(bumps, key=BUMP_ORDER.__getitem__, default="none")
