"""Check a loaded document against registry format 1 and build the typed model from it.

The format is pinned: an unknown key at any level is an error, like `additionalProperties: false`,
so a typo never silently does nothing. Entries too broken to model (a code without a category, say)
are left out of the model after their diagnostics are recorded; later rules see only what is sound.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from errgen.diagnostics import Diagnostic, Loc, diag
from errgen.languages import all_languages
from errgen.registry.load import Document, Map, Seq
from errgen.spelling import Speller, did_you_mean
from errgen.registry.model import About, AcceptedBreak, Category, Code, Condition, DelaySource, Deprecation, HistoryEntry, Registry, Response, Wire

FORMAT_VERSION = 1


@dataclass(frozen=True)
class Scalar:
    expected: str
    accepts: Callable[[Any], bool]
    kind: type | None = None  # a value of exactly this type is accepted without calling `accepts`


@dataclass(frozen=True)
class ListOf:
    item: "Shape"

    @property
    def expected(self) -> str:
        return f"a list of {self.item.expected.removeprefix('a ').removeprefix('an ')}s"


@dataclass(frozen=True)
class Fields:
    name: str
    fields: dict[str, tuple["Shape", bool]]
    expected: str = "a mapping"
    required: tuple[str, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "required", tuple(k for k, (_, required) in self.fields.items() if required))


@dataclass(frozen=True)
class NamedMap:
    value: "Shape"
    expected: str = "a mapping of names to entries"


Shape = Scalar | ListOf | Fields | NamedMap

STR = Scalar("a string", lambda v: isinstance(v, str), str)
INT = Scalar("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool), int)
BOOL = Scalar("true or false", lambda v: isinstance(v, bool), bool)
# A value a response is compared with (`equals:`): any JSON scalar.
JSON_SCALAR = Scalar("a string, number, boolean or null", lambda v: v is None or isinstance(v, (str, int, float, bool)))

# Reading real responses (docs/registry.md); source and path syntax is checked by lint (wire-source).
CONDITION = Fields("condition", {"at": (STR, False), "equals": (JSON_SCALAR, False), "non_empty": (BOOL, False),
                                 "status": (ListOf(INT), False)})
DELAY_SOURCE = Fields("delay source", {"at": (STR, True), "unit": (STR, False)})
DELAY_ENTRY = Scalar("a source string or a mapping {at, unit}", lambda v: isinstance(v, str) or isinstance(v, Map))
RESPONSE = Fields(
    "response",
    {"error_when": (ListOf(CONDITION), False), "code": (ListOf(STR), False), "message": (ListOf(STR), False),
     "correlation_id": (ListOf(STR), False), "resource_id": (ListOf(STR), False),
     "retry_after": (ListOf(DELAY_ENTRY), False)},
)

ACCEPTED_BREAK = Fields("accepted break", {"rule": (STR, True), "code": (STR, False), "category": (STR, False), "reason": (STR, True)})
HISTORY = Fields(
    "history entry",
    {"version": (STR, True), "date": (STR, True), "changes": (ListOf(STR), True),
     "accepted_breaks": (ListOf(ACCEPTED_BREAK), False)},
)
CATEGORY = Fields(
    "category",
    {"retryable": (BOOL, True), "action": (STR, False), "http_status": (INT, False), "identifier": (STR, False),
     "description": (STR, True)},
)
DEPRECATED = Fields("deprecation", {"since": (STR, True), "replaced_by": (STR, False)})
CODE = Fields(
    "code",
    {
        "category": (STR, True),
        "retryable": (BOOL, False),
        "action": (STR, False),
        "scope": (STR, True),
        "scopes": (ListOf(STR), False),
        "retry_after_ms": (INT, False),
        "http_status": (INT, False),
        "type_uri": (STR, False),
        "identifier": (STR, False),
        "description": (STR, True),
        "hints": (ListOf(STR), False),
        "since": (STR, True),
        "deprecated": (DEPRECATED, False),
        "renamed_from": (ListOf(STR), False),
        "wire_code": (STR, False),
        "wire_prefix": (STR, False),
        "when": (ListOf(CONDITION), False),
    },
)
# Per-language package settings, as each registered language declares them; every key optional,
# its default in the language's declaration.
TARGETS = Fields(
    "targets",
    {language.name: (Fields(f"{language.name} target", {key: (STR, False) for key in language.settings}), False)
     for language in all_languages()},
)
# How the payload's fields are named on the wire and where the payload sits in an HTTP body.
WIRE = Fields(
    "wire",
    {"case": (STR, False), "rename": (NamedMap(STR, "a mapping of field names to wire names"), False), "envelope": (STR, False),
     "format": (STR, False), "response": (RESPONSE, False),
     "statuses": (NamedMap(STR, "a mapping of HTTP statuses (404) or classes (5xx) to actions"), False)},
)
REGISTRY = Fields(
    "registry",
    {
        "errgen": (INT, True),
        "name": (STR, True),
        "version": (STR, True),
        "problem_base": (STR, False),
        # Package metadata (errgen.registry.model.About), checked by errgen.registry.lint.package.
        "description": (STR, False),
        "license": (STR, False),
        "repository": (STR, False),
        "homepage": (STR, False),
        "keywords": (ListOf(STR), False),
        "wire": (WIRE, False),
        # A folder registry: fragment files (globs relative to this file), see errgen.registry.compose.
        "include": (ListOf(STR), False),
        "fragment_categories": (BOOL, False),
        "targets": (TARGETS, False),
        "categories": (NamedMap(CATEGORY), True),
        "codes": (NamedMap(CODE), True),
        "history": (ListOf(HISTORY), True),
    },
)

_BAD = object()


class _Checker:
    def __init__(self, path: str) -> None:
        self.path = path
        self.diagnostics: list[Diagnostic] = []

    def error(self, rule: str, message: str, loc: Loc) -> None:
        self.diagnostics.append(diag(rule, message, self.path, loc))

    def check(self, value: Any, shape: Shape, loc: Loc, where: str) -> Any:
        if isinstance(shape, Scalar):
            if shape.accepts(value):
                return value
            return self._wrong(value, shape.expected, loc, where)
        if isinstance(shape, ListOf):
            if not isinstance(value, Seq):
                return self._wrong(value, shape.expected, loc, where)
            item = shape.item
            kind = item.kind if isinstance(item, Scalar) else None
            # Where an item is (`hints[2]`) is spelled out only for an item that needs checking.
            checked = [(v if type(v) is kind else self.check(v, item, l, f"{where}[{i}]"), l) for i, (v, l) in enumerate(zip(value, value.locs))]
            return [(v, l) for v, l in checked if v is not _BAD]
        if not isinstance(value, Map):
            return self._wrong(value, shape.expected, loc, where)
        if isinstance(shape, NamedMap):
            checked = {k: self.check(v, shape.value, value.key_locs[k], _join(where, k)) for k, v in value.items()}
            return {k: v for k, v in checked.items() if v is not _BAD}
        return self.fields(value, shape, loc, where)

    def fields(self, value: Map, shape: Fields, loc: Loc, where: str, partial: bool = False) -> Any:
        out: dict[str, Any] = {}
        known = shape.fields
        for key, item in value.items():
            entry = known.get(key)
            if entry is None:
                self._unknown_key(key, shape, value.key_locs[key], where)
                continue
            sub = entry[0]
            if isinstance(sub, Scalar) and type(item) is sub.kind:
                out[key] = item  # the common case: no path string is built for a value that is right
                continue
            checked = self.check(item, sub, value.locs[key], _join(where, key))
            if checked is not _BAD:
                out[key] = checked
        required = shape.required
        for key in required:
            if key not in value:
                self.error("missing-key", f"{_name(where, shape.name)} is missing the required key {key!r}", loc)
        if not partial and any(k not in out for k in required):
            return _BAD
        out["__locs__"] = value.locs
        out["__loc__"] = loc
        return out

    def _wrong(self, value: Any, expected: str, loc: Loc, where: str) -> Any:
        self.error("wrong-type", f"{where} must be {expected}, found {_describe(value)}", loc)
        return _BAD

    def _unknown_key(self, key: str, shape: Fields, loc: Loc, where: str) -> None:
        known = tuple(shape.fields)
        hint = did_you_mean(_speller(known).nearest(str(key), n=1)) or f"; expected one of: {', '.join(known)}"
        self.error("unknown-key", f"unknown key {key!r} in {_name(where, shape.name)}{hint}", loc)


@functools.lru_cache(maxsize=64)
def _speller(known: tuple[str, ...]) -> Speller:
    """One per shape: a registry can misspell the same kind of key on each of 10,000 codes."""
    return Speller(known)


def _join(where: str, key: object) -> str:
    return f"{where}.{key}" if where else str(key)


def _name(where: str, kind: str) -> str:
    return where or f"the {kind}"


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, Map):
        return "a mapping"
    if isinstance(value, Seq):
        return "a list"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    shown = value if len(value) <= 40 else f"{value[:40]}... ({len(value)} characters)"
    return f"the string {shown!r}"


@dataclass(frozen=True)
class Names:
    """What the raw document says, including entries too broken to model (so rules avoid echoes)."""

    declared_categories: set[str]
    referenced_categories: set[object]
    broken: set[str]  # required top-level keys that are missing or malformed


def build(doc: Document) -> tuple[Registry, list[Diagnostic], Names]:
    """Check the document's shape; return the model of what is sound, the shape diagnostics,
    and the names the raw document declares."""
    checker = _Checker(doc.path)
    root = doc.root
    fmt = root.get("errgen")
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt != FORMAT_VERSION:
        msg = f"registry format errgen: {fmt} is not supported; this errgen reads format {FORMAT_VERSION}"
        checker.error("format-version", msg, root.locs["errgen"])
    top = checker.fields(root, REGISTRY, root.loc, "", partial=True)
    declared = set(root["categories"]) if isinstance(root.get("categories"), Map) else set()
    codes = root.get("codes")
    raw_codes = codes.values() if isinstance(codes, Map) else ()
    referenced: set[object] = {c.get("category") for c in raw_codes if isinstance(c, Map) and isinstance(c.get("category"), str)}
    broken = {key for key, (_, required) in REGISTRY.fields.items() if required and key not in top}
    registry = _registry(top, doc.path)
    fragments = getattr(doc, "fragments", ())
    if fragments:
        registry = replace(registry, fragments=fragments)
    return registry, checker.diagnostics, Names(declared, referenced, broken)


def _registry(top: dict[str, Any], path: str) -> Registry:
    """A broken top-level key becomes an empty value; rules skip what `broken` names."""
    categories = tuple(_category(n, c) for n, c in top.get("categories", {}).items())
    by_name = {c.name: c for c in categories}
    codes = tuple(_code(n, c, by_name) for n, c in top.get("codes", {}).items())
    history = tuple(_history(h, loc) for h, loc in top.get("history", ()))
    return Registry(
        name=top.get("name", ""),
        version=top.get("version", ""),
        categories=categories,
        codes=codes,
        history=history,
        problem_base=top.get("problem_base"),
        targets=_targets(top.get("targets")),
        wire=_wire(top.get("wire")),
        about=About(top.get("description", ""), top.get("license"), top.get("repository"), top.get("homepage"),
                    tuple(k for k, _ in top.get("keywords", ()))),
        path=path,
        locs=top["__locs__"],
    )


def _wire(raw: dict[str, Any] | None) -> Wire:
    if not raw:
        return Wire()
    rename = {k: v for k, v in raw.get("rename", {}).items() if not k.startswith("__")}
    return Wire(case=raw.get("case", "snake"), rename=rename, envelope=raw.get("envelope"), locs=raw["__locs__"],
                format=raw.get("format", "json"), response=_response(raw.get("response")),
                statuses={str(k): v for k, v in raw.get("statuses", {}).items() if not str(k).startswith("__")})


def _condition(raw: dict[str, Any], loc: Loc) -> Condition:
    """The first operation the mapping states (lint's wire-condition reports a mapping with none or several)."""
    stated = tuple(k for k in raw if not k.startswith("__"))
    if "status" in raw:
        return Condition("status", raw.get("at"), tuple(v for v, _ in raw["status"]), loc, stated)
    if "equals" in raw:
        return Condition("equals", raw.get("at"), raw["equals"], loc, stated)
    return Condition("non_empty", raw.get("at"), raw.get("non_empty", True), loc, stated)


def _delay_source(raw: Any, loc: Loc) -> DelaySource:
    if isinstance(raw, str):
        return DelaySource(raw, "http", loc)
    at, unit = raw.get("at"), raw.get("unit", "http")
    # Lint checks the mapping (wire-source, wire-unit): a missing `at` or another key is reported there.
    extra = tuple(sorted(str(k) for k in raw if k not in ("at", "unit")))
    return DelaySource(at if isinstance(at, str) else "", unit if isinstance(unit, str) else repr(unit), loc, extra)


def _response(raw: dict[str, Any] | None) -> Response | None:
    if raw is None:
        return None
    locs: dict[str, Loc] = {}
    sources: dict[str, tuple[str, ...]] = {}
    for fact in ("code", "message", "correlation_id", "resource_id"):
        items = raw.get(fact, ())
        sources[fact] = tuple(v for v, _ in items)
        locs.update({f"{fact}:{i}": loc for i, (_, loc) in enumerate(items)})
    delays = tuple(_delay_source(v, loc) for v, loc in raw["retry_after"]) if "retry_after" in raw else None
    return Response(
        error_when=tuple(_condition(c, loc) for c, loc in raw.get("error_when", ())),
        code=sources["code"], message=sources["message"], correlation_id=sources["correlation_id"],
        resource_id=sources["resource_id"],
        retry_after=delays, locs=locs,
    )


def _targets(raw: dict[str, Any] | None) -> dict[str, dict[str, str]]:
    if not raw:
        return {}
    return {lang: {k: v for k, v in opts.items() if not k.startswith("__")} for lang, opts in raw.items() if not lang.startswith("__")}


def _category(name: str, raw: dict[str, Any]) -> Category:
    return Category(
        name=name,
        retryable=raw["retryable"],
        description=raw["description"],
        action=raw.get("action"),
        http_status=raw.get("http_status"),
        identifier=raw.get("identifier"),
        loc=raw["__loc__"],
        locs=raw["__locs__"],
    )


def _code(name: str, raw: dict[str, Any], categories: dict[str, Category]) -> Code:
    category = categories.get(raw["category"])
    stated = raw.get("retryable")
    retryable = category.retryable if category else bool(stated)
    deprecated = raw.get("deprecated")
    return Code(
        name=name,
        category=raw["category"],
        retryable=retryable,
        stated_retryable=stated,
        scope=raw["scope"],
        scopes=_items(raw, "scopes") if "scopes" in raw else (raw["scope"],),
        http_status=raw.get("http_status"),
        type_uri=raw.get("type_uri"),
        identifier=raw.get("identifier"),
        description=raw["description"],
        since=raw["since"],
        retry_after_ms=raw.get("retry_after_ms"),
        hints=_items(raw, "hints"),
        deprecated=Deprecation(deprecated["since"], deprecated.get("replaced_by")) if deprecated else None,
        renamed_from=_items(raw, "renamed_from"),
        wire_code=raw.get("wire_code"),
        wire_prefix=raw.get("wire_prefix"),
        when=tuple(_condition(c, loc) for c, loc in raw.get("when", ())),
        action=raw.get("action") or (category.action if category and not retryable else None),
        stated_action=raw.get("action"),
        loc=raw["__loc__"],
        locs=_item_locs(raw),
    )


def _items(raw: dict[str, Any], key: str) -> tuple[str, ...]:
    return tuple(v for v, _ in raw.get(key, ()))


def _item_locs(raw: dict[str, Any]) -> dict[str, Loc]:
    """Value locations by key, plus `field:item` for each list item, so rules can point at one item."""
    locs = dict(raw["__locs__"])
    for key in ("scopes", "hints", "renamed_from"):
        for value, loc in raw.get(key, ()):
            locs.setdefault(f"{key}:{value}", loc)
    if "deprecated" in raw:
        locs.update({f"deprecated.{k}": v for k, v in raw["deprecated"]["__locs__"].items()})
    return locs


def _history(raw: dict[str, Any], loc: Loc) -> HistoryEntry:
    breaks = tuple(AcceptedBreak(b["rule"], b.get("code"), b["reason"], bl, b.get("category")) for b, bl in raw.get("accepted_breaks", ()))
    return HistoryEntry(raw["version"], raw["date"], tuple(v for v, _ in raw["changes"]), breaks, loc)
