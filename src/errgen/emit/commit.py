"""Write a build's outputs all or nothing, only inside the output folder, and compare a planned
build with the disk.

Every destination is checked as its target's files come: it lies inside OUT after resolving `..`
and symlinks, no file or folder of the user's is in the way, and a file errgen did not write (not
in the manifest) is overwritten only when forced. Each folder is looked at once per build, however
many files it holds (`Folders`), so the checks cost a dictionary look-up per file, not a walk of
every ancestor. Changed files are staged in OUT/.errgen-staging meanwhile, one target's text in
memory at a time; when a check fails the staging folder (and OUT, if this build created it) is
removed, and nothing else has changed.

A file going into a folder OUT already has is staged flat (files/, named by the sha256 of its
path: no folder to make, then remove); a file going into a folder OUT lacks is staged at its own
path under tree/, and the topmost such folder then moves into OUT by one rename, whatever it
holds (a first build of a 5,000-page site is one move, not 5,000 folders made and 5,000 files
moved: creating each file in its own small folder, and not in one flat folder of thousands,
also costs the file system less). Once every file has passed, a journal (files to move, files to
delete) and the new manifest join the staged files, and one flush of the file system makes them
all durable (`_flush`: a per-file fsync would cost a disk round trip per file, which dominated a
large build); renaming that folder to OUT/.errgen-commit marks the staged set complete, and only
then are files moved into place, the orphans deleted and, last, the manifest replaced. A run
that finds a commit folder (a build killed while moving) validates it and finishes it; a staging
folder (killed earlier) is discarded. `compare` reports either leftover as stale, so after a kill
at any step OUT is the old build, the new one, or a state `build --check` rejects and the next
build completes. (The build that sealed the journal moves its files without reading it back: it
checked every path on the way in.)

errgen owns only the files listed in OUT/.errgen-manifest.json; it never deletes anything else.
The manifest and the journal are untrusted input (a pull request can change them): both are
validated, and a bad one stops the build before anything is touched.
"""

from __future__ import annotations

import difflib
import errno
import fnmatch
import functools
import hashlib
import json
import os
import re
import shutil
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath
from typing import Any, Iterable, Iterator, Mapping

from errgen.languages import all_languages

