"""Files errgen ships inside its package: templates, runtime sources and the registry-format schema.

A language's templates and runtime live in its folder (languages/<lang>/templates, runtime/); the
shared targets' templates in emit/templates/<target>/.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def templates_dir(target: str) -> Path:
    language = _PACKAGE / "languages" / target / "templates"
    return language if language.is_dir() else _PACKAGE / "emit" / "templates" / target


def registry_schema_path() -> Path:
    return _PACKAGE / "registry" / "schemas" / "registry.schema.json"


def runtime_sources(language: str) -> dict[str, str]:
    """A language's runtime source files (name -> text), which its target copies into the SDK."""
    folder = _PACKAGE / "languages" / language / "runtime"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(".")}


def verdict_source() -> str:
    """errgen.verdict's text: the strict verdict, which the Python SDK ships as `_verdict.py`."""
    return (_PACKAGE / "verdict.py").read_text(encoding="utf-8")
