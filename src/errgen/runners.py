"""errgen conformance: run each built SDK's conformance runner (docs/conformance.md).

Every registered language declares its runner (errgen.languages.base.Language.runner), returning
(argv, working folder, the tool it needs); this module knows no language.

No runner builds or runs in the output folder: each SDK, and the vectors, are copied first into a
private folder that holds only the files OUT's manifest lists for them, each checked byte for byte
against the sha256 the manifest gives it (`PrivateCopy`). A file planted beside them (a Go
`zz_init.go`, a Rust `build.rs`, a Python `random.py`) is not copied, so it is never compiled or
run; a listed file that changed since errgen wrote it stops the command (exit 2) before any
runner starts. What a build leaves in the copy (Cargo.lock) goes with it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

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


VECTORS = "conformance"  # the target that writes the shared vectors (errgen.emit.targets.VECTORS)
MAX_FILE_BYTES = 64 * 1024 * 1024


def _parent() -> tuple[Path | None, bool]:
    """Where private copies are made, and whether that place is fixed: a folder of errgen's
    verified cache (only this user can write it, so a fixed name per output folder is as private
    as a random one, and the runners' builds, keyed by the SDK's path, are reused from run to
    run); else None (a fresh mkdtemp folder in $TMPDIR each run)."""
    from errgen.emit import toolcache

    private = toolcache.private_folder("conformance")
    return private, private is not None


@contextlib.contextmanager
def private_copy(out_dir: Path, names: Sequence[str]) -> Iterator[Path]:
    """A private folder (mode 0700) holding, for each of `names` (languages, and the vectors'
    target), exactly the files OUT's manifest lists for it, each checked against its sha256;
    removed afterwards. Under errgen's cache its name is fixed per output folder (one run at a
    time holds it: a second waits), and it is emptied before the copy; elsewhere it is a fresh
    mkdtemp folder. Raises CannotRun (exit 2) when a file is missing, is not a regular file, or
    differs from the manifest."""
    from errgen.emit.commit import WriteError, read_manifest

    try:
        manifest = read_manifest(out_dir)
    except WriteError as exc:
        raise CannotRun(str(exc)) from None
    parent, fixed = _parent()
    lock = None
    if fixed and parent is not None:
        root = parent / hashlib.sha256(os.fsencode(out_dir.resolve())).hexdigest()[:16]
        lock = _lock(parent, root.name)
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(mode=0o700)
    else:
        root = Path(tempfile.mkdtemp(prefix="errgen-conformance-"))  # mode 0700, a random name
    try:
        for name in names:
            files = manifest.targets.get(name)
            if not files:
                raise CannotRun(f"{out_dir / name} is not listed in {out_dir}/.errgen-manifest.json: nothing errgen "
                                f"wrote can be checked there (run `errgen build`)")
            for rel, sha in sorted(files.items()):
                _copy_checked(out_dir, rel, sha, root)
        _folder_times(out_dir, root)
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)
        if lock is not None:
            os.close(lock)


def _folder_times(out_dir: Path, root: Path) -> None:
    """Each copied folder's modification time set to its original's, deepest first (the files
    written into a folder moved its time): a build tool that compares times with its last build
    (Maven's runner command runs `find src -newer`) sees an unchanged SDK as unchanged."""
    for folder, _, _ in sorted(os.walk(root), key=lambda item: -item[0].count(os.sep)):
        rel = os.path.relpath(folder, root)
        try:
            st = os.stat(out_dir / rel, follow_symlinks=False)
            os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns))
        except OSError:
            pass  # OUT's own folder changed meanwhile: the runner's build may only be redone