MANIFEST = ".errgen-manifest.json"
STAGING = ".errgen-staging"
COMMIT = ".errgen-commit"
CACHE = ".errgen-cache.json"
IGNORE = ".gitignore"
RESERVED_PREFIX = ".errgen-"
OWN = "errgen"  # the manifest entry for files the build writes itself (the .gitignore)
MANIFEST_COMMENT = "Files written by errgen build; errgen deletes only files listed here. Do not edit."
MAX_MANIFEST_BYTES = 64 * 1024 * 1024
_SHA256 = re.compile(r"[0-9a-f]{64}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

Plan = dict[str, str]
Hashes = dict[str, str]

_ALWAYS_IGNORED = ("__pycache__/", f"/{CACHE}", f"/{CACHE}.tmp", f"/{STAGING}/", f"/{COMMIT}/")


# The longest file or folder name the common file systems hold (ext4, APFS, NTFS: 255).
NAME_MAX = 255


class WriteError(Exception):
    """errgen could not write, or refused to (exit 2). Unless the message says the build was
    interrupted, nothing was changed."""


def digest(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def hashes(plan: Plan) -> Hashes:
    return {rel: digest(text) for rel, text in plan.items()}


def show(path: Path | str, limit: int = 160) -> str:
    """A path for a message: long names (a registry name of megabytes) are shortened."""
    text = str(path)
    return text if len(text) <= limit else f"{text[:limit // 2]}...{text[-limit // 2:]} ({len(text)} characters)"


# --- paths -------------------------------------------------------------------------------------


def relative_path(rel: object, where: str) -> str:
    """A path errgen may own: relative, '/'-separated, no '.', '..' or empty parts, no control
    characters, not one of errgen's own bookkeeping names."""
    if not isinstance(rel, str) or not rel:
        raise WriteError(f"{where}: {rel!r} is not a path")
    wrapped = f"/{rel}/"  # an empty, '.' or '..' part (or a leading '/') is a '//', '/./' or '/../' in it
    bad = (
        "//" in wrapped or "/./" in wrapped or "/../" in wrapped or "\\" in rel or rel.startswith(RESERVED_PREFIX)
        # A Windows drive needs a ':' second (a path starting with a separator is refused above).
        or (rel[1:2] == ":" and PureWindowsPath(rel).drive) or _CONTROL.search(rel)
    )
    if bad:
        raise WriteError(f"{where}: {show(repr(rel))} is not a relative path inside the output folder")
    return rel


class Folders:
    """What stands at each folder a build writes into or deletes from, inside OUT, looked at once
    per folder however many files it holds (a 5,000-code site is 5,000 folders of one page each,
    all in site/): a folder, missing (and so is everything below it), or in the way.

    A symlinked folder is followed (realpath, once) and accepted when it resolves to a folder
    inside OUT; one leading outside, or nowhere, is refused for every file below it. A folder is
    looked at only once its parent is known to be a folder inside OUT, so a plain lstat does:
    its real path is its parent's real path and its own name (names are never '..': see
    relative_path). Paths are strings here: pathlib's parsing, per file, cost more than the
    file system's calls."""

    def __init__(self, root: Path, out: Path) -> None:
        self.root, self.out = os.fspath(root), out
        self.prefix = self.root if self.root.endswith(os.sep) else self.root + os.sep
        self.known: dict[str, tuple[str, str]] = {"": ("folder", "")}

    def path(self, rel: str) -> str:
        return self.prefix + rel

    def state(self, folder: str) -> tuple[str, str]:
        """(kind, where): ("folder", ""), ("missing", ""), or a problem at the folder `where`:
        "file" (not a folder), "link" (a symlink to no folder), "outside", or "unresolvable"."""
        known = self.known.get(folder)
        below: list[str] = []  # up to the nearest folder already known (a loop: a path may be deep)
        while known is None:
            below.append(folder)
            folder = folder.rpartition("/")[0]
            known = self.known.get(folder)
        for folder in reversed(below):
            known = self.known[folder] = self._look(folder) if known[0] == "folder" else known
        return known

    def _look(self, folder: str) -> tuple[str, str]:
        path = self.prefix + folder
        st = _lstat(path)
        if st is None:
            return ("missing", "")
        if stat.S_ISDIR(st.st_mode):
            return ("folder", "")
        if not stat.S_ISLNK(st.st_mode):
            return ("file", folder)
        real = os.path.realpath(path)
        if real != self.root and not real.startswith(self.prefix):
            return ("outside", folder)
        try:
            target = os.stat(path)
        except OSError as exc:
            return ("link", folder) if isinstance(exc, FileNotFoundError) else ("unresolvable", folder)
        return ("folder", "") if stat.S_ISDIR(target.st_mode) else ("link", folder)

    def new_folder(self, rel: str) -> str | None:
        """The topmost of rel's folders that OUT lacks (the one a build moves in whole), or None
        when rel's own folder is there."""
        folder = rel.rpartition("/")[0]
        if self.state(folder)[0] != "missing":
            return None
        parent = folder.rpartition("/")[0]
        while self.state(parent)[0] == "missing":
            folder, parent = parent, parent.rpartition("/")[0]
        return folder

    def problem(self, rel: str) -> str | None:
        """Why a file cannot be written at rel (its folders are in the way), or None."""
        kind, where = self.state(rel.rpartition("/")[0])
        if kind in ("folder", "missing"):
            return None
        if kind == "file":
            return f"{show(self.out / where)} is a file where errgen needs a folder (for {show(rel)}); move it away"
        if kind == "link":
            return f"{show(self.out / where)} is a symlink to no folder where errgen needs one (for {show(rel)}); move it away"
        return self.escape(rel)

    def escape(self, rel: str) -> str | None:
        """Why rel's folder is not inside OUT (a symlink leads outside, or cannot be resolved), or
        None: all that deleting or replacing the entry at rel needs (never followed itself)."""
        kind, where = self.state(rel.rpartition("/")[0])
        if kind == "outside":
            real = os.path.realpath(self.path(rel.rpartition("/")[0]))
            return f"{show(self.out / rel)}: its folder leads outside {self.out} (to {show(real)}); errgen writes only inside {self.out}"
        if kind == "unresolvable":
            try:
                os.stat(self.path(where))
                reason = "it changed while being checked"
            except OSError as exc:
                reason = exc.strerror or str(exc)
            return f"{show(self.out / rel)}: cannot resolve its folder ({show(self.out / where)}: {reason})"
        return None

    def inside(self, rel: str) -> str:
        """OUT/rel as a string, or WriteError when its folder leads outside OUT."""
        problem = self.escape(rel)
        if problem is not None:
            raise WriteError(problem)
        return self.prefix + rel


def _lstat(path: Path | str) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):  # under a file: not there either
        return None
    except OSError as exc:
        raise WriteError(f"{show(path)}: {exc.strerror}") from None


# --- the manifest ------------------------------------------------------------------------------


@dataclass
class Manifest:
    """Per target (and OWN), the files errgen wrote and the sha256 of each. Its text depends only
    on the outputs, so it is byte-identical on every machine and across errgen versions that
    render the same files."""

    targets: dict[str, Hashes] = field(default_factory=dict)

    def files(self) -> Hashes:
        out: Hashes = {}
        for name in sorted(self.targets):
            out.update(self.targets[name])
        return out

    def updated(self, expected: dict[str, Hashes]) -> Manifest:
        return Manifest({**self.targets, **expected})

    def text(self) -> str:
        """json.dumps(..., indent=2) of {"$comment", "targets": {name: {"files": {path: sha}}}},
        keys sorted, spelled here: with an indent, json encodes in Python, a value at a time,
        which cost more than the rest of committing a 5,000-file site. (Strings go through json's
        own escaping, so the text is the same byte for byte; tests/test_write_folders.py.)"""
        quote = json.encoder.encode_basestring_ascii  # what json.dumps uses for a str by default (ensure_ascii)
        blocks = []
        for name in sorted(self.targets):
            files = self.targets[name]
            body = ",\n".join(f"        {quote(rel)}: {quote(files[rel])}" for rel in sorted(files))
            listing = f"{{\n{body}\n      }}" if files else "{}"
            blocks.append(f'    {quote(name)}: {{\n      "files": {listing}\n    }}')
        targets = "{\n" + ",\n".join(blocks) + "\n  }" if blocks else "{}"
        return f'{{\n  "$comment": {quote(MANIFEST_COMMENT)},\n  "targets": {targets}\n}}\n'


def parse_manifest(data: bytes, where: str) -> Manifest:
    """The manifest in `data`, or WriteError saying exactly what is wrong with it."""
    raw = _json(data, where)
    if not isinstance(raw, dict) or not isinstance(raw.get("targets"), dict):
        raise WriteError(f"{where}: expected an object with \"targets\": {{target: {{\"files\": {{path: sha256}}}}}}")
    unknown = sorted(set(raw) - {"$comment", "targets"})
    if unknown:
        raise WriteError(f"{where}: unknown key {show(repr(unknown[0]))}")
    targets: dict[str, Hashes] = {}
    for name, entry in raw["targets"].items():
        here = f"{where}: targets.{show(name, 60)}"
        if not isinstance(entry, dict) or not isinstance(entry.get("files"), dict) or set(entry) - {"files", "fingerprint"}:
            raise WriteError(f"{here}: expected {{\"files\": {{path: sha256}}}}, got {_kind(entry)}")
        files: Hashes = {}
        for rel, sha in entry["files"].items():
            relative_path(rel, f"{here}.files")
            if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
                raise WriteError(f"{here}.files: {show(repr(rel))} must map to a sha256 (64 hex digits), got {_kind(sha)}")
            files[rel] = sha
        targets[name] = files
    return Manifest(targets)


def read_manifest(out: Path, root: Path | None = None) -> Manifest:
    """OUT's manifest (empty when there is none). A manifest that is not a plain file, too large,
    or not valid is a WriteError: errgen will not guess what it owns."""
    path = (root or out) / MANIFEST
    st = _lstat(path)
    if st is None:
        return Manifest()
    where = show(out / MANIFEST)
    if not stat.S_ISREG(st.st_mode):
        raise WriteError(f"{where}: not a regular file; remove it")
    if st.st_size > MAX_MANIFEST_BYTES:
        raise WriteError(f"{where}: {st.st_size} bytes, more than the {MAX_MANIFEST_BYTES} a manifest can have")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise WriteError(f"{where}: cannot read it: {exc.strerror}") from None
    try:
        return parse_manifest(data, where)
    except WriteError as exc:
        raise WriteError(f"{exc}. Nothing was changed. If it is damaged, restore it from version control, "
                         f"or delete it and build with --force to take over the files errgen generates") from None


def _json(data: bytes, where: str) -> Any:
    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise ValueError(f"duplicate key {show(repr(next(k for k in keys if keys.count(k) > 1)), 60)}")
        return dict(pairs)

    try:
        return json.loads(data.decode("utf-8"), object_pairs_hook=no_duplicates)
    except (ValueError, RecursionError) as exc:
        raise WriteError(f"{where}: not valid JSON ({show(str(exc), 120)})") from None


def _kind(value: object) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")


def ignore_text(files: Iterable[str]) -> str:
    """OUT/.gitignore: errgen's scratch files, and the leftovers of building each generated
    package, anchored at that package's folder (a pattern that would hide a generated file is
    left out)."""
    files = sorted(files)
    # What building a generated package leaves in its folder, by the file that marks the folder as
    # a package (each language declares its own). Ignored per package folder (never a bare
    # `build/`), so a generated path that happens to contain such a name is never hidden from git.
    leftovers = {name: patterns for language in all_languages() for name, patterns in language.leftovers.items()}
    lines = ["# Written by errgen build. Do not edit.", "# errgen's scratch files, and what building or installing a generated package leaves behind.", *_ALWAYS_IGNORED]
    for rel in files:
        folder, _, name = rel.rpartition("/")
        for pattern in leftovers.get(name, ()):
            anchored = f"/{folder}/{pattern}" if folder else f"/{pattern}"
            if anchored not in lines and not _hides(pattern, folder, files):
                lines.append(anchored)
    return "\n".join(lines) + "\n"


def _hides(pattern: str, folder: str, files: list[str]) -> bool:
    prefix = f"{folder}/" if folder else ""
    return any(fnmatch.fnmatchcase(f[len(prefix):].split("/")[0], pattern.rstrip("/")) for f in files if f.startswith(prefix))


# --- committing --------------------------------------------------------------------------------


@dataclass
class Changes:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)
    hashes: dict[str, Hashes] = field(default_factory=dict)  # per target: path -> sha256 of what it rendered

    def summary(self) -> str:
        if not self.written and not self.deleted:
            return f"up to date ({self.unchanged} files unchanged)"
        return f"{len(self.written)} written, {len(self.deleted)} deleted, {self.unchanged} unchanged"


