"""A catalogue of every code for humans, grouped by category, with a valid example payload each."""

from __future__ import annotations

from errgen import payload
from errgen.model import Code, Registry
from errgen.render import render as render_template

NAME = "docs"
SUMMARY = "docs/errors.md: one section per code, grouped by category"

ACTION_ADVICE = {
    "retry": "wait `retry_after_ms` (or back off), then send the same call again",
    "pause": "pause the whole job for `retry_after_ms`, then resume",
    "skip": "record `resource_id` with `correlation_id`, skip this item, continue with the next",
    "fix": "correct the request from the hints, then send a new call",
    "stop": "stop the job and report upstream with `correlation_id`",
    "escalate": "hand it to a human with `correlation_id`",
}


def render(registry: Registry) -> dict[str, str]:
    by_category: dict[str, list[Code]] = {category.name: [] for category in registry.categories}
    for code in registry.codes:
        by_category[code.category].append(code)
    groups = [(category, by_category[category.name]) for category in registry.categories]
    examples = {code.name: payload.example(registry, code) for code in registry.codes}
    text = render_template(
        NAME, "errors.md.jinja", registry=registry, groups=[g for g in groups if g[1]],
        examples=examples, advice=ACTION_ADVICE, header=payload.header(registry),
    )
    return {"docs/errors.md": text}
