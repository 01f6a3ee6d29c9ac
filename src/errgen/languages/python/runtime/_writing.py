"""Writing a payload in the API's own shape (docs/conformance.md, "Writing in the API's own shape"):
each fact at the first body source and the first header source the registry reads it from, every
`equals` condition made true, and for `format: xml` a flat XML document of those writes alone."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Tuple

from ._contract import RESPONSE

_ANY = -1
_FACTS = ("code", "message", "correlation_id", "resource_id")
# Characters the flat XML reader does not accept in an element name.
_NOT_NAME = frozenset(" \t\r\n/>=<\"'&!?")

Write = Tuple[Mapping[str, Any], object]


def writes(facts: Mapping[str, object], variant: List[Any]) -> List[Write]:
    """(source, value) in the order they apply: the facts (code as sent, message, correlation id,
    resource id) at their first body then first header source, then the `error_when` conditions,
    then the code's own `when` conditions, each `equals` one made true."""
    out: List[Write] = []
    for fact in _FACTS:
        value = facts.get(fact)
        if not isinstance(value, str):
            continue
        for kind in ("body", "header"):
            first = next((s for s in RESPONSE[fact] if s["in"] == kind), None)
            if first is not None:
                out.append((first, value))
    for condition in [*RESPONSE["error_when"], *variant]:
        if "equals" in condition:
            out.append((condition["at"], condition["equals"]))
    return out


def put(node: object, path: List[Any], value: object) -> object:
    """`node` with `value` at `path`: objects and arrays made on the way (an array padded with empty
    objects, `[*]` as index 0), a scalar in the way replaced."""
    if not path:
        return value
    step, rest = path[0], path[1:]
    if isinstance(step, str):
        obj: Dict[str, Any] = dict(node) if isinstance(node, dict) else {}
        obj[step] = put(obj.get(step), rest, value)
        return obj
    index = 0 if step == _ANY else step
    items: List[Any] = list(node) if isinstance(node, list) else []
    while len(items) <= index:
        items.append({})
    items[index] = put(items[index], rest, value)
    return items


def apply(body: object, headers: Dict[str, str], todo: List[Write]) -> object:
    for source, value in todo:
        if source["in"] == "header":
            if isinstance(value, str):
                headers[source["name"]] = value
        elif source["in"] == "body":
            body = put(body, source["path"], value)
    return body


def to_xml(document: object) -> str:
    """The first member of `document` as the root element, or "" when it has none."""
    if not isinstance(document, dict) or not document:
        return ""
    name, value = next(iter(document.items()))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + "".join(_element(name, value))


def _element(name: str, value: object) -> List[str]:
    """Strings only: an XML reader reads every value as text, so a number or boolean written
    here could never equal what a condition compares it with."""
    if not name or any(c in _NOT_NAME for c in name):
        return []
    if isinstance(value, list):
        return [part for item in value for part in _element(name, item)]
    if isinstance(value, dict):
        inner = [part for key, item in value.items() for part in _element(key, item)]
        return [f"<{name}>", *inner, f"</{name}>"]
    return [f"<{name}>{_text(value)}</{name}>"] if isinstance(value, str) else []


def _text(text: str) -> str:
    return "".join(_ESCAPES.get(c) or (f"&#{ord(c)};" if ord(c) < 0x20 else c) for c in text)


# NUL has no XML form; it is written as U+FFFD.
_ESCAPES: Mapping[str, str] = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\x00": "\ufffd"}