def output_root(out: Path, create: bool) -> Path:
    """OUT resolved, after checking that it is (or can become) a folder."""
    st = _lstat(out)
    if st is not None and not out.is_dir():
        kind = "a symlink to nothing" if stat.S_ISLNK(st.st_mode) and not out.exists() else "not a folder"
        raise WriteError(f"output folder {show(out)} is {kind}")
    if st is None and create:
        try:
            out.mkdir(parents=True, exist_ok=True)  # exist_ok: a concurrent build may make it first (then its lock stops this one)
        except OSError as exc:
            raise WriteError(f"cannot create output folder {show(out)}: {exc.strerror}") from None
    try:
        return out.resolve()
    except (OSError, RuntimeError) as exc:
        raise WriteError(f"output folder {show(out)}: {exc}") from None


class _Lock:
    """An exclusive flock on the output folder itself, held while a build stages and commits into
    it: a second build into the same folder fails at once instead of discarding the first one's
    staging folder. The kernel drops it when the process ends, even on SIGKILL, so it is never
    stale; being on the folder, it leaves no file. Where flock does not exist (Windows) or the
    file system refuses it, builds are not locked."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.fd: int | None = None

    def take(self, root: Path) -> None:
        if self.fd is not None:
            return
        try:
            import fcntl
            fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except (ImportError, OSError):
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise WriteError(f"another errgen build is writing {show(self.out)} right now; wait for it to end, "
                             f"then build again (nothing was changed)") from None
        except OSError:
            os.close(fd)
            return
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def commit(out: Path, plans: Mapping[str, Plan] | Iterable[tuple[str, Plan]], force: bool = False, complete: bool = False) -> Changes:
    """Make OUT hold exactly the given targets' files, all at once. Each target's files are checked
    and staged as they come, so a large build never holds every output in memory; nothing outside
    OUT/.errgen-staging changes until every file passed its checks. One build at a time per OUT
    (see _Lock). `complete`: the plans are every target OUT should hold, so the files an earlier
    build wrote for another target (one dropped from `targets`) are deleted with the orphans;
    else the other targets' files stay."""
    lock = _Lock(out)
    try:
        return _commit(out, plans, force, lock, complete)
    finally:
        lock.release()


