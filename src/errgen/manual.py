"""errgen's own documentation, wherever its output is read: the pages ship in the wheel
(errgen/docs; docs/ in a checkout) for `errgen docs`, and links errgen prints are absolute, under
the published location or the `docs-url` setting, so they resolve in a PR comment or a SARIF viewer
as well as in a terminal."""

from __future__ import annotations

import re
from pathlib import Path

# Where the project publishes docs/ (each page at <base><page>.md). One place; `docs-url` in the
# settings points links at a mirror (an internal copy, a pinned tag) instead.
PUBLISHED = "https://github.com/errgen/errgen/blob/main/docs/"

_PACKAGE = Path(__file__).resolve().parent
_base = PUBLISHED


def use(base: str | None) -> None:
    """Links from now on are under `base` (the `docs-url` setting), or the published location."""
    global _base
    _base = base if base else PUBLISHED


def url(page: str, anchor: str = "") -> str:
    """The link to a page (`diff-rules.md`) and heading anchor of errgen's documentation."""
    return f"{_base}{page}" + (f"#{anchor}" if anchor else "")


def folder() -> Path:
    packaged = _PACKAGE / "docs"
    return packaged if packaged.is_dir() else _PACKAGE.parent.parent / "docs"


def topics() -> dict[str, str]:
    """Each page's name (its file name without .md) and title (its first heading)."""
    out = {}
    for page in sorted(folder().glob("*.md")):
        title = next((line.lstrip("# ").strip() for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("# ")), "")
        out[page.stem] = title
    return out


def lookup(name: str) -> str | None:
    """A whole page by name, else the section whose heading is `name` (a diff rule), else the
    table row that documents it (a lint rule) under its section's heading; None if none does."""
    page = folder() / f"{name}.md"
    if re.fullmatch(r"[a-z0-9-]+", name) and page.is_file():
        return page.read_text(encoding="utf-8")
    for path in sorted(folder().glob("*.md")):
        found = _section(path.read_text(encoding="utf-8"), name)
        if found:
            text, heading = found
            return f"{text}\n({path.name}; online: {url(path.name, slug(heading))})\n"
    return None


def slug(heading: str) -> str:
    """A heading's anchor as GitHub renders it: lower case, punctuation dropped, spaces to '-'."""
    words = re.sub(r"[^\w\- ]", "", heading.lstrip("#").strip().lower())
    return words.replace(" ", "-")


def _section(text: str, name: str) -> tuple[str, str] | None:
    """The text documenting `name` and the heading it is under."""
    lines = text.splitlines()
    heading = None
    for i, line in enumerate(lines):
        if line.startswith("#"):
            heading = line
            if line.lstrip("#").strip() == name:
                level = len(line) - len(line.lstrip("#"))
                end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("#")
                            and len(lines[j]) - len(lines[j].lstrip("#")) <= level), len(lines))
                return "\n".join(lines[i:end]).strip(), line
        elif line.startswith(f"| `{name}` |") and heading is not None:
            return f"{heading}\n\n{line}", heading
    return None
