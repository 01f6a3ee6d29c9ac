"""The rule registry: each rule is a small function with a stable id; its docstring documents it."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from errgen.diagnostics import Diagnostic, Loc, Severity
from errgen.registry.load import Document
from errgen.registry.model import Registry
from errgen.identifiers import identity_key
from errgen.spelling import did_you_mean
from errgen.registry.structure import Names


@dataclass(frozen=True, slots=True)
class Finding:
    message: str
    loc: Loc
    severity: Severity = "error"


@dataclass(frozen=True)
class Context:
    registry: Registry
    names: Names
    # The loaded (composed) document, for rules on every string it holds, whatever its key.
    document: Document | None = None

    @property
    def broken(self) -> set[str]:
        return self.names.broken


Check = Callable[[Context], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    id: str
    check: Check

    @property
    def doc(self) -> str:
        return (self.check.__doc__ or "").strip()

    def run(self, ctx: Context) -> Iterator[Diagnostic]:
        path = ctx.registry.path
        for f in self.check(ctx):
            yield Diagnostic(self.id, f.message, f.loc.path or path, f.loc.line, f.loc.column, f.severity)


RULES: list[Rule] = []


def rule(rule_id: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        RULES.append(Rule(rule_id, check))
        return check

    return register


# Fuzzy matching (difflib) costs up to the product of the two lengths: a name past this many
# characters is never compared (a valid name has at most 128, and a did-you-mean that long helps
# nobody), so one comparison costs at most FUZZY_CHARS squared.
FUZZY_CHARS = 160
# What one comparison of two names of about 20 characters costs, the unit of Nearest's budget.
_UNIT = 20 * 20


class Nearest:
    """`nearest` over a registry's own names, for a rule that may ask about thousands of words.
    A fuzzy match compares the word with every name, at a cost of the product of their lengths,
    so a rule stops fuzzy matching once it has spent `budget` comparisons of two names of about
    20 characters (lint stays linear on a registry with thousands of names and thousands of bad
    references, and on one of a few hundred names a thousand characters long); past that it
    still lists a short list of choices. A word asked about again is answered from memory."""

    def __init__(self, choices: Iterable[str], budget: int = 10_000) -> None:
        self.options = _ordered(choices)
        self.left = budget
        self.answers: dict[str, str] = {}
        self._chars = sum(min(len(o), FUZZY_CHARS) for o in self.options)

    def __call__(self, word: str) -> str:
        if word not in self.answers:
            cost = max(len(self.options), -(-min(len(word), FUZZY_CHARS) * self._chars // _UNIT))
            if self.left >= cost:
                self.left -= cost
                self.answers[word] = nearest(word, self.options)
            else:
                self.answers[word] = _choices(self.options)
        return self.answers[word]


def _ordered(choices: Iterable[str]) -> list[str]:
    """The choices in a deterministic order: a set's iteration order changes with the hash seed,
    and both the "did you mean" ties and the "expected one of" list would follow it."""
    return sorted(choices) if isinstance(choices, (set, frozenset)) else list(choices)


def nearest(word: str, choices: Iterable[str]) -> str:
    """'; did you mean X?' or the list of choices, for messages that name what would be accepted."""
    options = _ordered(choices)
    # Case and separators first: CARD_DECLINED is card_declined misspelt, whatever difflib thinks.
    key = identity_key(word)
    same = [o for o in options if identity_key(o) == key and o != word]
    near = same[:3] or _close(word, options)
    return did_you_mean(near) or _choices(options)


def _close(word: str, options: list[str]) -> list[str]:
    """difflib's close matches among the options no longer than FUZZY_CHARS (none for a longer
    word): its cost grows with the product of the lengths."""
    if len(word) > FUZZY_CHARS:
        return []
    return difflib.get_close_matches(word, [o for o in options if len(o) <= FUZZY_CHARS], n=3, cutoff=0.5)


def _choices(options: list[str]) -> str:
    """A short list of what would be accepted; a long one would drown the message."""
    return "; expected one of: " + ", ".join(options) if 0 < len(options) <= 12 else ""