def _commit(out: Path, plans: Mapping[str, Plan] | Iterable[tuple[str, Plan]], force: bool, lock: _Lock, complete: bool = False) -> Changes:
    root = output_root(out, create=False)
    if root.is_dir():
        lock.take(root)  # before recover: the staging folder may be a running build's
        recover(out, root)
    old = read_manifest(out, root)
    owned = old.files()
    kept = Manifest() if complete else old  # what of the old manifest the new one keeps beside this build's targets
    staging = _Staging(root, out, lock)
    folders = Folders(root, out)
    changes = Changes()
    problems: list[str] = []
    refused: list[str] = []
    writer: dict[str, str] = {}

    def place(rel: str, data: bytes) -> None:
        state = _destination(folders, rel, data, problems)
        if state == "same":
            changes.unchanged += 1
        elif state is not None:
            if state == "exists" and rel not in owned and not force:
                refused.append(show(out / rel))
            changes.written.append(rel)
            if not problems and not refused:  # past a refusal, only the checks go on
                staging.write(rel, data, folders.new_folder(rel) if state == "new" else None)

    try:
        for target, plan in plans.items() if isinstance(plans, Mapping) else plans:
            sums = changes.hashes[target] = {}
            for rel in sorted(plan):
                relative_path(rel, f"target {target}")
                if rel == IGNORE or rel in writer:
                    raise WriteError(f"target {target} writes {rel}, which {writer.get(rel, 'errgen')} writes too (a target bug)")
                writer[rel] = target
                data = plan[rel].encode("utf-8")
                sums[rel] = digest(data)
                place(rel, data)
            del plan  # before the next target renders: one target's text in memory at a time
        ignore = ignore_text(set(kept.updated(changes.hashes).files()) - {IGNORE}).encode("utf-8")
        new = kept.updated({**changes.hashes, OWN: {IGNORE: digest(ignore)}})
        place(IGNORE, ignore)
        changes.deleted = sorted(set(owned) - set(new.files()))
        for rel in changes.deleted:
            folders.inside(rel)
        if problems:
            raise WriteError("cannot build, nothing was changed:\n  " + "\n  ".join(problems))
        if refused:
            raise WriteError(f"refusing to overwrite {len(refused)} file(s) errgen did not write (not in {show(out / MANIFEST)}); "
                             f"move them away or pass --force. Nothing was changed:\n  " + "\n  ".join(refused))
        changes.written.sort()
        journal = _Journal(changes.written, changes.deleted, True, sorted(staging.new_folders))
        staging.seal(journal, new)
    except (Exception, KeyboardInterrupt):
        staging.discard()
        raise
    # The journal just sealed, every path of it checked above: not read back and checked again
    # (a build killed from here on is finished by the next one, which does read and check it).
    _move_into_place(root, out, journal)
    return changes


