"""The build: render every selected target, then write (staged a target at a time) or compare
them as a whole."""

from __future__ import annotations

import os
import sys
from functools import cache
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Iterable, Iterator

from errgen.emit import targets as target_registry
from errgen.contract import view
from errgen.registry.model import Registry
from errgen.emit.cache import recall, record
from errgen.emit.errors import BuildError
from errgen.emit.commit import Changes, Hashes, Plan, Report, commit, compare, digest, hashes

_PACKAGE = Path(__file__).resolve().parent.parent  # errgen/
_TOOLS = ("black", "datamodel-code-generator", "pydantic", "jinja2")


def plan(registry: Registry, targets: Iterable[ModuleType]) -> dict[str, Plan]:
    return dict(renders(registry, targets))


def renders(registry: Registry, targets: Iterable[ModuleType]) -> Iterator[tuple[str, Plan]]:
    """Each target's files as it is rendered, in the order given, so the writer can stage one
    target at a time. A large registry's targets render in parallel worker processes."""
    targets = list(targets)
    jobs = _jobs(registry, targets)
    if jobs > 1:
        yield from _in_workers(registry, targets, jobs)
        return
    for target in targets:
        yield target.NAME, _render(target, registry)  # no local name: the generator keeps no text alive


# Workers pay off from about a thousand codes (below, rendering takes less than starting them).
# Each worker ends up copying most of the parent's heap (CPython writes a reference count into
# every object a worker reads), so past ten thousand codes they would cost hundreds of MB: one
# process renders there (20,000 codes: 5.9 s and 222 MB, against 4.7 s and 504 MB with two
# workers; `python -m bench.build_bench`).
PARALLEL_CODES = range(1_000, 10_001)


def _jobs(registry: Registry, targets: list[ModuleType]) -> int:
    if len(registry.codes) not in PARALLEL_CODES or len(targets) < 2:
        return 1
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1  # workers inherit the registry by fork; elsewhere (Windows) one process renders
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(cpus, len(targets), 4)


_WORK: tuple[Registry, list[ModuleType]] | None = None  # what forked workers render: inherited, never pickled


def _render_at(index: int) -> Plan:
    assert _WORK is not None
    registry, targets = _WORK
    return _render(targets[index], registry)


def _in_workers(registry: Registry, targets: list[ModuleType], jobs: int) -> Iterator[tuple[str, Plan]]:
    """`jobs` forked workers render; this process stages each target's files as they arrive
    (mostly waiting on the disk, so it takes no target itself)."""
    global _WORK
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    view(registry)  # derived once here, so every worker inherits it
    _WORK = registry, targets
    try:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=_die_with, initargs=(os.getpid(),)) as pool:
            futures = [pool.submit(_render_at, i) for i in range(len(targets))][::-1]
            for target in targets:
                yield target.NAME, futures.pop().result()  # popped: a staged target's text is not kept
    finally:
        _WORK = None


def _die_with(parent: int) -> None:
    """In a forked worker, first thing: end when the build process ends, however it ends. A
    worker blocks reading its task pipe, whose write end it inherited, so a parent killed by
    SIGKILL would otherwise leave it waiting forever. Linux delivers SIGKILL on the parent's
    death (prctl PR_SET_PDEATHSIG); elsewhere a thread watches the parent id."""
    if not _parent_death_signal():
        import threading
        import time

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)
        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def _parent_death_signal() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        return bool(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _render(target: ModuleType, registry: Registry) -> Plan:
    files: Plan = target.render(registry)
    for rel, text in files.items():
        if text and not text.endswith("\n"):
            raise BuildError(f"target {target.NAME}: {rel} does not end with a newline (a template bug)")
    return files


def build(registry: Registry, out: Path, names: Iterable[str] = (), force: bool = False, complete: bool | None = None) -> Changes:
    """Render the selected targets and write them to OUT as a whole (see errgen.emit.commit).
    `complete` (by default: when no target is named): the selection is every target OUT holds,
    so the files a target no longer selected wrote are deleted (errgen.emit.commit.commit)."""
    names = list(names)
    selected = target_registry.select(names)
    changes = commit(out, renders(registry, selected), force, not names if complete is None else complete)
    model = model_digest(registry)
    record(out.resolve(), {t.NAME: cache_key(model, t) for t in selected}, changes.hashes)
    return changes


def check(registry: Registry, out: Path, names: Iterable[str] = (), trust_cache: bool = True, diffs: bool = False,
          complete: bool | None = None) -> Report:
    """What `build` would change (with the same `complete`), and every file in OUT no build
    writes. With trust_cache, a target whose inputs and files are those the last build in OUT
    recorded is clean without rendering it again; anything else is rendered."""
    names = list(names)
    complete = not names if complete is None else complete
    model = model_digest(registry)
    root = out.resolve() if out.is_dir() else None
    expected: dict[str, Hashes] = {}
    texts: Plan = {}
    verified: list[str] = []
    for target in target_registry.select(names):
        known = recall(root, target.NAME, cache_key(model, target)) if trust_cache and root else None
        if known is None:
            files = _render(target, registry)
            expected[target.NAME] = hashes(files)
            if diffs:
                texts.update(files)
        else:
            expected[target.NAME] = known
            verified += known
    return compare(out, expected, texts if diffs else None, verified, complete)


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
    """Every file a build reads besides the registry: errgen's package (code, templates and
    runtime sources)."""
    roots = [_PACKAGE]
    found = {p for root in roots if root.is_dir() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    return sorted(found)


def _version(tool: str) -> str:
    try:
        return metadata.version(tool)
    except metadata.PackageNotFoundError:
        return "absent"
