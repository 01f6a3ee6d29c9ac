"""Registry text in the Markdown catalogue renders as exactly that text, never as block syntax."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from errgen.render_text import md_inline

RENDER = MarkdownIt()


def rendered_text(value: str) -> str | None:
    """The text of the single paragraph `value` renders to, or None if it renders as anything else."""
    match = re.fullmatch(r"<p>(.*)</p>\n", RENDER.render(md_inline(value)), re.S)
    return html.unescape(match.group(1).replace("<br>", "\n")) if match else None


@pytest.mark.parametrize("text", ["#", "# x", "1. x", "2) y", "- x", "+ y", "* x", "---", "===", "> q", "~~~", "```",
                                  '""\\', "  lead", "12. twelve", "#hash", "a|b", "<b>x</b>"])
def test_block_syntax_stays_text(text: str) -> None:
    assert rendered_text(text) == text


def test_nul_is_never_written_raw() -> None:
    assert "\0" not in md_inline("a\0b") and rendered_text("a\0b") == "a\ufffdb"


# Control characters are left out at a paragraph's edges only: markdown-it strips them there like
# white space, and CommonMark reads their character references as U+FFFD, so no spelling survives.
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1) | st.text(min_size=1).map(lambda t: f"a{t}b"))
def test_any_text_renders_as_itself(text: str) -> None:
    text = text.replace("\0", "").replace("\r", "")
    assert rendered_text(text) == text
