"""JSON Schema (draft 2020-12) of one error payload, and of the HTTP body that carries it when
the registry nests the payload under an envelope."""

from __future__ import annotations

from errgen import payload_schema
from errgen.contract import view
from errgen.registry.model import Registry
from errgen.emit.render import json_layout

NAME = "schema"
SUMMARY = "schema/error.schema.json: JSON Schema 2020-12 of the error payload (and error-body.schema.json: the enveloped body)"


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    out = {"schema/error.schema.json": json_layout(payload_schema.schema(contract)) + "\n"}
    body = payload_schema.body_schema(contract)
    if body is not None:
        out["schema/error-body.schema.json"] = json_layout(body) + "\n"
    return out
