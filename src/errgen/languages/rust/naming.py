"""Rust names and literals from registry text.

Wire codes are whatever a service sends (`RATE_LIMITED`, `card_declined`, `NoSuchBucket`, `20003`,
`out-of-credit`, `com.amazonaws.dynamodb.v20120810#ResourceNotFoundException`); each becomes an
UpperCamelCase variant that keeps the word boundaries, unique within its enum. String literals are
escaped the way rustc reads them (`\\u{1}`, never `\\u0001`), and list literals are laid out the
way rustfmt lays them out, so the generated crate is formatted without running rustfmt.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from errgen.render_text import md_inline

# Variant names every open enum reserves: the catch-all for values from a newer registry, and
# `Self`, the one UpperCamelCase keyword.
RESERVED_VARIANTS = frozenset({"Unknown", "Self"})

# rustfmt's defaults: max_width 100, array_width 60 (use_small_heuristics = "Default"), and the
# "short" element threshold (10) under which arrays switch to a mixed layout we never emit.
MAX_WIDTH = 100
ARRAY_WIDTH = 60
SHORT_ELEMENT = 10

_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_KEYWORDS = frozenset(
    "as async await break const continue crate dyn else enum extern false fn for if impl in let loop "
    "match mod move mut pub ref return self static struct super trait true type unsafe use where while "
    "abstract become box do final gen macro override priv try typeof unsized virtual yield".split()
)
CRATE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}", re.ASCII)
# The crates the SDK depends on and the built-in ones: a crate of the same name would shadow them.
SDK_CRATES = frozenset({"serde", "serde_json", "serde_derive", "std", "core", "alloc", "proc_macro", "test"})
_SEMVER = re.compile(
    r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(-(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*)?"
    r"(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?"
)
# Characters a Rust source file should not carry raw inside a literal: controls, format characters
# (rustc denies bidirectional overrides in literals), line and paragraph separators, unassigned and
# private-use code points.
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


class NamingError(ValueError):
    """Registry text that cannot become a valid Rust package coordinate."""


def words(text: str) -> list[str]:
    """The words of a wire string: separators split, camel humps and digit runs kept apart."""
    return _WORDS.findall(text)


def camel(text: str, prefix: str) -> str:
    """UpperCamelCase; `prefix` leads a name that would otherwise start with a digit or be empty
    (a code spelled only in non-Latin script gets its code points, so it stays distinct)."""
    parts = words(text)
    name = "".join(w[:1].upper() + w[1:].lower() for w in parts)
    if not name:
        name = "".join(f"U{ord(ch):04X}" for ch in text) or "Empty"
        return prefix + name
    return prefix + name if name[0].isdigit() else name


def variant(text: str, prefix: str, open_enum: bool = True) -> str:
    """The variant a value is named by before clashes are resolved: its UpperCamelCase, or, when
    that is a name the enum reserves (an open enum's `Unknown(String)` catch-all, `Self`), the
    prefix before it, so gRPC's `UNKNOWN` is `Code::CodeUnknown` and the state `unknown` is
    `State::StateUnknown` (lint's identifier-collision check sees these names too)."""
    name = camel(text, prefix)
    return prefix + name if name in _reserved(open_enum) else name


def _reserved(open_enum: bool) -> frozenset[str]:
    return RESERVED_VARIANTS if open_enum else RESERVED_VARIANTS - {"Unknown"}


def variants(values: Iterable[str], prefix: str, open_enum: bool = True) -> list[str]:
    """One unique variant name per value, in order: a clash (`RATE_LIMITED`, `rate-limited`) gets
    the next free numeric suffix, decided by registry order, so names never change on rebuild.
    An open enum also reserves `Unknown`, its catch-all (see `variant`)."""
    reserved = _reserved(open_enum)
    values = list(values)
    natural = [variant(v, prefix, open_enum) for v in values]
    taken = set(reserved)
    first_owner: dict[str, int] = {}
    for index, name in enumerate(natural):
        first_owner.setdefault(name, index)
    taken.update(n for n in first_owner if n not in reserved)
    result = []
    for index, name in enumerate(natural):
        if name not in reserved and first_owner[name] == index:
            result.append(name)
            continue
        n = 2
        while f"{name}{n}" in taken:
            n += 1
        taken.add(f"{name}{n}")
        result.append(f"{name}{n}")
    return result


def snake(text: str) -> str:
    """A snake_case field or function identifier; keywords get a trailing underscore."""
    name = "_".join(w.lower() for w in words(text)) or "field"
    if name[0].isdigit():
        name = "f_" + name
    return name + "_" if name in _KEYWORDS else name


def const_name(text: str) -> str:
    """A SCREAMING_SNAKE constant name (for the wire-name constants)."""
    return snake(text).rstrip("_").upper()


def crate_name(name: str) -> str:
    """A crate name as Cargo accepts it: ASCII letters, digits, `-` and `_`, a letter first."""
    if not CRATE_NAME.fullmatch(name):
        raise NamingError(f"crate name {name!r} is not a valid Cargo package name "
                          "(ASCII letters, digits, '-' and '_', starting with a letter, at most 64 characters)")
    if name.replace("-", "_") in _KEYWORDS:
        raise NamingError(f"crate name {name!r} is a Rust keyword")
    if name.replace("-", "_") in SDK_CRATES:
        raise NamingError(f"crate name {name!r} is a crate the SDK itself uses (or a built-in one); choose another")
    return name


def lib_name(crate: str) -> str:
    """The name code imports the crate by: Cargo replaces `-` with `_`."""
    return crate.replace("-", "_")


def version(text: str) -> str:
    """The registry version as Cargo's semver (it must already be one)."""
    if not _SEMVER.fullmatch(text):
        raise NamingError(f"version {text!r} is not a semantic version (like 1.2.0)")
    return text


_PLAIN = re.compile(r'[ !#-\[\]-~]*')  # printable ASCII but `"` and `\\`: itself in a literal


def string(value: str) -> str:
    """A Rust string literal that means exactly `value`."""
    if _PLAIN.fullmatch(value):
        return f'"{value}"'
    out = ['"']
    for ch in value:
        if ch in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[ch])
        elif unicodedata.category(ch) in _ESCAPED_CATEGORIES:
            if 0xD800 <= ord(ch) <= 0xDFFF:
                raise NamingError(f"text holds a lone surrogate (U+{ord(ch):04X}), which no Rust string can carry")
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


_SIMPLE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}