def _destination(folders: Folders, rel: str, data: bytes, problems: list[str]) -> str | None:
    """How a planned file meets the disk: 'same' bytes, 'new', 'exists' (to overwrite), or None
    with a problem noted (a folder where the file goes, or a file where a folder must be, or a
    name no file system holds: staging is flat, so only the move into place would find out)."""
    # A character is at most 4 bytes in UTF-8: only a long path can hold a name over NAME_MAX bytes.
    if len(rel) > NAME_MAX // 4 and any(len(part.encode("utf-8", "surrogateescape")) > NAME_MAX for part in rel.split("/")):
        problems.append(f"{show(folders.out / rel)}: File name too long (a folder or file name over {NAME_MAX} bytes)")
        return None
    problem = folders.problem(rel)
    if problem is not None:
        problems.append(problem)
        return None
    if folders.state(rel.rpartition("/")[0])[0] == "missing":
        return "new"
    path = folders.path(rel)
    st = _lstat(path)
    if st is None:
        return "new"
    if stat.S_ISDIR(st.st_mode):
        problems.append(f"{show(folders.out / rel)} is a folder where errgen writes a file; move it away")
        return None
    if stat.S_ISREG(st.st_mode) and st.st_size == len(data) and _read(path) == data:
        return "same"
    return "exists"


def _read(path: Path | str) -> bytes | None:
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError:
        return None


class _Staging:
    """OUT/.errgen-staging, made on the first write (OUT too, if need be); sealed by renaming it
    to OUT/.errgen-commit, or discarded with whatever this build created."""

    def __init__(self, root: Path, out: Path, lock: _Lock | None = None) -> None:
        self.root, self.out, self.lock = root, out, lock
        self.folder = root / STAGING
        self.files = os.path.join(self.folder, "files")
        self.tree = os.path.join(self.folder, "tree")
        self.new_folders: set[str] = set()  # the topmost folders OUT lacks, staged under tree/
        self.made: set[str] = set()  # the folders made under tree/ ("": tree/ itself, made on first use)
        self.opened = False
        self.staged: list[str] = []  # what _flush must make durable where the file system cannot be flushed whole
        self.created: list[Path] = []  # OUT and the parents this build made for it, outermost last

    def write(self, rel: str, data: bytes, new_folder: str | None = None) -> None:
        """Stage rel's bytes: flat, or at rel under tree/ when it goes into new_folder, a folder
        OUT lacks."""
        try:
            self._open()
            if new_folder is None:
                self.staged.append(_write(f"{self.files}/{staged_name(rel)}", data))
                return
            self.new_folders.add(new_folder)
            if not self.made:
                os.mkdir(self.tree)
                self.made.add("")
                self.staged.append(self.tree)
            self.staged += _make_folder(self.tree + os.sep, rel.rpartition("/")[0], self.made)
            self.staged.append(_write(f"{self.tree}/{rel}", data))
        except OSError as exc:
            raise WriteError(f"cannot write {show(self.out / rel)}: {exc.strerror}; nothing was changed") from None

    def seal(self, journal: _Journal, manifest: Manifest) -> None:
        try:
            self._open()
            text = json.dumps({"write": journal.write, "delete": journal.delete, "folders": journal.folders})
            self.staged.append(_write(os.path.join(self.folder, "journal.json"), text.encode("utf-8")))
            self.staged.append(_write(os.path.join(self.folder, "manifest.json"), manifest.text().encode("utf-8")))
            _flush(self.folder, self.staged)  # every staged byte on disk before the rename below commits to them
        except OSError as exc:
            raise WriteError(f"cannot write {show(self.folder)}: {exc.strerror}; nothing was changed") from None
        try:
            os.replace(self.folder, self.root / COMMIT)
            _fsync(self.root)
        except OSError as exc:
            raise WriteError(f"cannot write in {show(self.out)}: {exc.strerror}; nothing was changed") from None

    def discard(self) -> None:
        try:
            if self.opened:
                _discard(self.folder)
            for folder in self.created:
                folder.rmdir()
        except OSError:
            pass

    def _open(self) -> None:
        if self.opened:
            return
        missing = self.out.absolute()
        while _lstat(missing) is None and missing != missing.parent:
            self.created.append(missing)
            missing = missing.parent
        output_root(self.out, create=True)
        if self.lock is not None:
            self.lock.take(self.root)  # OUT is new: another build may have made it meanwhile
        self.opened = True
        _discard(self.folder)
        (self.folder / "files").mkdir(parents=True)
        self.staged.append(self.files)


def recover(out: Path, root: Path | None = None) -> None:
    """Finish what an interrupted build committed; discard what it had only staged."""
    root = root or out.resolve()
    if _lstat(root / COMMIT) is not None:
        _move_into_place(root, out)
    _discard(root / STAGING)


def _discard(folder: Path) -> None:
    st = _lstat(folder)
    if st is None:
        return
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(folder)
    else:
        folder.unlink()


@dataclass
class _Journal:
    write: list[str]
    delete: list[str]
    manifest: bool  # the new manifest is still to move (False: only the clean-up was left)
    folders: list[str] = field(default_factory=list)  # staged under tree/, each moved in whole

    def new_folder(self, rel: str) -> str | None:
        """The folder of `folders` that rel lies in (its file is staged under tree/), or None."""
        folder = rel.rpartition("/")[0]
        while folder and folder not in self._folders:
            folder = folder.rpartition("/")[0]
        return folder or None

    @functools.cached_property
    def _folders(self) -> set[str]:
        return set(self.folders)


