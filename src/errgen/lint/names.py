"""Rules on names: they become identifiers in every target language, so they are strict."""

from __future__ import annotations

import re
from typing import Iterator

from errgen.lint.base import Context, Finding, rule

UPPER_SNAKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
LOWER_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
MAX_CODE_LENGTH = 63
MAX_NAME_LENGTH = 50


@rule("registry-name")
def registry_name(ctx: Context) -> Iterator[Finding]:
    """The registry `name` is lower_snake, at most 50 characters: it names the packages and their
    folders (acme_errors, acme-errors), which every file system and registry must accept."""
    reg = ctx.registry
    if "name" in ctx.broken:
        return
    if len(reg.name) > MAX_NAME_LENGTH:  # checked first: an absurd name is not worth scanning or quoting
        yield Finding(f"registry name {reg.name[:20]!r}... has {len(reg.name)} characters; at most {MAX_NAME_LENGTH}", reg.locs["name"])
    elif not LOWER_SNAKE.fullmatch(reg.name):
        yield Finding(f"registry name {reg.name!r} must be lower_snake (like 'acme' or 'acme_billing')", reg.locs["name"])


@rule("code-name")
def code_name(ctx: Context) -> Iterator[Finding]:
    """Codes are UPPER_SNAKE (letters, digits, single underscores), e.g. RATE_LIMITED."""
    for code in ctx.registry.codes:
        if not UPPER_SNAKE.fullmatch(code.name):
            suggestion = re.sub(r"[^A-Z0-9]+", "_", code.name.upper()).strip("_")
            yield Finding(f"code {code.name!r} must be UPPER_SNAKE, like {suggestion!r}", code.loc)


@rule("code-name-length")
def code_name_length(ctx: Context) -> Iterator[Finding]:
    """A code name has at most 63 characters, so it fits every target's identifier limits."""
    for code in ctx.registry.codes:
        if len(code.name) > MAX_CODE_LENGTH:
            yield Finding(f"code {code.name!r} has {len(code.name)} characters; at most {MAX_CODE_LENGTH}", code.loc)


@rule("category-name")
def category_name(ctx: Context) -> Iterator[Finding]:
    """Category names are lower_snake, e.g. rate_limit."""
    for cat in ctx.registry.categories:
        if not LOWER_SNAKE.fullmatch(cat.name):
            yield Finding(f"category {cat.name!r} must be lower_snake, like {cat.name.lower()!r}", cat.loc)


def identifier_key(name: str) -> str:
    """Two names collide if they differ only in case and underscores (RateLimited in Go, Java, Rust)."""
    return name.replace("_", "").casefold()


@rule("identifier-collision")
def identifier_collision(ctx: Context) -> Iterator[Finding]:
    """Two codes (or two categories) must not map to the same identifier in any target language."""
    for kind, items in (("code", ctx.registry.codes), ("category", ctx.registry.categories)):
        seen: dict[str, str] = {}
        for item in items:
            key = identifier_key(item.name)
            if key in seen and seen[key] != item.name:
                msg = f"{kind} {item.name!r} and {seen[key]!r} become the same identifier in generated code; rename one"
                yield Finding(msg, item.loc)
            seen.setdefault(key, item.name)
