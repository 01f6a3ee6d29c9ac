"""Registry text is data: hostile descriptions and keyword category names still produce code that
imports, compiles and carries every string exactly, in Python, TypeScript, JSON and Markdown."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from markdown_it import MarkdownIt

from conftest import node_json, tsc
from errgen.emit.build import build
from errgen.registry.lint import lint_text
from strategies import dump, registries

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# What this file reads back (the compiled languages carry hostile text in the language harness).
TARGETS = ["python", "typescript", "conformance", "recovery", "docs"]


def _build(registry: dict[str, Any], out: Path) -> Any:
    result = lint_text(dump(registry))
    assert result.ok, [d.text() for d in result.diagnostics]
    build(result.registry, out, TARGETS)
    return result.registry


@pytest.mark.slow  # one of the four longest of the fast set (1.5-2.5 min on a busy 2-core machine)
@SETTINGS
@given(registry=registries())
def test_hostile_registries_build_valid_code_that_carries_text_exactly(registry: dict[str, Any], node_bin: Path, tmp_path_factory: Any) -> None:
    out = tmp_path_factory.mktemp("out")
    model = _build(registry, out)
    expected = {
        "descriptions": {c.name: c.description for c in model.codes},
        "categories": [c.name for c in model.categories],
    }
    script = (
        "import json, demo_errors as d\n"
        "print(json.dumps({'descriptions': {c.value: e.description for c, e in d.RECOVERY_TABLE.items()},"
        " 'categories': [c.value for c in d.Category]}))"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=out / "python", capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected

    compiled = tsc(node_bin, out / "typescript", out / "js")
    assert compiled.returncode == 0, compiled.stdout
    runner = subprocess.run(["node", str(out / "js" / "conformance.js"), "check", str(out / "conformance" / "vectors.json")],
                            capture_output=True, text=True)
    assert runner.returncode == 0 and runner.stdout.endswith(" 0 failed\n"), runner.stdout[-2000:]
    got = node_json(
        f"const m = require({json.dumps(str(out / 'js' / 'index.js'))});"
        "console.log(JSON.stringify({descriptions: Object.fromEntries([...m.RECOVERY_TABLE.entries()].map(([k, e]) => [k, e.description])), categories: m.CATEGORIES}));",
        out,
    )
    assert got == expected

    recovery = json.loads((out / "recovery.json").read_text(encoding="utf-8"))
    assert {r["code"]: r["description"] for r in recovery["codes"]} == expected["descriptions"]
    assert _markdown_paragraph_texts(out / "docs" / "errors.md") >= set(expected["descriptions"].values())


def _markdown_paragraph_texts(path: Path) -> set[str]:
    """The text of each rendered paragraph, with <br> read back as the newline it stands for."""
    rendered = MarkdownIt("commonmark", {"html": True}).render(path.read_text(encoding="utf-8"))
    paragraphs = re.findall(r"<p>(.*?)</p>", rendered, flags=re.S)
    return {html.unescape(p.replace("<br>", "\n")) for p in paragraphs}


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(registry=registries(max_codes=4))
def test_hostile_python_sdk_passes_mypy_strict(registry: dict[str, Any], tmp_path_factory: Any) -> None:
    out = tmp_path_factory.mktemp("out")
    _build(registry, out)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "demo_errors"],
        cwd=out / "python", capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout
    # The vectors computed for this registry hold for its SDK too.
    runner = subprocess.run([sys.executable, "-m", "demo_errors._conformance", "check", str(out / "conformance" / "vectors.json")],
                            cwd=out / "python", capture_output=True, text=True)
    assert runner.returncode == 0 and runner.stdout.endswith(" 0 failed\n"), runner.stdout[-2000:] + runner.stderr
