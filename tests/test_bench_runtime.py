"""Smoke test of bench/runtime_bench.py's --json output (issue 31 item 1): the figures' shape on a
10-code registry with the Python peer, and a language whose toolchain is missing reported as
unavailable with its reason, never with a figure. Nothing here is timed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench(tmp_path: Path, langs: str, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], dict]:
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, "-m", "bench.runtime_bench", "--quick", "--codes", "10", "--langs", langs, "--budget", "0.02", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src"), **env}, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done, json.loads(out.read_text())


def test_json_figures_of_the_python_sdk_and_its_peer(tmp_path: Path) -> None:
    done, figures = _bench(tmp_path, "python", {})
    row = figures["python"]["10"]
    assert row["peer"] == "fastjsonschema"
    assert row["sdk_per_s"] > 0 and row["peer_per_s"] > 0
    assert row["same_verdicts"] is True  # the SDK and the schema accept the same payloads
    assert {"jsonschema Draft202012Validator", "pydantic ErrorPayload.model_validate (types only)"} <= set(row["others"])
    assert len(row["sizes"]) == 2 and all(s["sdk_per_s"] > 0 for s in row["sizes"].values())
    assert "fastjsonschema" in done.stdout and "mixed" in done.stdout


def test_a_missing_toolchain_is_unavailable_not_a_figure(tmp_path: Path) -> None:
    bare = tmp_path / "bin"
    bare.mkdir()
    done, figures = _bench(tmp_path, "go", {"PATH": str(bare)})
    row = figures["go"]["10"]
    assert row["sdk_per_s"] is None and row["peer_per_s"] is None
    assert "go" in row["unavailable"] and "not found" in row["unavailable"]
    assert "unavailable" in done.stdout
