"""errgen conformance: run each built SDK's conformance runner (docs/conformance.md).

A target takes part by defining `conformance_command(sdk_dir, vectors, mode)`, returning (argv,
working folder, the tool it needs); this module knows no language.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable, Sequence

_SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$")
TIMEOUT_S = 900
# Failure lines shown per language; the runner itself prints them all.
SHOWN_FAILURES = 20


class CannotRun(Exception):
    """errgen could not run at all (exit 2)."""


@dataclass(frozen=True)
class Runner:
    name: str
    argv: list[str]
    cwd: Path
    tool: str

    def missing_tool(self) -> bool:
        program = self.argv[0]
        return not (Path(program).is_file() if Path(program).is_absolute() else shutil.which(program))


def participants(names: Sequence[str]) -> list[ModuleType]:
    from errgen.emit.targets import UnknownTarget, all_targets, select

    try:
        chosen = select(names) if names else all_targets()
    except UnknownTarget as exc:
        raise CannotRun(str(exc)) from None
    runnable = [t for t in chosen if hasattr(t, "conformance_command")]
    if names and len(runnable) != len(chosen):
        lacking = ", ".join(t.NAME for t in chosen if t not in runnable)
        raise CannotRun(f"target {lacking} has no conformance runner")
    return runnable


def runner(target: ModuleType, out_dir: Path, vectors: Path, mode: str) -> Runner:
    argv, cwd, tool = target.conformance_command((out_dir / target.NAME).resolve(), vectors.resolve(), mode)
    return Runner(target.NAME, [str(a) for a in argv], Path(cwd), tool)


def _vectors(out_dir: Path, given: Path | None) -> Path:
    path = given if given is not None else out_dir / "conformance" / "vectors.json"
    if not path.is_file():
        hint = "" if given is not None else " (run `errgen build`, or pass --vectors FILE)"
        raise CannotRun(f"no vectors file at {path}{hint}")
    return path


def check(out_dir: Path, names: Sequence[str], vectors: Path | None, echo: Callable[[str], None]) -> int:
    """Run every runner in check mode; print per language `N passed, N failed` or why it was
    skipped. 0 when nothing failed, 1 otherwise. A language whose target sets READS_RESPONSES
    also runs conformance/responses.json (real API responses) when it was built."""
    path = _vectors(out_dir, vectors)
    responses = out_dir / "conformance" / "responses.json"
    failed = False
    for target in participants(names):
        if not (out_dir / target.NAME).is_dir():
            echo(f"{target.NAME}: skipped (not built in {out_dir})")
            continue
        run = runner(target, out_dir, path, "check")
        if run.missing_tool():
            echo(f"{run.name}: skipped (needs {run.tool})")
            continue
        failed = _check(run, run.name, echo) or failed
        if vectors is None and getattr(target, "READS_RESPONSES", False) and responses.is_file():
            failed = _check(runner(target, out_dir, responses, "check"), f"{run.name} responses", echo) or failed
    return 1 if failed else 0


def _check(run: Runner, label: str, echo: Callable[[str], None]) -> bool:
    """Run one runner in check mode and print its summary; True when anything failed."""
    done = _run(run)
    lines = done.stdout.splitlines()
    summary = _SUMMARY.match(lines[-1]) if lines else None
    for line in [x for x in lines if x.startswith("FAIL")][:SHOWN_FAILURES]:
        echo(f"  {line}")
    if summary is None or done.returncode not in (0, 1):
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        echo(f"{label}: runner failed (exit {done.returncode})" + "".join(f"\n  {x}" for x in tail))
        return True
    echo(f"{label}: {summary.group(0)}")
    return int(summary.group(2)) > 0 or done.returncode != 0


def emit(out_dir: Path, names: Sequence[str], inputs: Path, echo: Callable[[str], None]) -> int:
    """Print one SDK's emit lines for the inputs file."""
    targets = participants(names)
    if len(names) != 1:
        raise CannotRun("--emit needs exactly one --target")
    [target] = targets
    if not (out_dir / target.NAME).is_dir():
        raise CannotRun(f"{target.NAME} is not built in {out_dir}")
    run = runner(target, out_dir, _vectors(out_dir, inputs), "emit")
    if run.missing_tool():
        raise CannotRun(f"{run.name} needs {run.tool}, which is not installed")
    done = _run(run)
    # JSON lines end at "\n" only: a U+2028 inside an emitted string is part of its line.
    for line in done.stdout.split("\n"):
        if line:
            echo(line)
    if done.returncode != 0:
        raise CannotRun(f"{run.name} runner failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
    return 0


def _run(run: Runner) -> subprocess.CompletedProcess[str]:
    """The runner in a process group of its own: on a timeout or Ctrl-C the whole group ends
    (a runner its build tool started, not only the tool), told first so it can clean up."""
    try:
        proc = subprocess.Popen(run.argv, cwd=run.cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=hasattr(os, "killpg"))
    except OSError as exc:
        return subprocess.CompletedProcess(run.argv, 127, "", str(exc))
    try:
        out, err = proc.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        _end_group(proc)
        return subprocess.CompletedProcess(run.argv, 124, "", f"timed out after {TIMEOUT_S} s")
    except BaseException:
        _end_group(proc)
        raise
    return subprocess.CompletedProcess(run.argv, proc.returncode, out, err)


def _end_group(proc: subprocess.Popen[str]) -> None:
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig) if hasattr(os, "killpg") else proc.kill()
        except OSError:
            pass  # already gone
        try:
            proc.communicate(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue
