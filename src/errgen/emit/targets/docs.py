"""A catalogue of every code for humans, grouped by category, with a valid example payload each."""

from __future__ import annotations

import re
from typing import Any

from errgen import payload_schema
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


def renamed_in(contract: ContractView) -> dict[str, str]:
    """The version that renamed each renamed code. Its `since` is no guide (a rename keeps the
    since of the code it renames), so it is read from the history: the first entry, from its
    since on, that names the code with one of its old names (what `errgen diff` requires it to
    announce, and `errgen bump` writes), else the first that names the code; else its since."""
    found = {}
    for row in contract.codes:
        if not row.renamed_from:
            continue
        entries = _entries_from(contract, row.since)
        names = [set(_WORD.findall(" ".join(entry.changes))) for entry in entries]
        both = next((e.version for e, words in zip(entries, names) if row.code in words and words & set(row.renamed_from)), None)
        found[row.code] = both or next((e.version for e, words in zip(entries, names) if row.code in words), row.since)
    return found


def removed_in(contract: ContractView) -> dict[str, str]:
    """Codes the history says were removed (`X was removed`, as `errgen bump` writes it) and
    that no code has now, nor had as an old name: each with the version that removed it."""
    gone = {code for row in contract.codes for code in (row.code, *row.renamed_from)}
    found: dict[str, str] = {}
    for entry in contract.registry.history:
        for text in entry.changes:
            for name in _REMOVED.findall(text):
                if name not in gone:
                    found.setdefault(name, entry.version)
    return found


_WORD = re.compile(r"[A-Za-z0-9_.:#/-]*[A-Za-z0-9_]")
_REMOVED = re.compile(r"([A-Za-z0-9_.:#/-]*[A-Za-z0-9_]) was removed\b")


def _entries_from(contract: ContractView, since: str) -> list[Any]:
    history = list(contract.registry.history)
    start = next((i for i, entry in enumerate(history) if entry.version == since), 0)
    return history[start:]


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
    examples = {row.code: payload_schema.example(contract, row) for row in contract.codes}
    text = render_template(NAME, "errors.md.jinja", view=contract, groups=groups, examples=examples, advice=advice(contract),
                           wire=wire_names(contract), renamed=renamed_in(contract), removed=removed_in(contract),
                           header=contract.header)
    return {"docs/errors.md": text}
