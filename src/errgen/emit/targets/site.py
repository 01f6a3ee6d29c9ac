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
from typing import Any, Sequence

from markupsafe import Markup

from errgen import payload_schema
from errgen.contract import CodeRow, ContractView, view
from errgen.emit.targets import all_targets
from errgen.emit.targets.docs import advice, removed_in, renamed_in, wire_names
from errgen.registry.model import Registry
from errgen.emit.render import comment, json_lines, to_json
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
    shared = Shared(contract)
    common = {"view": contract, "header": contract.header, "advice": shared.advice, "wire": shared.wire, "versions": versions,
              "shared": shared}

    moved = moved_paths(contract, pages)
    files = {f"{ROOT}/index.html": render_template(NAME, "index.html.jinja", root="", groups=groups,
                                                   tables=index_rows(groups, pages, shared), **common),
             f"{ROOT}/changelog.html": render_template(NAME, "changelog.html.jinja", root="", pages={**moved, **pages},
                                                       releases=releases(contract, pages), **common)}
    files.update({f"{ROOT}/{name}": f"/* {comment(contract.header)} */\n" + (templates_dir(NAME) / name).read_text(encoding="utf-8")
                  for name in ASSETS})
    files[f"{ROOT}/search-index.js"] = search_index(contract, pages, moved)
    files.update(code_pages(contract, pages, owners, snippets, common))
    files.update(moved_pages(contract, pages, moved, common))
    return files


def moved_paths(contract: ContractView, pages: dict[str, str]) -> dict[str, str]:
    """A page for each name that is gone (a renamed code's old names, a removed code), where its
    type URI pointed: clients and bookmarks keep that URI, so it must still answer. A name whose
    page would take another page's place gets none."""
    base, taken = contract.policy.problem_base, set(pages.values())
    names = [old for row in contract.codes for old in row.renamed_from] + list(removed_in(contract))
    found: dict[str, str] = {}
    for name in names:
        path = f"{name}/index.html" if SEGMENT.fullmatch(name) and name not in (".", "..") and base else f"{ELSEWHERE}/{slug(name)}/index.html"
        if path not in taken and not any(p.startswith(path.removesuffix("index.html")) or path.startswith(p.removesuffix("index.html")) for p in taken):
            found[name] = path
            taken.add(path)
    return found


def moved_pages(contract: ContractView, pages: dict[str, str], moved: dict[str, str], common: dict[str, Any]) -> dict[str, str]:
    """Each gone name's page: what happened, when, and a link to the code that took its place."""
    successors = {old: row.code for row in contract.codes for old in row.renamed_from}
    renamed, removed, versions = renamed_in(contract), removed_in(contract), common["versions"]
    out = {}
    for name, path in moved.items():
        root = "../" * path.count("/")
        head, middle, foot = _parts(render_template(NAME, "chrome.html.jinja", root=root, **common))
        old = _escaped(name)
        if name in successors:
            new = successors[name]
            what = (f'<code>{old}</code> was renamed to <a href="{root}{pages[new]}"><code>{_escaped(new)}</code></a> '
                    f"in version {_version(renamed[new], root, versions)}: the same error under a new name. Clients built "
                    "before that version know it by its old name.")
        else:
            what = (f"<code>{old}</code> was removed in version {_version(removed[name], root, versions)}; "
                    f'<a href="{root}changelog.html">the changelog</a> says what to use instead.')
        out[f"{ROOT}/{path}"] = f'{head}{old}{middle}<h1><code>{old}</code></h1>\n<p class="notice" role="note">{what}</p>\n{foot}'
    return out


def index_rows(groups: list[tuple[Any, list[CodeRow]]], pages: dict[str, str], shared: "Shared") -> dict[str, Markup]:
    """Each category's table rows on the index, escaped here: code (linked), status, what to do
    by scope, description."""
    tables = {}
    for category, rows in groups:
        links, codes, descriptions = (_escaped_each(texts) for texts in
                                      ([pages[row.code] for row in rows], [row.code for row in rows], [row.description for row in rows]))
        tables[category.name] = Markup("".join(
            f'<tr{_DEPRECATED_ROW if row.deprecated_since else ""}><td><a href="{link}"><code class="name">{_breakable(code)}</code></a>'
            f'{_DEPRECATED_BADGE if row.deprecated_since else ""}</td><td>{row.http_status}</td><td>{shared.brief_actions(row)}</td>'
            f"<td>{description}</td></tr>\n"
            for row, link, code, description in zip(rows, links, codes, descriptions)))
    return tables


_BREAK_AFTER = re.compile(r"([_.-])")


