"""`ErrorPayload`: the pydantic model of one valid error payload.

The field types come from datamodel-code-generator (`_envelope.py`); this subclass pins the
registry's enums and rejects what the strict verdict rejects, so the model accepts exactly what
schema/error.schema.json accepts. Attributes carry the canonical field names; the model reads
wire names and `to_wire()` writes them. It is frozen: a payload, once valid, stays valid.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, model_validator

from . import _validate
from ._envelope import ErrorPayloadEnvelope
from .enums import Category, Code


class ErrorPayload(ErrorPayloadEnvelope):
    model_config = ConfigDict(extra="forbid", frozen=True)

    code: Code
    category: Category

    @model_validator(mode="before")
    @classmethod
    def _json_semantics(cls, data: Any) -> Any:
        # JSON Schema: an absent field is fine, an explicit null is not; 2.0 is an integer.
        if not isinstance(data, dict):
            return data
        nulls = sorted(str(key) for key, value in data.items() if value is None)
        if nulls:
            raise ValueError(f"fields may be omitted but not null: {', '.join(nulls)}")
        return {
            _CANONICAL.get(key, key): (
                int(value)
                if isinstance(value, float) and value.is_integer() and _validate.is_delay(key)
                else value
            )
            for key, value in data.items()
        }

    @model_validator(mode="after")
    def _matches_registry(self) -> ErrorPayload:
        problems = _validate.problems(self.to_wire())
        if problems:
            raise ValueError("; ".join(message for _, message in problems))
        return self

    def to_wire(self) -> dict[str, Any]:
        """The payload as JSON data under its wire names (only the fields it was given)."""
        data = self.model_dump(mode="json", exclude_unset=True)
        if "searched" in data:
            # The model holds JSON numbers as floats: 10 is sent as 10, as the caller gave it
            # and as every other SDK sends it, not as 10.0.
            data["searched"] = {key: _integral(value) for key, value in data["searched"].items()}
        return {_validate.WIRE.get(key, key): value for key, value in data.items()}


def _integral(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


# Wire name -> canonical name.
_CANONICAL = {wire: name for name, wire in _validate.WIRE.items()}
