"""The recovery table: for each code, what a caller should do. Every target renders these rows."""

from __future__ import annotations

from typing import Any

from errgen.contract import http_status
from errgen.model import Code, Registry


def row(code: Code, registry: Registry) -> dict[str, Any]:
    return {
        "code": code.name,
        "category": code.category,
        "retryable": code.retryable,
        "scope": code.scope,
        "scopes": list(code.scopes),
        "actions": code.actions,
        "retry_after_ms": code.retry_after_ms,
        "http_status": http_status(code, registry.category_map.get(code.category)),
        "hints": list(code.hints),
        "deprecated": (
            {"since": code.deprecated.since, "replaced_by": code.deprecated.replaced_by} if code.deprecated else None
        ),
        "description": code.description,
    }


def rows(registry: Registry) -> list[dict[str, Any]]:
    return [row(code, registry) for code in registry.codes]
