"""Rules on names: codes and categories are wire values; the registry name and overrides become identifiers."""

from __future__ import annotations

import re
from typing import Iterator

from errgen import identifiers
from errgen.diagnostics import Loc
from errgen.registry.lint.base import Context, Finding, nearest, rule
from errgen.registry.model import ENVELOPE_ARRAY, FIELD_NAMES

UPPER_SNAKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
LOWER_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
MAX_NAME_LENGTH = 50


@rule("registry-name")
def registry_name(ctx: Context) -> Iterator[Finding]:
    """The registry `name` is lower_snake, at most 50 characters: it names the packages and their
    folders (acme_errors, acme-errors), which every file system and registry must accept."""
    reg = ctx.registry
    if "name" in ctx.broken:
        return
    if len(reg.name) > MAX_NAME_LENGTH:  # checked first: an absurd name is not worth scanning or quoting
        yield Finding(f"registry name {reg.name[:20]!r}... has {len(reg.name)} characters; at most {MAX_NAME_LENGTH}", reg.locs["name"])
    elif not LOWER_SNAKE.fullmatch(reg.name):
        yield Finding(f"registry name {reg.name!r} must be lower_snake (like 'acme' or 'acme_billing')", reg.locs["name"])


# A code or category is the exact string on the wire (`card_declined`, `NoSuchBucket`, `23505`,
# `com.amazonaws.dynamodb.v20120810#ResourceNotFoundException`): each language derives its own
# identifier from the words in it (errgen.identifiers), so only what no wire format can carry is refused.
WIRE_VALUE = re.compile(r"[A-Za-z0-9_.:#/-]+")
MAX_CODE_LENGTH = 128
IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*")
FIELD_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*")
# `wire.envelope`: a wire name, or a wire name and `[*]` (the key holds an array of payloads).
ENVELOPE = re.compile(f"{FIELD_NAME.pattern}(?:{re.escape(ENVELOPE_ARRAY)})?")


def _wire_value_problem(kind: str, name: str) -> str | None:
    if not WIRE_VALUE.fullmatch(name):
        bad = sorted({ch for ch in name if not WIRE_VALUE.fullmatch(ch)})
        shown = ", ".join(repr(ch) for ch in bad[:5])
        return (f"{kind} {name!r} contains {shown}: a {kind} is sent on the wire as is, so it may hold only "
                "ASCII letters, digits and _ - . : # /")
    if not identifiers.words(name):
        return f"{kind} {name!r} has no letters or digits to name it after in generated code; add `identifier:`"
    return None


@rule("code-name")
def code_name(ctx: Context) -> Iterator[Finding]:
    """A code is its exact wire value: ASCII letters, digits and `_ - . : # /`, case-sensitive (`card_declined`, `NoSuchBucket`, `23505`)."""
    for code in ctx.registry.codes:
        problem = _wire_value_problem("code", code.name)
        if problem and not (code.identifier and WIRE_VALUE.fullmatch(code.name)):
            yield Finding(problem, code.loc)


@rule("code-name-length")
def code_name_length(ctx: Context) -> Iterator[Finding]:
    """A code has at most 128 characters."""
    for code in ctx.registry.codes:
        if len(code.name) > MAX_CODE_LENGTH:
            yield Finding(f"code {code.name[:40]!r}... has {len(code.name)} characters; at most {MAX_CODE_LENGTH}", code.loc)


@rule("category-name")
def category_name(ctx: Context) -> Iterator[Finding]:
    """A category is its exact wire value, under the same rules as a code (at most 128 characters)."""
    for cat in ctx.registry.categories:
        problem = _wire_value_problem("category", cat.name)
        if len(cat.name) > MAX_CODE_LENGTH:
            problem = f"category {cat.name[:40]!r}... has {len(cat.name)} characters; at most {MAX_CODE_LENGTH}"
        if problem and not (cat.identifier and WIRE_VALUE.fullmatch(cat.name)):
            yield Finding(problem, cat.loc)


@rule("identifier-name")
def identifier_name(ctx: Context) -> Iterator[Finding]:
    """An `identifier:` override is letters, digits and single underscores, starting with a letter (e.g. CARD_DECLINED_V2)."""
    owners = [("code", c.name, c.identifier, c.locs) for c in ctx.registry.codes]
    owners += [("category", c.name, c.identifier, c.locs) for c in ctx.registry.categories]
    for kind, name, identifier, locs in owners:
        if identifier is not None and not IDENTIFIER.fullmatch(identifier):
            yield Finding(f"{kind} {name}: identifier {identifier!r} must be letters, digits and single underscores, "
                          "starting with a letter", locs["identifier"])


def _identifiers(kind: str, name: str, identifier: str | None) -> dict[str, str]:
    """What each language that names codes and categories calls this one before any clash is
    resolved (TypeScript names none: codes stay string literals there). The targets name them
    with these same functions, so a collision here is a same identifier there, nothing else."""
    from errgen.languages import all_languages  # each language names them as its declaration says

    found = tuple(identifiers.words(identifier or name))
    return {language.name.capitalize(): language.identifier(kind, name, found)
            for language in all_languages() if language.identifier is not None}


