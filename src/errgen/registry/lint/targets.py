"""Rules on `targets:`: each package setting is a name its language's tools accept, and one that
cannot shadow or replace something else on install (`package: pydantic`, `package: os`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

from errgen.diagnostics import Loc
from errgen.registry.lint.base import Context, Finding, rule
from errgen.registry.load import Map
from errgen.languages.go import naming as go
from errgen.languages.java import naming as java
from errgen.languages.python import naming as python
from errgen.languages.rust import naming as rust
from errgen.languages.typescript import naming as typescript

Check = Callable[[str], "str | None"]


def _raising(check: Callable[[str], object]) -> Check:
    """A naming module's checker that raises ValueError, as one that returns the problem."""
    def problem(value: str) -> str | None:
        try:
            check(value)
        except ValueError as exc:
            return str(exc)
        return None

    return problem


@dataclass(frozen=True)
class Setting:
    check: Check
    pattern: "re.Pattern[str]"  # what the registry's JSON Schema can say of it (for editors)


# Each setting's rules live in its language's naming module; this table only says which is which.
SETTINGS: dict[tuple[str, str], Setting] = {
    ("python", "package"): Setting(python.package_problem, python.PACKAGE_NAME),
    ("python", "distribution"): Setting(python.distribution_problem, python.DISTRIBUTION_NAME),
    ("typescript", "package"): Setting(typescript.npm_name_problem, typescript.NPM_NAME),
    ("go", "module"): Setting(_raising(go.module_path), go.MODULE_PATH),
    ("go", "package"): Setting(_raising(go.package_name), go.PACKAGE_NAME),
    ("rust", "crate"): Setting(_raising(rust.crate_name), rust.CRATE_NAME),
    ("java", "group"): Setting(_raising(lambda v: java.coordinate("group", v)), java.COORDINATE),
    ("java", "artifact"): Setting(_raising(lambda v: java.coordinate("artifact", v)), java.COORDINATE),
    ("java", "package"): Setting(_raising(java.package_name), java.PACKAGE_NAME),
}


@rule("target-package")
def target_package(ctx: Context) -> Iterator[Finding]:
    """Each `targets:` package setting is a valid name in its language (a Python identifier, an npm
    package name, a Go module path and package name, a Cargo crate name, Java package and Maven
    coordinates) and not one the SDK would shadow or overwrite: a standard-library module, or a
    package the SDK itself depends on (pydantic, serde...)."""
    raw = ctx.registry.targets
    for (lang, key), setting in SETTINGS.items():
        value = raw.get(lang, {}).get(key)
        if value is None:
            continue
        problem = setting.check(value)
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
