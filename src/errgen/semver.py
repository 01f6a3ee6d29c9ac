"""Semantic versions: parsing, ordering and the bump between two of them."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal, NamedTuple

Bump = Literal["none", "patch", "minor", "major"]
BUMP_ORDER: dict[str, int] = {"none": 0, "patch": 1, "minor": 2, "major": 3}

# ASCII digits only: `\d` would take `2.1٣.0` (an Arabic-Indic three) and int() would read it as 13.
_SEMVER = re.compile(
    r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-((?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?",
    re.ASCII,
)


class Version(NamedTuple):
    major: int
    minor: int
    patch: int
    pre: tuple[tuple[int, int | str], ...] = ()

    def sort_key(self) -> tuple[int, int, int, int, tuple[tuple[int, int | str], ...]]:
        # A pre-release sorts before its release (1.0.0-rc.1 < 1.0.0).
        return (self.major, self.minor, self.patch, 0 if self.pre else 1, self.pre)

    def __str__(self) -> str:
        base = f"{self.major}.{self.minor}.{self.patch}"
        return base + ("-" + ".".join(str(p[1]) for p in self.pre) if self.pre else "")


def parse(text: object) -> Version | None:
    return _parse(text) if isinstance(text, str) else None


@lru_cache(maxsize=4096)  # every code's `since` is one of a few versions
def _parse(text: str) -> Version | None:
    match = _SEMVER.fullmatch(text)
    if not match:
        return None
    pre = tuple(
        (0, int(part)) if part.isascii() and part.isdigit() else (1, part) for part in (match.group(4).split(".") if match.group(4) else ())
    )
    return Version(int(match.group(1)), int(match.group(2)), int(match.group(3)), pre)


def less(a: Version, b: Version) -> bool:
    return a.sort_key() < b.sort_key()


def declared_bump(old: Version, new: Version) -> Bump:
    """What moving from old to new announces; on 0.y.z a minor step counts as major (as cargo does)."""
    if new.major != old.major:
        return "major"
    if new.minor != old.minor:
        return "major" if new.major == 0 else "minor"
    if new.patch != old.patch:
        return "minor" if new.major == 0 else "patch"
    return "none" if new.pre == old.pre else "patch"


def bumped(old: Version, bump: Bump) -> Version:
    """The smallest release after old that announces bump."""
    if bump == "none":
        return old
    if old.major == 0:
        bump = {"major": "minor", "minor": "patch", "patch": "patch"}[bump]  # type: ignore[assignment]
    if bump == "major":
        return Version(old.major + 1, 0, 0)
    if bump == "minor":
        return Version(old.major, old.minor + 1, 0)
    return Version(old.major, old.minor, old.patch + 1)