def _suggestion(kind: str, name: str, taken: set[tuple[str, str]]) -> str:
    """An `identifier:` that passes identifier-name and names the item apart from every other in
    every language: the wire value's words in UPPER_SNAKE (after CODE_ or CATEGORY_ when they
    start with a digit), then _2, _3... until free."""
    base = identifiers.upper_snake(name) or kind.upper()
    if not base[0].isalpha():
        base = f"{kind.upper()}_{base}"
    n = 2
    while any(pair in taken for pair in _identifiers(kind, name, f"{base}_{n}").items()):
        n += 1
    return f"{base}_{n}"


def _rough_key(kind: str, name: str, identifier: str | None) -> str:
    """Equal for any two names that some language names alike (and for a few more): their words
    joined and case-folded, without the prefixes a language puts before a name that starts with a
    digit or is reserved (`Code`, `Category`, `N`). Only names sharing a key are named in every
    language, so lint stays fast on registries of thousands of codes."""
    return identifiers.identity_key(identifier or name).removeprefix(kind).removeprefix("n")


@rule("identifier-collision")
def identifier_collision(ctx: Context) -> Iterator[Finding]:
    """Two codes (or two categories) must not map to the same identifier in any target language."""
    for kind, items in (("code", ctx.registry.codes), ("category", ctx.registry.categories)):
        keys = [_rough_key(kind, item.name, item.identifier) for item in items]
        rough: dict[str, int] = {}
        for key in keys:
            rough[key] = rough.get(key, 0) + 1
        suspects = [item for item, key in zip(items, keys) if rough[key] > 1]
        owners: dict[tuple[str, str], tuple[str, Loc]] = {}
        taken: set[tuple[str, str]] | None = None
        # Each suspect's names in every language, made once (the suggestions' `taken` reads them too).
        named = {item.name: _identifiers(kind, item.name, item.identifier) for item in suspects}
        for item in suspects:
            names = named[item.name]
            clashes = [(language, ident, owners[(language, ident)]) for language, ident in names.items()
                       if owners.get((language, ident), (item.name,))[0] != item.name]
            if clashes:
                if taken is None:  # every name in every language, once, for the suggestions
                    taken = {pair for i in items for pair in (named.get(i.name) or _identifiers(kind, i.name, i.identifier)).items()}
                other, where = clashes[0][2]
                place = f"{where.path}:{where.line}" if where.path != item.loc.path else f"line {where.line}"
                same = ", ".join(f"{language} {ident}" for language, ident, owner in clashes if owner[0] == other)
                msg = (f"{kind} {item.name!r} and {other!r} ({place}) become the same identifier in generated code "
                       f"({same}); give one an `identifier:` (e.g. identifier: {_suggestion(kind, item.name, taken)})")
                yield Finding(msg, item.loc)
            for pair in names.items():
                owners.setdefault(pair, (item.name, item.loc))


@rule("wire-case")
def wire_case(ctx: Context) -> Iterator[Finding]:
    """`wire.case` is `snake` (retry_after_ms) or `camel` (retryAfterMs)."""
    wire = ctx.registry.wire
    if wire.case not in ("snake", "camel"):
        yield Finding(f"wire case {wire.case!r} must be 'snake' or 'camel'", wire.locs["case"])


@rule("wire-rename")
def wire_rename(ctx: Context) -> Iterator[Finding]:
    """`wire.rename` maps payload fields to distinct wire names (letters, digits, `_ $ -`); `wire.envelope` is such a name, or one followed by `[*]` (an array of payloads)."""
    wire = ctx.registry.wire
    known = list(FIELD_NAMES) if wire.case in ("snake", "camel") else []
    for name, wire_name in wire.rename.items():
        if name not in known:
            yield Finding(f"wire rename {name!r} is not a payload field{nearest(name, known)}", wire.locs.get("rename", ctx.registry.loc_of("wire")))
        elif not FIELD_NAME.fullmatch(wire_name):
            yield Finding(f"wire name {wire_name!r} for {name} must be letters, digits, _, $ or -", wire.locs.get("rename", ctx.registry.loc_of("wire")))
    seen: dict[str, str] = {}
    for name in known:
        on_wire = wire.name_of(name)
        if on_wire in seen:
            yield Finding(f"fields {seen[on_wire]} and {name} both go on the wire as {on_wire!r}", wire.locs.get("rename", ctx.registry.loc_of("wire")))
        seen.setdefault(on_wire, name)
    if wire.envelope is not None and not ENVELOPE.fullmatch(wire.envelope):
        yield Finding(f"wire envelope {wire.envelope!r} must be a name (letters, digits, _, $ or -), or a name followed by [*] "
                      "for an array of payloads (errors[*])", wire.locs["envelope"])
