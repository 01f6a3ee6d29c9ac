"""The recovery table: for each code, what a caller should do. Every target renders these rows."""

from __future__ import annotations

from typing import Any

from errgen.model import Code, Registry


def row(code: Code) -> dict[str, Any]:
    return {
        "code": code.name,
        "category": code.category,
        "retryable": code.retryable,
        "scope": code.scope,
        "scopes": list(code.scopes),
        "actions": code.actions,
        "retry_after_ms": code.retry_after_ms,
        "http_status": code.http_status,
        "hints": list(code.hints),
        "deprecated": (
            {"since": code.deprecated.since, "replaced_by": code.deprecated.replaced_by} if code.deprecated else None
        ),
        "description": code.description,
    }


def rows(registry: Registry) -> list[dict[str, Any]]:
    return [row(code) for code in registry.codes]
