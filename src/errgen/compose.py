"""Registry fragments: a header file names the fragments each team owns; compose makes one document.

The header (`registry/errors.yaml`) keeps name, version, categories, wire settings and history and
lists `include: [teams/*.yaml]`. Each fragment declares its `owner`, optionally a code `prefix`,
and holds `codes` (and `categories` when the header sets `fragment_categories: true`). The composed
document is what a single file with the same codes would load as, except that every position
names the fragment it came from; the contract, and so every build output, is the same.
"""

from __future__ import annotations

import fnmatch
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Protocol

from errgen.diagnostics import Diagnostic, Fatal, Loc, diag
from errgen.load import Document, Map, Seq, decode, load_text

FRAGMENT_KEYS = {"owner": str, "prefix": str, "codes": Map, "categories": Map}


@dataclass(frozen=True, slots=True)
class Fragment:
    path: str  # as shown in diagnostics: the header's folder joined with the matched name
    owner: str
    prefix: str | None
    codes: tuple[str, ...]
    loc: Loc = field(default=Loc(1, 1), compare=False)
    prefix_loc: Loc | None = field(default=None, compare=False)


class Source(Protocol):
    """Where fragment files are read from: the working tree, or a git revision."""

    def glob(self, pattern: str) -> list[str]: ...

    def read(self, name: str) -> bytes: ...


class WorkTree:
    def __init__(self, base: Path) -> None:
        self.base = base

    def glob(self, pattern: str) -> list[str]:
        return sorted(p.relative_to(self.base).as_posix() for p in self.base.glob(pattern) if p.is_file())

    def read(self, name: str) -> bytes:
        return (self.base / name).read_bytes()


class GitTree:
    """The files below `folder` (relative to the repository root) at revision `rev`."""

    def __init__(self, rev: str, folder: str, cwd: Path | None = None) -> None:
        self.rev, self.folder, self.cwd = rev, folder.strip("/"), cwd
        self._names: list[str] | None = None

    def _git(self, *args: str) -> bytes:
        return subprocess.run(["git", *args], cwd=self.cwd, capture_output=True, check=True).stdout

    def glob(self, pattern: str) -> list[str]:
        if self._names is None:
            prefix = f"{self.folder}/" if self.folder else ""
            listed = self._git("ls-tree", "-r", "--name-only", "-z", self.rev, "--", prefix or ".").decode("utf-8", "replace")
            self._names = sorted(n[len(prefix):] for n in listed.split("\0") if n.startswith(prefix))
        return [n for n in self._names if fnmatch.fnmatchcase(n, pattern) and n.count("/") == pattern.count("/")]

    _blobs: "_Blobs | None" = None

    def read(self, name: str) -> bytes:
        """The file's bytes at the revision. Every read of one tree goes through one `git cat-file
        --batch` process, fed the blob ids one `git ls-tree -r` listed: a process per fragment
        was 96 s for 5,000 fragments. A link (mode 120000) is refused, never followed, as the
        working tree's reader refuses it."""
        if self._blobs is None:
            self._blobs = _Blobs(self.rev, self.folder, self.cwd)
        return self._blobs.read(name)

    def close(self) -> None:
        if self._blobs is not None:
            self._blobs.close()
            self._blobs = None


