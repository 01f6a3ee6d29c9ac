"""errgen conformance: run each built SDK's conformance runner (docs/conformance.md).

Every registered language declares its runner (errgen.languages.base.Language.runner), returning
(argv, working folder, the tool it needs); this module knows no language.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from errgen.languages import Language, by_name

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


def participants(names: Sequence[str]) -> list[Language]:
    """The languages named (every registered one when none is): each has a runner, by declaration."""
    from errgen.emit.targets import UnknownTarget, select

    languages = by_name()
    try:
        chosen = [t.NAME for t in select(names)] if names else list(languages)
    except UnknownTarget as exc:
        raise CannotRun(str(exc)) from None
    lacking = [name for name in chosen if name not in languages]
    if lacking:
        raise CannotRun(f"target {', '.join(lacking)} has no conformance runner")
    return [languages[name] for name in chosen]


def runner(target: Language, out_dir: Path, vectors: Path, mode: str) -> Runner:
    argv, cwd, tool = target.runner((out_dir / target.name).resolve(), vectors.resolve(), mode)
    return Runner(target.name, [str(a) for a in argv], Path(cwd), tool)


def _vectors(out_dir: Path, given: Path | None) -> Path:
    path = given if given is not None else out_dir / "conformance" / "vectors.json"
    if not path.is_file():
        hint = "" if given is not None else " (run `errgen build`, or pass --vectors FILE)"
        raise CannotRun(f"no vectors file at {path}{hint}")
    return path


def check(out_dir: Path, names: Sequence[str], vectors: Path | None, echo: Callable[[str], None]) -> int:
    """Run every runner in check mode; print per language `N passed, N failed` or why it was
    skipped. 0 when nothing failed, 1 otherwise."""
    path = _vectors(out_dir, vectors)
    failed = False
    for target in participants(names):
        if not (out_dir / target.name).is_dir():
            echo(f"{target.name}: skipped (not built in {out_dir})")
            continue
        run = runner(target, out_dir, path, "check")
        if run.missing_tool():
            echo(f"{run.name}: skipped (needs {run.tool})")
            continue
        done = _run(run)
        lines = done.stdout.splitlines()
        summary = _SUMMARY.match(lines[-1]) if lines else None
        for line in [x for x in lines if x.startswith("FAIL")][:SHOWN_FAILURES]:
            echo(f"  {line}")
        if summary is None or done.returncode not in (0, 1):
            failed = True
            tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
            echo(f"{run.name}: runner failed (exit {done.returncode})" + "".join(f"\n  {x}" for x in tail))
            continue
        failed = failed or int(summary.group(2)) > 0 or done.returncode != 0
        echo(f"{run.name}: {summary.group(0)}")
    return 1 if failed else 0


def emit(out_dir: Path, names: Sequence[str], inputs: Path, echo: Callable[[str], None]) -> int:
    """Print one SDK's emit lines for the inputs file."""
    targets = participants(names)
    if len(names) != 1:
        raise CannotRun("--emit needs exactly one --target")
    [target] = targets
    if not (out_dir / target.name).is_dir():
        raise CannotRun(f"{target.name} is not built in {out_dir}")
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
    try:
        return subprocess.run(run.argv, cwd=run.cwd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(run.argv, 124, "", f"timed out after {TIMEOUT_S} s")
    except OSError as exc:
        return subprocess.CompletedProcess(run.argv, 127, "", str(exc))
