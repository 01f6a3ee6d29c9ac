"""Load a registry file into plain values that remember where each one was written.

libyaml's parser turns the text into events, and this module builds values straight from them:
mappings and sequences become `Map` and `Seq`, which keep the line and column of every key and
value. No YAML node tree is composed and no Python object is ever constructed from a tag, which
makes loading faster than `yaml.compose` itself. Duplicate keys, aliases and non-standard tags
are refused here, because PyYAML would silently keep the last definition or expand shared nodes.
"""

from __future__ import annotations

import re
from sys import intern
from pathlib import Path
from typing import Any, Callable

import yaml
from yaml.resolver import Resolver

from errgen.diagnostics import Diagnostic, Fatal, Loc, diag

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - libyaml missing: correct, only slower
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_BYTES = 64 * 1024 * 1024
MAX_NODES = 5_000_000
MAX_DEPTH = 64  # a registry nests 5 levels; deeper is hostile, and would exhaust the stack
MAX_INT_BITS = 63  # every target language holds a signed 64-bit integer

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"
_SCALAR = yaml.ScalarEvent
_MAP_END = yaml.MappingEndEvent
_new_dict, _new_list = dict.__new__, list.__new__
_SEQ_END = yaml.SequenceEndEvent
_MISSING = object()
_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+")
# PyYAML's YAML 1.1 implicit resolvers, indexed by first character as its Resolver does.
_IMPLICIT: dict[str | None, list[tuple[str, re.Pattern[str]]]] = Resolver.yaml_implicit_resolvers


class Map(dict):  # type: ignore[type-arg]
    """A YAML mapping: `key_locs[k]` is where key k stands, `locs[k]` where its value starts."""

    __slots__ = ("loc", "key_locs", "locs")

    def __init__(self, loc: Loc) -> None:
        super().__init__()
        self.loc = loc
        self.key_locs: dict[str, Loc] = {}
        self.locs: dict[str, Loc] = {}


class Seq(list):  # type: ignore[type-arg]
    """A YAML sequence: `locs[i]` is where item i starts."""

    __slots__ = ("loc", "locs")

    def __init__(self, loc: Loc) -> None:
        super().__init__()
        self.loc = loc
        self.locs: list[Loc] = []


class Document:
    """A loaded registry file: its root value and what loading found wrong but could survive."""

    def __init__(self, path: str, root: Map, diagnostics: list[Diagnostic], text: str) -> None:
        self.path = path
        self.root = root
        self.diagnostics = diagnostics
        self.text = text
        self.sources: tuple[str, ...] = (text,)  # the text of every file its values were read from


def read_text(path: Path, display: str) -> str:
    """The file's text: a regular file only (a FIFO or a device is refused before a byte is read:
    one would block, /dev/zero never ends), and never more than MAX_BYTES of it."""
    from errgen.paths import NotRegular, TooLarge, read_regular

    try:
        data = read_regular(path, MAX_BYTES)
    except TooLarge as exc:
        raise Fatal(diag("file-too-large", f"registry is {exc.size} bytes or more; the limit is {MAX_BYTES}", display, Loc(1, 1))) from None
    except NotRegular as exc:
        msg = f"{display} is {exc.kind}, not a regular file; errgen reads a registry only from a file"
        raise Fatal(diag("file-unreadable", msg, display, Loc(1, 1))) from None
    except FileNotFoundError:
        raise Fatal(diag("file-not-found", f"no registry file at {display}", display, Loc(1, 1))) from None
    except IsADirectoryError:
        raise Fatal(diag("file-unreadable", f"{display} is a directory, not a registry file", display, Loc(1, 1))) from None
    except OSError as exc:
        raise Fatal(diag("file-unreadable", f"cannot read {display}: {exc.strerror}", display, Loc(1, 1))) from None
    return decode(data, display)


def decode(data: bytes, display: str) -> str:
    if len(data) > MAX_BYTES:
        msg = f"registry is {len(data)} bytes; the limit is {MAX_BYTES}"
        raise Fatal(diag("file-too-large", msg, display, Loc(1, 1)))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        msg = f"file is not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded; save the file as UTF-8"
        raise Fatal(diag("yaml-encoding", msg, display, Loc(line, column))) from None


