"""Rules on `targets:`: each package setting is a name its language's tools accept, and one that
cannot shadow or replace something else on install (`package: pydantic`, `package: os`)."""

from __future__ import annotations

from typing import Callable, Iterator

from errgen.diagnostics import Loc
from errgen.lint.base import Context, Finding, rule
from errgen.load import Map
from errgen.naming import go, java, python, rust, typescript

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


# Each setting's check lives in its language's naming module; this table only says which is which.
CHECKS: dict[tuple[str, str], Check] = {
    ("python", "package"): python.package_problem,
    ("python", "distribution"): python.distribution_problem,
    ("typescript", "package"): typescript.npm_name_problem,
    ("go", "module"): _raising(go.module_path),
    ("go", "package"): _raising(go.package_name),
    ("rust", "crate"): _raising(rust.crate_name),
    ("java", "group"): _raising(lambda v: java.coordinate("group", v)),
    ("java", "artifact"): _raising(lambda v: java.coordinate("artifact", v)),
    ("java", "package"): _raising(java.package_name),
}


@rule("target-package")
def target_package(ctx: Context) -> Iterator[Finding]:
    """Each `targets:` package setting is a valid name in its language (a Python identifier, an npm
    package name, a Go module path and package name, a Cargo crate name, Java package and Maven
    coordinates) and not one the SDK would shadow or overwrite: a standard-library module, or a
    package the SDK itself depends on (pydantic, serde...)."""
    raw = ctx.registry.targets
    for (lang, key), check in CHECKS.items():
        value = raw.get(lang, {}).get(key)
        if value is None:
            continue
        problem = check(value)
        if problem:
            setting = f"targets.{lang}.{key}"
            message = problem if problem.startswith(setting) else f"{setting} {value!r}: {problem}"
            yield Finding(message, _loc(ctx, lang, key))


def _loc(ctx: Context, lang: str, key: str) -> Loc:
    """Where the setting's value stands, else the `targets` key."""
    root = ctx.document.root if ctx.document else None
    table = root.get("targets") if isinstance(root, Map) else None
    settings = table.get(lang) if isinstance(table, Map) else None
    if isinstance(settings, Map) and key in settings.locs:
        return settings.locs[key]
    return ctx.registry.loc_of("targets")
