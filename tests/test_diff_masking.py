"""errgen diff masks secrets in everything it prints, as lint and validate do: a code renamed to a
token-shaped string is never printed in full in any format."""

from __future__ import annotations

import pytest

from errgen.diff import diff
from errgen.diff.output import FORMATS
from errgen.registry.lint import lint_text

TOKEN = "ghp_" + "A1b2C3d4E5" * 4

REGISTRY = """errgen: 1
name: demo
version: {version}
categories:
  validation: {{retryable: false, action: fix, http_status: 422, description: Fix it.}}
codes:
  {code}:
    category: validation
    scope: request
    description: A field is wrong.
    since: 1.0.0
{renamed}history:
  - {{version: 1.0.0, date: 2026-01-10, changes: [Initial.]}}
{entry}"""


def registry(code: str, version: str = "1.0.0", renamed: str = "", entry: str = ""):  # type: ignore[no-untyped-def]
    result = lint_text(REGISTRY.format(code=code, version=version, renamed=renamed, entry=entry), "demo.yaml")
    assert result.registry is not None, [d.text() for d in result.diagnostics]
    return result.registry


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_token_shaped_code_is_masked_in_every_format(fmt: str) -> None:
    old = registry("bad_field")
    new = registry(TOKEN, "2.0.0", "    renamed_from: [bad_field]\n",
                   f"  - {{version: 2.0.0, date: 2026-02-01, changes: [Renamed bad_field to {TOKEN}.]}}\n")
    report = diff(old, new)
    assert any(TOKEN in c.message or c.code == TOKEN for c in report.changes)  # the report itself keeps it (bump edits by it)
    out = FORMATS[fmt](report)
    assert "A1b2C3d4E5" * 2 not in out and "ghp" in out and "*" in out, out  # markdown escapes the underscore