def _breakable(escaped_code: str) -> str:
    """A code name that wraps only after `_`, `.` or `-` (a <wbr> there; the stylesheet keeps the
    name cells from breaking anywhere else): `RATE_LIMITED` never becomes `RATE_LIM` / `ITED` on a
    narrow screen. The name is escaped already, and no entity holds those characters."""
    return _BREAK_AFTER.sub(r"\1<wbr>", escaped_code)


_DEPRECATED_ROW, _DEPRECATED_BADGE = ' class="deprecated"', ' <span class="badge">deprecated</span>'


def code_pages(contract: ContractView, pages: dict[str, str], owners: dict[str, str], snippets: list[tuple[str, dict[str, str]]],
               common: dict[str, Any]) -> dict[str, str]:
    """Every code's page: the shared chrome (rendered once per folder depth) around its body.
    The bodies are written here, a format per page, each field escaped once (a field's values
    all in one pass): a template call per value, 5,000 pages of a dozen values, was most of
    the site's build."""
    rows = contract.codes
    roots = {code: "../" * path.count("/") for code, path in pages.items()}
    chrome = {root: _parts(render_template(NAME, "chrome.html.jinja", root=root, **common)) for root in set(roots.values())}
    versions, shared = common["versions"], common["shared"]
    escaped_pages = dict(zip(pages, _escaped_each(list(pages.values()))))
    categories = {category.name: _escaped(category.name) for category in contract.categories}
    since: dict[tuple[str, str], str] = {}  # (version, root) -> its link: a registry has few versions
    codes, descriptions, uris = (_escaped_each([getattr(row, field) for row in rows]) for field in ("code", "description", "type_uri"))
    examples = _escaped_each([json_lines(payload_schema.example(contract, row)) for row in rows])
    out = {}
    for row, code, description, uri, example, sdk in zip(rows, codes, descriptions, uris, examples, _sdk_sections(rows, snippets)):
        root = roots[row.code]
        head, middle, foot = chrome[root]
        key = (row.since, root)
        if key not in since:
            since[key] = _version(row.since, root, versions)
        out[f"{ROOT}/{pages[row.code]}"] = (
            f"{head}{code}{middle}<h1><code>{code}</code></h1>\n"
            f"{_notice(row, root, versions, escaped_pages)}"
            f'<p class="description">{description}</p>\n'
            '<dl class="facts">\n'
            f'<dt>Category</dt><dd><a href="{root}index.html#category-{categories[row.category]}">{categories[row.category]}</a></dd>\n'
            f"<dt>Retryable</dt><dd>{'yes' if row.retryable else 'no'}{'' if row.retry_after_ms is None else f', default delay {row.retry_after_ms} ms'}</dd>\n"
            f"<dt>HTTP status</dt><dd>{row.http_status}</dd>\n"
            f"<dt>Scopes</dt><dd>{shared.scopes(row)}</dd>\n"
            f"<dt>Hints</dt><dd>{shared.hints(row)}</dd>\n"
            f"<dt>Since</dt><dd>{since[key]}</dd>\n"
            f"{_more_facts(row, owners)}"
            f'<dt>Type URI</dt><dd><code class="uri">{uri}</code></dd>\n'
            "</dl>\n"
            f"<h2>What a caller does</h2>\n{shared.actions(row)}<h2>Example payload</h2>\n"
            f'<pre tabindex="0"><code>{example}</code></pre>\n'
            f"<h2>In each SDK</h2>\n{sdk}{foot}")
    return out


def _sdk_sections(rows: Sequence[CodeRow], snippets: list[tuple[str, dict[str, str]]]) -> list[str]:
    """Each code's snippets, a heading and a block per SDK, in code order."""
    sections = [[f'<h3>{label}</h3>\n<pre tabindex="0"><code>{text}</code></pre>\n' for text in _escaped_each([texts[row.code] for row in rows])]
                for label, texts in ((_escaped(label), texts) for label, texts in snippets)]
    return ["".join(parts) for parts in zip(*sections)] if sections else [""] * len(rows)


def _version(version: str, root: str, versions: set[str]) -> str:
    """A version, linked to its changelog entry when the history has one."""
    text = _escaped(version)
    return f'<a href="{root}changelog.html#v{text}">{text}</a>' if version in versions else text


def _notice(row: CodeRow, root: str, versions: set[str], pages: dict[str, str]) -> str:
    """A deprecated code's notice, with a link to what replaces it; nothing for a live code."""
    if not row.deprecated_since:
        return ""
    use = ""
    if row.replaced_by:
        name = f"<code>{_escaped(row.replaced_by)}</code>"
        if row.replaced_by in pages:
            name = f'<a href="{root}{pages[row.replaced_by]}">{name}</a>'
        use = f" Use {name} instead."
    return f'<p class="notice" role="note"><strong>Deprecated</strong> since {_version(row.deprecated_since, root, versions)}.{use}</p>\n'