def doc_text(value: str) -> str:
    """Registry text for one `///` line of rustdoc, meaning exactly that text (the way the `comment`
    and `md` filters write it for a comment and for Markdown): white space flattened onto one line,
    Markdown's syntax escaped (no link, HTML tag, code span or fence for rustdoc to read, nothing a
    doctest runs), and each invisible character a character reference, which rustdoc shows as
    the character (rustc denies a raw bidirectional override in a comment)."""
    text = md_inline(" ".join(value.split()))
    if text.isprintable():  # nearly every description: nothing invisible left to spell
        return text
    return "".join(f"&#x{ord(ch):X};" if unicodedata.category(ch) in _ESCAPED_CATEGORIES else ch for ch in text)


_CONTINUATION_BLOCK = re.compile(r"([-+*#>=|]|`{3}|~{3}|\d{1,9}[.)])")


def doc_comment(text: str, indent: int) -> str:
    """errgen's own rustdoc text as `///` lines at `indent` spaces, filled to MAX_WIDTH. The text
    is trusted Markdown (code spans, links); a line it would start with a block mark (a list, a
    heading, a setext underline) is refused, since rustdoc would read it as one."""
    import textwrap

    pad = " " * indent + "/// "
    lines = textwrap.wrap(text, MAX_WIDTH - len(pad), break_long_words=False, break_on_hyphens=False)
    for line in lines[1:]:
        if _CONTINUATION_BLOCK.match(line):
            raise ValueError(f"a doc comment's line would start a Markdown block: {line!r}")
    return "\n".join(pad + line for line in lines)


def toml_string(value: str) -> str:
    """A TOML basic string that means exactly `value`."""
    out = ['"']
    for ch in value:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif unicodedata.category(ch) in ("Cc",) or ch == "\x7f":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def array(items: list[str], indent: int, prefix: str, suffix: str = ",") -> str:
    """`prefix&[items]suffix` at `indent` spaces, laid out as rustfmt lays out an array literal:
    on one line when its items fit in ARRAY_WIDTH and the line in MAX_WIDTH, else one per line."""
    inner = ", ".join(items)
    pad = " " * indent
    one_line = f"{pad}{prefix}&[{inner}]{suffix}"
    if len(inner) <= ARRAY_WIDTH and len(one_line) <= MAX_WIDTH:
        return one_line
    if all(len(item) <= SHORT_ELEMENT for item in items):
        raise NamingError("an array of short items too long for one line: rustfmt would mix its layout")
    body = "".join(f"{pad}    {item},\n" for item in items)
    return f"{pad}{prefix}&[\n{body}{pad}]{suffix}"


Row = list[tuple[str, str]]


def struct_array(type_name: str, rows: list[Row]) -> str:
    """`&[Type { field: value, ... }, ...]` as rustfmt lays it out after `= ` at the top level:
    every struct literal one field per line (these rows never fit rustfmt's struct_lit_width), and
    a lone row hugging the brackets."""
    if not rows:
        return "&[]"
    if len(rows) == 1:
        return "&[" + _struct(type_name, rows[0], 0) + "]"
    body = "".join("    " + _struct(type_name, row, 4) + ",\n" for row in rows)
    return "&[\n" + body + "]"


def _struct(type_name: str, row: Row, indent: int) -> str:
    pad = " " * (indent + 4)
    lines = []
    for name, value in row:
        if value.startswith("&[") and value.endswith("]"):
            items = [item for item in value[2:-1].split("\x1f") if item]
            lines.append(array(items, indent + 4, f"{name}: ") + "\n")
        else:
            lines.append(assignment(indent + 4, f"{name}:", value, ",", end_counts=False) + "\n")
    return f"{type_name} {{\n" + "".join(lines) + " " * indent + "}"


def list_value(items: Iterable[str]) -> str:
    """A slice value for `struct_array`, laid out there (items must not contain U+001F)."""
    return "&[" + "\x1f".join(items) + "]"


def width(text: str) -> int:
    """Display columns, as rustfmt counts them: wide East Asian characters take two, combining
    marks none."""
    if text.isascii():  # nearly every line: one column per character
        return len(text)
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def assignment(indent: int, lead: str, value: str, end: str, end_counts: bool = True) -> str:
    """`lead value end` (a struct field, a constant), as rustfmt lays it out: moved to the next
    line when the line is too wide and the value fits there (a struct field's comma may overhang;
    a statement's semicolon may not). Otherwise it stays where it is: rustfmt leaves a line it
    cannot fit as written."""
    pad = " " * indent
    one_line = f"{pad}{lead} {value}{end}"
    next_line = f"{pad}    {value}{end if end_counts else ''}"
    if width(one_line) > MAX_WIDTH and width(next_line) <= MAX_WIDTH:
        return f"{pad}{lead}\n{pad}    {value}{end}"
    return one_line
