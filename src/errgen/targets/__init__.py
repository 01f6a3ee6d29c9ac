"""Build targets. Each is a module in this package with NAME, SUMMARY and
`render(registry) -> dict[relative path, text]`, plus a templates/<NAME>/ folder.

Adding a target means adding a module here and its templates; nothing else changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Iterable


class UnknownTarget(Exception):
    pass


def all_targets() -> list[ModuleType]:
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def select(names: Iterable[str]) -> list[ModuleType]:
    targets = all_targets()
    wanted = list(dict.fromkeys(names))
    if not wanted:
        return targets
    by_name = {t.NAME: t for t in targets}
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        raise UnknownTarget(f"unknown target {', '.join(map(repr, unknown))}; known targets: {', '.join(by_name)}")
    return [by_name[n] for n in wanted]