def _lock(parent: Path, name: str) -> int | None:
    """An exclusive flock on a file beside the copy, held until the run ends (None where flock
    does not exist: runs on one output folder are then not serialised)."""
    try:
        import fcntl
    except ImportError:
        return None
    fd = os.open(parent / f"{name}.lock", os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _copy_checked(out_dir: Path, rel: str, sha: str, root: Path) -> None:
    """OUT/rel copied to root/rel, after checking that no link leads to it, that it is a regular
    file, and that its bytes are those the manifest lists. Its modification time goes with it, so
    a runner's build in the cache sees an unchanged file as unchanged."""
    source = out_dir / rel
    where = f"{out_dir}/{rel}"
    real = os.path.realpath(source)
    if real != os.path.join(os.path.realpath(out_dir), rel):
        raise CannotRun(f"{where} is reached through a symbolic link; errgen runs only the files it wrote (run `errgen build`)")
    try:
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise CannotRun(f"{where}: {exc.strerror}; errgen build wrote it (run `errgen build`)") from None
    with os.fdopen(fd, "rb") as file:
        st = os.fstat(file.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
            raise CannotRun(f"{where} is not a regular file errgen wrote (run `errgen build`)")
        data = file.read(MAX_FILE_BYTES + 1)
    if hashlib.sha256(data).hexdigest() != sha:
        raise CannotRun(f"{where} is not what errgen build wrote (its sha256 differs from the manifest's): "
                        f"nothing was run; `errgen build --check` shows what changed, `errgen build` restores it")
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))


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
    _vectors(out_dir, vectors)
    chosen = [t for t in participants(names) if names or (out_dir / t.name).is_dir()]
    if not chosen:
        raise CannotRun(f"no SDK is built in {out_dir} (run `errgen build`, or pass --out)")
    built = [t.name for t in chosen if (out_dir / t.name).is_dir()]
    # Nothing built, nothing to copy: each requested SDK is then reported as skipped.
    copied = private_copy(out_dir, built + ([VECTORS] if vectors is None else [])) if built else contextlib.nullcontext(out_dir)
    with copied as copy:
        return _check_all(chosen, copy, out_dir, vectors, echo, allow_skip)


def _check_all(chosen: list[Language], copy: Path, out_dir: Path, vectors: Path | None, echo: Callable[[str], None],
               allow_skip: bool) -> int:
    """Each chosen language's runners, run in the private copy (see check)."""
    path = _vectors(copy, vectors)
    responses = copy / "conformance" / "responses.json"
    writing = copy / "conformance" / "writing.json"
    failed = False
    skipped: list[str] = []
    for target in chosen:
        reason = _unready(target, out_dir, copy)
        if reason is None:
            run = runner(target, copy, path, "check")
            reason = f"needs {run.tool}" if run.missing_tool() else None
        if reason is not None:
            echo(f"{target.name}: skipped ({reason})")
            skipped.append(target.name)
            continue
        failed = _check(run, run.name, echo) or failed
        if vectors is None and writing.is_file():
            failed = _check(runner(target, copy, writing, "check"), f"{run.name} writing", echo) or failed
        if vectors is None and getattr(target.target(), "READS_RESPONSES", False) and responses.is_file():
            failed = _check(runner(target, copy, responses, "check"), f"{run.name} responses", echo) or failed
    if failed:
        return 1
    if skipped and not allow_skip:
        echo(f"errgen: {', '.join(skipped)} skipped: nothing checked them (install what they need, or pass --allow-skip)")
        return 2
    return 0


def _unready(language: Language, out_dir: Path, copy: Path) -> str | None:
    """Why the language's runner cannot run yet, after building what it needs in errgen's cache."""
    if not (out_dir / language.name).is_dir():
        return f"not built in {out_dir}"
    sdk_dir = (copy / language.name).resolve()
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
    if not (out_dir / target.name).is_dir():
        raise CannotRun(f"{target.name} cannot run: not built in {out_dir}")
    inputs = _vectors(out_dir, inputs)
    with private_copy(out_dir, [target.name]) as copy:
        reason = _unready(target, out_dir, copy)
        if reason is not None:
            raise CannotRun(f"{target.name} cannot run: {reason}")
        run = runner(target, copy, inputs, "emit")
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
