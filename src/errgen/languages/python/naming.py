"""Python names and literals for anything the registry says: identifiers from any wire string,
distribution versions (PEP 440) and string literals that carry registry text exactly."""

from __future__ import annotations

from json.encoder import encode_basestring as _quoted  # json.dumps(value, ensure_ascii=False), in C
import keyword
import re
from typing import Iterable

from errgen.identifiers import words

_LINE_SEPARATORS = {"\u2028": "\\u2028", "\u2029": "\\u2029"}


def constant(wire: str) -> str:
    """UPPER_SNAKE for an enum member or constant: `card_declined` -> CARD_DECLINED,
    `NoSuchBucket` -> NO_SUCH_BUCKET, `20003` -> N_20003 (an identifier cannot start with a digit)."""
    name = "_".join(w.upper() for w in words(wire)) or "X"
    if name[0].isdigit():
        name = "N_" + name
    return name


def type_name(wire: str) -> str:
    """PascalCase for a class: `rate_limit` -> RateLimit, `20003` -> N20003."""
    name = "".join(w[:1].upper() + w[1:].lower() for w in words(wire)) or "X"
    return "N" + name if name[0].isdigit() else name


def snake(wire: str) -> str:
    """snake_case for a module, package or function: `acme-corp` -> acme_corp."""
    name = "_".join(w.lower() for w in words(wire)) or "x"
    name = "n_" + name if name[0].isdigit() else name
    return name + "_" if keyword.iskeyword(name) or keyword.issoftkeyword(name) else name


def words_of(wire: str) -> list[str]:
    """The lower-case words a name is made of: `RateLimitError` -> rate, limit, error."""
    return [w.lower() for w in words(wire)]


def unique_among(name: str, taken: set[str]) -> str:
    """`name`, or `name2`, `name3`... the first whose lower case is not in `taken`."""
    candidate, n = name, 1
    while candidate.lower() in taken:
        n += 1
        candidate = f"{name}{n}"
    return candidate


def unique(names: Iterable[str]) -> list[str]:
    """The names in order, a later clash made unique with a suffix (_2, _3, ...): deterministic,
    since registry order is."""
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        candidate, n = name, 1
        while candidate in seen:
            n += 1
            candidate = f"{name}_{n}"
        seen.add(candidate)
        out.append(candidate)
    return out


_PRE = {"alpha": "a", "a": "a", "beta": "b", "b": "b", "rc": "rc", "c": "rc", "pre": "rc", "preview": "rc"}
_SEMVER = re.compile(r"([0-9]+)\.([0-9]+)\.([0-9]+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?", re.ASCII)


def version(semver: str) -> str:
    """A semver version as PEP 440: `1.0.0-alpha.1` -> 1.0.0a1, `2.0.0-rc.2` -> 2.0.0rc2,
    `1.0.0-dev.3` -> 1.0.0.dev3. Pre-release identifiers PEP 440 has no place for, and build
    metadata, go to the local part (`1.0.0-alpha.beta` -> 1.0.0a0+beta)."""
    match = _SEMVER.fullmatch(semver)
    if match is None:
        raise ValueError(f"not a semantic version: {semver!r}")
    major, minor, patch, pre, build = match.groups()
    out = f"{int(major)}.{int(minor)}.{int(patch)}"
    local: list[str] = []
    if pre:
        parts = pre.split(".")
        head = parts[0].lower()
        number = parts[1] if len(parts) > 1 and parts[1].isdigit() else None
        rest = parts[2:] if number is not None else parts[1:]
        if head in _PRE or head == "dev":
            marker = ".dev" if head == "dev" else _PRE[head]
            out += f"{marker}{int(number) if number else 0}"
        else:
            out += ".dev0"
            rest = parts
        local += rest
    if build:
        local += build.split(".")
    segments = [re.sub(r"[^a-z0-9]+", ".", s.lower()).strip(".") for s in local]
    segments = [s for s in segments if s]
    return out + ("+" + ".".join(segments) if segments else "")


