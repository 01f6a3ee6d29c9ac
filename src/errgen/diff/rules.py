"""One function per kind of change. Each compares OLD and NEW and yields `Change`s.

Classification (issue 4): additions are minor; wording and default delays are patch; anything a
client built against OLD would misread (a removal, a rename, a changed meaning) is major.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from typing import Callable, Iterator

from errgen import semver
from errgen.diff.model import Change, Place
from errgen.lint.names import identifier_key
from errgen.model import Code, Registry

Rule = Callable[[Registry, Registry], Iterator[Change]]
RULES: list[Rule] = []
RENAME_SIMILARITY = 0.9
# Near-identical descriptions are compared pairwise only within small groups of same-shaped codes,
# so a diff stays linear; in larger groups only identical descriptions count as a rename.
MAX_FUZZY_GROUP = 16


def rule(fn: Rule) -> Rule:
    RULES.append(fn)
    return fn


def _new(reg: Registry, code: Code, field: str | None = None) -> Place:
    return Place.at(reg.path, code.locs.get(field, code.loc) if field else code.loc)


def _pairs(old: Registry, new: Registry) -> Iterator[tuple[Code, Code]]:
    old_codes = old.code_map
    for code in new.codes:
        if code.name in old_codes:
            yield old_codes[code.name], code


def renames(old: Registry, new: Registry) -> tuple[dict[str, str], dict[str, str]]:
    """(declared, probable) renames as {old name: new name}, among codes gone from OLD and new in NEW."""
    removed = {c.name: c for c in old.codes if c.name not in new.code_map}
    added = [c for c in new.codes if c.name not in old.code_map]
    declared = {o: c.name for c in added for o in c.renamed_from if o in removed}
    taken = set(declared.values())
    probable: dict[str, str] = {}
    by_key = {identifier_key(c.name): c for c in added if c.name not in taken}
    by_shape: dict[tuple[str, str, int], list[Code]] = defaultdict(list)
    by_text: dict[tuple[str, str, int, str], Code] = {}
    for c in added:
        if c.name not in taken:
            by_shape[(c.category, c.scope, c.http_status)].append(c)
            by_text.setdefault((c.category, c.scope, c.http_status, c.description), c)
    for name, gone in removed.items():
        if name in declared:
            continue
        shape = (gone.category, gone.scope, gone.http_status)
        twin = by_key.get(identifier_key(name)) or by_text.get((*shape, gone.description))
        candidates = by_shape.get(shape, [])
        if twin is None and len(candidates) <= MAX_FUZZY_GROUP:
            twin = next((c for c in candidates if c.name not in taken and _similar(gone.description, c.description)), None)
        if twin is not None and twin.name not in taken:
            probable[name] = twin.name
            taken.add(twin.name)
    return declared, probable


def _similar(a: str, b: str) -> bool:
    return a == b or difflib.SequenceMatcher(None, a, b).ratio() >= RENAME_SIMILARITY


@rule
def codes_removed_renamed_or_added(old: Registry, new: Registry) -> Iterator[Change]:
    declared, probable = renames(old, new)  # once: both removals and additions depend on it
    new_codes = new.code_map
    for code in old.codes:
        if code.name in new_codes:
            continue
        where_old = Place.at(old.path, code.loc)
        if code.name in declared or code.name in probable:
            target = declared.get(code.name) or probable[code.name]
            how = "renamed" if code.name in declared else "probably renamed (same category, scope, HTTP status and description)"
            rid = "code-renamed" if code.name in declared else "code-probably-renamed"
            msg = f"{code.name} was {how} to {target}: clients built before the rename do not know {target}"
            yield Change(rid, "major", msg, code=code.name, detail=target, old=where_old, new=_new(new, new_codes[target]), affects=(code.name, target))
            continue
        msg = f"{code.name} was removed: clients and services that use it break"
        if code.deprecated and _deprecated_long_enough(code, new.version):
            msg += f" (it was deprecated since {code.deprecated.since}, at least one minor version, which is the right way; it still needs a major version)"
        yield Change("code-removed", "major", msg, code=code.name, old=where_old, affects=(code.name,))
    targets = set(declared.values()) | set(probable.values())
    for code in new.codes:
        if code.name not in old.code_map and code.name not in targets:
            yield Change("code-added", "minor", f"{code.name} was added", code=code.name, new=_new(new, code))


def _deprecated_long_enough(code: Code, version: str) -> bool:
    since, now = semver.parse(code.deprecated.since if code.deprecated else None), semver.parse(version)
    return bool(since and now and (since.major, since.minor) < (now.major, now.minor))


@rule
def code_meaning_changed(old: Registry, new: Registry) -> Iterator[Change]:
    """A code whose category, retryable, default scope, HTTP status or chosen action changed."""
    old_cats, new_cats = old.category_map, new.category_map
    for before, after in _pairs(old, new):
        if before.category != after.category:
            msg = f"{after.name} moved from category {before.category} to {after.category}"
            yield _major("category-changed", msg, before, after, old, new, "category")
        retry_by_category = before.category == after.category and _cat_changed(old_cats, new_cats, after.category, "retryable")
        if before.retryable != after.retryable and not retry_by_category:
            msg = f"{after.name} is now {'retryable' if after.retryable else 'not retryable'}: callers would retry (or give up) wrongly"
            yield _major("retryable-changed", msg, before, after, old, new, "retryable")
        if before.scope != after.scope:
            msg = f"{after.name}'s default scope changed from {before.scope} to {after.scope}"
            yield _major("default-scope-changed", msg, before, after, old, new, "scope")
        if before.http_status != after.http_status:
            msg = f"{after.name}'s HTTP status changed from {before.http_status} to {after.http_status}"
            yield _major("http-status-changed", msg, before, after, old, new, "http_status")
        action_by_category = after.stated_action is None and _cat_changed(old_cats, new_cats, after.category, "action")
        if before.retryable == after.retryable and before.action != after.action and not action_by_category:
            msg = f"{after.name}'s action changed from {before.action or 'escalate'} to {after.action or 'escalate'}"
            yield _major("action-changed", msg, before, after, old, new, "action")


def _cat_changed(old_cats: dict, new_cats: dict, name: str, attr: str) -> bool:  # type: ignore[type-arg]
    return name in old_cats and name in new_cats and getattr(old_cats[name], attr) != getattr(new_cats[name], attr)


def _major(rid: str, msg: str, before: Code, after: Code, old: Registry, new: Registry, field: str, detail: str = "") -> Change:
    return Change(rid, "major", msg, code=after.name, detail=detail, old=Place.at(old.path, before.locs.get(field, before.loc)),
                  new=_new(new, after, field), affects=(after.name,))


@rule
def scopes_and_hints(old: Registry, new: Registry) -> Iterator[Change]:
    for before, after in _pairs(old, new):
        for field, noun in (("scopes", "scope"), ("hints", "hint field")):
            was, now = getattr(before, field), getattr(after, field)
            for item in now:
                if item not in was:
                    rid = "scope-added" if field == "scopes" else "hint-added"
                    yield Change(rid, "minor", f"{after.name} may now carry {noun} {item}", code=after.name, detail=item, new=_new(new, after, field))
            for item in was:
                if item not in now:
                    rid = "scope-removed" if field == "scopes" else "hint-removed"
                    yield _major(rid, f"{after.name} no longer carries {noun} {item}: clients that read it break", before, after, old, new, field, item)


@rule
def deprecations(old: Registry, new: Registry) -> Iterator[Change]:
    for before, after in _pairs(old, new):
        if after.deprecated and not before.deprecated:
            instead = f"; use {after.deprecated.replaced_by}" if after.deprecated.replaced_by else ""
            yield Change("code-deprecated", "minor", f"{after.name} is deprecated{instead}", code=after.name, new=_new(new, after, "deprecated"))


@rule
def wording_and_delays(old: Registry, new: Registry) -> Iterator[Change]:
    for before, after in _pairs(old, new):
        if before.description != after.description:
            yield Change("description-changed", "patch", f"{after.name}'s description changed", code=after.name, new=_new(new, after, "description"))
        if before.retry_after_ms != after.retry_after_ms and before.retryable == after.retryable:
            msg = f"{after.name}'s default retry_after_ms changed from {before.retry_after_ms} to {after.retry_after_ms}"
            yield Change("retry-after-changed", "patch", msg, code=after.name, new=_new(new, after, "retry_after_ms"))


@rule
def categories(old: Registry, new: Registry) -> Iterator[Change]:
    new_cats = new.category_map
    codes_by_category: dict[str, list[str]] = defaultdict(list)
    for code in old.codes:
        codes_by_category[code.category].append(code.name)
    for before in old.categories:
        after = new_cats.get(before.name)
        affected = tuple(codes_by_category[before.name])
        if after is None:
            msg = f"category {before.name} was removed" + (f" (its codes: {', '.join(affected)})" if affected else "")
            yield Change("category-removed", "major", msg, category=before.name, old=Place.at(old.path, before.loc), affects=affected)
            continue
        here = Place.at(new.path, after.loc)
        if before.retryable != after.retryable:
            msg = f"category {after.name} is now {'retryable' if after.retryable else 'not retryable'}; affects {', '.join(affected) or 'no codes'}"
            yield Change("category-retryable-changed", "major", msg, category=after.name, old=Place.at(old.path, before.loc), new=here, affects=affected)
        if before.action != after.action and not after.retryable:
            inheriting = tuple(c for c in affected if c in new.code_map and new.code_map[c].stated_action is None)
            msg = f"category {after.name}'s action changed from {before.action or 'escalate'} to {after.action or 'escalate'}; affects {', '.join(inheriting) or 'no codes'}"
            yield Change("category-action-changed", "major", msg, category=after.name, old=Place.at(old.path, before.loc), new=here, affects=inheriting)
        if before.description != after.description:
            yield Change("category-description-changed", "patch", f"category {after.name}'s description changed", category=after.name, new=here)
    old_names = old.category_map
    for cat in new.categories:
        if cat.name not in old_names:
            yield Change("category-added", "minor", f"category {cat.name} was added", category=cat.name, new=Place.at(new.path, cat.loc))


@rule
def history_text(old: Registry, new: Registry) -> Iterator[Change]:
    new_entries = {h.version: h for h in new.history}
    for entry in old.history:
        now = new_entries.get(entry.version)
        if now is not None and (now.changes != entry.changes or now.date != entry.date):
            yield Change("history-changed", "patch", f"history entry {entry.version} was edited", detail=entry.version, new=Place.at(new.path, now.loc))
