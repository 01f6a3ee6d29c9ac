"""The build: render every selected target into memory, then write or compare them as a whole."""

from __future__ import annotations

import sys
from functools import cache
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Iterable

from errgen import targets as target_registry
from errgen.model import Registry
from errgen.resources import templates_dir
from errgen.cache import recall, record
from errgen.write import Changes, Hashes, Plan, Report, commit, compare, digest, hashes

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


def build(registry: Registry, out: Path, names: Iterable[str] = (), force: bool = False) -> Changes:
    """Render the selected targets and write them to OUT as a whole (see errgen.write)."""
    selected = target_registry.select(names)
    plans = plan(registry, selected)
    changes = commit(out, plans, force)
    model = model_digest(registry)
    record(out.resolve(), {t.NAME: cache_key(model, t) for t in selected}, {t: hashes(p) for t, p in plans.items()})
    return changes


def check(registry: Registry, out: Path, names: Iterable[str] = (), trust_cache: bool = True, diffs: bool = False) -> Report:
    """What `build` would change. With trust_cache, a target whose inputs and files are those the
    last build in OUT recorded is clean without rendering it again; anything else is rendered."""
    model = model_digest(registry)
    root = out.resolve() if out.is_dir() else None
    expected: dict[str, Hashes] = {}
    texts: Plan = {}
    verified: list[str] = []
    for target in target_registry.select(names):
        known = recall(root, target.NAME, cache_key(model, target)) if trust_cache and root else None
        if known is None:
            files = plan(registry, [target])[target.NAME]
            expected[target.NAME] = hashes(files)
            texts.update(files)
        else:
            expected[target.NAME] = known
            verified += known
    return compare(out, expected, texts if diffs else None, verified)


def cache_key(model: str, target: ModuleType) -> str:
    """Everything the target's output depends on: the model, errgen's code and every file it
    renders from, the tools. Machine-specific (tool versions), so it lives only in OUT's local
    cache, never in the committed manifest."""
    return digest("\n".join((target.NAME, model, _tooling())))


def model_digest(registry: Registry) -> str:
    """A digest of everything a target may render (not of comments or positions in the file)."""
    # The model's reprs leave out file positions, so editing a comment does not force a render.
    parts = (registry.name, registry.version, registry.problem_base, registry.wire, sorted((k, sorted(v.items())) for k, v in registry.targets.items()), registry.categories, registry.codes, registry.history)
    return digest(repr(parts))


@cache
def _tooling() -> str:
    versions = [f"python=={sys.version_info[0]}.{sys.version_info[1]}"] + [f"{tool}=={_version(tool)}" for tool in _TOOLS]
    return "\n".join(versions + [f"{p}:{digest(p.read_bytes())}" for p in _sources()])


def _sources() -> list[Path]:
    """Every file a build reads besides the registry: errgen's package (code, packaged templates
    and runtime sources) and, in a source checkout, the top-level templates/ and runtimes/."""
    roots = [_PACKAGE, templates_dir(), _PACKAGE.parent.parent / "runtimes"]
    found = {p for root in roots if root.is_dir() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    return sorted(found)


def _version(tool: str) -> str:
    try:
        return metadata.version(tool)
    except metadata.PackageNotFoundError:
        return "absent"
