"""errgen's own documentation, wherever its output is read: the pages ship in the wheel
(errgen/docs; docs/ in a checkout) and `errgen docs TOPIC|RULE` prints them. errgen publishes them
nowhere, so by default its output points at them by that command; with the `docs-url` setting (a
copy a team publishes) it also prints absolute links under it, which resolve in a PR comment or a
SARIF viewer as well as in a terminal."""

from __future__ import annotations

import re
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_base: str | None = None  # the `docs-url` setting (ends in '/'; each page at <base><page>.md)


def use(base: str | None) -> None:
    """Links from now on are under `base` (the `docs-url` setting); None: no links at all."""
    global _base
    _base = base or None


def url(page: str, anchor: str = "") -> str | None:
    """The link to a page (`diff-rules.md`) and heading anchor of errgen's documentation under
    the `docs-url` setting; None without it (there is no location to invent: `command` instead)."""
    if _base is None:
        return None
    return f"{_base}{page}" + (f"#{anchor}" if anchor else "")


def command(name: str) -> str:
    """The command that prints a page or a rule's section, wherever errgen is installed."""
    return f"errgen docs {name}"


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
    from errgen.rule_ids import PAGES, printable

    kinds = printable().get(name, ())
    # A rule id errgen prints resolves to its own entry on the page of the command that prints
    # it (not the first page that happens to mention it); an id that names two things, to both.
    entries = [entry for entry in (_entry(folder() / PAGES[kind], name) for kind in kinds) if entry]
    if entries:
        return "\n".join(dict.fromkeys(entries))
    for path in sorted(folder().glob("*.md")):
        entry = _entry(path, name)
        if entry:
            return entry
    return None


def _entry(path: Path, name: str) -> str | None:
    """`name`'s section or table row on one page, with where it is."""
    found = _section(path.read_text(encoding="utf-8"), name) if path.is_file() else None
    if not found:
        return None
    text, heading = found
    online = url(path.name, slug(heading))
    return f"{text}\n({path.name}" + (f"; online: {online}" if online else "") + ")\n"


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
