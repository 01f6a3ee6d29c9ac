"""The strict verdict bound to this contract's data: the same verdict as schema/error.schema.json.

`envelope_problems` checks what every payload must satisfy, even one from a newer server with a
code this SDK does not know; `registry_problems` checks a well-formed payload against the registry.
"""

from __future__ import annotations

from typing import Any, Mapping, Tuple

from . import _verdict
from ._contract import FIELDS
from .enums import Category
from .recovery import recovery_entry

Problem = Tuple[str, str]  # (stable problem id, message)

CATEGORY_NAMES = frozenset(category.value for category in Category)
WIRE: Mapping[str, str] = _verdict.wire_names(FIELDS)


def _pairs(found: list[_verdict.Problem]) -> list[Problem]:
    return [(rule, message) for rule, message, _ in found]


def envelope_problems(data: object) -> list[Problem]:
    """Problems any payload has regardless of its code: shape, types, required fields."""
    return _pairs(_verdict.envelope_problems(FIELDS, data))


def registry_problems(data: Mapping[str, Any]) -> list[Problem]:
    """An unknown category or code, or a known code's contradictions with the registry."""
    return _pairs(_verdict.registry_problems(FIELDS, CATEGORY_NAMES, recovery_entry, dict(data)))


def problems(data: object) -> list[Problem]:
    """Every reason the strict contract rejects `data` (empty: valid)."""
    return _pairs(_verdict.strict_problems(FIELDS, CATEGORY_NAMES, recovery_entry, data))


def is_delay(key: object) -> bool:
    return key == WIRE["retry_after_ms"]
