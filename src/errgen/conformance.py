"""errgen conformance: run each built SDK's conformance runner (docs/conformance.md).

Every registered language declares its runner (errgen.languages.base.Language.runner), returning
(argv, working folder, the tool it needs); this module knows no language.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
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
    runnable = [languages[name] for name in chosen if name in languages]
    # Other targets (schema, docs, ...) may stand in `targets` beside the SDKs: nothing to run there.
    if names and not runnable:
        raise CannotRun(f"target {', '.join(names)} has no conformance runner")
    return runnable


def runner(target: Language, out_dir: Path, vectors: Path, mode: str) -> Runner:
    argv, cwd, tool = target.runner((out_dir / target.name).resolve(), vectors.resolve(), mode)
    return Runner(target.name, [str(a) for a in argv], Path(cwd), tool)


def _vectors(out_dir: Path, given: Path | None) -> Path:
    path = given if given is not None else out_dir / "conformance" / "vectors.json"
    if not path.is_file():
        hint = "" if given is not None else " (run `errgen build`, or pass --vectors FILE)"
        raise CannotRun(f"no vectors file at {path}{hint}")
    return path


def check(out_dir: Path, names: Sequence[str], vectors: Path | None, echo: Callable[[str], None], allow_skip: bool = False) -> int:
    """Run every runner in check mode, after preparing what it needs (in errgen's cache); print per
    language `N passed, N failed` or why it was skipped. The requested SDKs are `names` (the flag,
    or the `targets` setting), else every one built in `out_dir`. A language whose target sets
    READS_RESPONSES also runs conformance/responses.json (real API responses) when it was built;
    every language runs conformance/writing.json (the writing half and jitter) when it was built.
    0 when every requested runner ran and passed at least one vector, 1 when one failed, 2 when
    one was skipped (unless `allow_skip`)."""
    path = _vectors(out_dir, vectors)
    responses = out_dir / "conformance" / "responses.json"
    writing = out_dir / "conformance" / "writing.json"
    failed = False
    skipped: list[str] = []
    chosen = [t for t in participants(names) if names or (out_dir / t.name).is_dir()]
    if not chosen:
        raise CannotRun(f"no SDK is built in {out_dir} (run `errgen build`, or pass --out)")
    for target in chosen:
        reason = _unready(target, out_dir)
        if reason is None:
            run = runner(target, out_dir, path, "check")
            reason = f"needs {run.tool}" if run.missing_tool() else None
        if reason is not None:
            echo(f"{target.name}: skipped ({reason})")
            skipped.append(target.name)
            continue
        failed = _check(run, run.name, echo) or failed
        if vectors is None and writing.is_file():
            failed = _check(runner(target, out_dir, writing, "check"), f"{run.name} writing", echo) or failed
        if vectors is None and getattr(target.target(), "READS_RESPONSES", False) and responses.is_file():
            failed = _check(runner(target, out_dir, responses, "check"), f"{run.name} responses", echo) or failed
    if failed:
        return 1
    if skipped and not allow_skip:
        echo(f"errgen: {', '.join(skipped)} skipped: nothing checked them (install what they need, or pass --allow-skip)")
        return 2
    return 0


def _unready(language: Language, out_dir: Path) -> str | None:
    """Why the language's runner cannot run yet, after building what it needs in errgen's cache."""
    sdk_dir = (out_dir / language.name).resolve()
    if not sdk_dir.is_dir():
        return f"not built in {out_dir}"
    prepare = getattr(language.target(), "conformance_prepare", None)
    return prepare(sdk_dir) if prepare is not None else None


def _check(run: Runner, label: str, echo: Callable[[str], None]) -> bool:
    """Run one runner in check mode and print its summary; True when anything failed. A run that
    checked no vector has proven nothing: that fails too."""
    done = _run(run)
    lines = done.stdout.splitlines()
    summary = _SUMMARY.match(lines[-1]) if lines else None
    for line in [x for x in lines if x.startswith("FAIL")][:SHOWN_FAILURES]:
        echo(f"  {line}")
    if summary is None or done.returncode not in (0, 1):
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        echo(f"{label}: runner failed (exit {done.returncode})" + "".join(f"\n  {x}" for x in tail))
        return True
    passed, failures = int(summary.group(1)), int(summary.group(2))
    if passed + failures == 0:
        echo(f"{label}: {summary.group(0)}: the runner checked no vector")
        return True
    echo(f"{label}: {summary.group(0)}")
    return failures > 0 or done.returncode != 0


def emit(out_dir: Path, names: Sequence[str], inputs: Path, echo: Callable[[str], None]) -> int:
    """Print one SDK's emit lines for the inputs file."""
    targets = participants(names)
    if len(names) != 1:
        raise CannotRun("--emit needs exactly one --target")
    [target] = targets
    reason = _unready(target, out_dir)
    if reason is not None:
        raise CannotRun(f"{target.name} cannot run: {reason}")
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
