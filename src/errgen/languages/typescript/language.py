"""The typescript language: its package settings, leftovers, template filters and conformance runner."""

from __future__ import annotations

from pathlib import Path

from errgen.languages.base import Language, RunnerCommand, SettingCheck
from errgen.languages.typescript import naming


def runner(sdk_dir: Path, vectors: Path, mode: str) -> RunnerCommand:
    from errgen.languages.typescript import target  # loaded only to run: it imports the renderer

    return target.conformance_command(sdk_dir, vectors, mode)


def strict(sdk_dir: Path) -> list[list[str]]:
    """tsc with the package's tsconfig (strict, and the stricter options users turn on)."""
    return [["tsc", "-p", str(sdk_dir), "--strict", "--noEmit"]]


LANGUAGE = Language(
    name="typescript",
    settings={"package": lambda n: f"{n.kebab}-errors"},
    runner=runner,
    leftovers={"package.json": ("node_modules/", "package-lock.json", "build/")},  # dist/ is generated: the package runs from it
    filters={"ts_str": naming.string_literal},
    strict=strict,
    checks={"package": SettingCheck(naming.npm_name_problem, naming.NPM_NAME)},
)
