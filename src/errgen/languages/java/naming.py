"""Java names and literals from registry text: enum constants from any wire string, package and
Maven coordinates, and string literals that javac and google-java-format both leave exactly as
written.

Generated Java source stays pure ASCII: whatever a registry holds reaches javac as escapes, so
neither the file's encoding nor a bidirectional-override character can change what a line means.
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping

from errgen.identifiers import words

# google-java-format's column limit; the enum template lays constants out as it would.
COLUMN_LIMIT = 100

# The constant every generated enum adds for a value this SDK does not know (the AWS SDK's name).
UNKNOWN_CONSTANT = "UNKNOWN_TO_SDK_VERSION"

KEYWORDS = frozenset(
    """abstract assert boolean break byte case catch char class const continue default do double else enum
    extends final finally float for goto if implements import instanceof int interface long native new package
    private protected public return short static strictfp super switch synchronized this throw throws transient
    try void volatile while true false null var yield record sealed permits non-sealed when module open _""".split()
)

_SEGMENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*", re.ASCII)
PACKAGE_NAME = re.compile(rf"{_SEGMENT.pattern}(?:\.{_SEGMENT.pattern})*", re.ASCII)  # keywords aside
COORDINATE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*", re.ASCII)
_SIMPLE_ESCAPES = {'"': '\\"', "\\": "\\\\"}


class JavaNameError(ValueError):
    """A `targets: java:` setting Java or Maven cannot use as given."""


def constant_name(wire: str, wire_words: Iterable[str] | None = None) -> str:
    """An UPPER_SNAKE enum constant for any wire string, from its words (or the ones given: the
    contract view's, which a registry may override). A string with no ASCII word (`ОШИБКА`, `#`) is
    spelled by its code points, so the name is still stable across registry edits."""
    parts = [w.upper() for w in (words(wire) if wire_words is None else wire_words)]
    if not parts:
        parts = ["U" + format(ord(ch), "04X") for ch in wire] or ["EMPTY"]
    name = "_".join(parts)
    return name if name[0].isalpha() else "N_" + name


def constant_names(wires: Iterable[str], wire_words: Mapping[str, Iterable[str]] | None = None) -> dict[str, str]:
    """Unique constant names, in order: a later value whose name is taken (`card-declined` after
    `CARD_DECLINED`), or equals the unknown-value constant, gets the first free `_2`, `_3`..."""
    taken = {UNKNOWN_CONSTANT}
    names: dict[str, str] = {}
    for wire in wires:
        base = constant_name(wire, (wire_words or {}).get(wire))
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        names[wire] = name
    return names


def exception_names(categories: Iterable[tuple[str, Iterable[str]]], taken: Iterable[str]) -> dict[str, str]:
    """An UpperCamel `...Exception` class name per category (wire value, words), in order, without
    a doubled suffix (a last word `error` or `exception` is dropped); a name already taken (a
    runtime class, an earlier category) gets the first free number before `Exception`."""
    used = set(taken)
    names: dict[str, str] = {}
    for wire, category_words in categories:
        words = [w for w in constant_name(wire, category_words).split("_") if w]
        # Stripe's `rate_limit_error` is a RateLimitException, not a RateLimitErrorException.
        if len(words) > 1 and words[-1] in ("ERROR", "EXCEPTION"):
            words = words[:-1]
        camel = "".join(w[:1].upper() + w[1:].lower() for w in words)
        base, n = camel, 1
        while f"{camel}Exception" in used:
            n += 1
            camel = f"{base}{n}"
        used.add(f"{camel}Exception")
        names[wire] = f"{camel}Exception"
    return names


def wrapped_assignment(head: str, value: str, indent: int) -> list[str]:
    """`head value` on one line, else broken after `=` (+4), as google-java-format does."""
    line = head + value
    if len(line) <= COLUMN_LIMIT:
        return [line]
    return [head.rstrip(), " " * (indent + 4) + value]


def switch_rule_lines(constant: str, expression: str, indent: int) -> list[str]:
    """`case CONSTANT -> EXPRESSION;` as google-java-format lays it out: broken after `->` when long,
    then after a call's `(` (its arguments on one line) when still too long."""
    pad = " " * indent
    line = f"{pad}case {constant} -> {expression};"
    if len(line) <= COLUMN_LIMIT:
        return [line]
    second = f"{pad}    {expression};"
    call, paren, arguments = expression.partition("(")
    if len(second) <= COLUMN_LIMIT or not paren:
        return [f"{pad}case {constant} ->", second]
    return [f"{pad}case {constant} ->", f"{pad}    {call}(", f"{pad}        {arguments};"]


def code_field_lines(name: str, ordinal: int, wire: str) -> list[str]:
    """`  Code NAME = Code.of(ORDINAL, "NAME", "wire");` (a constant of a large registry's `Code`),
    as google-java-format lays it out: one line, else broken after `=`, else one argument a line."""
    arguments = [str(ordinal), string_literal(name), string_literal(wire)]
    line = f"  Code {name} = Code.of({', '.join(arguments)});"
    if len(line) <= COLUMN_LIMIT:
        return [line]
    second = f"      Code.of({', '.join(arguments)});"
    if len(second) <= COLUMN_LIMIT:
        return [f"  Code {name} =", second]
    arguments[2] = string_literal(wire, unbreakable=True)
    return [f"  Code {name} =", "      Code.of(", f"          {arguments[0]},", f"          {arguments[1]},",
            f"          {arguments[2]});"]


def wrapped(head: str, items: list[str], tail: str, indent: int, continued: str = "") -> list[str]:
    """`head` + items joined by ", " + `tail` as google-java-format lays out a declaration's
    supertypes (`continued`: `implements ` on its own line) or an initialiser's call: one line when
    it fits, else broken after `=`, else one item a line."""
    line = head + ", ".join(items) + tail
    if len(line) <= COLUMN_LIMIT:
        return [line]
    pad = " " * indent
    if continued:
        first, rest = head[: -len(continued.strip()) - 1].rstrip(), continued
        return [first, pad + rest + items[0] + ","] + [pad + " " * 8 + i + "," for i in items[1:-1]] + [
            pad + " " * 8 + items[-1] + tail]
    left, call = head.split(" = ")
    second = pad + " " * 4 + call + ", ".join(items) + tail
    if len(second) <= COLUMN_LIMIT:
        return [left + " =", second]
    return [left + " =", pad + " " * 4 + call] + [pad + " " * 8 + i + "," for i in items[:-1]] + [
        pad + " " * 8 + items[-1] + tail]


def member_name(name: str) -> str:
    """A lowerCamel Java member for a snake_case contract name (`retry_after_ms` -> `retryAfterMs`),
    never a keyword."""
    first, *rest = name.split("_")
    camel = first.lower() + "".join(w[:1].upper() + w[1:].lower() for w in rest)
    return camel + "Value" if camel in KEYWORDS else camel


def javadoc_text(value: str) -> str:
    """Plain text as Javadoc text: one line, markup escaped, nothing javac reads as a Unicode
    escape or the comment's end."""
    flat = " ".join(value.split())
    return flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\\", "&#92;").replace("*/", "*&#47;")


def javadoc_lines(text: str, indent: int) -> list[str]:
    """`/** text */` on one line when it fits, else a block filled to the column limit, as
    google-java-format lays out a Javadoc comment."""
    pad = " " * indent
    line = f"{pad}/** {text} */"
    if len(line) <= COLUMN_LIMIT:
        return [line]
    return [f"{pad}/**", *filled(text, f"{pad} * ", f"{pad} * "), f"{pad} */"]


def filled(text: str, first: str, rest: str) -> list[str]:
    """Words of `text` filled greedily to the column limit: the first line after `first`, the
    others after `rest` (a Javadoc tag's continuation is indented four more)."""
    lines: list[str] = []
    current = first
    for word in text.split():
        if current not in (first, rest) and len(current) + 1 + len(word) > COLUMN_LIMIT:
            lines.append(current)
            current = rest
        current += word if current in (first, rest) else " " + word
    return [*lines, current]


def string_literal(value: str, unbreakable: bool = False) -> str:
    """A Java string literal holding exactly `value`, in ASCII. Control characters are octal
    escapes and everything outside ASCII is a `\\uXXXX` escape of its UTF-16 units; a backslash is
    doubled, so the text `\\u0022` can never become a Unicode escape. With `unbreakable`, spaces are
    `\\s`: google-java-format splits an over-long literal at its spaces, and this one must stay whole."""
    out = []
    for ch in value:
        code = ord(ch)
        if ch in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append("\\" + format(code, "03o"))
        elif ch == " " and unbreakable:
            out.append("\\s")
        elif code < 0x80:
            out.append(ch)
        else:
            encoded = ch.encode("utf-16-be")
            out.extend("\\u" + encoded[i : i + 2].hex() for i in range(0, len(encoded), 2))
    return '"' + "".join(out) + '"'


def enum_constant_lines(name: str, wire: str | None, last: bool) -> list[str]:
    """`  NAME("wire"),` as google-java-format lays it out: on one line when it fits, else the
    argument on a continuation line (+4) that is never split."""
    end = ";" if last else ","
    argument = "null" if wire is None else string_literal(wire)
    line = f"  {name}({argument}){end}"
    if len(line) <= COLUMN_LIMIT:
        return [line]
    if wire is not None:
        argument = string_literal(wire, unbreakable=True)
    return [f"  {name}(", f"      {argument}){end}"]


def package_name(value: str) -> str:
    """A Java package as given, checked: dot-separated identifiers, none a keyword."""
    segments = value.split(".")
    for segment in segments:
        if not _SEGMENT.fullmatch(segment) or segment in KEYWORDS:
            raise JavaNameError(f"targets.java.package {value!r}: {segment!r} is not a Java identifier")
    return value


def package_path(package: str) -> str:
    return package.replace(".", "/")


def coordinate(key: str, value: str) -> str:
    """A Maven groupId, artifactId or version: letters, digits, `_`, `-` and `.` only."""
    if not COORDINATE.fullmatch(value):
        raise JavaNameError(f"targets.java.{key} {value!r}: Maven allows only letters, digits, '_', '-' and '.' "
                           "(starting with a letter, digit or '_')")
    return value