def string_literal(value: str) -> str:
    """A Python string literal meaning exactly `value`: JSON's escapes are a subset of Python's;
    U+2028 and U+2029 are escaped too, so every line of the source stays a line in any editor."""
    literal = _quoted(value)
    for raw, escaped in _LINE_SEPARATORS.items():
        literal = literal.replace(raw, escaped)
    return literal


def docstring_text(value: str) -> str:
    """Registry text on one line inside a triple-quoted docstring: backslashes and quotes escaped,
    so no text ends the string early, and every character that is not printable escaped."""
    flat = " ".join(value.split()).replace("\\", "\\\\").replace('"', '\\"')
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in flat)


def toml_string(value: str) -> str:
    """A TOML basic string meaning exactly `value`: JSON's escapes are TOML's too, but for DEL,
    which TOML wants escaped."""
    return _quoted(value).replace("\x7f", "\\u007f")


def summary(value: str) -> str:
    """One line for a package's summary (core metadata's Summary holds no line break)."""
    return " ".join(value.split())


LINE_LENGTH = 100  # black's line length for the generated package


def assignment(name: str, literal: str, indent: int = 4) -> str:
    """`name = literal` laid out as black lays it out: on one line when it fits; else the literal
    alone in parentheses when that fits; else one line, too long, which black leaves. Lets a large
    enum skip black (held to black's output by tests/test_python_layout.py)."""
    pad = " " * indent
    line = f"{pad}{name} = {literal}"
    if len(line) <= LINE_LENGTH or len(pad) + 4 + len(literal) > LINE_LENGTH:
        return line
    return f"{pad}{name} = (\n{pad}    {literal}\n{pad})"


def literal_alias(name: str, members: list[str], indent: int = 4) -> str:
    """`name = Literal[members]` laid out as black lays it out: several members one per line with
    a trailing comma; one member on one line when it fits, else alone on the next line."""
    pad = " " * indent
    if len(members) > 1:
        body = "".join(f"{pad}    {m},\n" for m in members)
        return f"{pad}{name} = Literal[\n{body}{pad}]"
    line = f"{pad}{name} = Literal[{members[0]}]"
    return line if len(line) <= LINE_LENGTH else f"{pad}{name} = Literal[\n{pad}    {members[0]}\n{pad}]"


def string_tuple(values: Iterable[str]) -> str:
    """A tuple literal of strings with no magic trailing comma, so black keeps it on one line."""
    items = [string_literal(v) for v in values]
    if not items:
        return "()"
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


# What the generated package imports besides the standard library (pydantic and what pydantic
# itself imports): a package of the same name would shadow it, or be overwritten by it, on install.
SDK_IMPORTS = frozenset({"pydantic", "pydantic_core", "annotated_types", "typing_extensions", "typing_inspection"})
PACKAGE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
DISTRIBUTION_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?", re.ASCII)  # PEP 508 names


def package_problem(value: str) -> str | None:
    """Why `targets.python.package` cannot name the generated import package, or None."""
    import sys

    if not PACKAGE_NAME.fullmatch(value) or keyword.iskeyword(value):
        return "expected a Python identifier (ASCII letters, digits and _, not starting with a digit, not a keyword)"
    if value in sys.stdlib_module_names:
        return f"{value!r} is a standard-library module; the SDK would shadow it"
    if value.lower() in SDK_IMPORTS:
        return f"{value!r} is a package the SDK itself imports; installing the SDK would overwrite it"
    return None


def distribution_problem(value: str) -> str | None:
    """Why `targets.python.distribution` cannot name the generated distribution, or None."""
    if not DISTRIBUTION_NAME.fullmatch(value):
        return "expected a distribution name (PEP 508: ASCII letters, digits, '.', '_' and '-', starting and ending with a letter or digit)"
    if re.sub(r"[-_.]+", "_", value).lower() in SDK_IMPORTS:
        return f"{value!r} is a distribution the SDK depends on; installing the SDK would replace it"
    return None
