"""Jinja rendering shared by the targets: strict undefined, and one escaping filter per destination.

Registry text is data: each filter turns a string into something that, in its destination, means
exactly that string (a Python or TypeScript literal, a Markdown cell, a comment).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jinja2

from errgen.naming import python as python_naming
from errgen.naming import typescript as typescript_naming
from errgen.render_text import md_inline as md
from errgen.resources import templates_dir

py_str = python_naming.string_literal
ts_str = typescript_naming.string_literal
py_tuple = python_naming.string_tuple


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
