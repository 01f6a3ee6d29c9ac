"""Rules on what registry text may hold, whatever field it is in: no invisible characters that make
a line display as something other than what it is (Trojan Source, CVE-2021-42574)."""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any, Iterator

from errgen.diagnostics import Loc
from errgen.registry.lint.base import Context, Finding, rule
from errgen.registry.load import Map, Seq

# Bidirectional controls (embeddings, overrides, isolates, marks) and zero-width characters.
INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
# Prose, where right-to-left and Indic scripts may need a mark or a joiner: a warning there.
PROSE_KEYS = frozenset({"description", "changes", "reason"})


def invisible_in(text: str) -> str:
    """The invisible characters in text, named (`U+202E RIGHT-TO-LEFT OVERRIDE`), or ''."""
    found = sorted(set(INVISIBLE.findall(text)))
    return ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, 'FORMAT CHARACTER')}" for ch in found)


def _strings(node: Any, loc: Loc, where: str, prose: bool) -> Iterator[tuple[str, Loc, str, bool]]:
    if isinstance(node, str):
        yield node, loc, where, prose
    elif isinstance(node, Map):
        for key, value in node.items():
            inner = f"{where}.{key}" if where else str(key)
            if isinstance(key, str):
                yield key, node.key_locs.get(key, loc), f"the key {inner}", False
            yield from _strings(value, node.locs.get(key, loc), inner, prose or key in PROSE_KEYS)
    elif isinstance(node, Seq):
        for i, (item, item_loc) in enumerate(zip(node, node.locs)):
            yield from _strings(item, item_loc, f"{where}[{i}]", prose)


# How a quoted YAML scalar spells a character by number: the only way one of INVISIBLE can be in
# a loaded string without being in the file's text (\\x reaches U+00FF, below every one of them).
_ESCAPES = re.compile(r"\\[uU]")


def _any_invisible(doc: Any) -> bool:
    """One quick pass over the files' text (the usual answer is no): the detailed walk, which
    names each place, runs only when a file holds one of the characters or a numeric escape
    that might spell one."""
    return any(INVISIBLE.search(text) or _ESCAPES.search(text) for text in doc.sources)


@rule("invisible-character")
def invisible_character(ctx: Context) -> Iterator[Finding]:
    """No registry string holds a bidirectional control (U+202A-202E, U+2066-2069, U+200E/200F,
    U+061C) or a zero-width character (U+200B-200D, U+2060, U+FEFF): they make text display as
    something other than what it is. An error in names, versions, URIs, owners and settings; a
    warning in prose (descriptions, history changes, reasons), where right-to-left or Indic text
    may need a mark or a joiner."""
    root = ctx.document.root if ctx.document else None
    strings = list(_strings(root, root.loc, "", False)) if root is not None and _any_invisible(ctx.document) else []
    strings += [(f.owner, f.loc, "the fragment's owner", False) for f in ctx.registry.fragments]
    for text, loc, where, prose in strings:
        if INVISIBLE.search(text):
            what = "may display as something other than what it is" if prose else "cannot be told apart from the name it looks like"
            severity = "warning" if prose else "error"
            yield Finding(f"{where} contains invisible characters ({invisible_in(text)}): it {what}; remove them", loc, severity)  # type: ignore[arg-type]


@rule("owner-syntax")
def owner_syntax(ctx: Context) -> Iterator[Finding]:
    """A fragment's `owner` is a CODEOWNERS owner: `@user`, `@org/team` or an email address, since
    `errgen owners` writes it into CODEOWNERS (white space, `#` or a newline would change the file)."""
    from errgen.codeowners import owner_problem

    for fragment in ctx.registry.fragments:
        if not fragment.owner or INVISIBLE.search(fragment.owner):
            continue  # a missing owner is fragment-owner's, an invisible character invisible-character's
        problem = owner_problem(fragment.owner)
        if problem:
            yield Finding(f"fragment {problem}", fragment.loc)


# What a YAML float whose value is not finite can look like in a file: `.nan`, `.inf` with their
# signs and cases; sexagesimal `1:30.5` (read as NaN); an exponent of three digits or more, or
# three hundred digits (past 1.8e308: infinity); and any escape in a quoted `!!float "..."`. A
# file holding none of them holds no such number, and is not walked.
_MAYBE_NON_FINITE = re.compile(r"(?i)\.(?:nan|inf)|\d:|e[-+]\d{3}|[\d_]{300}|\\")


def _non_finite(node: Any, loc: Loc, where: str) -> Iterator[tuple[float, Loc, str]]:
    if isinstance(node, float):
        if not math.isfinite(node):
            yield node, loc, where
    elif isinstance(node, Map):
        for key, value in node.items():
            inner = f"{where}.{key}" if where else str(key)
            if isinstance(key, float) and not math.isfinite(key):
                key_locs: dict[Any, Loc] = node.key_locs  # a key is a string, unless YAML read a number
                yield key, key_locs.get(key, loc), f"a key of {where or 'the registry'}"
            yield from _non_finite(value, node.locs.get(key, loc), inner)
    elif isinstance(node, Seq):
        for i, (item, item_loc) in enumerate(zip(node, node.locs)):
            yield from _non_finite(item, item_loc, f"{where}[{i}]")


def _spelled(number: float) -> str:
    return ".nan" if math.isnan(number) else ".inf" if number > 0 else "-.inf"


@rule("non-finite-number")
def non_finite_number(ctx: Context) -> Iterator[Finding]:
    """No registry number is NaN or infinite (`.nan`, `.inf`, `-.inf`, or a number too large for a
    64-bit float such as `1.0e+400`), wherever it stands: a `wire.response` condition's `equals` is
    written into every SDK and into conformance/responses.json, and JSON has no spelling for
    either (TypeScript, Go and Java SDKs would fail to load). Write a finite number, or the
    value as a string."""
    doc = ctx.document
    if doc is None or not any(_MAYBE_NON_FINITE.search(text) for text in doc.sources):
        return
    for number, loc, where in _non_finite(doc.root, doc.root.loc, ""):
        yield Finding(f"{where} reads as {_spelled(number)}, a number that is not finite: JSON and the generated code "
                      "cannot hold it; write a finite number, or quote the value to make it a string", loc)
