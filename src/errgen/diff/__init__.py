"""errgen diff: classify every change between two registries and check the declared version.

Works on two models (OLD and NEW, both linted first). The rules live in `rules`; the version and
changelog checks in `checks`; output formats in `formats`.
"""

from __future__ import annotations

from dataclasses import replace

from errgen import semver
from errgen.diff.checks import accept, announcement, version_checks
from errgen.diff.model import Change, DiffReport, max_bump
from errgen.diff.rules import RULES
from errgen.model import Registry
from errgen.semver import BUMP_ORDER

__all__ = ["Change", "DiffReport", "diff", "classify"]


def classify(old: Registry, new: Registry) -> list[Change]:
    """Every change from OLD to NEW, in rule order (no version verdicts)."""
    return [change for rule in RULES for change in rule(old, new)]


def diff(old: Registry, new: Registry) -> DiffReport:
    report = DiffReport(old.version, new.version)
    changes, checks = accept(classify(old, new), new)
    report.required_bump = max_bump([("minor" if c.accepted and c.bump == "major" else c.bump) for c in changes])
    old_v, new_v = semver.parse(old.version), semver.parse(new.version)
    report.declared_bump = semver.declared_bump(old_v, new_v) if old_v and new_v else "none"
    checks += version_checks(old, new, report.required_bump, report.declared_bump)
    checks += announcement(changes, new)
    covered = BUMP_ORDER[report.declared_bump] >= BUMP_ORDER[report.required_bump]
    report.changes = [_with_severity(c, covered) for c in changes]
    report.checks = checks
    return report


def _with_severity(change: Change, covered: bool) -> Change:
    if change.bump == "major" and not change.accepted:
        return replace(change, severity="warning" if covered else "error")
    if not covered and change.bump != "none":
        return replace(change, severity="error" if not change.accepted else "warning")
    return replace(change, severity="warning" if change.accepted else "info")
