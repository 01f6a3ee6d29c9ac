"""TypeScript SDK: literal unions and `as const` arrays, the payload union, its guard, the table."""

from __future__ import annotations

from errgen.contract import view
from errgen.model import Registry
from errgen.render import render as render_template

NAME = "typescript"
SUMMARY = "typescript/: npm package <name>-errors (types, isErrorPayload, RECOVERY_TABLE, runtime), no dependencies"
SOURCES = ("index.ts", "contract.ts", "recovery.ts", "payload.ts", "runtime.ts")


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    context = {
        "registry": registry,
        "header": contract.header,
        "rows": [row.as_dict() for row in contract.codes],
        "max_suggestions": contract.policy.max_suggestions,
        "backoff_base_ms": contract.policy.backoff_base_ms,
        "backoff_max_ms": contract.policy.backoff_max_ms,
    }
    files = {f"typescript/src/{name}": render_template(NAME, f"{name}.jinja", **context) for name in SOURCES}
    files["typescript/package.json"] = render_template(NAME, "package.json.jinja", **context)
    files["typescript/tsconfig.json"] = render_template(NAME, "tsconfig.json.jinja", **context)
    return files
