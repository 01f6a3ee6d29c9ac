"""Go names and literals from registry text.

Codes are whatever the wire says (`RATE_LIMITED`, `card_declined`, `NoSuchBucket`, `20003`,
`out-of-credit`, `com.amazonaws.dynamodb.v20120810#ResourceNotFoundException`); each becomes an
exported identifier with a prefix (`CodeRateLimited`, `CodeNoSuchBucket`, `Code20003`), so no
keyword or leading digit can reach Go. Clashes get a numeric suffix in registry order.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Iterable, Mapping

KEYWORDS = frozenset(
    "break case chan const continue default defer else fallthrough for func go goto if import interface "
    "map package range return select struct switch type var".split()
)
# Names a package must not take: they would shadow what its own files import, or a standard-library
# package its users import beside it (`os`).
RESERVED_PACKAGES = KEYWORDS | {
    "main", "json", "http", "errors", "time", "strings", "math", "bytes", "io", "big", "rand", "fmt", "net", "reflect",
    "sort", "strconv", "testing", "utf8", "utf16", "os", "context", "sync", "log", "unicode", "regexp", "url", "path",
}
# Go's initialisms, written in one case whatever case the wire uses (resource_id -> ResourceID,
# MalformedXML and malformed_xml -> CodeMalformedXML, invalid_uri -> CodeInvalidURI): golint's
# list (lint/lint.go commonInitialisms), plus the ones real error codes carry.
INITIALISMS = {w.lower(): w for w in (
    "ACL API ASCII CPU CSS DNS EOF GUID HTML HTTP HTTPS ID IP JSON LHS QPS RAM RHS RPC SLA SMTP SQL SSH TCP TLS TTL "
    "UDP UI UID UUID URI URL UTF8 VM XML XMPP XSRF XSS"
    " CSV MCP MS".split())}

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_MODULE_ELEMENT = r"[A-Za-z0-9_~-]+(?:\.[A-Za-z0-9_~-]+)*"
MODULE_PATH = re.compile(rf"(?!-){_MODULE_ELEMENT}(?:/{_MODULE_ELEMENT})*", re.ASCII)
PACKAGE_NAME = re.compile(r"[a-z][a-z0-9]*", re.ASCII)


class NamingError(ValueError):
    """A registry setting no Go name can carry (a module path with a space, say)."""


def _is_ident_char(ch: str) -> bool:
    # Go identifiers: Unicode letters (Lu, Ll, Lt, Lm, Lo), "_" and decimal digits (Nd).
    category = unicodedata.category(ch)
    return category in ("Lu", "Ll", "Lt", "Lm", "Lo", "Nd")


def _identifier_body(text: str) -> bool:
    # ASCII letters and digits are all Lu, Ll or Nd: most bodies need no look-up per character.
    return (text.isascii() and text.isalnum()) or all(_is_ident_char(ch) for ch in text)


def words(text: str) -> list[str]:
    """Word boundaries of a wire string: separators, camelCase humps, letter-digit runs kept."""
    runs: list[str] = []
    current = ""
    for ch in text:
        if _is_ident_char(ch):
            current += ch
        elif current:
            runs.append(current)
            current = ""
    if current:
        runs.append(current)
    return [w for run in runs for w in _CAMEL.split(run) if w]


@cache  # a registry's codes share most of their words; a hit runs no Python
def _title(word: str) -> str:
    initialism = INITIALISMS.get(word.lower())
    if initialism is not None:
        return initialism
    rest = word[1:].lower() if word.isupper() else word[1:]
    return word[0].upper() + rest


def ident(prefix: str, text: str, given_words: Iterable[str] | None = None) -> str:
    """An exported identifier for `text`: the prefix, then its words title-cased. `given_words`
    (the contract view's words of a code, which an `identifier:` in the registry may set) take
    the place of the words found in `text`."""
    found = list(given_words) if given_words else words(text)
    body = "".join(map(_title, found))
    if not body or not _identifier_body(body):
        # No letters or digits at all (or case mapping left the identifier alphabet): spell the
        # code points, which stays unique and deterministic.
        body = "X" + "".join(f"{ord(ch):04X}" for ch in text)
    return prefix + body


def unique_idents(prefix: str, values: Iterable[str], given_words: Mapping[str, Iterable[str] | None] | None = None) -> dict[str, str]:
    """Identifiers for distinct values; a clash keeps the first value's name and gives the
    later ones the smallest free numeric suffix, so adding a code never renames another."""
    values = list(dict.fromkeys(values))
    natural = [ident(prefix, v, (given_words or {}).get(v)) for v in values]
    taken: set[str] = set()
    first_use = set()
    names: dict[str, str] = {}
    for value, name in zip(values, natural):
        if name not in first_use:
            first_use.add(name)
            taken.add(name)
            names[value] = name
    for value, name in zip(values, natural):
        if value in names:
            continue
        n = 2
        while f"{name}{n}" in taken or f"{name}{n}" in first_use:
            n += 1
        names[value] = f"{name}{n}"
        taken.add(names[value])
    return names


def field_name(canonical: str) -> str:
    """resource_id -> ResourceID, retry_after_ms -> RetryAfterMS."""
    return "".join(_title(w) for w in canonical.split("_") if w)


def package_name(value: str) -> str:
    """A Go package name: lower-case ASCII letters and digits, not a keyword nor a name the SDK imports."""
    if not PACKAGE_NAME.fullmatch(value):
        raise NamingError(
            f"go package {value!r} is not a Go package name: expected lower-case ASCII letters and digits, "
            "starting with a letter (set targets.go.package)"
        )
    if value in RESERVED_PACKAGES:
        raise NamingError(f"go package {value!r} is a Go keyword or a package the SDK imports; choose another (targets.go.package)")
    return value


def module_path(value: str) -> str:
    """A module path `go mod` accepts: slash-separated elements of letters, digits and `-._~`."""
    if not MODULE_PATH.fullmatch(value):
        raise NamingError(
            f"go module {value!r} is not a Go module path: expected elements of ASCII letters, digits and "
            "'-', '.', '_', '~' separated by '/' (set targets.go.module)"
        )
    return value


_MAJOR_SUFFIX = re.compile(r"/v[0-9]+$")
_MAJOR = re.compile(r"[0-9]+")


def versioned_module(path: str, version: str) -> str:
    """Go's semantic import versioning: from v2 on, a module path ends in /vN, N the registry's
    major version; a /vN already at the end of the registry's path is replaced, so a major bump
    needs no edit of targets.go.module (and /v0, /v1, which Go refuses, are dropped)."""
    base = _MAJOR_SUFFIX.sub("", path)
    major = _MAJOR.match(version)
    return f"{base}/v{int(major.group())}" if major and int(major.group()) >= 2 else base


_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", "\\": "\\\\", '"': '\\"'}


def _visible(ch: str) -> bool:
    # Escape controls, format characters (BOM, bidi controls), separators and unassigned or
    # private code points: Go rejects a BOM inside a file, and the others are invisible in review.
    return unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


_PLAIN = re.compile(r'[ !#-\[\]-~]*')  # printable ASCII but `"` and `\\`: itself in a literal


def string_literal(value: str) -> str:
    """An interpreted Go string literal that means exactly `value`."""
    if _PLAIN.fullmatch(value):
        return f'"{value}"'
    out = ['"']
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif _visible(ch):
            out.append(ch)
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


def comment(value: str) -> str:
    """Text for one `//` comment line: white space flattened, invisible characters spelled out."""
    flat = " ".join(value.split())
    if _PRINTABLE_ASCII.fullmatch(flat):
        return flat
    return "".join(ch if _visible(ch) else f"\\u{ord(ch):04x}" for ch in flat)


_PRINTABLE_ASCII = re.compile(r"[ -~]*")  # every character visible: nothing to spell out
