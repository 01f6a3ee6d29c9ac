"""JSON Schema (draft 2020-12) of one error payload."""

from __future__ import annotations

from errgen import payload
from errgen.contract import view
from errgen.registry.model import Registry
from errgen.emit.render import json_layout

NAME = "schema"
SUMMARY = "schema/error.schema.json: JSON Schema 2020-12 of the error payload"


def render(registry: Registry) -> dict[str, str]:
    return {"schema/error.schema.json": json_layout(payload.schema(view(registry))) + "\n"}
