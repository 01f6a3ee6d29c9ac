"""What the site's fast paths must keep: markupsafe's escaping, value for value, and Go's names
for every kind of text (the ASCII shortcut of naming.ident agrees with the per-character rule)."""

from __future__ import annotations

import pytest
from markupsafe import escape

from errgen.emit.targets import site
from errgen.languages.go import naming

TEXTS = ["RATE_LIMITED", "<b>x</b> & \"q\" 'a'", "", "a\0<b>", "\0", "é\u2028&", "&amp;"]


@pytest.mark.parametrize("texts", [TEXTS, TEXTS[:1], [], ["plain", "text"], ["a\0b", "c"], ["\0\0"]])
def test_escaping_many_values_at_once_is_markupsafe_escape_of_each(texts: list[str]) -> None:
    # A NUL in a value is the separator of the one-pass join: such a list is escaped value by value.
    assert site._escaped_each(texts) == [str(escape(text)) for text in texts]


def test_escaping_one_value_is_markupsafe_escape() -> None:
    for text in TEXTS:
        assert site._escaped(text) == str(escape(text))


@pytest.mark.parametrize("text, expected", [
    ("RATE_LIMITED", "CodeRateLimited"), ("resource_id", "CodeResourceID"), ("20003", "Code20003"),
    ("café_crème", "CodeCaféCrème"), ("ＦＵＬＬ", "CodeＦｕｌｌ"), ("ǅemal", "CodeǄemal"), ("a½", "CodeA"),
    # no letters, or upper-casing leaves the identifier alphabet (ǰ -> J + a combining caron): code points spelled
    ("---", "CodeX002D002D002D"), ("ǰob", "CodeX01F0006F0062"), ("x_ǰ", "CodeX0078005F01F0"),
])
def test_go_identifiers_are_the_same_with_and_without_the_ascii_shortcut(text: str, expected: str) -> None:
    assert naming.ident("Code", text) == expected
    # twice: the second reads the cache of title-cased words
    assert naming.ident("Code", text) == expected
