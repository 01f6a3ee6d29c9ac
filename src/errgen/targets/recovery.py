"""The recovery table as JSON (for programs) and Markdown (for people)."""

from __future__ import annotations

from errgen import table
from errgen.model import SCOPES, Registry
from errgen.payload import header
from errgen.render import render as render_template
from errgen.render import to_json

NAME = "recovery"
SUMMARY = "recovery.json, recovery.md: what a caller should do for each code"


def render(registry: Registry) -> dict[str, str]:
    rows = table.rows(registry)
    document = {"$comment": header(registry), "registry": registry.name, "version": registry.version, "codes": rows}
    markdown = render_template(NAME, "recovery.md.jinja", registry=registry, rows=rows, scopes=SCOPES, header=header(registry))
    return {"recovery.json": to_json(document, indent=2) + "\n", "recovery.md": markdown}
