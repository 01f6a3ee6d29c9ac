"""The python language: its package settings, leftovers, template filters and conformance runner."""

from __future__ import annotations

from pathlib import Path

from errgen.languages.base import Language, RunnerCommand
from errgen.languages.python import naming


def runner(sdk_dir: Path, vectors: Path, mode: str) -> RunnerCommand:
    from errgen.languages.python import target  # loaded only to run: it imports the renderer

    return target.conformance_command(sdk_dir, vectors, mode)


LANGUAGE = Language(
    name="python",
    settings={"package": lambda n: f"{n.snake}_errors", "distribution": lambda n: f"{n.kebab}-errors"},
    runner=runner,
    leftovers={"pyproject.toml": ("build/", "dist/", "*.egg-info/")},
    filters={"py_str": naming.string_literal, "py_tuple": naming.string_tuple, "py_assign": naming.assignment,
             "toml_str": naming.toml_string, "summary": naming.summary},
)
