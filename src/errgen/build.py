"""The build: render every selected target into memory, then write or compare them as a whole."""

from __future__ import annotations

import json
from dataclasses import asdict
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
    return commit(out, plans, {t.NAME: fingerprint(registry, t) for t in selected})


def check(registry: Registry, out: Path, names: Iterable[str] = (), trust_manifest: bool = True) -> Report:
    """What `build` would change. With trust_manifest, a target whose inputs match the manifest's
    fingerprint and whose files match their recorded hashes is clean without rendering it again;
    anything else is rendered, to report exact diffs."""
    report = Report()
    for target in target_registry.select(names):
        quick = compare_manifest(out, target.NAME, fingerprint(registry, target)) if trust_manifest else None
        found = quick if quick is not None and not quick else compare(out, plan(registry, [target]))
        report.stale += found.stale
        report.missing += found.missing
        report.extra += found.extra
    return report


def fingerprint(registry: Registry, target: ModuleType) -> str:
    """Everything the target's output depends on: the model, its templates, errgen, the tools."""
    model = json.dumps(_model_dict(registry), sort_keys=True, default=str)
    return digest(model + _tooling() + _templates(target.NAME))


def _model_dict(registry: Registry) -> dict[str, object]:
    data = asdict(registry)
    data.pop("path", None)
    return data


@cache
def _tooling() -> str:
    sources = sorted(_PACKAGE.rglob("*.py"))
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
