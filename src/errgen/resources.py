"""Files errgen ships: templates, the registry-format schema and the example registry.

In a wheel they sit inside the package; in a source checkout they live at the repository's top
level (templates/, registry/), which is where the wheel build copies them from.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent.parent


def templates_dir() -> Path:
    packaged = _PACKAGE / "templates"
    return packaged if packaged.is_dir() else _CHECKOUT / "templates"


def default_registry_text() -> str:
    packaged = _PACKAGE / "default_registry.yaml"
    path = packaged if packaged.is_file() else _CHECKOUT / "registry" / "errors.yaml"
    return path.read_text(encoding="utf-8").replace("../src/errgen/schemas/", _schema_hint())


def _schema_hint() -> str:
    return (_PACKAGE / "schemas").as_uri() + "/"


def registry_schema_path() -> Path:
    return _PACKAGE / "schemas" / "registry.schema.json"


def runtime_sources(language: str) -> dict[str, str]:
    """A language's runtime source files (name -> text), which its target copies into the SDK."""
    folder = _PACKAGE / "runtimes" / language
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(".")}