def load_path(path: Path, display: str | None = None) -> Document:
    shown = display or str(path)
    return load_text(read_text(path, shown), shown)


def load_text(text: str, display: str, stamp: bool = False) -> Document:
    """`stamp`: every position names `display` (Loc.path), as a fragment of a folder registry's
    positions must; made while loading, which costs nothing next to a second walk over the tree."""
    builder = _Builder(display, stamp)
    try:
        root = builder.document(_Loader(text).get_event)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Loc(mark.line + 1, mark.column + 1) if mark else Loc(1, 1)
        problem = exc.problem or "invalid YAML"
        raise Fatal(diag("yaml-syntax", f"YAML syntax error: {problem}", display, loc)) from None
    except yaml.YAMLError as exc:
        raise Fatal(diag("yaml-syntax", f"YAML error: {exc}", display, Loc(1, 1))) from None
    return Document(display, root, builder.diagnostics, text)


def restamped(doc: Document, display: str) -> Document:
    """The document as `load_text(doc.text, display, stamp=True)` would load it, copied rather
    than parsed again (a quarter of the cost): a fragment that reads the same at a git ref as in
    the working tree is loaded once by `diff --against`. Only for a document loading found
    nothing wrong in (a diagnostic's message may name its file)."""
    assert not doc.diagnostics
    return Document(display, _restamp(doc.root, display), [], doc.text)


def _restamp(value: Any, path: str) -> Any:
    if type(value) is Map:
        return _restamp_map(value, path)
    return _restamp_seq(value, path) if type(value) is Seq else value


def _restamp_map(value: Map, path: str) -> Map:
    make = tuple.__new__
    out = _new_dict(Map)
    out.loc = make(Loc, (value.loc[0], value.loc[1], path))
    out.key_locs = {k: make(Loc, (at[0], at[1], path)) for k, at in value.key_locs.items()}
    out.locs = {k: make(Loc, (at[0], at[1], path)) for k, at in value.locs.items()}
    for key, item in value.items():
        out[key] = _restamp(item, path)
    return out


def _restamp_seq(value: Seq, path: str) -> Seq:
    make = tuple.__new__
    out = _new_list(Seq)
    out.loc = make(Loc, (value.loc[0], value.loc[1], path))
    out.locs = [make(Loc, (at[0], at[1], path)) for at in value.locs]
    out.extend(_restamp(item, path) for item in value)
    return out


def _locator(path: str | None) -> Callable[[Any], Loc]:
    """Where an event starts, naming `path` (None: the registry's own file). Runs twice per
    node: Loc(...) costs three times more than building the tuple."""
    make = tuple.__new__

    def loc(event: Any) -> Loc:
        mark = event.start_mark
        return make(Loc, (mark.line + 1, mark.column + 1, path))
    return loc


_loc = _locator(None)