class _Blobs:
    """The blobs below `folder` at `rev`, by path relative to the folder: one `git ls-tree -r`
    for their modes and ids, one `git cat-file --batch` for their bytes. A read asks for the
    file and, in the same request, for the files after it in its folder with its extension
    (compose reads a pattern's matches in that order): one round trip per batch, not per file."""

    BATCH = 512  # requests written before reading the answers: well inside a pipe's buffer, so git never waits on us

    def __init__(self, rev: str, folder: str, cwd: Path | None) -> None:
        self.cwd = cwd
        prefix = f"{folder}/" if folder else ""
        listed = subprocess.run(["git", "ls-tree", "-r", "-z", rev, "--", prefix or "."], cwd=cwd, capture_output=True, check=True).stdout
        self.entries: dict[str, tuple[str, str]] = {}  # name -> (mode, object id)
        for line in listed.decode("utf-8", "replace").split("\0"):
            meta, _, path = line.partition("\t")
            if path.startswith(prefix) and meta.count(" ") == 2:
                mode, _, obj = meta.split(" ")
                self.entries[path[len(prefix):]] = (mode, obj)
        self.names = sorted(self.entries)
        self.fetched: dict[str, bytes] = {}
        self.process: subprocess.Popen[bytes] | None = None

    def read(self, name: str) -> bytes:
        mode, _ = self.entries.get(name, ("", ""))
        if not mode:
            raise FileNotFoundError(f"{name}: no such file at the revision")
        if mode == "120000":
            raise OSError(f"{name} is a symbolic link, not a file; errgen does not follow it")
        if not mode.startswith("100"):
            raise IsADirectoryError(f"{name} is not a file")
        if name not in self.fetched:
            self._fetch([name] + self._following(name))
        if name not in self.fetched:
            raise OSError(f"git cat-file could not read {name} (object {self.entries[name][1]})")
        return self.fetched.pop(name)

    def _following(self, name: str) -> list[str]:
        """The regular files after `name` in its folder with its extension, not yet fetched."""
        import bisect
        folder, suffix = name.rpartition("/")[0], PurePosixPath(name).suffix
        out: list[str] = []
        for other in self.names[bisect.bisect_right(self.names, name):]:
            if len(out) == self.BATCH - 1 or other.rpartition("/")[0] != folder:
                break
            if PurePosixPath(other).suffix == suffix and self.entries[other][0].startswith("100") and other not in self.fetched:
                out.append(other)
        return out

    def _fetch(self, names: list[str]) -> None:
        if self.process is None:
            self.process = subprocess.Popen(["git", "cat-file", "--batch"], cwd=self.cwd, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("".join(f"{self.entries[n][1]}\n" for n in names).encode())
        self.process.stdin.flush()
        for name in names:
            header = self.process.stdout.readline().split()
            if len(header) == 2 and header[1] == b"missing":
                continue
            if len(header) != 3:
                raise OSError(f"git cat-file ended while reading {name}")
            size = int(header[2])
            data = self.process.stdout.read(size + 1)  # the object, then git's newline
            if len(data) != size + 1:
                raise OSError(f"git cat-file ended while reading {name}")
            if header[1] == b"blob":
                self.fetched[name] = data[:size]

    def close(self) -> None:
        if self.process is not None:
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.close()
            self.process.stdout.close()
            self.process.wait()
            self.process = None


class ComposedDocument(Document):
    def __init__(self, header: Document, root: Map, diagnostics: list[Diagnostic], fragments: tuple[Fragment, ...]) -> None:
        super().__init__(header.path, root, diagnostics, header.text)
        self.fragments = fragments


def in_folder(header: str) -> str:
    """What a fragment's shown path starts with: the header's, up to its file name. Read at a git
    ref the header is `origin/main:errors.yaml`, and its fragments `origin/main:teams/a.yaml`."""
    return header[: max(header.rfind("/"), header.rfind(":")) + 1]


def includes(doc: Document) -> bool:
    return isinstance(doc.root, Map) and "include" in doc.root


def compose(header: Document, source: Source) -> Document:
    """The header with every fragment's codes (and categories) merged in, in file order."""
    include = header.root.get("include")
    if not isinstance(include, Seq):
        return header  # structure reports the wrong type
    folder = in_folder(header.path)
    diagnostics = list(header.diagnostics)
    merged = _Merge(header.root, header.path, diagnostics, allow_categories=header.root.get("fragment_categories") is True)
    fragments: list[Fragment] = []
    for pattern, loc in zip(include, include.locs):
        for name in _matches(pattern, loc, source, header.path, diagnostics):
            shown = folder + name
            fragment = _load(source, name, shown, diagnostics)
            if fragment is not None:
                fragments.append(merged.add(fragment, shown))
    return ComposedDocument(header, merged.root, diagnostics, tuple(fragments))


def _matches(pattern: Any, loc: Loc, source: Source, header: str, diagnostics: list[Diagnostic]) -> list[str]:
    if not isinstance(pattern, str):
        return []  # structure reports the wrong type
    parts = PurePosixPath(pattern).parts
    if pattern.startswith("/") or ".." in parts or "\\" in pattern:
        msg = f"include {pattern!r} must be a relative pattern inside the registry's folder (no '/' at the start, no '..')"
        diagnostics.append(diag("include-pattern", msg, header, loc))
        return []
    try:
        found = source.glob(pattern)
    except (OSError, subprocess.CalledProcessError, ValueError) as exc:
        diagnostics.append(diag("include-pattern", f"cannot list include {pattern!r}: {exc}", header, loc))
        return []
    if not found:
        diagnostics.append(diag("include-pattern", f"include {pattern!r} matches no file", header, loc, "warning"))
    return found


def _load(source: Source, name: str, shown: str, diagnostics: list[Diagnostic]) -> Document | None:
    try:
        doc = load_text(decode(source.read(name), shown), shown, stamp=True)
    except Fatal as fatal:
        diagnostics.append(fatal.diagnostic)
        return None
    except (OSError, subprocess.CalledProcessError) as exc:
        diagnostics.append(diag("file-unreadable", f"cannot read fragment {shown}: {exc}", shown, Loc(1, 1)))
        return None
    diagnostics.extend(doc.diagnostics)
    return doc


class _Merge:
    def __init__(self, header: Map, header_path: str, diagnostics: list[Diagnostic], allow_categories: bool) -> None:
        self.root = _copy(header)
        self.header_path = header_path
        self.diagnostics = diagnostics
        self.allow_categories = allow_categories
        self.seen: dict[tuple[str, str], Loc] = {}
        for key in ("codes", "categories"):
            existing = header.get(key)
            target = self._section(key, header.loc)
            if isinstance(existing, Map):
                for name, value in existing.items():
                    self._put(key, target, name, value, existing.key_locs[name], existing.locs[name], header_path)

    def _section(self, key: str, loc: Loc) -> Map:
        if not isinstance(self.root.get(key), Map):
            self.root[key] = Map(loc)
            self.root.key_locs.setdefault(key, loc)
            self.root.locs[key] = loc
        section = self.root[key]
        assert isinstance(section, Map)
        return section

    def _put(self, key: str, target: Map, name: str, value: Any, key_loc: Loc, value_loc: Loc, path: str) -> bool:
        where = (key, name)
        if where in self.seen:
            first = self.seen[where]
            kind = "code" if key == "codes" else "category"
            msg = f"{kind} {name!r} is also defined at {first.path or self.header_path}:{first.line}; each belongs to exactly one fragment"
            self.diagnostics.append(diag(f"duplicate-{kind}", msg, path, key_loc))
            return False
        self.seen[where] = key_loc
        target[name] = value
        target.key_locs[name] = key_loc
        target.locs[name] = value_loc
        return True

    def add(self, doc: Document, shown: str) -> Fragment:
        root = doc.root  # loaded with stamp=True: every position names the fragment
        assert isinstance(root, Map)
        for key in root:
            if key not in FRAGMENT_KEYS:
                msg = f"unknown key {key!r} in fragment; expected one of: {', '.join(FRAGMENT_KEYS)}"
                self.diagnostics.append(diag("unknown-key", msg, shown, root.key_locs[key]))
        owner = root.get("owner")
        if not isinstance(owner, str) or not owner.strip():
            self.diagnostics.append(diag("fragment-owner", "a fragment declares its `owner` (a team or a code-owner handle such as @acme/payments)", shown, root.loc))
            owner = ""
        prefix = root.get("prefix") if isinstance(root.get("prefix"), str) else None
        names: list[str] = []
        for key in ("codes", "categories"):
            section = root.get(key)
            if section is None:
                continue
            if not isinstance(section, Map):
                self.diagnostics.append(diag("wrong-type", f"{key} in a fragment must be a mapping", shown, root.locs[key]))
                continue
            if key == "categories" and not self.allow_categories:
                msg = "this fragment defines categories, but the header does not allow it (set `fragment_categories: true` there)"
                self.diagnostics.append(diag("fragment-categories", msg, shown, root.key_locs[key]))
                continue
            target = self._section(key, self.root.loc)
            for name, value in section.items():
                if self._put(key, target, name, value, section.key_locs[name], section.locs[name], shown) and key == "codes":
                    names.append(name)
        return Fragment(shown, owner, prefix, tuple(names), root.loc, root.locs.get("prefix"))


def _copy(source: Map) -> Map:
    out = Map(source.loc)
    out.update(source)
    out.key_locs.update(source.key_locs)
    out.locs.update(source.locs)
    return out


def owners_section(fragments: Iterable[Fragment], root: Path) -> str:
    """A CODEOWNERS section: each fragment file, from the repository root, and its owner."""
    lines = ["# Error-code fragments and their owners (generated by errgen owners)."]
    top = root.resolve()
    for fragment in fragments:
        path = Path(fragment.path).resolve()
        shown = path.relative_to(top).as_posix() if path.is_relative_to(top) else path.as_posix().lstrip("/")
        lines.append(f"/{shown} {fragment.owner}")
    return "\n".join(lines) + "\n"
