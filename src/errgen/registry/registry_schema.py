"""The JSON Schema of registry format 1, derived from the shapes in `structure` so the two cannot
drift. It ships as schemas/registry.schema.json for editors (yaml-language-server); a test keeps
the file equal to `schema()`. Refresh: python -m errgen.registry.registry_schema > src/errgen/registry/schemas/registry.schema.json
"""

from __future__ import annotations

import json
from typing import Any

from errgen.registry import structure
from errgen.registry.lint import package
from errgen.registry.lint.names import ENVELOPE, FIELD_NAME, IDENTIFIER, MAX_CODE_LENGTH, WIRE_VALUE
from errgen.registry.model import ACTIONS, CHOOSABLE_ACTIONS, HINTS, SCOPES
from errgen.registry.sources import FORMATS, UNITS
from errgen.registry.sources import PREFIX, STATUS_KEY

_SCALARS: dict[structure.Scalar, dict[str, Any]] = {
    structure.STR: {"type": "string"}, structure.INT: {"type": "integer"}, structure.BOOL: {"type": "boolean"},
    structure.JSON_SCALAR: {"type": ["string", "number", "boolean", "null"]},
    structure.DELAY_ENTRY: {"anyOf": [
        {"type": "string", "pattern": "^(body|header):"},
        {"type": "object", "additionalProperties": False, "required": ["at"],
         "properties": {"at": {"type": "string", "pattern": "^(body|header):"}, "unit": {"enum": list(UNITS)},
                        "codes": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                        "categories": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}},
    ]},
}
_REFINED: dict[str, dict[str, Any]] = {
    "scope": {"enum": list(SCOPES)},
    "scopes": {"items": {"enum": list(SCOPES)}, "uniqueItems": True, "minItems": 1},
    "hints": {"items": {"enum": list(HINTS)}, "uniqueItems": True},
    "action": {"enum": list(CHOOSABLE_ACTIONS)},
    "http_status": {"minimum": 300, "maximum": 599},
    "identifier": {"pattern": f"^{IDENTIFIER.pattern}$"},
    "case": {"enum": ["snake", "camel"]},
    "envelope": {"pattern": f"^{ENVELOPE.pattern}$"},
    "retry_after_ms": {"minimum": 0, "maximum": 86_400_000},
    "description": {"minLength": 1, "maxLength": 500},
    "errgen": {"const": 1},
    "format": {"enum": list(FORMATS)},
    "wire_code": {"pattern": f"^{WIRE_VALUE.pattern}$", "maxLength": MAX_CODE_LENGTH},
    "wire_prefix": {"pattern": f"^{PREFIX.pattern}$"},
    "repository": {"pattern": f"^{package.URL.pattern}$"},
    "homepage": {"pattern": f"^{package.URL.pattern}$"},
    "statuses": {"propertyNames": {"pattern": f"^{STATUS_KEY.pattern}$"}, "additionalProperties": {"enum": list(ACTIONS)}},
    "keywords": {"maxItems": package.MAX_KEYWORDS, "uniqueItems": True, "items": {"pattern": f"^{package.KEYWORD.pattern}$"}},
}


def _shape(shape: structure.Shape, key: str | None = None) -> dict[str, Any]:
    if isinstance(shape, structure.Scalar):
        out = dict(_SCALARS[shape])
    elif isinstance(shape, structure.ListOf):
        out = {"type": "array", "items": _shape(shape.item)}
    elif isinstance(shape, structure.NamedMap):
        names = WIRE_VALUE if key in ("codes", "categories") else FIELD_NAME
        pattern = {"pattern": f"^{names.pattern}$"}
        if key in ("codes", "categories"):
            pattern["maxLength"] = MAX_CODE_LENGTH
        out = {"type": "object", "propertyNames": pattern, "additionalProperties": _shape(shape.value)}
    else:
        out = {
            "type": "object",
            "additionalProperties": False,
            "required": [k for k, (_, required) in shape.fields.items() if required],
            "properties": {k: _shape(s, k) for k, (s, _) in shape.fields.items()},
        }
    refined = _REFINED.get(key or "", {})
    return {**out, **{k: ({**out[k], **v} if isinstance(v, dict) and k in out else v) for k, v in refined.items()}}


def schema() -> dict[str, Any]:
    out = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:errgen:registry-format:1",
        "title": "errgen registry, format 1",
        "description": "One YAML file of error codes (errgen registry format 1); errgen lint checks more than this schema can.",
        **_shape(structure.REGISTRY),
    }
    _target_patterns(out["properties"]["targets"])
    return out


def _target_patterns(targets: dict[str, Any]) -> None:
    """Each package setting's pattern, as its language declares it for lint's `target-package`."""
    from errgen.languages import all_languages

    for language in all_languages():
        for key, check in language.checks.items():
            targets["properties"][language.name]["properties"][key]["pattern"] = f"^{check.pattern.pattern}$"


if __name__ == "__main__":
    print(json.dumps(schema(), indent=2))
