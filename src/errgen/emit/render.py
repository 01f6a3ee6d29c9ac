"""Jinja rendering shared by the targets: strict undefined, and one escaping filter per destination
(the shared ones here; a language adds its own literals' filters in its declaration).

Registry text is data: each filter turns a string into something that, in its destination, means
exactly that string (a Python or TypeScript literal, a Markdown cell, a comment).
"""

from __future__ import annotations

import json
import json.encoder
from functools import cache
from typing import Any, Callable

import jinja2
import jinja2.bccache

from errgen.languages import by_name
from errgen.render_text import md_inline as md
from errgen.resources import templates_dir


def comment(value: str) -> str:
    """One line fit for any comment: no newline, no comment terminator."""
    flat = " ".join(value.split())
    return flat.replace("*/", "*\\/")


def to_json(value: Any, indent: int | None = None) -> str:
    return _inline(value) if indent is None else json.JSONEncoder(ensure_ascii=False, indent=indent).encode(value)


def _encoder() -> Callable[[Any], str]:
    """`json.dumps(value, ensure_ascii=False)`, with json's C encoder made once: dumps and
    JSONEncoder.encode make a new one per call, which was most of the cost of a small value."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # a Python without json's C speedups
        return json.JSONEncoder(ensure_ascii=False).encode
    quoted = json.encoder.encode_basestring
    chunks = make(None, json.JSONEncoder().default, quoted, None, ": ", ", ", False, False, True)

    def encode(value: Any) -> str:
        return quoted(value) if isinstance(value, str) else "".join(chunks(value, 0))
    return encode


_inline = _encoder()


def json_layout(value: Any, _pad: str = "") -> str:
    """JSON with every object and every array of containers laid out a member per line
    (indented two spaces), and each array of scalars on one line, by json's C encoder: a large
    schema's long enums read as one line each, and are written fast."""
    if (isinstance(value, dict) and value) or (isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)):
        return _expanded(value, _pad, json_layout)
    return _inline(value)


def json_lines(value: Any, depth: int = 1, _pad: str = "") -> str:
    """JSON with the outer `depth` levels of objects and arrays laid out a member per line
    (indented two spaces), everything deeper on one line: a code per line reads well in a diff,
    and json's C encoder writes it (indent= runs json's pure-Python encoder, which was most of a
    large registry's build)."""
    if depth <= 0 or not isinstance(value, (dict, list)) or not value:
        return _inline(value)
    if depth == 1 and type(value) is dict:  # the common case (a payload, a code's row): no call per member
        inner = _pad + "  "
        return "{\n" + ",\n".join([f"{inner}{_inline(k if isinstance(k, str) else _inline(k))}: {_inline(v)}" for k, v in value.items()]) + f"\n{_pad}}}"
    return _expanded(value, _pad, lambda item, pad: json_lines(item, depth - 1, pad))


def _expanded(value: dict[Any, Any] | list[Any], pad: str, member: Callable[[Any, str], str]) -> str:
    inner = pad + "  "
    if isinstance(value, dict):
        keys = (_inline(k if isinstance(k, str) else _inline(k)) for k in value)  # json's own key spelling
        return "{\n" + ",\n".join(f"{inner}{key}: {member(v, inner)}" for key, v in zip(keys, value.values())) + f"\n{pad}}}"
    return "[\n" + ",\n".join(inner + member(v, inner) for v in value) + f"\n{pad}]"


class _VerifiedBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in errgen's verified cache (errgen.toolcache), so a build does not
    compile every template again. jinja's own FileSystemBytecodeCache unpickles whatever file
    sits in its folder; here an entry is read only when this user's secret signed it, so a
    planted file is never unpickled. It changes speed, never output."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from errgen.emit import toolcache

        data = toolcache.load("jinja", bucket.key)
        if data is not None:
            try:
                bucket.bytecode_from_string(data)
            except Exception:  # signed by us, so only a jinja upgrade can make it unreadable
                bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from errgen.emit import toolcache

        toolcache.save("jinja", bucket.key, bucket.bytecode_to_string())


@cache  # one per target and process: each template is loaded once
def environment(target: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir(target))),
        bytecode_cache=_VerifiedBytecodeCache(),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=lambda name: (name or "").endswith(".html.jinja"),  # HTML escapes everything; other outputs use a filter per destination
        auto_reload=False,  # a build never sees a template change under it
    )
    env.filters.update(comment=comment, md=md, json=to_json, json_lines=json_lines)
    language = by_name().get(target)
    if language is not None:
        env.filters.update(language.filters)
    return env


def render(target: str, template: str, **context: Any) -> str:
    return environment(target).get_template(template).render(**context)
