"""Load a registry file into plain values that remember where each one was written.

The YAML is composed (not constructed) with libyaml's safe parser, so no Python object is ever
built from tags; mappings and sequences become `Map` and `Seq`, which keep the line and column of
every key and value. Duplicate keys and aliases are rejected here because PyYAML would silently
keep the last definition or expand shared nodes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from errgen.diagnostics import Diagnostic, Fatal, Loc, diag

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - libyaml missing: correct, only slower
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_BYTES = 64 * 1024 * 1024
MAX_NODES = 5_000_000

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+")


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


def read_text(path: Path, display: str) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise Fatal(diag("file-not-found", f"no registry file at {display}", display, Loc(1, 1))) from None
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


def load_text(text: str, display: str) -> Document:
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Loc(mark.line + 1, mark.column + 1) if mark else Loc(1, 1)
        problem = exc.problem or "invalid YAML"
        raise Fatal(diag("yaml-syntax", f"YAML syntax error: {problem}", display, loc)) from None
    except yaml.YAMLError as exc:
        raise Fatal(diag("yaml-syntax", f"YAML error: {exc}", display, Loc(1, 1))) from None
    if node is None:
        raise Fatal(diag("yaml-empty", "registry file is empty; expected a mapping with `errgen: 1`", display, Loc(1, 1)))
    if not isinstance(node, yaml.MappingNode):
        msg = f"registry root must be a mapping of keys (errgen, name, version, ...), found {_kind(node)}"
        raise Fatal(diag("yaml-root", msg, display, _loc(node)))
    converter = _Converter(display)
    root = converter.mapping(node)
    return Document(display, root, converter.diagnostics, text)


def _loc(node: yaml.Node) -> Loc:
    mark = node.start_mark
    return Loc(mark.line + 1, mark.column + 1)


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a sequence"
    return f"the scalar {node.value!r}"


class _Converter:
    def __init__(self, path: str) -> None:
        self.path = path
        self.diagnostics: list[Diagnostic] = []
        self.seen: set[int] = set()
        self.count = 0

    def value(self, node: yaml.Node, used_at: Loc | None = None) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise Fatal(diag("file-too-large", f"registry has more than {MAX_NODES} YAML nodes", self.path, _loc(node)))
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        # An alias makes the composer hand out the same node object twice.
        if id(node) in self.seen:
            msg = "YAML anchors and aliases are not supported in a registry; write the value out"
            self.diagnostics.append(diag("yaml-alias", msg, self.path, used_at or _loc(node)))
            return None
        self.seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node)
        return self.sequence(node)

    def mapping(self, node: yaml.MappingNode) -> Map:
        out = Map(_loc(node))
        if node.tag not in (_MAP,):
            self._bad_tag(node)
        for key_node, value_node in node.value:
            key_loc = _loc(key_node)
            if not isinstance(key_node, yaml.ScalarNode):
                msg = "mapping keys must be plain names, not a mapping or a sequence"
                self.diagnostics.append(diag("wrong-type", msg, self.path, key_loc))
                continue
            key = key_node.value
            if key == "<<":
                msg = "YAML merge keys (<<) are not supported in a registry; write the keys out"
                self.diagnostics.append(diag("yaml-alias", msg, self.path, key_loc))
                continue
            if key in out.key_locs:
                first = out.key_locs[key]
                msg = f"duplicate key {key!r}: first defined at line {first.line}; a registry key may appear once"
                self.diagnostics.append(diag("duplicate-key", msg, self.path, key_loc))
                continue
            out.key_locs[key] = key_loc
            out.locs[key] = _loc(value_node)
            out[key] = self.value(value_node, key_loc)
        return out

    def sequence(self, node: yaml.SequenceNode) -> Seq:
        out = Seq(_loc(node))
        if node.tag != _SEQ:
            self._bad_tag(node)
        for item in node.value:
            out.locs.append(_loc(item))
            out.append(self.value(item))
        return out

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag, text = node.tag, node.value
        if tag == _STR or tag == _TIMESTAMP:
            return text
        if tag == _INT:
            return _int(text)
        if tag == _BOOL:
            return _BOOLS[text.lower()]
        if tag == _NULL:
            return None
        if tag == _FLOAT:
            return _float(text)
        self._bad_tag(node)
        return text

    def _bad_tag(self, node: yaml.Node) -> None:
        msg = f"YAML tag {node.tag!r} is not allowed in a registry; use plain scalars, mappings and sequences"
        self.diagnostics.append(diag("yaml-tag", msg, self.path, _loc(node)))


def _int(text: str) -> int | str:
    clean = text.replace("_", "")
    if _SEXAGESIMAL.fullmatch(clean):
        return text
    try:
        if clean.lstrip("+-").startswith("0") and clean.lstrip("+-")[1:2].isdigit():
            return int(clean, 8)
        return int(clean, 0)
    except ValueError:
        return text


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
