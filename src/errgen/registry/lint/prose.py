"""Rules on registry text: descriptions must not leak internals, and must not read like
templates for runtime values (agents branch on codes; prose must stay stable)."""

from __future__ import annotations

import re
from typing import Iterator

from errgen.registry.lint.base import Context, Finding, rule
from errgen.leaks import LeakScanner

INTERPOLATED = re.compile(
    # Every alternative starts with one of these (a word of lowercase letters or digits, or a
    # brace, %, $ or quote): said once up front, a position where none can start is passed over
    # after one test, not after one per alternative (a third of the rule's time).
    r"(?=[{%$'\"]|\b[a-z0-9])(?:"
    r"\b[a-z]+_\d{2,}\b"  # an id like contact_4127
    r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"  # a UUID
    r"|\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds?|minutes?|mins?|hours?|days?|KB|MB|GB|bytes|%)(?![\w])"  # a number with a unit
    r"|\{[a-z_]+\}|%[sd]|\$\{[^}]*\}"  # a format placeholder
    # a quoted name; a quote inside or right after a word is an apostrophe (the card's, customers'),
    # and a closing quote follows no space and precedes no letter
    r"|(?<![\w'])'[^'\s][^']{0,40}(?<!\s)'(?![\w])|\"[^\"\s][^\"]{0,40}\""
    r")"
)


# A character every INTERPOLATED match holds (a digit, a brace, %, $, a quote, or the hyphens of
# a UUID): found by one quick scan, so plain prose skips the slow alternation.
_MAY_INTERPOLATE = re.compile(r"[0-9{%$'\"-]")


def _described(ctx: Context) -> Iterator[tuple[str, str, str, object]]:
    for cat in ctx.registry.categories:
        yield "category", cat.name, cat.description, cat.locs.get("description", cat.loc)
    for code in ctx.registry.codes:
        yield "code", code.name, code.description, code.locs.get("description", code.loc)


@rule("description-leak")
def description_leak(ctx: Context) -> Iterator[Finding]:
    """Descriptions carry no stack trace, secret, internal hostname or file path: they ship in every SDK."""
    scanner = LeakScanner()
    described = list(_described(ctx))
    if not scanner.may_leak("\n".join(text for _, _, text, _ in described)):
        return  # the usual case, found in one pass over all the prose
    for kind, name, text, loc in described:
        for leak in scanner.scan(text):
            yield Finding(f"{kind} {name} description contains {leak.kind} ({leak.shown!r}); it ships to every consumer", loc)  # type: ignore[arg-type]


@rule("description-interpolates")
def description_interpolates(ctx: Context) -> Iterator[Finding]:
    """A description is fixed text; one that looks like it carries a runtime value (an id, a number
    with a unit, a quoted name) invites prose that changes per call (warning)."""
    for kind, name, text, loc in _described(ctx):
        match = _MAY_INTERPOLATE.search(text) and INTERPOLATED.search(text)
        if match:
            msg = f"{kind} {name} description looks like it carries a runtime value ({match.group(0)!r}); keep values in payload fields"
            yield Finding(msg, loc, "warning")  # type: ignore[arg-type]
