"""The python language: its package settings, leftovers, template filters and conformance runner."""

from __future__ import annotations

import sys
from pathlib import Path

from errgen.languages.base import Language, RunnerCommand, SettingCheck
from errgen.languages.python import naming


def runner(sdk_dir: Path, vectors: Path, mode: str) -> RunnerCommand:
    from errgen.languages.python import target  # loaded only to run: it imports the renderer

    return target.conformance_command(sdk_dir, vectors, mode)


def strict(sdk_dir: Path) -> list[list[str]]:
    """mypy --strict over the package."""
    packages = sorted(p.name for p in sdk_dir.iterdir() if (p / "__init__.py").is_file())
    return [[sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(sdk_dir / ".mypy_cache"), *packages]]


def identifier(kind: str, name: str, words: tuple[str, ...]) -> str:
    return naming.constant("_".join(words) or name)


LANGUAGE = Language(
    name="python",
    settings={"package": lambda n: f"{n.snake}_errors", "distribution": lambda n: f"{n.kebab}-errors"},
    runner=runner,
    leftovers={"pyproject.toml": ("build/", "dist/", "*.egg-info/")},
    filters={"py_str": naming.string_literal, "py_tuple": naming.string_tuple, "py_assign": naming.assignment,
             "py_doc": naming.docstring_text,
             "toml_str": naming.toml_string, "summary": naming.summary},
    strict=strict,
    checks={"package": SettingCheck(naming.package_problem, naming.PACKAGE_NAME),
            "distribution": SettingCheck(naming.distribution_problem, naming.DISTRIBUTION_NAME)},
    identifier=identifier,
)
