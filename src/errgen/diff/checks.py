"""The verdicts on a diff, each declared like a rule: is every break announced (named in NEW's
history entry, or accepted on purpose), does the declared version cover the changes, does every
new code's `since` name the release it first appears in (a renamed code keeps its own).

`required_bump` is the one place the required bump is computed: `diff`, `bump` and the version
check all call it, so `bump` followed by `diff` always agrees.
"""

from __future__ import annotations

import re
from dataclasses import replace

from errgen import semver
from errgen.diff.changes import RULE_SPECS, Change, Place, declare, max_bump
from errgen.registry.model import AcceptedBreak, HistoryEntry, Registry
from errgen.semver import BUMP_ORDER, Bump

VERSION_BACKWARDS = declare("version-backwards", "none", "check", "NEW's version is lower than OLD's. A release never lowers the version; set it to the version the changes require.", "`version: 16.0.0` -> `version: 9.6.0`")
VERSION_BUMP_INSUFFICIENT = declare("version-bump-insufficient", "none", "check", "NEW's version does not announce the largest change: a breaking change needs a major release (on 0.y.z, y), an addition a minor one, a rewording a patch. `errgen bump` sets the version the changes require.", "a code removed, `version: 1.2.0` -> `1.3.0`")
HISTORY_MISSING_ENTRY = declare("history-missing-entry", "none", "check", "NEW's history has no entry for its version, so the release has no changelog to announce its changes in. `errgen bump` adds one.", "`version: 1.3.0` with no history entry 1.3.0")
BREAK_NOT_ANNOUNCED = declare("break-not-announced", "none", "check", "A breaking change is not announced: NEW's history entry must name each code it breaks, or for a category-level change the category (or the rule id); or list it under the entry's `accepted_breaks` with a reason.", "`SKU_INACTIVE` removed, history entry 2.0.0 says only `Cleanup.`")
ACCEPTED_BREAK_UNUSED = declare("accepted-break-unused", "none", "check", "An `accepted_breaks` item names a rule and a code (or category) where no such breaking change happened. Suppressions never widen: remove it, or fix its rule or subject.", "`accepted_breaks: [{rule: http-status-changed, code: BAD_INPUT}]`, status unchanged")
SINCE_MISMATCH = declare("since-mismatch", "none", "check", "A code's `since` must be the version of the release it first appears in: for a code added by this change, NEW's version; a renamed code keeps the `since` of the code it renames. `errgen bump` sets both.", "`QUOTA_EXCEEDED` added in 2.2.0 with `since: 2.1.0`")

_WORD = re.compile(r"[A-Za-z0-9_]+")
_RULE_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


def required_bump(changes: list[Change]) -> Bump:
    """The smallest release that covers every change; a break accepted on purpose needs a minor one."""
    return max_bump([("minor" if c.announcement == "accepted" else c.bump) for c in changes])


def _check(spec_id: str, message: str, place: Place | None, **kw: object) -> Change:
    return Change(spec_id, "none", message, new=place, severity="error", **kw)  # type: ignore[arg-type]


def _matches(b: AcceptedBreak, change: Change) -> bool:
    if b.rule != change.rule:
        return False
    if RULE_SPECS[change.rule].level == "category":
        return b.category is not None and b.category == change.category
    return b.code is not None and b.code == change.code


def announce(changes: list[Change], old: Registry, new: Registry) -> tuple[list[Change], list[Change]]:
    """Mark each breaking change announced, accepted or not-announced; return the changes and
    the failed announcement checks. An entry OLD already has belongs to a past release: it
    announces nothing new (the version check tells the author to bump)."""
    entry = new.history_entry(new.version)
    if entry is not None and old.history_entry(new.version) is not None:
        entry = None
    breaks = entry.accepted_breaks if entry else ()
    text = " ".join(entry.changes) if entry else ""
    words, rule_words = set(_WORD.findall(text)), set(_RULE_WORD.findall(text))
    used: set[int] = set()
    out: list[Change] = []
    checks: list[Change] = []
    # A code removed, or moved out, with its category is part of that category-level change.
    gone = {c.category for c in changes if c.rule == "category-removed"} & words
    for change in changes:
        if change.bump != "major":
            out.append(change)
            continue
        if change.rule in ("code-removed", "category-changed") and change.category in gone:
            out.append(replace(change, announcement="announced"))
            continue
        match = next((i for i, b in enumerate(breaks) if _matches(b, change)), None)
        if match is not None:
            used.add(match)
            out.append(replace(change, announcement="accepted", reason=breaks[match].reason))
            continue
        missing = _unannounced(change, words, rule_words)
        out.append(replace(change, announcement="not-announced" if missing or entry is None else "announced"))
        if missing and entry is not None:
            checks.append(_not_announced(change, missing, entry, new))
    for i, b in enumerate(breaks):
        if i not in used:
            subject = f"category {b.category}" if b.category else (b.code or "nothing")
            msg = (f"accepted_breaks in history entry {new.version} names {b.rule} on {subject}, but no such breaking change "
                   f"happened; remove the item, or correct its rule or {'category' if b.category else 'code'}")
            checks.append(_check(ACCEPTED_BREAK_UNUSED.id, msg, Place.at(new.path, b.loc), code=b.code, category=b.category, detail=b.rule))
    return out, checks