class _Builder:
    """Builds values from the event stream, one recursive call per mapping or sequence."""

    def __init__(self, path: str, stamp: bool = False) -> None:
        self.path = path
        self.path_of_locs = path if stamp else None  # what each position names (Loc.path)
        self.diagnostics: list[Diagnostic] = []
        self.count = 0
        self.depth = 0
        self.plain: dict[str, Any] = {}  # short plain scalars read so far: their values (see _plain)

    def document(self, next_event: Callable[[], Any]) -> Map:
        """`next_event`: the parser's own get_event (yaml.parse wraps it in a generator, two
        calls more per event)."""
        self.next = next_event
        self.next()  # StreamStart
        start = self.next()
        if isinstance(start, yaml.StreamEndEvent):
            raise self._fatal("yaml-empty", "registry file is empty; expected a mapping with `errgen: 1`", Loc(1, 1))
        first = self.next()
        if not isinstance(first, yaml.MappingStartEvent):
            found = "a sequence" if isinstance(first, yaml.SequenceStartEvent) else f"the scalar {getattr(first, 'value', '')!r}"
            msg = f"registry root must be a mapping of keys (errgen, name, version, ...), found {found}"
            raise self._fatal("yaml-root", msg, _loc(first))
        root = self.mapping(first)
        self.next()  # DocumentEnd
        extra = self.next()
        if not isinstance(extra, yaml.StreamEndEvent):
            raise self._fatal("yaml-syntax", "a registry is one YAML document; found a second one (---)", _loc(extra))
        return root

    def _fatal(self, rule: str, message: str, loc: Loc) -> Fatal:
        return Fatal(diag(rule, message, self.path, loc))

    def value(self, event: Any) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise self._fatal("file-too-large", f"registry has more than {MAX_NODES} YAML nodes", _loc(event))
        kind = type(event)
        if kind is yaml.ScalarEvent:
            return self.scalar(event)
        if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self._fatal("too-deep", f"registry nests deeper than {MAX_DEPTH} levels; a registry needs 5", _loc(event))
            try:
                return self.mapping(event) if kind is yaml.MappingStartEvent else self.sequence(event)
            finally:
                self.depth -= 1
        msg = "YAML anchors and aliases are not supported in a registry; write the value out"
        self.diagnostics.append(diag("yaml-alias", msg, self.path, _loc(event)))
        return None

    def mapping(self, start: Any) -> Map:
        # The hot loop of loading: positions are built inline (a call per node cost a tenth of
        # a load) and a plain or quoted scalar value takes `_plain`'s short path.
        path, make, nxt, plain = self.path_of_locs, tuple.__new__, self.next, self.plain
        mark = start.start_mark
        out = _new_dict(Map)  # without Map.__init__'s frame: a registry holds one per code
        out.loc = make(Loc, (mark.line + 1, mark.column + 1, path))
        key_locs: dict[str, Loc] = {}
        locs: dict[str, Loc] = {}
        out.key_locs, out.locs = key_locs, locs
        if start.tag not in (None, "!", _MAP):
            self._bad_tag(start)
        while True:
            key_event = nxt()
            kind = type(key_event)
            if kind is _MAP_END:
                return out
            mark = key_event.start_mark
            key_loc = make(Loc, (mark.line + 1, mark.column + 1, path))
            if kind is not _SCALAR:
                self.value(key_event)  # the whole key first: its events come before the value's
                self.value(nxt())
                self.diagnostics.append(diag("wrong-type", "mapping keys must be plain names, not a mapping or a sequence", self.path, key_loc))
                continue
            value_event = nxt()
            mark = value_event.start_mark
            value_loc = make(Loc, (mark.line + 1, mark.column + 1, path))
            key = intern(key_event.value)  # one string per key name, not one per code: a large registry's memory
            if key == "<<" and key_event.implicit[0]:
                self.value(value_event)
                msg = "YAML merge keys (<<) are not supported in a registry; write the keys out"
                self.diagnostics.append(diag("yaml-alias", msg, self.path, key_loc))
                continue
            if type(value_event) is _SCALAR:  # most values: skip value()'s dispatch
                self.count += 1
                if self.count > MAX_NODES:
                    raise self._fatal("file-too-large", f"registry has more than {MAX_NODES} YAML nodes", value_loc)
                text = value_event.value
                if value_event.tag is not None or len(text) > 32:
                    value = self.scalar(value_event)
                elif not value_event.implicit[0]:
                    value = intern(text)  # a short quoted string
                else:
                    value = plain.get(text, _MISSING)
                    if value is _MISSING:
                        value = self._plain(value_event)
            else:
                value = self.value(value_event)
            if key in key_locs:
                first = key_locs[key]
                msg = f"duplicate key {key!r}: first defined at line {first.line}; a registry key may appear once"
                self.diagnostics.append(diag("duplicate-key", msg, self.path, key_loc))
                continue
            key_locs[key] = key_loc
            locs[key] = value_loc
            out[key] = value

    def sequence(self, start: Any) -> Seq:
        path, make, nxt, plain = self.path_of_locs, tuple.__new__, self.next, self.plain
        mark = start.start_mark
        out = _new_list(Seq)
        out.loc = make(Loc, (mark.line + 1, mark.column + 1, path))
        locs: list[Loc] = []
        out.locs = locs
        if start.tag not in (None, "!", _SEQ):
            self._bad_tag(start)
        append = out.append
        while True:
            event = nxt()
            kind = type(event)
            if kind is _SEQ_END:
                return out
            mark = event.start_mark
            locs.append(make(Loc, (mark.line + 1, mark.column + 1, path)))
            if kind is _SCALAR:
                self.count += 1
                if self.count > MAX_NODES:
                    raise self._fatal("file-too-large", f"registry has more than {MAX_NODES} YAML nodes", locs[-1])
                text = event.value
                if event.tag is None and event.implicit[0] and len(text) <= 32:
                    value = plain.get(text, _MISSING)
                    append(self._plain(event) if value is _MISSING else value)
                else:
                    append(self.scalar(event))
            else:
                append(self.value(event))

    def scalar(self, event: Any) -> Any:
        text = event.value
        if len(text) <= 32:
            text = intern(text)  # category names, scopes, versions: repeated in every code
        tag = event.tag
        if tag is None or tag == "!":
            if not event.implicit[0]:
                return text  # quoted or block scalar: always a string
            tag = _PLAIN_TAGS.get(text) or _resolve_plain(text)
        elif tag in (_INT, _BOOL, _NULL, _FLOAT) and _resolve_plain(text) != tag:
            # `!!bool` on an empty or non-boolean value: say so rather than guess a value
            msg = f"the value {_short(text)!r} is not a valid {tag.rsplit(':', 1)[-1]}; remove the tag or fix the value"
            self.diagnostics.append(diag("yaml-tag", msg, self.path, _loc(event)))
            return text
        if tag == _STR or tag == _TIMESTAMP:
            return text
        if tag == _INT:
            number = _int(text)
            if number is None:
                msg = f"the integer {_short(text)!r} does not fit in 64 bits; no target language could hold it"
                self.diagnostics.append(diag("number-too-large", msg, self.path, _loc(event)))
                return text
            return number
        if tag == _BOOL:
            return _BOOLS[text.lower()]
        if tag == _NULL:
            return None
        if tag == _FLOAT:
            return _float(text)
        if tag == _MERGE:
            return text
        self._bad_tag(event)
        return text

    def _plain(self, event: Any) -> Any:
        """An untagged plain scalar of at most 32 characters, remembered by its text when
        reading it reported nothing: a registry repeats its scopes, statuses, versions and
        category names in every code, so most values are read once per file."""
        before = len(self.diagnostics)
        value = self.scalar(event)
        if len(self.diagnostics) == before:
            self.plain[event.value] = value
        return value

    def _bad_tag(self, event: Any) -> None:
        msg = f"YAML tag {event.tag!r} is not allowed in a registry; use plain scalars, mappings and sequences"
        self.diagnostics.append(diag("yaml-tag", msg, self.path, _loc(event)))


