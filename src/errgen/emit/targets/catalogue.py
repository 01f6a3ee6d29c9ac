"""A catalogue of every code for humans, grouped by category, with a valid example payload each."""

from __future__ import annotations

from errgen import payload
from errgen.contract import CodeRow, ContractView, view
from errgen.registry.model import Registry
from errgen.emit.render import render as render_template

NAME = "docs"
SUMMARY = "docs/errors.md: one section per code, grouped by category"

# What a caller does for each action; `{field}` is that payload field's name on the wire
# (`advice`), so an API that renames `correlation_id` to `request_id` reads `request_id` here.
ACTION_ADVICE = {
    "retry": "wait `{retry_after_ms}` (or back off), then send the same call again",
    "pause": "pause the whole job for `{retry_after_ms}`, then resume",
    "skip": "record `{resource_id}` with `{correlation_id}`, skip this item, continue with the next",
    "fix": "correct the request from the hints, then send a new call",
    "stop": "stop the job and report upstream with `{correlation_id}`",
    "escalate": "hand it to a human with `{correlation_id}`",
}


def wire_names(contract: ContractView) -> dict[str, str]:
    """Each payload field's name on the wire, by errgen's name: what generated prose calls a field."""
    return {name: spec.wire for name, spec in contract.field_map.items()}


def advice(contract: ContractView) -> dict[str, str]:
    """ACTION_ADVICE in the registry's wire names."""
    names = wire_names(contract)
    return {action: text.format(**names) for action, text in ACTION_ADVICE.items()}


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    by_category: dict[str, list[CodeRow]] = {category.name: [] for category in contract.categories}
    for row in contract.codes:
        by_category[row.category].append(row)
    groups = [(category, by_category[category.name]) for category in contract.categories if by_category[category.name]]
    examples = {row.code: payload.example(contract, row) for row in contract.codes}
    text = render_template(NAME, "errors.md.jinja", view=contract, groups=groups, examples=examples, advice=advice(contract),
                           wire=wire_names(contract), header=contract.header)
    return {"docs/errors.md": text}
