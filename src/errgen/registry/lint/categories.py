"""Rules on categories."""

from __future__ import annotations

from typing import Iterator

from errgen.registry.lint.base import Context, Finding, rule
from errgen.registry.model import CHOOSABLE_ACTIONS

MAX_DESCRIPTION = 500


@rule("unknown-action")
def unknown_action(ctx: Context) -> Iterator[Finding]:
    """`action` on a category or code is `fix` or `escalate`; the other actions follow from retryable and scope."""
    owners = [("category", c.name, c.action, c.locs) for c in ctx.registry.categories]
    owners += [("code", c.name, c.stated_action, c.locs) for c in ctx.registry.codes]
    for kind, name, action, locs in owners:
        if action is not None and action not in CHOOSABLE_ACTIONS:
            msg = f"{kind} {name}: action {action!r} cannot be chosen; expected 'fix' or 'escalate' (retry, pause, skip and stop follow from retryable and scope)"
            yield Finding(msg, locs["action"])


@rule("action-on-retryable")
def action_on_retryable(ctx: Context) -> Iterator[Finding]:
    """An `action` chooses between fix and escalate for non-retryable failures, so a retryable one cannot have it."""
    for cat in ctx.registry.categories:
        if cat.action is not None and cat.retryable:
            yield Finding(f"category {cat.name} is retryable, so it cannot set action {cat.action!r}; a retryable failure is retried", cat.locs["action"])
    for code in ctx.registry.codes:
        if code.stated_action is not None and code.retryable:
            yield Finding(f"code {code.name} is retryable, so it cannot set action {code.stated_action!r}; a retryable failure is retried", code.locs["action"])


@rule("unused-category")
def unused_category(ctx: Context) -> Iterator[Finding]:
    """A category no code uses is probably a leftover (warning)."""
    for cat in ctx.registry.categories:
        if cat.name not in ctx.names.referenced_categories:
            yield Finding(f"category {cat.name} is not used by any code", cat.loc, "warning")


@rule("description-empty")
def description_empty(ctx: Context) -> Iterator[Finding]:
    """Every category and code has a description for humans (display-only; agents branch on codes)."""
    for kind, item in _described(ctx):
        if not item.description.strip():
            yield Finding(f"{kind} {item.name} has an empty description; say what happened in one sentence", item.locs["description"])


@rule("description-too-long")
def description_too_long(ctx: Context) -> Iterator[Finding]:
    """Descriptions stay under 500 characters: the payload stays lean, the docs carry the rest."""
    for kind, item in _described(ctx):
        if len(item.description) > MAX_DESCRIPTION:
            msg = f"{kind} {item.name} description has {len(item.description)} characters; at most {MAX_DESCRIPTION}"
            yield Finding(msg, item.locs["description"])


def _described(ctx: Context) -> Iterator[tuple[str, object]]:
    for cat in ctx.registry.categories:
        yield "category", cat
    for code in ctx.registry.codes:
        yield "code", code
