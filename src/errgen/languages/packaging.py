"""What every SDK's package says about itself, from the contract view's `about`: the LICENSE
notice, the licence's pages at spdx.org, a README's Licence section, and the code a README's
example uses. One place, so the five packages say the same; each target only renders these in its
own syntax."""

from __future__ import annotations

import re

from errgen.contract import CodeRow, ContractView
from errgen.render_text import md_inline

# The resource id a README's example passes when its code is scoped to a resource.
EXAMPLE_RESOURCE_ID = "item_1"
# A word of an SPDX licence expression: a licence or exception id, an operator, or a reference.
_EXPRESSION_WORD = re.compile(r"[A-Za-z0-9.+-]+")
_OPERATORS = ("AND", "OR", "WITH")
# Licences of one's own (`LicenseRef-…`, `DocumentRef-…:LicenseRef-…`) have no page at spdx.org.
_REFERENCES = ("LicenseRef-", "DocumentRef-")


def license_pages(expression: str) -> list[str]:
    """The spdx.org page of each licence and exception an SPDX expression names, in order, once
    each (`GPL-2.0+`'s page is GPL-2.0's; references to licences of one's own have none)."""
    ids = [w for w in _EXPRESSION_WORD.findall(expression) if w not in _OPERATORS and not w.startswith(_REFERENCES)]
    return [f"https://spdx.org/licenses/{i.rstrip('+')}.html" for i in dict.fromkeys(ids)]


def license_page(expression: str | None) -> str | None:
    """The licence's page when the expression is a single SPDX licence id (what a pom's one
    `<url>` can say); None for an expression, a licence of one's own, or no licence."""
    if not expression or not _EXPRESSION_WORD.fullmatch(expression):
        return None
    pages = license_pages(expression)
    return pages[0] if pages else None


def license_notice(view: ContractView) -> str | None:
    """The LICENSE file's text: the licence the registry declares (SPDX) and where its text is;
    None when the registry declares none (then no package ships a LICENSE file)."""
    spdx = view.about.license
    if not spdx:
        return None
    # A licence of one's own (LicenseRef-) has no page to point to: none is invented.
    page, pages = license_page(spdx), license_pages(spdx)
    where = f"; the licence text: {page}" if page else f"; the SPDX licence texts: {', '.join(pages)}" if pages else "."
    return (f"{view.header}\n\nSPDX-License-Identifier: {spdx}\n\n"
            f"This package is the error contract of the {view.name} registry, generated from it by errgen.\n"
            f"It is licensed under {spdx}{where}\n")


def readme_licence(view: ContractView, noun: str) -> str:
    """A README's Licence section (Markdown): the licence and its LICENSE file, or that none is
    declared. `noun` is what the language calls its package (package, module, crate)."""
    if view.about.license:
        return f"{md_inline(view.about.license)} (SPDX); see the LICENSE file."
    return (f"No licence is declared: the registry sets no `license`, so nobody may assume a right to reuse this\n"
            f"{noun}.")


def example_code(view: ContractView) -> CodeRow | None:
    """The code a README's example uses: of the current codes (all, when every one is deprecated),
    the first a caller would retry that is not scoped to a resource, else the first not scoped to
    a resource (an example then passes no resource id), else the first; None without codes."""
    current = [c for c in view.codes if not c.deprecated_since] or list(view.codes)
    unscoped = [c for c in current if c.scope != "resource"]
    first = (unscoped or current)[0] if current else None
    return next((c for c in unscoped if c.retryable), first)
