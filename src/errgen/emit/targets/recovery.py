"""The recovery table as JSON (for programs) and Markdown (for people)."""

from __future__ import annotations

from errgen.contract import view
from errgen.registry.model import Registry
from errgen.emit.render import render as render_template
from errgen.emit.targets.docs import wire_names
from errgen.emit.render import json_lines

NAME = "recovery"
SUMMARY = "recovery.json, recovery.md: what a caller should do for each code"


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    rows = [row.as_dict() for row in contract.codes]
    document = {"$comment": contract.header, "registry": contract.name, "codes": rows}
    markdown = render_template(NAME, "recovery.md.jinja", view=contract, rows=rows, header=contract.header,
                               wire=wire_names(contract))
    return {"recovery.json": json_lines(document, depth=2) + "\n", "recovery.md": markdown}
