"""Markdown escaping without jinja2, for the renderers that must start fast (diff, validate)."""

from __future__ import annotations

import re
import unicodedata

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")
# What starts a block when it opens a line: a heading, a list item (bullet or `1.`/`1)`), a
# thematic break or setext underline (`---`, `===`), a fence. Escaping its first mark keeps the text inline.
_BLOCK_START = re.compile(r"^(#|[-+=]|\d{1,9}(?=[.)]))")


def md_inline(value: str) -> str:
    """Markdown text that renders as exactly `value`, on one line (tables, headings, paragraphs)."""
    escaped = _MD_SPECIAL.sub(r"\\\1", value.replace("\0", "\ufffd"))  # Markdown has no NUL: it shows U+FFFD
    escaped = escaped.replace("\r", "&#13;").replace("\n", "<br>")
    # Markdown drops a line's leading and trailing white space; character references survive.
    core = escaped.strip()
    start = escaped.index(core) if core else len(escaped)
    lead, trail = escaped[:start], escaped[start + len(core):]
    return _entities(lead) + _BLOCK_START.sub(_escape_mark, core, count=1) + _entities(trail)


def _escape_mark(match: re.Match[str]) -> str:
    mark = match.group(1)
    return mark + "\\" if mark[0].isdigit() else "\\" + mark  # 1. -> 1\. ; # -> \#


def _entities(text: str) -> str:
    return "".join(f"&#{ord(ch)};" for ch in text)


_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def visible(text: str) -> str:
    """Registry or payload text for a terminal line: controls (ESC sequences, CR, LF), format
    characters (bidi controls, zero-width) and separators are spelled `\\uXXXX`, so the text
    can neither drive the terminal nor display as something it is not."""
    # Every invisible category is one str.isprintable rejects, so most text (any script) is done
    # in one C pass; only a text holding a non-printable character is looked at per character.
    if text.isprintable():
        return text
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in _INVISIBLE_CATEGORIES else ch for ch in text)