def _read_journal(root: Path, out: Path) -> _Journal:
    """The commit folder's journal, checked against the rules a build follows: every path safe,
    every staged file a regular file it lists, every deletion a file the current manifest owns."""
    folder = root / COMMIT
    where = show(out / COMMIT)
    st = _lstat(folder)
    if st is None or not stat.S_ISDIR(st.st_mode):
        raise WriteError(f"{where}: not a folder errgen made; remove it")
    manifest_path = folder / "manifest.json"
    if _lstat(manifest_path) is None:
        return _Journal([], [], False)  # the manifest moved: only the clean-up was left
    manifest_data = _read_regular(manifest_path, where)
    raw = _json(_read_regular(folder / "journal.json", where), f"{where}/journal.json")
    if (not isinstance(raw, dict) or not {"write", "delete"} <= set(raw) <= {"write", "delete", "folders"}
            or not all(isinstance(raw[k], list) for k in raw)):
        raise WriteError(f"{where}/journal.json: expected {{\"write\": [path], \"delete\": [path], \"folders\": [path]}}")
    write = [relative_path(r, f"{where}/journal.json") for r in raw["write"]]
    delete = [relative_path(r, f"{where}/journal.json") for r in raw["delete"]]
    journal = _Journal(write, delete, True, sorted(relative_path(r, f"{where}/journal.json") for r in raw.get("folders", [])))
    for outer, inner in zip(journal.folders, journal.folders[1:]):
        if inner == outer or inner.startswith(outer + "/"):
            raise WriteError(f"{where}/journal.json: folder {show(inner)} is listed twice, or inside {show(outer)}")
    new = parse_manifest(manifest_data, f"{where}/manifest.json").files()
    owned = read_manifest(out, root).files()
    if set(write) - set(new):
        raise WriteError(f"{where}: journal writes {show(sorted(set(write) - set(new))[0])}, which its manifest does not list")
    for rel in delete:
        if rel not in owned or rel in new:
            raise WriteError(f"{where}: journal deletes {show(rel)}, which {show(out / MANIFEST)} does not own; nothing was changed")
    listed = {staged_name(rel) for rel in write}
    for name in _staged(folder / "files", where):
        if name not in listed:
            raise WriteError(f"{where}: holds files/{show(name)}, which its journal does not list")
    _check_tree(folder / "tree", where, journal)
    folders = Folders(root, out)
    for rel in write + delete + journal.folders:
        folders.inside(rel)
    return journal


def _read_regular(path: Path, where: str) -> bytes:
    st = _lstat(path)
    if st is None or not stat.S_ISREG(st.st_mode) or st.st_size > MAX_MANIFEST_BYTES:
        raise WriteError(f"{where}: {path.name} is missing, not a regular file, or too large; not a commit errgen made (remove {where})")
    data = _read(path)
    if data is None:
        raise WriteError(f"{where}: cannot read {path.name}")
    return data


def _staged(folder: Path, where: str) -> Iterator[str]:
    """The names of the staged files in folder, which holds regular files only (a link or a
    folder is refused, never followed)."""
    st = _lstat(folder)
    if st is None:
        return
    if not stat.S_ISDIR(st.st_mode):
        raise WriteError(f"{where}: its files/ is not a folder; remove {where}")
    with os.scandir(folder) as entries:
        for entry in entries:
            if not entry.is_file(follow_symlinks=False):
                raise WriteError(f"{where}: holds files/{show(entry.name)}, which is not a regular file; remove {where}")
            yield entry.name


def _check_tree(tree: Path, where: str, journal: _Journal) -> None:
    """tree/ holds only the journal's files that lie in its new folders, and the folders leading
    to them: no link, nothing else (a planted commit can move nothing else into OUT)."""
    if _lstat(tree) is None:
        return
    files = {rel for rel in journal.write if journal.new_folder(rel)}
    leading = {"/".join(parts[:i]) for folder in journal.folders for parts in [folder.split("/")] for i in range(len(parts) + 1)}
    stack = [""]
    while stack:
        rel = stack.pop()
        if not (rel in leading or journal.new_folder(rel + "/x")):
            raise WriteError(f"{where}: holds tree/{show(rel)}, a folder its journal does not list; remove {where}")
        st = _lstat(tree / rel)  # tree / "" is tree
        if st is None or not stat.S_ISDIR(st.st_mode):
            raise WriteError(f"{where}: tree/{show(rel)} is not a folder; remove {where}")
        with os.scandir(tree / rel) as entries:
            for entry in entries:
                path = f"{rel}/{entry.name}" if rel else entry.name
                if entry.is_dir(follow_symlinks=False):
                    stack.append(path)
                elif not entry.is_file(follow_symlinks=False) or path not in files:
                    raise WriteError(f"{where}: holds tree/{show(path)}, which is not a regular file its journal lists; remove {where}")


def staged_name(rel: str) -> str:
    """A file's name in the flat staging folder: distinct per path, and no folder to create."""
    return digest(rel)


