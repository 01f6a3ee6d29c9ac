"""Rules on versions and history: the contract's own changelog."""

from __future__ import annotations

import datetime
from typing import Iterator

from errgen import semver
from errgen.registry.lint.base import Context, Finding, rule


@rule("version-semver")
def version_semver(ctx: Context) -> Iterator[Finding]:
    """`version`, every `since` and every history version are semantic versions (MAJOR.MINOR.PATCH)."""
    reg = ctx.registry
    places = [] if "version" in ctx.broken else [("version", reg.version, reg.locs["version"])]
    for code in reg.codes:
        places.append((f"code {code.name} since", code.since, code.locs["since"]))
        if code.deprecated:
            places.append((f"code {code.name} deprecated.since", code.deprecated.since, code.locs["deprecated.since"]))
    places += [("history version", h.version, h.loc) for h in reg.history]
    for what, value, loc in places:
        if semver.parse(value) is None:
            yield Finding(f"{what} {value!r} is not a semantic version like 1.4.0", loc)


@rule("since-after-version")
def since_after_version(ctx: Context) -> Iterator[Finding]:
    """A code cannot be introduced (or deprecated) after the registry's own version."""
    current = semver.parse(ctx.registry.version)
    if current is None:
        return
    for code in ctx.registry.codes:
        checks = [("since", code.since, code.locs["since"])]
        if code.deprecated:
            checks.append(("deprecated.since", code.deprecated.since, code.locs["deprecated.since"]))
        for what, value, loc in checks:
            parsed = semver.parse(value)
            if parsed is not None and semver.less(current, parsed):
                yield Finding(f"code {code.name}: {what} {value} is later than the registry version {ctx.registry.version}", loc)


@rule("history-order")
def history_order(ctx: Context) -> Iterator[Finding]:
    """History lists each released version once, oldest first."""
    previous = None
    for entry in ctx.registry.history:
        parsed = semver.parse(entry.version)
        if parsed is None:
            continue
        if previous is not None and not semver.less(previous, parsed):
            yield Finding(f"history entry {entry.version} must come after {previous}; list versions oldest first, once each", entry.loc)
        previous = parsed


@rule("history-current")
def history_current(ctx: Context) -> Iterator[Finding]:
    """The last history entry is the registry's current version."""
    reg = ctx.registry
    if ctx.broken & {"version", "history"} or semver.parse(reg.version) is None:
        return
    if not reg.history:
        yield Finding(f"history is empty; add an entry for version {reg.version}", reg.locs["history"])
    elif reg.history[-1].version != reg.version:
        yield Finding(f"the last history entry is {reg.history[-1].version}, but version is {reg.version}; add an entry for {reg.version}", reg.history[-1].loc)


@rule("history-date")
def history_date(ctx: Context) -> Iterator[Finding]:
    """History dates are calendar dates, YYYY-MM-DD."""
    for entry in ctx.registry.history:
        try:
            datetime.date.fromisoformat(entry.date)
        except ValueError:
            yield Finding(f"history entry {entry.version}: date {entry.date!r} is not a date like 2026-01-10", entry.loc)


@rule("problem-base")
def problem_base(ctx: Context) -> Iterator[Finding]:
    """`problem_base`, when set, is an absolute http(s) URI ending in '/' (RFC 9457 problem types are built on it)."""
    base = ctx.registry.problem_base
    if base is not None and not (base.startswith(("https://", "http://")) and base.endswith("/")):
        yield Finding(f"problem_base {base!r} must be an absolute http(s) URI ending in '/'", ctx.registry.locs["problem_base"])


@rule("since-not-in-history")
def since_not_in_history(ctx: Context) -> Iterator[Finding]:
    """A code's `since` (and `deprecated.since`) names a released version: one with a history entry,
    or one older than the first entry (released before the registry began)."""
    if ctx.broken & {"history"}:
        return
    released = {h.version for h in ctx.registry.history}
    first = semver.parse(ctx.registry.history[0].version) if ctx.registry.history else None
    for code in ctx.registry.codes:
        checks = [("since", code.since, code.locs["since"])]
        if code.deprecated:
            checks.append(("deprecated.since", code.deprecated.since, code.locs["deprecated.since"]))
        for what, value, loc in checks:
            parsed = semver.parse(value)
            # An API has releases from before it adopted errgen (Stripe's and Kubernetes' codes are
            # older than their first errgen contract): a version older than the first entry is one.
            if parsed is not None and value not in released and not (first is not None and semver.less(parsed, first)):
                yield Finding(f"code {code.name}: {what} {value} has no history entry; use the version of the release "
                              f"the code first appeared in (one of {', '.join(sorted(released, key=_order)) or 'none'})", loc)


def _order(version: str) -> tuple:  # type: ignore[type-arg]
    parsed = semver.parse(version)
    return parsed.sort_key() if parsed else (0,)
