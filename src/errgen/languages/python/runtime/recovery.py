"""The recovery table: for each code, what a caller should do (rows from `_table.json`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from types import MappingProxyType
from typing import Any, Mapping, Optional, Tuple

from ._contract import HINT_FIELDS, REGISTRY_NAME
from ._metadata import package_version
from .enums import Action, Category, Code, Hint, Scope

__all__ = [
    "HINT_FIELDS",
    "RECOVERY_TABLE",
    "REGISTRY_NAME",
    "REGISTRY_VERSION",
    "Deprecation",
    "RecoveryEntry",
    "recovery_entry",
]


@dataclass(frozen=True, slots=True)
class Deprecation:
    since: str
    replaced_by: Optional[Code]


@dataclass(frozen=True, slots=True)
class RecoveryEntry:
    code: Code
    category: Category
    retryable: bool
    scope: Scope
    scopes: Tuple[Scope, ...]
    actions: Mapping[Scope, Action]
    retry_after_ms: Optional[int]
    http_status: int
    type_uri: str
    hints: Tuple[Hint, ...]
    deprecated: Optional[Deprecation]
    description: str


def _entry(row: Mapping[str, Any]) -> RecoveryEntry:
    # One row per code, as errgen's contract view serialises it (CodeRow.as_dict).
    allowed = tuple(Scope(s) for s in row["scopes"])
    deprecated = row["deprecated"]
    return RecoveryEntry(
        code=Code(row["code"]),
        category=Category(row["category"]),
        retryable=row["retryable"],
        scope=Scope(row["scope"]),
        scopes=allowed,
        actions=MappingProxyType({Scope(s): Action(row["actions"][s]) for s in row["scopes"]}),
        retry_after_ms=row["retry_after_ms"],
        http_status=row["http_status"],
        type_uri=row["type_uri"],
        hints=tuple(Hint(h) for h in row["hints"]),
        deprecated=(
            Deprecation(
                deprecated["since"],
                Code(deprecated["replaced_by"]) if deprecated["replaced_by"] else None,
            )
            if deprecated
            else None
        ),
        description=row["description"],
    )


def _load() -> Mapping[Code, RecoveryEntry]:
    # The rows are data, not code, so this module stays small for any registry.
    rows = json.loads(files(__package__).joinpath("_table.json").read_text(encoding="utf-8"))[
        "rows"
    ]
    return MappingProxyType({entry.code: entry for entry in map(_entry, rows)})


RECOVERY_TABLE: Mapping[Code, RecoveryEntry] = _load()
# This copy's version, from its metadata (see _metadata.package_version).
REGISTRY_VERSION: str = package_version()

_BY_WIRE: dict[str, RecoveryEntry] = {code.value: entry for code, entry in RECOVERY_TABLE.items()}


def recovery_entry(code: object) -> Optional[RecoveryEntry]:
    """The entry of `code`, or None for a code this SDK does not know (safe for any value)."""
    return _BY_WIRE.get(code) if isinstance(code, str) else None
