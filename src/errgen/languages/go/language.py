"""The go language: its package settings, leftovers, template filters and conformance runner."""

from __future__ import annotations

from pathlib import Path

from errgen.languages.go import naming
from errgen.languages.base import Language, RunnerCommand, SettingCheck, raising


def runner(sdk_dir: Path, vectors: Path, mode: str) -> RunnerCommand:
    from errgen.languages.go import target  # loaded only to run: it imports the renderer

    return target.conformance_command(sdk_dir, vectors, mode)


def strict(sdk_dir: Path) -> list[list[str]]:
    """gofmt (lists nothing), go vet."""
    return [["sh", "-c", 'test -z "$(gofmt -l .)" || { gofmt -l .; exit 1; }'], ["go", "vet", "./..."]]


def identifier(kind: str, name: str, words: tuple[str, ...]) -> str:
    return naming.ident("Code" if kind == "code" else "Category", name, words)


LANGUAGE = Language(
    name="go",
    settings={"module": lambda n: f"{n.flat}errors", "package": lambda n: f"{n.flat}errors"},
    runner=runner,
    strict=strict,
    checks={"module": SettingCheck(raising(naming.module_path), naming.MODULE_PATH),
            "package": SettingCheck(raising(naming.package_name), naming.PACKAGE_NAME)},
    identifier=identifier,
)
