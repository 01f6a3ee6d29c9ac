"""JSON Schema (draft 2020-12) of one error payload."""

from __future__ import annotations

from errgen import payload
from errgen.contract import view
from errgen.model import Registry
from errgen.render import to_json

NAME = "schema"
SUMMARY = "schema/error.schema.json: JSON Schema 2020-12 of the error payload"


def render(registry: Registry) -> dict[str, str]:
    return {"schema/error.schema.json": to_json(payload.schema(view(registry)), indent=2) + "\n"}
