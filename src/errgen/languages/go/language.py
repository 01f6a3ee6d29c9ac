"""The go language: its package settings, leftovers, template filters and conformance runner."""

from __future__ import annotations

from pathlib import Path

from errgen.languages.base import Language, RunnerCommand


def runner(sdk_dir: Path, vectors: Path, mode: str) -> RunnerCommand:
    from errgen.languages.go import target  # loaded only to run: it imports the renderer

    return target.conformance_command(sdk_dir, vectors, mode)


def strict(sdk_dir: Path) -> list[list[str]]:
    """gofmt (lists nothing), go vet."""
    return [["sh", "-c", 'test -z "$(gofmt -l .)" || { gofmt -l .; exit 1; }'], ["go", "vet", "./..."]]


LANGUAGE = Language(
    name="go",
    settings={"module": lambda n: f"{n.flat}errors", "package": lambda n: f"{n.flat}errors"},
    runner=runner,
    strict=strict,
)