def _unannounced(change: Change, words: set[str], rule_words: set[str]) -> list[str]:
    """What the history entry would have to name; empty when the change is announced."""
    level = RULE_SPECS[change.rule].level
    if level == "category" and (change.category in words or change.rule in rule_words):
        return []
    if level == "registry":
        key = RULE_SPECS[change.rule].keyword
        return [] if words & {key, f"{key}s", change.detail} or change.rule in rule_words else [key]
    return [code for code in change.affects if code not in words] or ([] if change.affects else [change.subject])


def _not_announced(change: Change, missing: list[str], entry: HistoryEntry, new: Registry) -> Change:
    if RULE_SPECS[change.rule].level == "category":
        todo = f"name category {change.category} (or the rule {change.rule}) in its changes"
        what = f"does not name category {change.category}"
    elif RULE_SPECS[change.rule].level == "registry":
        todo = f"say {missing[0]} (or the rule {change.rule}) in its changes"
        what = f"does not mention {missing[0]}"
    else:
        todo = f"name {', '.join(missing)} in its changes"
        what = f"does not mention {', '.join(missing)}"
    msg = (f"{change.rule} on {change.subject} is not announced: history entry {new.version} {what}; {todo}, "
           f"or list it under accepted_breaks with a reason")
    return _check(BREAK_NOT_ANNOUNCED.id, msg, Place.at(new.path, entry.loc), code=change.code, category=change.category, detail=change.rule)


def since_checks(changes: list[Change], old: Registry, new: Registry, bump: str = "errgen bump") -> list[Change]:
    """A code NEW adds carries since: NEW's version; a renamed code keeps the since of the code it
    renames (the same error under a new name). `bump` is the bump command that compares with the
    same OLD (see `version_checks`)."""
    found = []
    renamed = {c.detail: c.code for c in changes if c.rule in RENAME_RULES}
    for name, want in expected_since(changes, old, new.version, new).items():
        code = new.code_map.get(name)
        if code is None or code.since == want:
            continue
        if name in renamed:
            msg = f"{name} renames {renamed[name]}, which says since: {want}; a rename keeps it: set since: {want} (`{bump}` does)"
        else:
            msg = f"{name} first appears in {new.version} but says since: {code.since}; set since: {new.version} (`{bump}` does)"
        found.append(_check(SINCE_MISMATCH.id, msg, Place.at(new.path, code.locs.get("since", code.loc)), code=name))
    return found


RENAME_RULES = ("code-renamed", "code-probably-renamed")


def _released_between(since: str, old: Registry, version: str, new: Registry | None) -> bool:
    """Whether `since` is a release after OLD's version and before `version` that NEW's history lists."""
    at, low, high = semver.parse(since), semver.parse(old.version), semver.parse(version)
    if None in (at, low, high) or new is None or new.history_entry(since) is None:
        return False
    return semver.less(low, at) and semver.less(at, high)  # type: ignore[arg-type]


def expected_since(changes: list[Change], old: Registry, version: str, new: Registry | None = None) -> dict[str, str]:
    """The `since` each code NEW introduces should say when NEW is released as `version`: that
    version for an addition (or, when OLD is several releases back, the release in between that
    NEW's history lists and the code names); for the new name of a rename, the since of the code
    it renames."""
    found: dict[str, str] = {}
    for c in changes:
        if c.rule == "code-added" and c.code:
            found[c.code] = version
            given = new.code_map[c.code].since if new is not None and c.code in new.code_map else None
            if given is not None and _released_between(given, old, version, new):
                found[c.code] = given
        elif c.rule in RENAME_RULES and c.detail and c.code in old.code_map:
            found[c.detail] = old.code_map[c.code].since
    return found


def version_checks(old: Registry, new: Registry, required: Bump, declared: Bump, bump: str = "errgen bump") -> list[Change]:
    """`bump` is the command that fixes what these checks find: plain `errgen bump` compares with
    HEAD, so once the change is committed it would find nothing to do; the caller names the base
    it compared with (`errgen bump --against REF`)."""
    here = Place.at(new.path, new.locs.get("version", (1, 1)))  # type: ignore[arg-type]
    old_v, new_v = semver.parse(old.version), semver.parse(new.version)
    found: list[Change] = []
    if old_v and new_v and semver.less(new_v, old_v):
        target = semver.bumped(old_v, required) if required != "none" else old_v
        msg = (f"version went backwards from {old.version} to {new.version}: a release never lowers the version; "
               f"set it to {target} or later (`{bump}` sets it)")
        found.append(_check(VERSION_BACKWARDS.id, msg, here, detail=required))
    elif old_v and BUMP_ORDER[declared] < BUMP_ORDER[required]:
        needed = semver.bumped(old_v, required)
        said = f"the version is unchanged at {old.version}" if declared == "none" else f"{old.version} -> {new.version} is a {declared} release"
        msg = f"the changes need a {required} release (version {needed}), but {said}; run `{bump}` to set it and add the history entry"
        found.append(_check(VERSION_BUMP_INSUFFICIENT.id, msg, here, detail=required))
    if new.history_entry(new.version) is None and (required != "none" or old.version != new.version):
        msg = f"history has no entry for version {new.version}; add one that names every breaking change (`{bump}` writes it)"
        found.append(_check(HISTORY_MISSING_ENTRY.id, msg, here))
    return found


def declared(old: Registry, new: Registry) -> Bump:
    old_v, new_v = semver.parse(old.version), semver.parse(new.version)
    if not (old_v and new_v) or semver.less(new_v, old_v):
        return "none"
    return semver.declared_bump(old_v, new_v)
