"""The known names a misspelt one was probably meant to be, and how every message offers them
("; did you mean 'A' or 'B'?"): validate's unknown codes are looked up here.

A payload file can hold thousands of unknown codes and a registry thousands of codes, so comparing
each unknown code with every known one (difflib over the whole registry) made validate quadratic:
20,000 payloads of unknown codes against 5,000 codes took minutes where clean ones take a second.
Here a word is compared only with the names that share a spelling with it once at most one
character is taken out of each (the "symmetric delete" index of SymSpell): a name one edit away (a
character wrong, missing or extra) or with two neighbours swapped, the misspellings people make.
Looking a word up costs its length (bounded by the longest name), whatever the number of names; the
index is built on the first unknown word, in time linear in the names.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from errgen.identifiers import identity_key

_MEMORY = 4096  # answers remembered per speller (a file repeats the same wrong code)
_LISTED = 64  # names looked at per spelling of a word: codes numbered alike share spellings by the hundred
# Taking one character out of a name at each place costs its length squared: a name longer than
# this (a valid code has at most 128 characters) is found only by case and separators, so a
# registry of names a thousand characters long costs what one of short names does.
_INDEXED = 160


class Speller:
    def __init__(self, names: Iterable[str]) -> None:
        self._names = tuple(names)
        self._longest = max((len(n) for n in self._names if len(n) <= _INDEXED), default=0)
        self._index: dict[str, list[int]] | None = None
        self._by_identity: dict[str, list[str]] = {}
        self._answers: dict[tuple[str, int], list[str]] = {}

    def nearest(self, word: str, n: int = 3) -> list[str]:
        """Up to `n` known names, best first: those differing only in case or separators
        (CARD_DECLINED for card_declined), else those one edit away (a character wrong, missing
        or extra), else those two edits away by the index (two neighbours swapped, say); in
        registry order within each, and never one as far from the word as it is long."""
        key = (word, n)
        if key not in self._answers:
            if len(self._answers) >= _MEMORY:
                self._answers.clear()
            self._answers[key] = self._look(word, n)
        return self._answers[key]

    def _look(self, word: str, n: int) -> list[str]:
        if self._index is None:
            self._index = self._build()
        same = [name for name in self._by_identity.get(identity_key(word), ()) if name != word]
        if same:
            return same[:n]
        # Past the longest name plus one, no name can be found (and a huge word would cost its
        # length squared to take apart).
        if len(word) > self._longest + 1:
            return []
        distance: dict[int, int] = {}
        for at, variant in _deletions(word):
            for entry in self._index.get(variant, ())[:_LISTED]:
                name, taken = entry >> 8, (entry & 255) - 1
                # Out of both at one place: a character wrong; out of one only: one missing or
                # extra; out of each at different places: two edits.
                edits = 1 if at == taken or at < 0 or taken < 0 else 2
                if distance.get(name, 3) > edits:
                    distance[name] = edits
        ranked = sorted((edits, name) for name, edits in distance.items())
        return [self._names[name] for edits, name in ranked
                if self._names[name] != word and 2 * edits <= max(len(word), len(self._names[name]))][:n]

    def _build(self) -> dict[str, list[int]]:
        """Each spelling with at most one character out, to the names it comes from: a name's
        number and the place taken out (0 for none, else place + 1; a place past 254 counts as 254,
        which only blurs how near a long name ranks)."""
        index: dict[str, list[int]] = {}
        for i, name in enumerate(self._names):
            self._by_identity.setdefault(identity_key(name), []).append(name)
            if len(name) > _INDEXED:
                continue
            for at, variant in _deletions(name):
                index.setdefault(variant, []).append(i << 8 | min(at + 1, 255))
        return index


def _deletions(word: str) -> Iterator[tuple[int, str]]:
    """The word itself (place -1) and each spelling of it with one character taken out, with the
    place it was taken from."""
    yield -1, word
    for i in range(len(word)):
        yield i, word[:i] + word[i + 1:]


def did_you_mean(near: list[str]) -> str:
    """How a message offers the names a word was probably meant to be (nothing for none)."""
    return "; did you mean " + " or ".join(repr(n) for n in near) + "?" if near else ""
