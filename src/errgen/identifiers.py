"""Naming shared by every language: the words a wire name is made of.

Each language module (naming/<lang>.py) joins these words its own way (UPPER_SNAKE, CamelCase, ...);
the words themselves are found once, here, so that every SDK names a code after the same words and
lint can tell when two wire names would become one identifier anywhere.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A minus sign (a `-` starting a number that does not follow a letter or digit: JSON-RPC's
# `-32601`), a run of capitals before a capitalised word (HTTP|Error), a capitalised or lower
# word, or digits glued to letters before them (v2, e404): one word each. Separators
# (_ - . : # / and anything else that is not a letter or digit) only split.
_WORD = re.compile(r"(?<![A-Za-z0-9])-(?=[0-9])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+[a-z]*")
# The word a minus sign is named by, so `-32601` and `32601` stay two names in every language
# (Python NEG_32601 and N_32601, Go CodeNeg32601 and Code32601, Rust Neg32601 and Code32601).
MINUS = "NEG"


@lru_cache(maxsize=1 << 16)
def words(name: str) -> tuple[str, ...]:
    """`NoSuchBucket` -> (No, Such, Bucket); `card_declined` -> (card, declined); `20003` -> (20003,);
    `-32601` -> (NEG, 32601). Remembered: lint, the contract view and every language's naming ask
    about each name of a registry (a diff, of two) several times."""
    return tuple(MINUS if w == "-" else w for w in _WORD.findall(name))


def identity_key(name: str) -> str:
    """Two names with the same key become the same identifier in some language: they differ only
    in case or separators (`card-declined`, `card_declined`, `CardDeclined`; `Foo`, `FOO`)."""
    return "".join(words(name)).casefold()


def upper_snake(name: str) -> str:
    return "_".join(w.upper() for w in words(name))


def camel(name: str) -> str:
    """lowerCamelCase of a snake_case field name: retry_after_ms -> retryAfterMs."""
    head, *rest = words(name) or ("",)
    return head.lower() + "".join(w[:1].upper() + w[1:].lower() for w in rest)
