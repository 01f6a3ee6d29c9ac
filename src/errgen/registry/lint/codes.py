"""Rules on codes: each keeps one assertion consistent (category, retryable, scope, action)."""

from __future__ import annotations

import re
from typing import Iterator

from errgen.registry.lint.base import Context, Finding, Nearest, rule
from errgen.registry.model import HINTS, SCOPES

MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000


@rule("unknown-category")
def unknown_category(ctx: Context) -> Iterator[Finding]:
    """A code's category is one of the registry's categories, and so is each category a `retry_after` entry names."""
    suggest = Nearest(ctx.names.declared_categories)
    for code in ctx.registry.codes:
        if code.category not in ctx.names.declared_categories:
            msg = f"code {code.name}: unknown category {code.category!r}{suggest(code.category)}"
            yield Finding(msg, code.locs["category"])
    response = ctx.registry.wire.response
    for index, delay in enumerate(response.retry_after or () if response else ()):
        for name in delay.categories:
            if name not in ctx.names.declared_categories:
                yield Finding(f"wire.response.retry_after[{index}].categories: unknown category {name[:80]!r}{suggest(name)}",
                              delay.loc)


@rule("retryable-contradiction")
def retryable_contradiction(ctx: Context) -> Iterator[Finding]:
    """A code may restate `retryable`, but never contradict its category: they are one assertion."""
    categories = ctx.registry.category_map
    for code in ctx.registry.codes:
        cat = categories.get(code.category)
        if cat is not None and code.stated_retryable is not None and code.stated_retryable != cat.retryable:
            msg = (f"code {code.name} says retryable: {str(code.stated_retryable).lower()} but its category "
                   f"{cat.name} is retryable: {str(cat.retryable).lower()}; move the code to a matching category")
            yield Finding(msg, code.locs["retryable"])


@rule("retry-after-non-retryable")
def retry_after_non_retryable(ctx: Context) -> Iterator[Finding]:
    """`retry_after_ms` is a delay before retrying, so only retryable codes carry one."""
    for code in ctx.registry.codes:
        # A code that says `retryable: true` in a non-retryable category already gets
        # retryable-contradiction; one problem, one finding.
        if code.retry_after_ms is not None and not code.retryable and code.category in ctx.registry.category_map \
                and code.stated_retryable is not True:
            yield Finding(f"code {code.name} is not retryable, so it cannot have retry_after_ms", code.locs["retry_after_ms"])


@rule("retry-after-range")
def retry_after_range(ctx: Context) -> Iterator[Finding]:
    """`retry_after_ms` is between 0 and one day (86,400,000 ms)."""
    for code in ctx.registry.codes:
        value = code.retry_after_ms
        if value is not None and not 0 <= value <= MAX_RETRY_AFTER_MS:
            yield Finding(f"code {code.name}: retry_after_ms {value} must be between 0 and {MAX_RETRY_AFTER_MS} (one day)", code.locs["retry_after_ms"])


@rule("unknown-scope")
def unknown_scope(ctx: Context) -> Iterator[Finding]:
    """Scopes are request, resource or service."""
    suggest = Nearest(SCOPES)
    for code in ctx.registry.codes:
        if code.scope not in SCOPES:
            yield Finding(f"code {code.name}: scope {code.scope!r} is not one of request, resource, service{suggest(code.scope)}", code.locs["scope"])
        for scope in code.scopes:
            if scope not in SCOPES and f"scopes:{scope}" in code.locs:  # absent when scopes is malformed
                yield Finding(f"code {code.name}: scopes lists {scope!r}, not one of request, resource, service", code.locs[f"scopes:{scope}"])


@rule("default-scope-not-allowed")
def default_scope_not_allowed(ctx: Context) -> Iterator[Finding]:
    """The default `scope` is one of the code's `scopes`."""
    for code in ctx.registry.codes:
        if code.scope not in code.scopes:
            yield Finding(f"code {code.name}: default scope {code.scope!r} is not in scopes [{', '.join(code.scopes)}]", code.locs["scope"])


@rule("duplicate-item")
def duplicate_item(ctx: Context) -> Iterator[Finding]:
    """A list (scopes, hints, renamed_from) names each item once."""
    for code in ctx.registry.codes:
        for field, items in (("scopes", code.scopes), ("hints", code.hints), ("renamed_from", code.renamed_from)):
            seen: set[str] = set()
            for item in items:
                if item in seen:
                    yield Finding(f"code {code.name}: {field} lists {item!r} twice", code.locs.get(field, code.loc))
                seen.add(item)


@rule("http-status-range")
def http_status_range(ctx: Context) -> Iterator[Finding]:
    """`http_status`, on a code or a category, is between 300 and 599 (S3 sends some errors as redirects); optional: a code without one takes its category's, else 503 if retryable, else 400."""
    owners = [("code", c.name, c.http_status, c.locs) for c in ctx.registry.codes]
    owners += [("category", c.name, c.http_status, c.locs) for c in ctx.registry.categories]
    for kind, name, status, locs in owners:
        if status is not None and not 300 <= status <= 599:
            yield Finding(f"{kind} {name}: http_status {status} must be between 300 and 599", locs["http_status"])


@rule("type-uri")
def type_uri(ctx: Context) -> Iterator[Finding]:
    """A code's `type_uri` (its RFC 9457 problem type, instead of problem_base + code) is an absolute URI."""
    for code in ctx.registry.codes:
        uri = code.type_uri
        if uri is not None and not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:\S+", uri):
            yield Finding(f"code {code.name}: type_uri {uri!r} must be an absolute URI (https://... or urn:...)", code.locs["type_uri"])


@rule("unknown-hint")
def unknown_hint(ctx: Context) -> Iterator[Finding]:
    """Hints are payload fields defined by errgen: searched, did_you_mean, accepted, state, safe_to_replay."""
    suggest = Nearest(HINTS)  # one answer per misspelling, however many codes carry it
    for code in ctx.registry.codes:
        for hint in code.hints:
            if hint not in HINTS:
                yield Finding(f"code {code.name}: unknown hint {hint!r}{suggest(hint)}", code.locs[f"hints:{hint}"])


@rule("replaced-by-unknown")
def replaced_by_unknown(ctx: Context) -> Iterator[Finding]:
    """A deprecated code's `replaced_by` names another code of this registry."""
    codes = ctx.registry.code_map
    suggest = Nearest(codes)
    for code in ctx.registry.codes:
        target = code.deprecated.replaced_by if code.deprecated else None
        if target is not None and (target not in codes or target == code.name):
            yield Finding(f"code {code.name}: replaced_by {target!r} names no other code{suggest(target)}", code.locs["deprecated.replaced_by"])


@rule("renamed-from-exists")
def renamed_from_exists(ctx: Context) -> Iterator[Finding]:
    """`renamed_from` lists former names that are gone; a name still defined cannot have been renamed."""
    codes = ctx.registry.code_map
    for code in ctx.registry.codes:
        for old in code.renamed_from:
            if old in codes:
                yield Finding(f"code {code.name}: renamed_from {old!r}, but {old} is still defined; remove one of them", code.locs[f"renamed_from:{old}"])
