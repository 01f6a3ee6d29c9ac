"""What every SDK's package says about itself, from the contract view's `about`: the LICENSE
notice and the code a README's example uses. One place, so the five packages say the same."""

from __future__ import annotations

import re

from errgen.contract import CodeRow, ContractView

# One SPDX licence id (not an expression such as `MIT OR Apache-2.0`, nor a LicenseRef-): it has
# a page of its own at spdx.org.
_SPDX_ID = re.compile(r"[A-Za-z0-9.+-]+")


def license_notice(view: ContractView) -> str | None:
    """The LICENSE file's text: the licence the registry declares (SPDX) and where its text is;
    None when the registry declares none (then no package ships a LICENSE file)."""
    spdx = view.about.license
    if not spdx:
        return None
    page = f"https://spdx.org/licenses/{spdx}.html" if _SPDX_ID.fullmatch(spdx) and not spdx.startswith("LicenseRef-") \
        else "https://spdx.org/licenses/"
    return (f"{view.header}\n\nSPDX-License-Identifier: {spdx}\n\n"
            f"This package is the error contract of the {view.name} registry, generated from it by errgen.\n"
            f"It is licensed under {spdx}; the licence text: {page}\n")


def example_code(view: ContractView) -> CodeRow | None:
    """The code a README's example uses: the first current one a caller would retry (not scoped
    to a resource), else the first current one, else the first; None when there is no code."""
    current = [c for c in view.codes if not c.deprecated_since] or list(view.codes)
    return next((c for c in current if c.retryable and c.scope != "resource"), current[0] if current else None)

