"""Rules on the package metadata (`description`, `license`, `repository`, `homepage`, `keywords`):
what PyPI, npm, crates.io and Maven Central accept, checked once here so no SDK's packaging fails
on it later. The strictest registry decides (crates.io for keywords)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterator

from packaging.licenses import InvalidLicenseExpression, canonicalize_license_expression

from errgen.registry.lint.base import Context, Finding, rule

# crates.io: at most 5 keywords, each ASCII, starting with a letter, at most 20 characters.
MAX_KEYWORDS = 5
KEYWORD = re.compile(r"[A-Za-z][A-Za-z0-9_+-]{0,19}")
URL = re.compile(r"https://[^\s\"'<>\\^`{|}]+")


@rule("package-license")
def package_license(ctx: Context) -> Iterator[Finding]:
    """`license` is an SPDX licence expression in its canonical spelling (`Apache-2.0`, `MIT OR
    Apache-2.0`), as every package registry expects; `LicenseRef-…` names a licence of your own."""
    value = ctx.registry.about.license
    if value is None or "license" in ctx.broken:
        return
    try:
        canonical = canonicalize_license_expression(value)
    except InvalidLicenseExpression:
        yield Finding(f"license {value!r} is not an SPDX licence expression (e.g. Apache-2.0, MIT, MIT OR Apache-2.0; see https://spdx.org/licenses/)",
                      ctx.registry.loc_of("license"))
        return
    if canonical != value:
        yield Finding(f"license {value!r} is spelled {canonical!r} in SPDX; write that", ctx.registry.loc_of("license"))


@rule("package-url")
def package_url(ctx: Context) -> Iterator[Finding]:
    """`repository` and `homepage` are https URLs (package registries link them)."""
    about = ctx.registry.about
    for key, value in (("repository", about.repository), ("homepage", about.homepage)):
        if value is not None and key not in ctx.broken and not URL.fullmatch(value):
            yield Finding(f"{key} {value!r} is not an https URL (e.g. https://github.com/acme/errors)", ctx.registry.loc_of(key))


@rule("package-keywords")
def package_keywords(ctx: Context) -> Iterator[Finding]:
    """At most 5 `keywords`, each starting with a letter and of at most 20 letters, digits, `_`, `+`
    or `-`, without repeats (crates.io's rule, the strictest of the package registries)."""
    keywords = ctx.registry.about.keywords
    if "keywords" in ctx.broken:
        return
    loc = ctx.registry.loc_of("keywords")
    if len(keywords) > MAX_KEYWORDS:
        yield Finding(f"keywords lists {len(keywords)} words; package registries accept at most {MAX_KEYWORDS}", loc)
    for word in keywords:
        if not KEYWORD.fullmatch(word):
            yield Finding(f"keyword {word!r} must start with a letter and have at most 20 letters, digits, '_', '+' or '-'", loc)
    repeated = sorted(w for w, n in Counter(keywords).items() if n > 1)
    if repeated:
        yield Finding(f"keywords repeats {', '.join(map(repr, repeated))}", loc)
