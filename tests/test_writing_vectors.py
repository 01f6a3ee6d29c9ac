"""conformance/writing.json (issue 27, item 3): the writing half of every SDK (`new_error`,
`to_http`, `to_mcp_result`, `did_you_mean`) and jitter under an injected draw. Every language's
runner runs every writing vector (tests/test_language_harness.py: its count includes them); here,
its emit lines must carry the writing outputs and equal Python's byte for byte."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, load_registry, shared_build

from errgen.languages import all_languages

# Every registered language folder, with the tool its runner needs: a sixth language's writing
# vectors run here without this file naming it.
LANGUAGES = tuple(language.name for language in all_languages())
# Python and TypeScript run in seconds; the compiled languages' runners build a toolchain's world.
QUICK = {"python", "typescript"}
TOOLS = {language.name: language.runner(ROOT, ROOT, "check")[2] for language in all_languages()}


def errgen(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "errgen", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=1800)


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default registry's build the language harness runs (tests/test_language_harness.py
    checks every language against writing.json there; this file judges the file and the emit)."""
    return shared_build(tmp_path_factory, "default", load_registry)


def writing(out: Path) -> list[dict]:
    return json.loads((out / "conformance" / "writing.json").read_text(encoding="utf-8"))["vectors"]


# ---- the file itself (no toolchain) ---------------------------------------------------------------

def test_the_file_covers_every_code_and_every_writing_function(out: Path) -> None:
    vectors = writing(out)
    names = {v["name"] for v in vectors}
    codes = [c["code"] for c in json.loads((out / "recovery.json").read_text(encoding="utf-8"))["codes"]]
    assert {f"new_error/{c}" for c in codes} <= names
    kinds = {next(iter(v["input"])) for v in vectors}
    assert kinds == {"new_error", "parse", "to_http", "did_you_mean", "payload"}
    assert all("jitter_draw" in v for v in vectors if "payload" in v["input"])
    refused = [v for v in vectors if v["name"].startswith("new_error/refused/")]
    assert len(refused) >= 4 and all(v["expected"]["payload"] is None for v in refused)


def test_jitter_vectors_pin_the_bound_before_the_draw(out: Path) -> None:
    """Issue 27: the unknown retryable code at attempt 4 asks 4,000 ms; a 1,000 ms bound
    escalates it whatever the draw (Python used to jitter first and escalate 759 times in 1,000)."""
    by_name = {v["name"]: v for v in writing(out)}
    for draw in ("0", "0.1"):
        decision = by_name[f"jitter/bound-before-draw/draw-{draw}"]["expected"]["decision"]
        assert (decision["action"], decision["reason"], decision["delay_ms"]) == ("escalate", "delay-exceeds-max", None)
    assert by_name["jitter/backoff/draw-0.5"]["expected"]["decision"]["delay_ms"] == 2000
    assert by_name["jitter/backoff/draw-near-1"]["expected"]["decision"]["delay_ms"] == 3999
    assert by_name["jitter/payload-delay-not-drawn"]["expected"]["decision"]["delay_ms"] == 1234


# ---- every language -----------------------------------------------------------------------------------

def emit(out: Path, language: str) -> list[str]:
    done = errgen("conformance", "--out", str(out), "--target", language, "--emit", str(out / "conformance" / "writing.json"))
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n")[:-1]


@pytest.fixture(scope="module")
def python_lines(out: Path) -> list[str]:
    return emit(out, "python")


def test_python_emits_every_writing_output(out: Path, python_lines: list[str]) -> None:
    """Emit lines carry what `expected` names (a runner that only echoed names would not)."""
    vectors = writing(out)
    assert len(python_lines) == len(vectors)
    for line, vector in zip(python_lines, vectors):
        got = json.loads(line)
        assert got["name"] == vector["name"]
        assert set(vector["expected"]) <= set(got), line


@pytest.mark.parametrize("language", [pytest.param(name, marks=() if name in QUICK else pytest.mark.slow)
                                      for name in LANGUAGES if name != "python"])
def test_emit_lines_equal_pythons(language: str, out: Path, python_lines: list[str]) -> None:
    if not shutil.which(TOOLS[language]):
        pytest.skip(f"needs {TOOLS[language]}")
    assert emit(out, language) == python_lines
