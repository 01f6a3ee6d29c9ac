"""A large registry's targets render in forked workers: the files are the same bytes as one
process renders, the work really leaves the process, and a target's error still reaches the
user as a message."""

from __future__ import annotations

import os
import types
from pathlib import Path

import pytest

from bench import synth
from conftest import load_registry
from errgen.emit import build as pipeline
from errgen.emit import targets


def fake_target(name: str, render: object) -> types.ModuleType:
    module = types.ModuleType(f"fake_{name}")
    module.NAME = name  # type: ignore[attr-defined]
    module.render = render  # type: ignore[attr-defined]
    return module


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    n = pipeline.PARALLEL_CODES.start + 1
    return load_registry(synth.write(tmp_path_factory.mktemp("large"), n))


def test_a_registry_in_the_parallel_range_gets_workers_and_a_small_or_huge_one_does_not(large) -> None:  # type: ignore[no-untyped-def]
    every = targets.all_targets()
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    assert pipeline._jobs(large, every) == min(cpus, len(every), 4)
    assert pipeline._jobs(load_registry(), every) == 1
    assert pipeline._jobs(large, every[:1]) == 1


def test_workers_write_the_same_bytes_as_one_process(large, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    every = targets.all_targets()
    monkeypatch.setattr(pipeline, "_jobs", lambda registry, selected: 2)
    parallel = list(pipeline.renders(large, every))
    monkeypatch.setattr(pipeline, "_jobs", lambda registry, selected: 1)
    serial = list(pipeline.renders(large, every))
    assert [name for name, _ in parallel] == [t.NAME for t in every]
    assert parallel == serial
    assert len(dict(serial)["conformance"]["conformance/vectors.json"]) > 1_000_000


def test_the_work_runs_in_other_processes(large, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(pipeline, "_jobs", lambda registry, selected: 2)
    where = [fake_target(f"t{i}", lambda registry: {"pid.txt": f"{os.getpid()}\n"}) for i in range(2)]
    pids = {int(plan["pid.txt"]) for _, plan in pipeline.renders(large, where)}
    assert os.getpid() not in pids and len(pids) >= 1


def broken(registry: object) -> dict[str, str]:
    return {"x.txt": "no newline at the end"}


def test_a_target_error_in_a_worker_is_the_same_build_error(large, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(pipeline, "_jobs", lambda registry, selected: 2)
    fine = fake_target("fine", lambda registry: {"fine.txt": "ok\n"})
    with pytest.raises(pipeline.BuildError, match="target bad: x.txt does not end with a newline"):
        list(pipeline.renders(large, [fine, fake_target("bad", broken)]))
    monkeypatch.setattr(pipeline.target_registry, "select", lambda names: [fine, fake_target("bad", broken)])
    with pytest.raises(pipeline.BuildError):
        pipeline.build(large, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # the staged files of the good target are gone with it
