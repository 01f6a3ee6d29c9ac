"""Markdown escaping without jinja2, for the renderers that must start fast (diff, validate)."""

from __future__ import annotations

import re

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")


def md_inline(value: str) -> str:
    """Markdown text that renders as exactly `value`, on one line (tables, headings, paragraphs)."""
    escaped = _MD_SPECIAL.sub(r"\\\1", value)
    escaped = escaped.replace("\r", "&#13;").replace("\n", "<br>")
    # Markdown drops a line's leading and trailing white space; character references survive.
    core = escaped.strip()
    start = escaped.index(core) if core else len(escaped)
    lead, trail = escaped[:start], escaped[start + len(core):]
    return _entities(lead) + core + _entities(trail)


def _entities(text: str) -> str:
    return "".join(f"&#{ord(ch)};" for ch in text)
