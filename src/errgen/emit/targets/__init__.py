"""Build targets. Each is a module with NAME, SUMMARY and `render(registry) -> dict[relative path,
text]`: the shared ones in this package (templates in emit/templates/<NAME>/), and each registered
language's target (errgen.languages).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Iterable

from errgen.languages import all_languages


# The target that writes conformance/vectors.json.
VECTORS = "conformance"


class UnknownTarget(Exception):
    pass


def all_targets() -> list[ModuleType]:
    shared = [importlib.import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    return sorted(shared + [language.target() for language in all_languages()], key=lambda t: t.NAME)


def select(names: Iterable[str]) -> list[ModuleType]:
    targets = all_targets()
    wanted = list(dict.fromkeys(names))
    if not wanted:
        return targets
    by_name = {t.NAME: t for t in targets}
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        raise UnknownTarget(f"unknown target {', '.join(map(repr, unknown))}; known targets: {', '.join(by_name)}")
    chosen = [by_name[n] for n in wanted]
    # Every SDK's conformance runner reads the shared vectors: a build of any SDK writes them too,
    # so `errgen conformance` works whatever `targets` says.
    if VECTORS in by_name and VECTORS not in wanted and any(hasattr(t, "conformance_command") for t in chosen):
        chosen.append(by_name[VECTORS])
    return chosen
