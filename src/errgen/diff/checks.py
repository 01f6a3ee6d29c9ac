"""The verdicts on a diff: does the declared version cover the changes, does the changelog
announce every break, and which breaks were accepted on purpose (`accepted_breaks`)."""

from __future__ import annotations

import re
from dataclasses import replace

from errgen import semver
from errgen.diff.model import Change, Place
from errgen.model import Registry
from errgen.semver import BUMP_ORDER


def accept(changes: list[Change], new: Registry) -> tuple[list[Change], list[Change]]:
    """Mark changes named by the NEW version's `accepted_breaks` (one rule and one code each)."""
    entry = new.history_entry(new.version)
    breaks = entry.accepted_breaks if entry else ()
    used: set[int] = set()
    out = []
    for change in changes:
        subject = change.code or change.category
        match = next((i for i, b in enumerate(breaks) if b.rule == change.rule and b.code == subject), None)
        if match is not None and change.bump == "major":
            used.add(match)
            out.append(replace(change, accepted=True, message=f"{change.message} [accepted: {breaks[match].reason}]"))
        else:
            out.append(change)
    unused = [
        Change("accepted-break-unused", "none", f"accepted_breaks names {b.rule} on {b.code}, but no such breaking change happened; remove it",
               code=b.code, detail=b.rule, new=Place.at(new.path, b.loc), severity="error")
        for i, b in enumerate(breaks) if i not in used
    ]
    return out, unused


def version_checks(old: Registry, new: Registry, required: str, declared: str) -> list[Change]:
    here = Place.at(new.path, new.locs.get("version", (1, 1)))  # type: ignore[arg-type]
    old_v, new_v = semver.parse(old.version), semver.parse(new.version)
    found: list[Change] = []
    if old_v and new_v and semver.less(new_v, old_v):
        found.append(Change("version-backwards", "none", f"version went backwards from {old.version} to {new.version}", new=here, severity="error"))
    elif BUMP_ORDER[declared] < BUMP_ORDER[required] and old_v:
        needed = semver.bumped(old_v, required)  # type: ignore[arg-type]
        said = "version is unchanged" if declared == "none" else f"version {old.version} -> {new.version} announces a {declared} change"
        msg = f"these changes need a {required} bump (at least {needed}), but {said}; run `errgen bump`"
        found.append(Change("version-bump-insufficient", "none", msg, new=here, detail=required, severity="error"))
    if new.history_entry(new.version) is None:
        found.append(Change("history-missing-entry", "none", f"history has no entry for version {new.version}", new=here, severity="error"))
    return found


def announcement(changes: list[Change], new: Registry) -> list[Change]:
    """The changelog entry of NEW's version must name every code a break concerns."""
    entry = new.history_entry(new.version)
    words = set(re.findall(r"[A-Za-z0-9_]+", " ".join(entry.changes))) if entry else set()
    found = []
    for change in changes:
        if change.bump != "major" or change.accepted:
            continue
        missing = [code for code in change.affects if code not in words]
        if missing and entry is not None:
            msg = f"history entry {new.version} does not mention {', '.join(missing)} ({change.rule}); tell consumers what broke"
            place = Place.at(new.path, entry.loc)
            found.append(Change("break-not-announced", "none", msg, code=change.code, category=change.category, detail=change.rule, new=place, severity="error"))
    return found