def _move_into_place(root: Path, out: Path, journal: _Journal | None = None) -> None:
    """Move the committed files into place, delete the orphans, then replace the manifest. The
    journal is read from the commit folder and checked, unless this process just sealed it."""
    journal = journal if journal is not None else _read_journal(root, out)
    folder = root / COMMIT
    files, tree, prefix = os.path.join(folder, "files"), os.path.join(folder, "tree"), Folders(root, out).prefix
    try:
        if journal.manifest:
            made: set[str] = {""}
            moved = {new for new in journal.folders if _move_folder(f"{tree}/{new}", prefix, new, made)}
            for rel in journal.write:
                new = journal.new_folder(rel)
                if new in moved:
                    continue
                _make_folder(prefix, rel.rpartition("/")[0], made)
                src = f"{tree}/{rel}" if new else f"{files}/{staged_name(rel)}"
                try:
                    os.replace(src, prefix + rel)
                except FileNotFoundError:
                    if _lstat(src) is not None:
                        raise
                    # moved before the interruption
            for rel in journal.delete:
                _remove(root, rel)
            # The manifest moves last: until it does, the old one still describes what errgen owns.
            os.replace(folder / "manifest.json", root / MANIFEST)
            _fsync(root)
        shutil.rmtree(folder)
    except OSError as exc:
        where = exc.filename if isinstance(exc.filename, str) else str(out)
        raise WriteError(f"build interrupted while moving files into {show(out)}: {show(where)}: {exc.strerror}. "
                         f"Fix the cause and run errgen build again to finish; until then build --check reports {show(out)} as stale") from None


def _move_folder(src: str, prefix: str, new: str, made: set[str]) -> bool:
    """Move a staged folder to OUT/new in one rename: True once it is there (now, or before an
    interruption); False when something took its place meanwhile (its files then move one by
    one)."""
    _make_folder(prefix, new.rpartition("/")[0], made)
    try:
        os.replace(src, prefix + new)  # onto nothing, or an empty folder: never merged into a folder with files
    except FileNotFoundError:
        if _lstat(src) is not None:
            raise
    except OSError as exc:
        if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
            raise
        return False
    made.add(new)
    return True


def _make_folder(prefix: str, folder: str, made: set[str]) -> list[str]:
    """OUT/folder and its missing parents, one mkdir each per build (an existing one fails
    harmlessly; one that is not a folder fails the move into it). The folders it made."""
    missing: list[str] = []
    while folder not in made:  # "" (OUT itself) always is
        missing.append(folder)
        folder = folder.rpartition("/")[0]
    created = []
    for folder in reversed(missing):
        try:
            os.mkdir(prefix + folder)
            created.append(prefix + folder)
        except FileExistsError:
            pass
        made.add(folder)
    return created


