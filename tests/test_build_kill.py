"""A build killed at any step leaves the old build, the new build, or a state `build --check`
rejects (for either registry) and the next build completes.

Every call that changes the disk (mkdir, open for writing, write, replace, unlink, rmdir) is a
step; the build is stopped before step 0, 1, 2, ... in turn until it runs to the end. Stopping
raises an exception no code path catches; one more test kills the process for real (SIGKILL, no
clean-up runs) at sampled steps.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from conftest import ROOT, load_registry
from errgen.emit import build as pipeline
from errgen.emit import commit as write
from errgen.emit import targets


class Killed(BaseException):
    pass


def tree(folder: Path) -> dict[str, bytes | str]:
    """Everything in folder (files with their bytes, folders, links), leftovers included."""
    found: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        found[rel] = "link" if p.is_symlink() else "dir" if p.is_dir() else p.read_bytes()
    return found


@pytest.fixture(scope="module")
def plans() -> tuple[dict[str, write.Plan], dict[str, write.Plan]]:
    """Three targets of the default registry's build, and of a renamed, re-versioned one: every
    file changes, the Python package moves (files written, files deleted, folders emptied)."""
    registry = load_registry()
    renamed = dataclasses.replace(registry, name="acme_two", version="9.9.9")
    some = targets.select(["python", "recovery", "schema"])
    return pipeline.plan(registry, some), pipeline.plan(renamed, some)


MUTATORS = ("mkdir", "replace", "rename", "unlink", "remove", "rmdir", "write")


class Stopper:
    """Counts the calls that change the disk; stops the process before call number `at`."""

    def __init__(self, at: int, stop: Callable[[], None]) -> None:
        self.at, self.stop, self.count = at, stop, 0

    def wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            if self.count == self.at:
                self.stop()
            self.count += 1
            return real(*args, **kwargs)
        return step

    def wrap_open(self, real: Callable[..., Any]) -> Callable[..., Any]:
        counted = self.wrap(real)

        def open_(path: Any, flags: int, *args: Any, **kwargs: Any) -> Any:
            writing = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC)
            return (counted if writing else real)(path, flags, *args, **kwargs)
        return open_

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for name in MUTATORS:
            monkeypatch.setattr(os, name, self.wrap(getattr(os, name)))
        monkeypatch.setattr(os, "open", self.wrap_open(os.open))


def stop() -> None:
    raise Killed()


def expected(plans: dict[str, write.Plan]) -> dict[str, write.Hashes]:
    return {t: write.hashes(p) for t, p in plans.items()}


def killed_states(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: dict[str, write.Plan],
                  new: dict[str, write.Plan]) -> Iterator[tuple[int, Path]]:
    """For each step in turn: a folder holding the old build, whose build of `new` was stopped
    before that step."""
    at = 0
    while True:
        out = tmp_path / f"kill-{at}"
        write.commit(out, old)
        with monkeypatch.context() as patch:
            Stopper(at, stop).install(patch)
            try:
                write.commit(out, new)
            except Killed:
                pass
            else:
                return
        yield at, out
        at += 1


@pytest.mark.slow  # one of the four longest of the fast set (1.5-2.5 min on a busy 2-core machine)
def test_a_build_stopped_at_any_step_is_old_new_or_rejected_and_the_next_build_completes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plans: tuple[dict[str, write.Plan], dict[str, write.Plan]]) -> None:
    old, new = plans
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # durability on power loss is not what this tests; speed is
    monkeypatch.setattr(write, "_syncfs", lambda fd: True)
    write.commit(tmp_path / "old", old)
    write.commit(tmp_path / "new", new)
    old_tree, new_tree = tree(tmp_path / "old"), tree(tmp_path / "new")
    seen = {"old": 0, "new": 0, "rejected": 0}
    steps = 0
    for steps, out in killed_states(tmp_path, monkeypatch, old, new):
        state = tree(out)
        if state == old_tree:
            seen["old"] += 1
        elif state == new_tree:
            seen["new"] += 1
        else:
            assert write.compare(out, expected(new)), f"step {steps}: a mixed state passes --check for the new registry"
            assert write.compare(out, expected(old)), f"step {steps}: a mixed state passes --check for the old registry"
            seen["rejected"] += 1
        back = tmp_path / f"back-{steps}"
        shutil.copytree(out, back, symlinks=True)
        write.commit(out, new)
        assert tree(out) == new_tree, f"step {steps}: the next build did not complete"
        assert not write.compare(out, expected(new))
        write.commit(back, old)
        assert tree(back) == old_tree, f"step {steps}: building the old registry again did not restore it"
        shutil.rmtree(out)
        shutil.rmtree(back)
    assert steps > 50  # every staged file, every move, every deletion, the manifest, the clean-up
    assert seen["old"] and seen["rejected"], seen  # "new" only once the clean-up ends, when no step is left
    print(f"{steps + 1} kill points: {seen}")


SCRIPT = """
import dataclasses, os, signal, sys
sys.path[:0] = [sys.argv[3], sys.argv[4]]
from pathlib import Path
from test_build_kill import Stopper
from conftest import load_registry
from errgen.emit import build, commit as write
from errgen.emit import targets
registry = dataclasses.replace(load_registry(), name="acme_two", version="9.9.9")
plans = build.plan(registry, targets.all_targets())
Stopper(int(sys.argv[2]), lambda: os.kill(os.getpid(), signal.SIGKILL)).install(__import__("pytest").MonkeyPatch())
write.commit(Path(sys.argv[1]), plans)
"""


@pytest.mark.parametrize("at", [3, 40, 75])
def test_a_real_sigkill_leaves_a_state_that_check_rejects_and_build_completes(tmp_path: Path, at: int) -> None:
    """No finally block or handler runs under SIGKILL: the disk protocol alone must hold."""
    out = tmp_path / "generated"
    assert pipeline.build(load_registry(), out).written
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(out), str(at), str(ROOT / "tests"), str(ROOT / "src")],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == -signal.SIGKILL, done.stderr
    renamed = dataclasses.replace(load_registry(), name="acme_two", version="9.9.9")
    assert pipeline.check(renamed, out, trust_cache=False)
    assert pipeline.check(load_registry(), out, trust_cache=False)
    pipeline.build(renamed, out)
    assert not pipeline.check(renamed, out, trust_cache=False)
    assert not (out / "python" / "acme_errors").exists()
    assert json.loads((out / write.MANIFEST).read_text())["targets"]["python"]["files"]
