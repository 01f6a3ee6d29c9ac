"""errgen diff: classify every change between two registries and check the declared version.

Works on the contract views of two linted registries (OLD and NEW). The rules live in `rules`;
the announcement, since and version checks, and the one required-bump function, in `checks`;
renderings in `formats`.
"""

from __future__ import annotations

from dataclasses import replace

from errgen.contract import view
from errgen.diagnostics import Loc
from errgen.diff.checks import announce, declared, required_bump, since_checks, version_checks
from errgen.diff.changes import Change, DiffReport, Place
from errgen.diff.rules import RULES, relative
from errgen.registry.model import Registry

__all__ = ["Change", "DiffReport", "diff", "classify", "empty_registry"]


def classify(old: Registry, new: Registry) -> list[Change]:
    """Every change from OLD to NEW, in rule order (no verdicts)."""
    old_view, new_view = view(old), view(new)
    return [change for rule in RULES for change in rule(old_view, new_view)]


def empty_registry(new: Registry, path: str) -> Registry:
    """What OLD is when the registry is new on the branch: no codes, categories or history, so
    everything is added; its identity (name, problem base, packages, wire shape) is NEW's, as nothing came before."""
    return Registry(name=new.name, version="", categories=(), codes=(), history=(), problem_base=new.problem_base,
                    targets=new.targets, wire=new.wire, path=path)


def diff(old: Registry, new: Registry, *, new_registry: bool = False, bump: str = "errgen bump") -> DiffReport:
    """`bump`: the `errgen bump` command line that compares with this OLD, quoted in the hints."""
    changes, checks = announce(classify(old, new), old, new)
    report = DiffReport(old.version, new.version, new_registry=new_registry,
                        header=new.path if new.fragments else None)
    report.required_bump = required_bump(changes)
    report.declared_bump = declared(old, new)
    checks = version_checks(old, new, report.required_bump, report.declared_bump, bump) + checks
    if not new_registry:
        checks += since_checks(changes, old, new, bump)
    report.changes = [_placed(c, old, new) for c in changes]
    report.checks = checks
    return report


def _placed(change: Change, old: Registry, new: Registry) -> Change:
    """Severity by kind (breaking changes warn, the rest inform; only checks fail), an anchor in
    NEW for changes that exist only in OLD, so annotations point at the checkout, and the owner
    of the code (in NEW, or in OLD for a code that is gone)."""
    severity = "warning" if change.bump == "major" else "info"
    anchor = None
    if change.new is None:
        section = "categories" if change.category and not change.code else "codes"
        anchor = _fragment_anchor(change, old, new) or Place.at(new.path, new.locs.get(section, new.locs.get("version", Loc(1, 1))))
    owner = (new.owners.get(change.code) or old.owners.get(change.code)) if change.code else None
    if change.rule == "owner-changed":
        owner = next((f.owner for f in new.fragments if change.new and f.path == change.new.path), None)
    return replace(change, severity=severity, anchor=anchor, owner=owner)


def _fragment_anchor(change: Change, old: Registry, new: Registry) -> Place | None:
    """A code removed from a fragment that NEW still has: the top of that fragment's file."""
    code = old.code_map.get(change.code or "")
    if code is None or code.loc.path is None:
        return None
    home = relative(old, code.loc.path)
    fragment = next((f for f in new.fragments if relative(new, f.path) == home), None)
    return Place.at(fragment.path, fragment.loc) if fragment else None
