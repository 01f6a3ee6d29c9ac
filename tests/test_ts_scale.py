"""A large registry's TypeScript SDK type-checks: the recovery table of 5,000 codes used to be an
array literal tsc refused as a union "too complex to represent" (TS2590), so `npm run typecheck`
and every consumer compiling the sources failed. (Issue 31 item 5: every SDK compiles at scale.)"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench.synth import registry_text
from errgen.emit.build import build
from errgen.registry.lint import lint_text


@pytest.mark.slow
def test_a_5000_code_sdk_type_checks(tmp_path: Path, node_bin: Path) -> None:
    registry = lint_text(registry_text(5000)).registry
    assert registry is not None
    build(registry, tmp_path, ["typescript"])
    checked = subprocess.run([str(node_bin / "tsc"), "-p", str(tmp_path / "typescript"), "--noEmit"],
                             capture_output=True, text=True, timeout=900)
    assert checked.returncode == 0, checked.stdout[-2000:]