def _remove(root: Path, rel: str) -> None:
    """Delete an orphan errgen wrote, if it is still a regular file, and its emptied folders."""
    path = root / rel
    st = _lstat(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        return
    if st is not None:
        path.unlink()
    parent = path.parent  # pruned even when the file went before an interruption
    while parent != root and parent.is_dir() and not parent.is_symlink() and not any(parent.iterdir()):
        parent.rmdir()
        parent = parent.parent


def write_synced(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(os.fspath(path), data, sync=True)


def _write(path: str, data: bytes, sync: bool = False) -> str:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)
    return path


def _flush(folder: Path, paths: list[str]) -> None:
    """Make everything written in folder durable: one syncfs(2) of its file system where Linux
    offers it (one flush, whatever the number of files), else an fsync of each of `paths` and of
    folder itself."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        if _syncfs(fd):
            return
    finally:
        os.close(fd)
    for path in paths:
        _fsync(path)
    _fsync(folder)


def _syncfs(fd: int) -> bool:
    """syncfs(fd): True once the file system holding fd is flushed, False where there is no
    syncfs (not Linux) or it failed (the caller then syncs file by file)."""
    libc = _libc()
    return libc is not None and libc.syncfs(fd) == 0


@functools.cache
def _libc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.syncfs  # noqa: B018 (a C library without it: no syncfs)
        return libc
    except (OSError, AttributeError):
        return None


def _fsync(path: Path | str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)




# --- comparing ---------------------------------------------------------------------------------


@dataclass
class Report:
    stale: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)
    unlisted: list[str] = field(default_factory=list)  # in OUT, and no build of errgen's wrote them
    diffs: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.stale or self.missing or self.extra or self.leftovers or self.unlisted)

    def render(self, diffs: bool = False) -> str:
        lines = [f"interrupted build: {p} is left over (the next errgen build finishes or discards it)" for p in self.leftovers]
        lines += [f"would rewrite {p}" for p in self.stale]
        lines += [f"missing {p}" for p in self.missing]
        lines += [f"extra {p} (written by an earlier build, no longer generated)" for p in self.extra]
        lines += [f"extra {show(p)} (errgen build does not write it: remove it; only errgen's files belong in the output folder)"
                  for p in self.unlisted]
        return "\n".join(lines + (self.diffs if diffs else []))


def compare(out: Path, expected: dict[str, Hashes], texts: Plan | None = None, verified: Iterable[str] = (),
            complete: bool = False) -> Report:
    """What a build producing `expected` (per target: path -> sha256) would change in OUT,
    including errgen's own files and the manifest, and every file in OUT that no build writes
    (`unlisted`, see `unlisted`). `verified` paths are known to match; `texts` (path -> rendered
    text) gives unified diffs of stale files. `complete`: `expected` is every target OUT should
    hold (a target the last build wrote and this one does not is reported, file by file, as
    extra); else the other targets' files are left as they are."""
    report = Report()
    st = _lstat(out)
    if st is not None and not out.is_dir():
        raise WriteError(f"output folder {show(out)} is not a folder")
    root = out.resolve() if st is not None else out
    old = read_manifest(out, root) if st is not None else Manifest()
    report.leftovers = [show(out / n) for n in (STAGING, COMMIT) if st is not None and _lstat(root / n) is not None]
    kept = Manifest() if complete else old  # what of the old manifest the new one keeps beside `expected`
    own_text = ignore_text(set(kept.updated(expected).files()) - {IGNORE})
    expected = {**expected, OWN: {IGNORE: digest(own_text)}}
    texts = {**(texts or {}), IGNORE: own_text}
    skip = set(verified)
    for rel, sha in sorted((r, s) for e in expected.values() for r, s in e.items()):
        if rel in skip:
            continue
        path = root / rel
        st_file = _lstat(path) if st is not None else None
        if st_file is None or not stat.S_ISREG(st_file.st_mode):
            report.missing.append(rel)
        elif digest(_read(path) or b"") != sha:
            report.stale.append(rel)
            if rel in texts:
                report.diffs.append(_diff(path, texts[rel], rel))
    planned = {r for e in expected.values() for r in e}
    for target in (old.targets if complete else expected):
        report.extra += sorted(p for p in old.targets.get(target, {}) if p not in planned and _lstat(root / p) is not None)
    report.extra = sorted(set(report.extra))
    if st is not None:
        # The files of targets this check leaves alone, as the manifest lists them, but none in a
        # folder a checked target writes: the manifest is input too, and may list a planted
        # python/random.py under a target that is not checked.
        checked = {rel.split("/")[0] for rel in planned if "/" in rel}
        others = {rel for rel in set(kept.files()) - planned if rel.split("/")[0] not in checked}
        report.unlisted = unlisted(root, planned | others | set(report.extra))
    manifest = kept.updated(expected).text()
    on_disk = _read(root / MANIFEST) if st is not None else None
    if on_disk is None:
        report.missing.append(MANIFEST)
    elif on_disk != manifest.encode("utf-8"):
        report.stale.append(MANIFEST)
        report.diffs.append(_diff(root / MANIFEST, manifest, MANIFEST))
    return report


# errgen's own files at OUT's top: the manifest, the .gitignore and the check cache (an interrupted
# build's staging or commit folder is reported as such).
_BOOKKEEPING = frozenset({MANIFEST, IGNORE, CACHE, f"{CACHE}.tmp", STAGING, COMMIT})


def unlisted(root: Path, known: set[str]) -> list[str]:
    """Every entry under OUT that is not a folder and not in `known` (what the build writes, and
    the files of targets it leaves alone), and that git tracks or would commit: anything there
    that errgen did not write may be compiled or run by whoever builds an SDK (a Go
    `zz_init.go`, a Rust `build.rs`, a Python `random.py`, a Maven `.mvn/jvm.config`).

    What git ignores and does not track is let be: build leftovers (the generated .gitignore
    hides each language's, such as rust/target/ or python/*.egg-info/, and __pycache__/) and
    whatever else the repository ignores (a .mypy_cache/). No pull request can bring such a file
    (what it brings is tracked, and `git add -f` makes an ignored path tracked), so only this
    machine put it there. When git cannot say (OUT is not in a git work tree, or git is
    missing), every entry is reported, leftovers included."""
    listed = _git_paths(root)
    if listed is None:
        return _walk(root, known)
    return sorted(rel for rel in listed if rel not in known and rel.split("/")[0] not in _BOOKKEEPING
                  and os.path.lexists(root / rel))


def _walk(root: Path, known: set[str]) -> list[str]:
    """Every entry under OUT but its folders and errgen's bookkeeping that is not in `known`."""
    found: list[str] = []
    stack = [""]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(root / folder))  # root / "" is root
        except OSError as exc:
            raise WriteError(f"cannot read {show(root / folder)}: {exc.strerror}") from None
        for entry in entries:
            rel = f"{folder}/{entry.name}" if folder else entry.name
            if not folder and entry.name in _BOOKKEEPING:
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append(rel)
            elif rel not in known:
                found.append(rel)
    return sorted(found)


def _git_paths(root: Path) -> set[str] | None:
    """The paths under OUT, relative to it, that git tracks or would add (untracked and not
    ignored); None when git cannot say (no git, OUT not in a work tree). Its file-system monitor
    is turned off: it would run a configured command."""
    import subprocess

    paths: set[str] = set()
    for extra in ([], ["--others", "--exclude-standard"]):
        try:
            done = subprocess.run(["git", "-c", "core.fsmonitor=false", "ls-files", "-z", *extra, "--", "."], cwd=root,
                                  capture_output=True, timeout=300, env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
        except (OSError, subprocess.SubprocessError):
            return None
        if done.returncode != 0:
            return None
        paths.update(path.rstrip("/") for path in done.stdout.decode("utf-8", "surrogateescape").split("\0") if path)
    return paths


def _diff(path: Path, text: str, rel: str) -> str:
    try:
        current = path.read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError):
        return f"{rel}: not a UTF-8 text file"
    lines = difflib.unified_diff(current, text.splitlines(keepends=True), f"{rel} (on disk)", f"{rel} (from registry)", n=2)
    return "".join(lines)
