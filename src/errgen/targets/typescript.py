"""TypeScript SDK: literal unions and `as const` arrays, the payload union, its guard, the table."""

from __future__ import annotations

from errgen import payload, table
from errgen.model import Registry
from errgen.render import render as render_template

NAME = "typescript"
SUMMARY = "typescript/: npm package <name>-errors (types, isErrorPayload, RECOVERY_TABLE, runtime), no dependencies"
SOURCES = ("index.ts", "contract.ts", "recovery.ts", "payload.ts", "runtime.ts")


def render(registry: Registry) -> dict[str, str]:
    context = {
        "registry": registry,
        "header": payload.header(registry),
        "rows": table.rows(registry),
        "max_suggestions": payload.MAX_SUGGESTIONS,
        "backoff_base_ms": payload.BACKOFF_BASE_MS,
        "backoff_max_ms": payload.BACKOFF_MAX_MS,
    }
    files = {f"typescript/src/{name}": render_template(NAME, f"{name}.jinja", **context) for name in SOURCES}
    files["typescript/package.json"] = render_template(NAME, "package.json.jinja", **context)
    files["typescript/tsconfig.json"] = render_template(NAME, "tsconfig.json.jinja", **context)
    return files
