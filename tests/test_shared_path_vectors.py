"""SPEC R (issue 38, low): when one body path serves both the code and the correlation id, every
SDK reads the code there as the correlation id too, and the response vectors used to expect no
correlation id (all five SDKs failed those vectors alike). The generator now states what the
registry's correlation sources read from each response as sent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

from errgen.contract import view
from errgen.emit.targets import _response_vectors as _responses
from errgen.registry.lint import lint_path

REGISTRY = """errgen: 1
name: shared
version: 1.0.0
wire:
  response:
    code: ["body:error.id"]
    correlation_id: ["body:error.id"]
categories:
  transient: {retryable: true, description: Try again later.}
  bad: {retryable: false, description: Fix it.}
codes:
  busy: {category: transient, scope: request, http_status: 503, description: Busy., since: 1.0.0}
  broken: {category: bad, scope: request, http_status: 400, description: Broken., since: 1.0.0}
history:
  - {version: 1.0.0, date: 2026-01-10, changes: [Initial.]}
"""


def registry(tmp_path: Path) -> Path:
    path = tmp_path / "errors.yaml"
    path.write_text(REGISTRY, encoding="utf-8")
    return path


def test_a_shared_path_gives_the_code_as_the_correlation_id(tmp_path: Path) -> None:
    result = lint_path(registry(tmp_path))
    assert result.ok, [d.text() for d in result.diagnostics]
    cases = [c for c in _responses.cases(view(result.registry)) if c.error and c.code in ("busy", "broken")]
    assert cases
    for case in cases:
        assert case.correlation_id == case.code, case.name
        assert case.raw["correlation_id"] == case.code, case.name


def test_the_python_sdk_passes_every_response_vector_of_such_a_registry(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = tmp_path / "out"
    for args in (["build", "--registry", str(registry(tmp_path)), "--out", str(out), "--target", "python", "--target", "conformance"],
                 ["conformance", "--out", str(out), "--target", "python"]):
        done = subprocess.run([sys.executable, "-m", "errgen", *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    assert ", 0 failed" in done.stdout and "responses:" in done.stdout
