"""Jinja rendering shared by the targets: strict undefined, and one escaping filter per destination.

Registry text is data: each filter turns a string into something that, in its destination, means
exactly that string (a Python or TypeScript literal, a Markdown cell, a comment).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import jinja2

from errgen.render_text import md_inline as md
from errgen.resources import templates_dir

_LINE_SEPARATORS = {"\u2028": "\\u2028", "\u2029": "\\u2029"}


def string_literal(value: str) -> str:
    """A string literal valid in Python and in TypeScript: JSON's escapes are a subset of both
    languages'; U+2028 and U+2029 are escaped too, since older JavaScript ends a line at them."""
    literal = json.dumps(value, ensure_ascii=False)
    for raw, escaped in _LINE_SEPARATORS.items():
        literal = literal.replace(raw, escaped)
    return literal


py_str = ts_str = string_literal


def py_tuple(values: list[str] | tuple[str, ...]) -> str:
    """A tuple literal of strings with no magic trailing comma, so black keeps it on one line."""
    items = [py_str(v) for v in values]
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def comment(value: str) -> str:
    """One line fit for any comment: no newline, no comment terminator."""
    flat = " ".join(value.split())
    return flat.replace("*/", "*\\/")


def to_json(value: Any, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)


@cache
def environment(target: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / target)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters.update(py_str=py_str, py_tuple=py_tuple, ts_str=ts_str, comment=comment, md=md, json=to_json)
    return env


def render(target: str, template: str, **context: Any) -> str:
    return environment(target).get_template(template).render(**context)
