"""A static HTML error catalogue: a page per code where its RFC 9457 type URI points, an index by
category, a changelog, and client-side search that works offline (file:// too).

Where a page lives: a type URI under `problem_base` names a path (`https://errors.acme.dev/` +
`RATE_LIMITED` -> `RATE_LIMITED`), and the page is `site/<path>/index.html`, so a static host serving
`site/` at `problem_base` answers the type URI itself. A code whose `type_uri` points elsewhere, or
whose path is not plain URL characters (`#`, `:`, `%`...), gets `site/codes/<slug>/index.html`
instead, linked from the index like every other. Links between pages are relative and name
`index.html`, so the site reads the same from a folder as from a server.

Registry text is data: the templates autoescape, and the search index (a script, so that file://
needs no fetch) escapes what could end a script or a comment.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from markupsafe import Markup

from errgen import payload
from errgen.contract import CodeRow, ContractView, view
from errgen.emit.targets import all_targets
from errgen.emit.targets.catalogue import ACTION_ADVICE
from errgen.registry.model import Registry
from errgen.emit.render import comment, json_lines
from errgen.emit.render import render as render_template
from errgen.resources import templates_dir

NAME = "site"
SUMMARY = "site/: static HTML catalogue, a page per code at its type URI's path, index, changelog, offline search"
ROOT = "site"
# Folder of the pages of codes whose type URI names no page under problem_base.
ELSEWHERE = "codes"
ASSETS = ("site.css", "site.js")
SEGMENT = re.compile(r"[A-Za-z0-9._~-]+")
# What could end a <script>, open an HTML comment, or end a line in a pre-2019 JavaScript string.
_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_SCRIPT_UNSAFE_RE = re.compile("[<>&\u2028\u2029]")


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    pages = page_paths(contract)
    owners = dict(registry.owners)
    snippets = language_snippets(contract)
    by_category: dict[str, list[CodeRow]] = {category.name: [] for category in contract.categories}
    for row in contract.codes:
        by_category[row.category].append(row)
    groups = [(category, by_category[category.name]) for category in contract.categories if by_category[category.name]]
    versions = {entry.version for entry in registry.history}
    common = {"view": contract, "header": contract.header, "advice": ACTION_ADVICE, "versions": versions, "shared": Shared()}

    files = {f"{ROOT}/index.html": render_template(NAME, "index.html.jinja", root="", pages=pages, groups=groups, **common),
             f"{ROOT}/changelog.html": render_template(NAME, "changelog.html.jinja", root="", pages=pages,
                                                       releases=releases(contract, pages), **common)}
    files.update({f"{ROOT}/{name}": f"/* {comment(contract.header)} */\n" + (templates_dir(NAME) / name).read_text(encoding="utf-8")
                  for name in ASSETS})
    files[f"{ROOT}/search-index.js"] = search_index(contract, pages)
    files.update(code_pages(contract, pages, owners, snippets, common))
    return files


def code_pages(contract: ContractView, pages: dict[str, str], owners: dict[str, str], snippets: list[tuple[str, dict[str, str]]],
               common: dict[str, Any]) -> dict[str, str]:
    """Every code's page: the shared chrome (rendered once per folder depth) around each body
    (all rendered in one pass of codes.html.jinja, then split at its markers)."""
    roots = {code: "../" * path.count("/") for code, path in pages.items()}
    chrome = {root: _parts(render_template(NAME, "chrome.html.jinja", root=root, **common)) for root in set(roots.values())}
    bodies = render_template(NAME, "codes.html.jinja", rows=contract.codes, roots=roots, pages=pages, owners=owners,
                             tails=tails(contract, snippets), **common).split(_PAGE)
    out = {}
    for row, body in zip(contract.codes, bodies):
        title, main = body.strip("\n").split(_SPLIT, 1)
        head, middle, foot = chrome[roots[row.code]]
        out[f"{ROOT}/{pages[row.code]}"] = f"{head}{title}{middle}{main}\n{foot}"
    return out


def tails(contract: ContractView, snippets: list[tuple[str, dict[str, str]]]) -> dict[str, Markup]:
    """The end of each code's page, escaped here: its example payload (valid against the
    schema), then how each SDK names it. As the template wrote it, a call per value."""
    labels = [(_escaped(label), texts) for label, texts in snippets]
    return {row.code: Markup(f'<pre tabindex="0"><code>{_escaped(json_lines(payload.example(contract, row)))}</code></pre>\n'
                             "<h2>In each SDK</h2>\n"
                             + "".join(f'<h3>{label}</h3>\n<pre tabindex="0"><code>{_escaped(texts[row.code])}</code></pre>\n'
                                       for label, texts in labels))
            for row in contract.codes}


def _escaped(text: str) -> str:
    """markupsafe.escape(text) for a plain string, as the templates' autoescape writes it (its
    pure-Python spelling, without a Markup made per value)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;").replace('"', "&#34;")


def _parts(chrome: str) -> tuple[str, str, str]:
    """The chrome before the title, between title and content, and after the content."""
    head, rest = chrome.split(_TITLE)
    middle, foot = rest.split(_MAIN)
    return head, middle, foot