def _more_facts(row: CodeRow, owners: dict[str, str]) -> str:
    """The facts only some codes have: former names, an owning team, a different wire value."""
    if not (row.renamed_from or row.code in owners or (row.wire_code and row.wire_code != row.code)):
        return ""
    renamed = "" if not row.renamed_from else \
        f"<dt>Renamed from</dt><dd>{', '.join(f'<code>{_escaped(old)}</code>' for old in row.renamed_from)}</dd>\n"
    owner = f"<dt>Owner</dt><dd>{_escaped(owners[row.code])}</dd>\n" if row.code in owners else ""
    wire = f"<dt>The API sends</dt><dd><code>{_escaped(row.wire_code)}</code></dd>\n" if row.wire_code and row.wire_code != row.code else ""
    return f"{renamed}{owner}{wire}"


def _escaped(text: str) -> str:
    """markupsafe.escape(text) for a plain string, as the templates' autoescape writes it (its
    pure-Python spelling, without a Markup made per value)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;").replace('"', "&#34;")


def _escaped_each(texts: list[str]) -> list[str]:
    """[_escaped(text) for text in texts], in one pass over them all joined by NUL, which no
    escape touches (a text that holds a NUL itself is escaped alone): a call per value was most
    of what was left of the escaping."""
    joined = "\0".join(texts)
    if joined.count("\0") != max(len(texts) - 1, 0):
        return [_escaped(text) for text in texts]
    return _escaped(joined).split("\0") if texts else []


def _parts(chrome: str) -> tuple[str, str, str]:
    """The chrome before the title, between title and content, and after the content."""
    head, rest = chrome.split(_TITLE)
    middle, foot = rest.split(_MAIN)
    return head, middle, foot


class Shared:
    """The parts of fragments.html.jinja, each rendered once per distinct key: a registry's codes
    share a few scope, hint and action combinations."""

    def __init__(self, contract: ContractView) -> None:
        from errgen.emit.render import environment

        self.advice, self.wire = advice(contract), wire_names(contract)  # prose names fields as the wire does
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
        return self._part("hints", row.hints, row, self.wire)

    def actions(self, row: CodeRow) -> Any:
        return self._part("actions", tuple(row.actions.items()), row, self.advice)

    def brief_actions(self, row: CodeRow) -> Any:
        return self._part("brief_actions", tuple(row.actions.items()), row)


# The markers chrome.html.jinja leaves between the parts of a page: HTML comments, which no
# escaped registry text can spell.
_TITLE, _MAIN = "<!--errgen:title-->", "<!--errgen:main-->"


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
    renamed, removed = renamed_in(contract), removed_in(contract)
    for entry in reversed(contract.registry.history):
        version = entry.version
        out.append({
            "version": version, "date": entry.date,
            "changes": [linked_words(text, pages) for text in entry.changes],
            "added": [r for r in contract.codes if r.since == version and not r.renamed_from],
            "renamed": [r for r in contract.codes if renamed.get(r.code) == version],  # not its since: a rename keeps that
            "deprecated": [r for r in contract.codes if r.deprecated_since == version],
            "removed": [name for name, when in removed.items() if when == version],
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


def search_index(contract: ContractView, pages: dict[str, str], moved: dict[str, str] | None = None) -> str:
    """The search data as a script (a fetched JSON file would not load from file://): one row per
    code, [code, category, description, page, deprecated], then one per name that is gone (a
    renamed code's old name leads to the code it is now; a removed code, to its page)."""
    rows = [[r.code, r.category, r.description, pages[r.code], 1 if r.deprecated_since else 0] for r in contract.codes]
    renamed, removed = renamed_in(contract), removed_in(contract)
    rows += [[old, r.category, f"renamed to {r.code} in {renamed[r.code]}", pages[r.code], 0] for r in contract.codes for old in r.renamed_from]
    rows += [[name, "removed", f"removed in {version}", (moved or {}).get(name, "changelog.html"), 0] for name, version in removed.items()]
    # script_json of each row, made safe in one pass over them all (the joints are plain JSON).
    body = _script_safe(",\n".join(map(to_json, rows)))
    return f"// {contract.header}\nwindow.ERRGEN_SEARCH = [\n{body}\n];\n"


def script_json(value: Any) -> str:
    """JSON that means the same inside a <script> or a .js file whatever the text: no `</script>`,
    `<!--`, `]]>` or raw line separator survives."""
    return _script_safe(json.dumps(value, ensure_ascii=False))


def _script_safe(text: str) -> str:
    return _SCRIPT_UNSAFE_RE.sub(lambda m: _SCRIPT_UNSAFE[m.group()], text)
