"""Rules on `targets:`: each package setting is a name its language's tools accept, and one that
cannot shadow or replace something else on install (`package: pydantic`, `package: os`)."""

from __future__ import annotations

from typing import Callable, Iterator

from errgen.diagnostics import Loc
from errgen.languages import all_languages
from errgen.registry.lint.base import Context, Finding, rule
from errgen.registry.load import Map


@rule("target-package")
def target_package(ctx: Context) -> Iterator[Finding]:
    """Each `targets:` package setting is a valid name in its language (a Python identifier, an npm
    package name, a Go module path and package name, a Cargo crate name, Java package and Maven
    coordinates) and not one the SDK would shadow or overwrite: a standard-library module, or a
    package the SDK itself depends on (pydantic, serde...)."""
    raw = ctx.registry.targets
    for language in all_languages():
        for key, check in language.checks.items():
            yield from _judged(ctx, language.name, key, raw.get(language.name, {}).get(key), check.problem)


def _judged(ctx: Context, lang: str, key: str, value: str | None, check: Callable[[str], str | None]) -> Iterator[Finding]:
    problem = None if value is None else check(value)
    if problem:
        name = f"targets.{lang}.{key}"
        message = problem if problem.startswith(name) else f"{name} {value!r}: {problem}"
        yield Finding(message, _loc(ctx, lang, key))


def _loc(ctx: Context, lang: str, key: str) -> Loc:
    """Where the setting's value stands, else the `targets` key."""
    root = ctx.document.root if ctx.document else None
    table = root.get("targets") if isinstance(root, Map) else None
    settings = table.get(lang) if isinstance(table, Map) else None
    if isinstance(settings, Map) and key in settings.locs:
        return settings.locs[key]
    return ctx.registry.loc_of("targets")
