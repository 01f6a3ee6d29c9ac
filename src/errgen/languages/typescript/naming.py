"""TypeScript names and literals for anything the registry says: identifiers from any wire string,
npm package names and versions, and string literals that carry registry text exactly.

Convention in the generated TypeScript: functions, fields of errgen's own types (Decision,
RecoveryEntry) and parameters are camelCase; types are PascalCase; constants UPPER_SNAKE; wire
data (payload fields, codes) keeps its wire spelling, since it is JSON.
"""

from __future__ import annotations

from json.encoder import encode_basestring as _quoted  # json.dumps(value, ensure_ascii=False), in C
import re

from errgen.identifiers import words

_LINE_SEPARATORS = {"\u2028": "\\u2028", "\u2029": "\\u2029"}
RESERVED = frozenset("""break case catch class const continue debugger default delete do else enum export extends false finally
for function if import in instanceof new null return super switch this throw true try typeof var void while with as implements
interface let package private protected public static yield await any boolean constructor declare get module require number set
string symbol type from of""".split())


def camel(wire: str) -> str:
    """camelCase: `retry_after_ms` -> retryAfterMs, `20003` -> n20003, reserved words get `_`."""
    parts = list(words(wire)) or ["x"]
    name = parts[0].lower() + "".join(p[:1].upper() + p[1:].lower() for p in parts[1:])
    name = "n" + name if name[0].isdigit() else name
    return name + "_" if name in RESERVED else name


def type_name(wire: str) -> str:
    """PascalCase: `rate_limit` -> RateLimit, `20003` -> N20003."""
    name = "".join(p[:1].upper() + p[1:].lower() for p in words(wire)) or "X"
    return "N" + name if name[0].isdigit() else name


# What the package exports besides the category classes: a class may not take one of these names.
EXPORTED = frozenset("""ErrorPayloadError PayloadError UnknownCode CategoryError CategoryErrorClass Decision ErrorPayload
UnknownErrorPayload Error TypeError""".split())


def error_classes(categories: list[str]) -> dict[str, str]:
    """Each category's error class name: `rate_limit` -> RateLimitError, Stripe's `rate_limit_error`
    -> RateLimitError too (no doubled suffix). A name the package already exports, or one a
    previous category took, becomes `<Name>CategoryError`, then gets a number."""
    taken: set[str] = set(EXPORTED)
    names: dict[str, str] = {}
    for category in categories:
        parts = [p for p in words(category)]
        if len(parts) > 1 and parts[-1].lower() == "error":
            parts = parts[:-1]
        base = type_name("_".join(parts)) if parts else "X"
        name = base + "Error"
        if name in taken:
            name = base + "CategoryError"
        number = 2
        while name in taken:
            name, number = f"{base}CategoryError{number}", number + 1
        taken.add(name)
        names[category] = name
    return names


def constant(wire: str) -> str:
    """UPPER_SNAKE: `NoSuchBucket` -> NO_SUCH_BUCKET, `20003` -> N_20003."""
    name = "_".join(p.upper() for p in words(wire)) or "X"
    return "N_" + name if name[0].isdigit() else name


def package_name(name: str) -> str:
    """An npm package name: lower case, URL-safe, at most 214 characters (scopes `@a/b` kept)."""
    scope, _, bare = name.rpartition("/")
    clean = re.sub(r"[^a-z0-9._~-]+", "-", bare.lower()).strip("-._") or "errors"
    return (f"{scope.lower()}/" if scope.startswith("@") else "") + clean[:214]


def version(semver: str) -> str:
    """npm versions are semver: the registry's version as written."""
    return semver


def string_literal(value: str) -> str:
    """A TypeScript string literal meaning exactly `value`; U+2028 and U+2029 are escaped since
    older JavaScript ends a line at them."""
    literal = _quoted(value)
    for raw, escaped in _LINE_SEPARATORS.items():
        literal = literal.replace(raw, escaped)
    return literal


_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def property_key(name: str) -> str:
    """An object type's property key: bare when it is an identifier, else a string literal."""
    return name if _IDENTIFIER.fullmatch(name) else string_literal(name)


# npm's rules for a new package name (validate-npm-package-name): lower case, URL-safe, at most 214
# characters, optionally scoped; not starting with `.`, `_` or `-`; not a Node.js core module.
NPM_NAME = re.compile(r"(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9~][a-z0-9._~-]*", re.ASCII)
NODE_BUILTINS = frozenset("""assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns
domain events fs http http2 https inspector module net os path perf_hooks process punycode querystring readline repl stream
string_decoder sys timers tls trace_events tty url util v8 vm wasi worker_threads zlib node_modules favicon.ico""".split())


def npm_name_problem(value: str) -> str | None:
    """Why `targets.typescript.package` is not a name npm accepts for a new package, or None."""
    if len(value) > 214 or not NPM_NAME.fullmatch(value):
        return ("expected an npm package name: lower-case ASCII letters, digits and '-', '.', '_', '~', optionally "
                "scoped (@scope/name), not starting with '.', '_' or '-', at most 214 characters")
    if value in NODE_BUILTINS:
        return f"{value!r} is a Node.js core module name; npm refuses it"
    return None