def _resolve_plain(text: str) -> str:
    if len(text) <= 32:  # scopes, statuses, versions: the same few values in every code
        tag = _PLAIN_TAGS.get(text)
        if tag is None:
            tag = _implicit_tag(text)
            if len(_PLAIN_TAGS) < 65_536:  # bounded: a long-running watch sees many registries
                _PLAIN_TAGS[text] = tag
        return tag
    return _implicit_tag(text)


_PLAIN_TAGS: dict[str, str] = {}


def _implicit_tag(text: str) -> str:
    for tag, pattern in _IMPLICIT.get(text[0] if text else "", ()):
        if pattern.match(text):
            return tag
    return _STR


def _short(text: str, limit: int = 40) -> str:
    """A value as it goes into a message: huge values are cut, so a message stays readable."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _int(text: str) -> int | str | None:
    """The integer, the text when it is no integer after all, None when it exceeds 64 bits."""
    clean = text.replace("_", "")
    if _SEXAGESIMAL.fullmatch(clean):
        return text
    if len(clean) > 80:  # past 64 bits in any base: never parsed (time and memory)
        return None
    try:
        if clean.lstrip("+-").startswith("0") and clean.lstrip("+-")[1:2].isdigit():
            number = int(clean, 8)
        else:
            number = int(clean, 0)
    except ValueError:
        return text
    return number if number.bit_length() <= MAX_INT_BITS else None


def _float(text: str) -> float:
    lowered = text.lower().replace("_", "")
    if lowered in (".inf", "+.inf"):
        return float("inf")
    if lowered == "-.inf":
        return float("-inf")
    if lowered == ".nan":
        return float("nan")
    try:
        return float(lowered)
    except ValueError:
        return float("nan")
