"""The build: render every selected target into memory, then write or compare them as a whole."""

from __future__ import annotations

from functools import cache
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Iterable

from errgen import targets as target_registry
from errgen.model import Registry
from errgen.resources import templates_dir
from errgen.write import Changes, Plan, Report, commit, compare, compare_manifest, digest

_PACKAGE = Path(__file__).resolve().parent
_TOOLS = ("black", "datamodel-code-generator", "pydantic", "jinja2")


class BuildError(Exception):
    pass


def plan(registry: Registry, targets: Iterable[ModuleType]) -> dict[str, Plan]:
    plans: dict[str, Plan] = {}
    for target in targets:
        files = target.render(registry)
        for rel, text in files.items():
            if text and not text.endswith("\n"):
                raise BuildError(f"target {target.NAME}: {rel} does not end with a newline (a template bug)")
        plans[target.NAME] = files
    return plans


def build(registry: Registry, out: Path, names: Iterable[str] = ()) -> Changes:
    selected = target_registry.select(names)
    plans = plan(registry, selected)
    model = model_digest(registry)
    return commit(out, plans, {t.NAME: fingerprint(model, t) for t in selected})


def check(registry: Registry, out: Path, names: Iterable[str] = (), trust_manifest: bool = True) -> Report:
    """What `build` would change. With trust_manifest, a target whose inputs match the manifest's
    fingerprint and whose files match their recorded hashes is clean without rendering it again;
    anything else is rendered, to report exact diffs."""
    report = Report()
    model = model_digest(registry)
    for target in target_registry.select(names):
        quick = compare_manifest(out, target.NAME, fingerprint(model, target)) if trust_manifest else None
        found = quick if quick is not None and not quick else compare(out, plan(registry, [target]))
        report.stale += found.stale
        report.missing += found.missing
        report.extra += found.extra
    return report


def fingerprint(model: str, target: ModuleType) -> str:
    """Everything the target's output depends on: the model, its templates, errgen, the tools."""
    return digest(model + _tooling() + _templates(target.NAME))


def model_digest(registry: Registry) -> str:
    """A digest of everything a target may render (not of comments or positions in the file)."""
    # The model's reprs leave out file positions, so editing a comment does not force a render.
    parts = (registry.name, registry.version, registry.problem_base, sorted((k, sorted(v.items())) for k, v in registry.targets.items()), registry.categories, registry.codes, registry.history)
    return digest(repr(parts))


@cache
def _tooling() -> str:
    # Every file errgen ships, runtime sources in any language included (a .rs runtime file shapes output).
    sources = sorted(p for p in _PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    versions = [f"{tool}=={_version(tool)}" for tool in _TOOLS]
    return "\n".join(versions + [digest(p.read_bytes()) for p in sources])


def _version(tool: str) -> str:
    try:
        return metadata.version(tool)
    except metadata.PackageNotFoundError:
        return "absent"


@cache
def _templates(name: str) -> str:
    folder = templates_dir() / name
    files = sorted(folder.rglob("*")) if folder.is_dir() else []
    return "\n".join(f"{p.relative_to(folder)}:{digest(p.read_bytes())}" for p in files if p.is_file())
