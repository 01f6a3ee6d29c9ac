"""errgen conformance as a user runs it: it builds what each runner needs in errgen's cache (the
TypeScript runner ships compiled in the package), checks whatever `targets` says, and
never reports success for a check that did not happen (a skipped SDK, a run of no vectors)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GENERATED, ROOT, REGISTRY


def errgen(*args: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "ERRGEN_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "errgen", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_targets_setting_builds_the_vectors_and_the_typescript_runner_needs_no_manual_step(tmp_path: Path) -> None:
    """`targets = ["python", "typescript"]`: build writes the shared vectors, and conformance runs
    the TypeScript runner the package ships compiled (dist/cjs/): no npm, no TypeScript, nothing
    written in the SDK folder or compiled in the cache (issue 29, item 8; issue 26, item 4)."""
    (tmp_path / "registry").mkdir()
    (tmp_path / "registry" / "errors.yaml").write_bytes(REGISTRY.read_bytes())
    (tmp_path / "errgen.toml").write_text('targets = ["python", "typescript"]\n')
    cache = tmp_path / "cache"
    assert errgen("build", cwd=tmp_path, cache=cache).returncode == 0
    assert (tmp_path / "generated" / "conformance" / "vectors.json").is_file()
    sdk_files = sorted(p.relative_to(tmp_path) for p in (tmp_path / "generated" / "typescript").rglob("*"))
    done = errgen("conformance", cwd=tmp_path, cache=cache)
    total = len(json.loads((tmp_path / "generated" / "conformance" / "vectors.json").read_text())["vectors"])
    assert done.returncode == 0, done.stdout + done.stderr
    # Both also read real responses, and every language runs the writing vectors (test_writing_vectors.py).
    lines = [line for line in done.stdout.splitlines() if " responses: " not in line and " writing: " not in line]
    assert lines == [f"python: {total} passed, 0 failed", f"typescript: {total} passed, 0 failed"]
    assert sorted(p.relative_to(tmp_path) for p in (tmp_path / "generated" / "typescript").rglob("*")) == sdk_files
    assert not (cache / "node").exists() and not (cache / "typescript-runner").exists()
    again = errgen("conformance", "--target", "typescript", cwd=tmp_path, cache=cache)
    assert again.returncode == 0 and again.stdout.splitlines()[0] == f"typescript: {total} passed, 0 failed"


def test_a_skipped_sdk_fails_the_run_unless_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    from errgen import runners as conformance
    from errgen.languages.python import target as python

    monkeypatch.setattr(python, "conformance_command", lambda sdk, vectors, mode: (["no-such-tool-errgen"], sdk, "no-such-tool-errgen"))
    lines: list[str] = []
    assert conformance.check(GENERATED, ["python"], None, lines.append) == 2
    assert lines[0] == "python: skipped (needs no-such-tool-errgen)"
    assert "--allow-skip" in lines[1]
    lines.clear()
    assert conformance.check(GENERATED, ["python"], None, lines.append, allow_skip=True) == 0
    assert lines == ["python: skipped (needs no-such-tool-errgen)"]


def test_a_requested_sdk_that_is_not_built_is_a_skip(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "conformance").mkdir(parents=True)
    (out / "conformance" / "vectors.json").write_bytes((GENERATED / "conformance" / "vectors.json").read_bytes())
    done = errgen("conformance", "--out", str(out), "--target", "python", cwd=tmp_path, cache=tmp_path / "cache")
    assert done.returncode == 2 and "python: skipped (not built in" in done.stdout
    assert errgen("conformance", "--out", str(out), "--target", "python", "--allow-skip", cwd=tmp_path, cache=tmp_path / "cache").returncode == 0


def test_zero_vectors_checked_is_not_a_pass(tmp_path: Path) -> None:
    """`0 passed, 0 failed` proves nothing (issue 24, item 15)."""
    empty = tmp_path / "empty.json"
    empty.write_text('{"vectors": []}')
    done = errgen("conformance", "--target", "python", "--vectors", str(empty), cwd=ROOT, cache=tmp_path / "cache")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "python: 0 passed, 0 failed: the runner checked no vector" in done.stdout