class Shared:
    """The parts of fragments.html.jinja, each rendered once per distinct key: a registry's codes
    share a few scope, hint and action combinations."""

    def __init__(self) -> None:
        from errgen.emit.render import environment

        self._macros = environment(NAME).get_template("fragments.html.jinja").module
        self._made: dict[tuple[Any, ...], Any] = {}

    def _part(self, name: str, key: tuple[Any, ...], *args: Any) -> Any:
        made = self._made.get((name, key))
        if made is None:
            made = self._made[(name, key)] = getattr(self._macros, name)(*args)
        return made

    def scopes(self, row: CodeRow) -> Any:
        return self._part("scopes", (row.scope, row.scopes), row)

    def hints(self, row: CodeRow) -> Any:
        return self._part("hints", row.hints, row)

    def actions(self, row: CodeRow) -> Any:
        return self._part("actions", tuple(row.actions.items()), row, ACTION_ADVICE)

    def brief_actions(self, row: CodeRow) -> Any:
        return self._part("brief_actions", tuple(row.actions.items()), row)


# The markers codes.html.jinja and chrome.html.jinja leave between the parts of a page: HTML
# comments, which no autoescaped registry text can spell.
_TITLE, _MAIN, _SPLIT, _PAGE = "<!--errgen:title-->", "<!--errgen:main-->", "<!--errgen:split-->\n", "<!--errgen:page-->"


def page_paths(contract: ContractView) -> dict[str, str]:
    """Each code's page, relative to site/: `<path>/index.html`, the path its type URI names under
    problem_base, else `codes/<slug>/index.html`. Two codes on one page, or a page inside another
    page's file name, is a build error."""
    base = contract.policy.problem_base
    found: dict[str, str] = {}
    for row in contract.codes:
        rest = row.type_uri[len(base):] if row.type_uri.startswith(base) else None
        if rest is not None and all(SEGMENT.fullmatch(part) and part not in (".", "..") for part in rest.split("/")):
            found[row.code] = f"{rest}/index.html"
        else:
            found[row.code] = f"{ELSEWHERE}/{slug(row.code)}/index.html"
    _check_distinct(found)
    return found


def slug(code: str) -> str:
    """A folder name for any code: its URL-safe characters, plus a digest when some were dropped
    (`com.aws#NotFound` -> `com.aws-NotFound-1a2b3c4d`), so distinct codes keep distinct folders."""
    plain = re.sub(r"[^A-Za-z0-9._~-]+", "-", code).strip(".-") or "code"
    return plain if plain == code else f"{plain}-{hashlib.sha256(code.encode()).hexdigest()[:8]}"


def _check_distinct(pages: dict[str, str]) -> None:
    """Every page its own file, and no page's folder the name of another file."""
    from errgen.emit.errors import BuildError

    owner = {name: f"the site's {name}" for name in ("index.html", "changelog.html", "search-index.js", *ASSETS)}
    for code, path in pages.items():
        if path in owner:
            raise BuildError(f"target site: code {code}'s page {path} is also {owner[path]}; give one of them a type_uri")
        owner[path] = f"code {code}'s page"
    for path in list(owner):
        parts = path.split("/")
        for i in range(1, len(parts)):
            folder = "/".join(parts[:i])
            if folder in owner:
                raise BuildError(f"target site: {owner[path]} ({path}) lies under {owner[folder]} ({folder}); give one of them a type_uri")


def language_snippets(contract: ContractView) -> list[tuple[str, dict[str, str]]]:
    """(label, code -> snippet) from each language target that offers `code_snippets`: how a
    caller names the code in that SDK, in the language's own naming."""
    from errgen.emit.errors import BuildError

    out = []
    for target in all_targets():
        make = getattr(target, "code_snippets", None)
        if make is None:
            continue
        try:
            out.append((target.LABEL, make(contract)))
        except ValueError as exc:  # each language's naming error: a package name it cannot spell
            raise BuildError(f"target site: the {target.NAME} snippets: {exc}") from None
    return out


def releases(contract: ContractView, pages: dict[str, str]) -> list[dict[str, Any]]:
    """The history, newest first: each version's notes (code names in them linked) and the codes
    added, deprecated and renamed in it, read from the rows."""
    out = []
    for entry in reversed(contract.registry.history):
        version = entry.version
        out.append({
            "version": version, "date": entry.date,
            "changes": [linked_words(text, pages) for text in entry.changes],
            "added": [r for r in contract.codes if r.since == version and not r.renamed_from],
            "renamed": [r for r in contract.codes if r.since == version and r.renamed_from],
            "deprecated": [r for r in contract.codes if r.deprecated_since == version],
        })
    return out


_WORD = re.compile(r"[A-Za-z0-9_.:#/-]+")


def linked_words(text: str, pages: dict[str, str]) -> list[tuple[str, str | None]]:
    """Free text as (piece, page or None): each word that is a code's name links to its page."""
    pieces: list[tuple[str, str | None]] = []
    last = 0
    for match in _WORD.finditer(text):
        word = match.group().rstrip(".:")  # a sentence's full stop is not part of the code
        if word in pages:
            pieces.append((text[last:match.start()], None))
            pieces.append((word, pages[word]))
            last = match.start() + len(word)
    pieces.append((text[last:], None))
    return [p for p in pieces if p[0]]


def search_index(contract: ContractView, pages: dict[str, str]) -> str:
    """The search data as a script (a fetched JSON file would not load from file://): one row per
    code, [code, category, description, page, deprecated]."""
    rows = [[r.code, r.category, r.description, pages[r.code], 1 if r.deprecated_since else 0] for r in contract.codes]
    body = ",\n".join(script_json(row) for row in rows)
    return f"// {contract.header}\nwindow.ERRGEN_SEARCH = [\n{body}\n];\n"


def script_json(value: Any) -> str:
    """JSON that means the same inside a <script> or a .js file whatever the text: no `</script>`,
    `<!--`, `]]>` or raw line separator survives."""
    return _SCRIPT_UNSAFE_RE.sub(lambda m: _SCRIPT_UNSAFE[m.group()], json.dumps(value, ensure_ascii=False))
