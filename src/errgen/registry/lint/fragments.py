"""Rules on folder registries: each team's fragment keeps to its own codes."""

from __future__ import annotations

from typing import Iterator

from errgen.registry.lint.base import Context, Finding, rule


@rule("code-prefix")
def code_prefix(ctx: Context) -> Iterator[Finding]:
    """A fragment that declares a `prefix` holds only codes that start with it (its team's namespace)."""
    codes = ctx.registry.code_map
    for fragment in ctx.registry.fragments:
        if not fragment.prefix:
            continue
        where = f" ({fragment.path}:{fragment.prefix_loc.line})" if fragment.prefix_loc else ""
        for name in fragment.codes:
            if not name.startswith(fragment.prefix) and name in codes:
                msg = f"code {name!r} does not start with its fragment's prefix {fragment.prefix!r}{where}; rename it or move it to its owner's fragment"
                yield Finding(msg, codes[name].loc)
