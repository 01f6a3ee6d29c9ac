"""The registered languages: one folder each (languages/<name>/, declared in its language.py),
found here and ordered by name. The shared code asks these instead of naming a language.

Adding a language is adding its folder: docs/adding-a-language.md.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

from errgen.languages.base import Language, LanguageError

__all__ = ["Language", "LanguageError", "all_languages", "by_name"]


@cache
def all_languages() -> tuple[Language, ...]:
    found = []
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        declared = getattr(_declaration(module.name), "LANGUAGE", None)
        if not isinstance(declared, Language):
            raise LanguageError(f"languages/{module.name}/language.py must define LANGUAGE = Language(...)")
        declared.check(module.name)
        found.append(declared)
    return tuple(found)


def _declaration(folder: str) -> ModuleType | None:
    name = f"{__name__}.{folder}.language"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def by_name() -> dict[str, Language]:
    return {language.name: language for language in all_languages()}
