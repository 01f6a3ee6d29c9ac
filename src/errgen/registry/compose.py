"""Registry fragments: a header file names the fragments each team owns; compose makes one document.

The header (`registry/errors.yaml`) keeps name, version, categories, wire settings and history and
lists `include: [teams/*.yaml]`. Each fragment declares its `owner`, optionally a code `prefix`,
and holds `codes` (and `categories` when the header sets `fragment_categories: true`). The composed
document is what a single file with the same codes would load as, except that every position
names the fragment it came from; the contract, and so every build output, is the same.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Protocol

from errgen.diagnostics import Diagnostic, Fatal, Loc, diag
from errgen.paths import TooLarge
from errgen.registry.load import MAX_BYTES, Document, Map, Seq, decode, load_text, restamped

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
    """Where fragment files are read from: the working tree, or a git revision. Both answer the
    same three questions, and `expand` alone decides what a pattern matches, so an unchanged
    registry composes the same from either."""

    def entries(self, folder: str) -> dict[str, str]:
        """The names in `folder` ("" for the registry's folder) and what each is: "file", "dir"
        or "link"; anything else (a socket, a submodule) is left out."""
        ...

    def resolve(self, link: str) -> tuple[str, str] | None:
        """Where a link leads, as a path inside the registry's folder and what is there ("file",
        "dir" or "missing"); None when it leads outside the folder."""
        ...

    def read(self, name: str) -> bytes: ...

    def holds(self, name: str, data: bytes) -> bool:
        """True when `name` is a file whose bytes are `data` (False when unsure: it is read)."""
        ...


@dataclass
class Matches:
    found: list[tuple[str, str]]  # (the path as the pattern matched it, the file it is once links are followed)
    outside: list[str]  # links the pattern reached that lead outside the registry's folder


def expand(pattern: str, source: Source) -> Matches:
    """The files a relative pattern matches, one matcher for every source. Segments are matched
    one at a time with fnmatch (`*`, `?` and `[...]` never cross a '/'); a `**` segment matches
    zero or more folders; a wildcard does not match a name starting with '.' unless the pattern's
    segment does. Links are followed only while they stay inside the registry's folder; each one
    the pattern reaches that leads out is listed in `outside`, never read."""
    segments: list[str] = []
    for segment in pattern.split("/"):
        if segment not in ("", ".") and not (segment == "**" and segments[-1:] == ["**"]):
            segments.append(segment)  # `a//b`, `./a` and `**/**` mean `a/b`, `a` and `**`
    found: dict[str, str] = {}
    outside: list[str] = []
    visited: set[tuple[str, int]] = set()  # (folder, segment): each is searched once, however reached

    def step(shown: str, real: str, kind: str) -> tuple[str, str] | None:
        if kind != "link":
            return real, kind
        target = source.resolve(real)
        if target is None:
            outside.append(shown)
        return target

    def children(shown: str, real: str, segment: str) -> list[tuple[str, str, str]]:
        """(shown path, real path, kind) of each entry in a folder the segment may match."""
        out = []
        for name, kind in sorted(source.entries(real).items()):
            if name.startswith(".") and not segment.startswith("."):
                continue
            if segment != "**" and not fnmatch.fnmatchcase(name, segment):
                continue
            target = step(f"{shown}{name}", f"{real}{name}", kind)
            if target is not None:
                out.append((f"{shown}{name}", *target))
        return out

    def visit(shown: str, real: str, i: int, seen: frozenset[str]) -> None:
        if (real, i) in visited:
            return
        visited.add((real, i))
        segment, last = segments[i], i == len(segments) - 1
        if segment == "**" and not last:
            visit(shown, real, i + 1, seen)  # zero folders
        for here, where, kind in children(shown, real, segment):
            if kind == "file" and last:
                found.setdefault(here, where)  # a final `**` matches the files below, at any depth
            elif kind == "dir" and where not in seen and (segment == "**" or not last):
                visit(f"{here}/", f"{where}/", i if segment == "**" else i + 1, seen | {where})

    if segments:
        visit("", "", 0, frozenset({""}))
    unique: dict[str, str] = {}
    for shown, real in sorted(found.items()):
        unique.setdefault(real, shown)  # a file reached by two paths is included once
    return Matches(sorted((shown, real) for real, shown in unique.items()), sorted(set(outside)))


class WorkTree:
    def __init__(self, base: Path) -> None:
        self.base = base
        self._real = Path(os.path.realpath(base))

    def entries(self, folder: str) -> dict[str, str]:
        found = {}
        with os.scandir(self._real / folder if folder else self._real) as listing:
            for entry in listing:
                if entry.is_symlink():
                    found[entry.name] = "link"
                elif entry.is_dir(follow_symlinks=False):
                    found[entry.name] = "dir"
                elif entry.is_file(follow_symlinks=False):
                    found[entry.name] = "file"
        return found

    def resolve(self, link: str) -> tuple[str, str] | None:
        real = Path(os.path.realpath(self._real / link))
        if real != self._real and self._real not in real.parents:
            return None
        kind = "dir" if real.is_dir() else "file" if real.is_file() else "missing"
        return ("" if real == self._real else real.relative_to(self._real).as_posix()), kind

    def read(self, name: str) -> bytes:
        """A regular file only, at most the loader's limit (errgen.paths.read_regular); not
        through a link: links were resolved already, so one here was swapped in."""
        from errgen.paths import read_regular

        return read_regular(self._real / name, MAX_BYTES, follow=False)

    def holds(self, name: str, data: bytes) -> bool:
        return self.read(name) == data


class GitTree:
    """The files below `folder` (relative to the repository root) at revision `rev`."""

    MAX_LINKS = 40  # as the kernel's limit on links followed in one path
    MAX_LINK_BYTES = 4096  # PATH_MAX: a link's target is never longer

    def __init__(self, rev: str, folder: str, cwd: Path | None = None) -> None:
        self.rev, self.folder, self.cwd = rev, folder.strip("/"), cwd
        self._tree: dict[str, dict[str, tuple[str, str]]] | None = None  # folder -> name -> (kind, object)
        self._entries: dict[str, tuple[str, str, int]] = {}  # path below the folder -> (mode, object id, size)
        self._wanted: set[str] = set()  # the files the include patterns matched: the only ones read

    def _git(self, *args: str) -> bytes:
        return subprocess.run(["git", *args], cwd=self.cwd, capture_output=True, check=True).stdout

    def _folders(self) -> dict[str, dict[str, tuple[str, str]]]:
        if self._tree is None:
            prefix = f"{self.folder}/" if self.folder else ""
            # -l: each blob's size, so that nothing past the loader's limit is ever asked for
            listed = self._git("ls-tree", "-r", "-l", "-z", self.rev, "--", prefix or ".").decode("utf-8", "replace")
            tree: dict[str, dict[str, tuple[str, str]]] = {"": {}}
            for line in filter(None, listed.split("\0")):
                meta, _, path = line.partition("\t")
                mode, kind, obj, size = meta.split()
                if not path.startswith(prefix):
                    continue
                self._entries[path[len(prefix):]] = (mode, obj, int(size) if size.isdigit() else 0)
                if kind != "blob":
                    continue  # a submodule is no file
                parts = path[len(prefix):].split("/")
                for depth in range(len(parts) - 1):
                    folder = "/".join(parts[:depth])
                    tree.setdefault(folder, {})[parts[depth]] = ("dir", "")
                    tree.setdefault("/".join(parts[:depth + 1]), {})
                tree.setdefault("/".join(parts[:-1]), {})[parts[-1]] = ("link" if mode == "120000" else "file", obj)
            self._tree = tree
        return self._tree

    def entries(self, folder: str) -> dict[str, str]:
        return {name: kind for name, (kind, _) in self._folders().get(folder.rstrip("/"), {}).items()}

    def resolve(self, link: str) -> tuple[str, str] | None:
        """The link's target, followed lexically inside the tree (git stores it as text)."""
        tree, hops = self._folders(), 0
        pending, done = link.strip("/").split("/"), list[str]()
        while pending:
            name = pending.pop(0)
            if name in ("", "."):
                continue
            if name == "..":
                if not done:
                    return None
                done.pop()
                continue
            kind, obj = tree.get("/".join(done), {}).get(name, ("missing", ""))
            if kind == "link":
                hops += 1
                if self._entries.get("/".join(done + [name]), ("", "", 0))[2] > self.MAX_LINK_BYTES:
                    return None  # no link is that long: a planted blob, never read
                target = self._git("cat-file", "blob", obj).decode("utf-8", "surrogateescape")
                if hops > self.MAX_LINKS or target.startswith("/"):
                    return None
                pending = target.split("/") + pending
                continue
            done.append(name)
            if kind != "dir" and pending:
                return "/".join(done + pending), "missing"
        path = "/".join(done)
        if not path:
            return "", "dir"
        parent, _, name = path.rpartition("/")
        return path, tree.get(parent, {}).get(name, ("missing", ""))[0]

    _blobs: "_Blobs | None" = None

    def read(self, name: str) -> bytes:
        """The file's bytes at the revision. Every read of one tree goes through one `git cat-file
        --batch` process, fed the blob ids one `git ls-tree -r` listed: a process per fragment
        was 96 s for 5,000 fragments. A link (mode 120000) is refused, never followed, as the
        working tree's reader refuses it."""
        if self._blobs is None:
            self._folders()  # the one listing, shared with the blob reader
            self._blobs = _Blobs(self._entries, self.cwd, self._wanted)
        return self._blobs.read(name)

    def expect(self, names: "Iterable[str]") -> None:
        """The files an include pattern matched, about to be read: a read fetches ahead only
        among these, so a blob no pattern matches is never read, whatever its size."""
        self._wanted.update(names)

    def holds(self, name: str, data: bytes) -> bool:
        """By the object id the listing names, without reading the blob: git's id of a file is
        the hash of its bytes (SHA-1, or SHA-256 in a repository of that format)."""
        self._folders()
        mode, obj, _ = self._entries.get(name, ("", "", 0))
        if not mode.startswith("100") or len(obj) not in (40, 64):
            return False  # no regular file: read() says why
        digest = hashlib.sha1() if len(obj) == 40 else hashlib.sha256()
        digest.update(b"blob %d\0" % len(data))
        digest.update(data)
        return digest.hexdigest() == obj

    def close(self) -> None:
        if self._blobs is not None:
            self._blobs.close()
            self._blobs = None


class _Blobs:
    """The blobs of a tree's listing, by path relative to its folder (modes, ids and sizes from
    the tree's one `git ls-tree -r -l`), read through one `git cat-file --batch`. Only the files
    the include patterns matched (`wanted`) are ever asked for, and none larger than the loader's
    limit: a blob beside them, matched by nothing, is never read, whatever its size. A read asks
    for the file and, in the same request, for the wanted files after it (compose reads a
    pattern's matches in that order), up to one file limit's worth of bytes: one round trip per
    batch, not per file."""

    BATCH = 512  # requests written before reading the answers: well inside a pipe's buffer, so git never waits on us

    def __init__(self, entries: dict[str, tuple[str, str, int]], cwd: Path | None, wanted: set[str]) -> None:
        self.cwd = cwd
        self.entries = entries  # name -> (mode, object id, size)
        self.wanted = wanted  # shared with the tree: it grows as compose matches each pattern
        self._order: list[str] = []  # sorted(wanted), remade when it grows
        self.fetched: dict[str, bytes] = {}
        self.process: subprocess.Popen[bytes] | None = None

    def read(self, name: str) -> bytes:
        mode, _, size = self.entries.get(name, ("", "", 0))
        if not mode:
            raise FileNotFoundError(f"{name}: no such file at the revision")
        if mode == "120000":
            raise OSError(f"{name} is a symbolic link, not a file; errgen does not follow it")
        if not mode.startswith("100"):
            raise IsADirectoryError(f"{name} is not a file")
        if size > MAX_BYTES:
            raise TooLarge(size, MAX_BYTES)
        if name not in self.fetched:
            self._fetch([name] + self._following(name))
        if name not in self.fetched:
            raise OSError(f"git cat-file could not read {name} (object {self.entries[name][1]})")
        return self.fetched.pop(name)

    def _following(self, name: str) -> list[str]:
        """The wanted regular files after `name`, not yet fetched, within one file limit of bytes."""
        import bisect
        if len(self._order) != len(self.wanted):
            self._order = sorted(self.wanted)
        out: list[str] = []
        budget = MAX_BYTES - self.entries[name][2]
        for other in self._order[bisect.bisect_right(self._order, name):]:
            if len(out) == self.BATCH - 1:
                break
            mode, _, size = self.entries.get(other, ("", "", 0))
            if not mode.startswith("100") or other in self.fetched:
                continue
            if size > budget:
                break
            budget -= size
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


class Overlay:
    """A source that answers for some files from memory instead (bump's fragments, each code
    without `since` given a placeholder line before the registry is composed); every other file,
    and every listing and link, is the base source's."""

    def __init__(self, base: Source, texts: dict[str, bytes]) -> None:
        self.base, self.texts = base, texts

    def entries(self, folder: str) -> dict[str, str]:
        return self.base.entries(folder)

    def resolve(self, link: str) -> tuple[str, str] | None:
        return self.base.resolve(link)

    def read(self, name: str) -> bytes:
        return self.texts[name] if name in self.texts else self.base.read(name)

    def holds(self, name: str, data: bytes) -> bool:
        return self.texts[name] == data if name in self.texts else self.base.holds(name, data)


class ComposedDocument(Document):
    def __init__(self, header: Document, root: Map, diagnostics: list[Diagnostic], fragments: tuple[Fragment, ...],
                 texts: tuple[str, ...] = (), files: dict[str, str] | None = None) -> None:
        super().__init__(header.path, root, diagnostics, header.text)
        self.fragments = fragments
        self.sources = header.sources + texts
        self.files = files or {}  # each fragment's shown path -> the file it was read from (links followed)


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
    texts: list[str] = []
    files: dict[str, str] = {}
    _LAST.clear()
    _LAST.update(_THIS)
    _THIS.clear()
    expect = getattr(source, "expect", None)  # a git tree reads ahead only among what was matched
    for pattern, loc in zip(include, include.locs):
        found = _matches(pattern, loc, source, header.path, diagnostics)
        if expect is not None:
            expect(real for _, real in found)
        for name, real in found:
            if real == header.path[len(folder):]:
                continue  # `**/*.yaml` beside the header: the header is never its own fragment
            shown = folder + name
            fragment = _load(source, real, shown, diagnostics)
            if fragment is not None:
                fragments.append(merged.add(fragment, shown))
                texts.append(fragment.text)
                files[shown] = real
    return ComposedDocument(header, merged.root, diagnostics, tuple(fragments), tuple(texts), files)


def _matches(pattern: Any, loc: Loc, source: Source, header: str, diagnostics: list[Diagnostic]) -> list[tuple[str, str]]:
    if not isinstance(pattern, str):
        return []  # structure reports the wrong type
    parts = PurePosixPath(pattern).parts
    if pattern.startswith("/") or ".." in parts or "\\" in pattern:
        msg = f"include {pattern!r} must be a relative pattern inside the registry's folder (no '/' at the start, no '..')"
        diagnostics.append(diag("include-pattern", msg, header, loc))
        return []
    try:
        matches = expand(pattern, source)
    except (OSError, subprocess.CalledProcessError, ValueError) as exc:
        diagnostics.append(diag("include-pattern", f"cannot list include {pattern!r}: {exc}", header, loc))
        return []
    for link in matches.outside:
        msg = (f"include {pattern!r} reaches {link!r}, a symbolic link that leads outside the registry's folder; "
               "fragments must be files inside it (errgen does not read what the link points at)")
        diagnostics.append(diag("include-outside-registry", msg, header, loc))
    found = matches.found
    if not found and not matches.outside:
        diagnostics.append(diag("include-pattern", f"include {pattern!r} matches no file", header, loc, "warning"))
    return found


# The fragments the last composition loaded, by name below the folder (with their bytes), and those of
# the one under way: `diff --against` and `bump` compose the registry at a ref and in the working
# tree, and most fragments read the same in both. Two compositions' worth, never more.
_LAST: dict[str, tuple[bytes, Document]] = {}
_THIS: dict[str, tuple[bytes, Document]] = {}


def _load(source: Source, name: str, shown: str, diagnostics: list[Diagnostic]) -> Document | None:
    try:
        data, known = _LAST.get(name, (b"", None))
        if known is not None and source.holds(name, data):  # at a ref: not even read from git
            doc = restamped(known, shown)
        else:
            data = source.read(name)
            doc = load_text(decode(data, shown), shown, stamp=True)
    except Fatal as fatal:
        diagnostics.append(fatal.diagnostic)
        return None
    except TooLarge as exc:
        diagnostics.append(diag("file-too-large", f"fragment is {exc.size} bytes or more; the limit is {exc.limit}", shown, Loc(1, 1)))
        return None
    except (OSError, subprocess.CalledProcessError) as exc:
        diagnostics.append(diag("file-unreadable", f"cannot read fragment {shown}: {exc}", shown, Loc(1, 1)))
        return None
    diagnostics.extend(doc.diagnostics)
    if not doc.diagnostics:
        _THIS[name] = (data, doc)
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


def include_patterns(header: Path) -> list[str]:
    """The header's `include` patterns (none when it is a single-file registry, or unreadable:
    then lint says why). What `--watch` re-globs to see every fragment."""
    from errgen.registry.load import load_path

    try:
        doc = load_path(header)
    except Fatal:
        return []
    include = doc.root.get("include") if isinstance(doc.root, Map) else None
    return [p for p in include if isinstance(p, str)] if isinstance(include, Seq) else []


def registry_files(header: Path, patterns: list[str]) -> list[Path]:
    """Every file a registry reads: the header, then each fragment its patterns match now (the
    files themselves, links followed, as compose reads them)."""
    tree = WorkTree(header.parent)
    names: set[str] = set()
    for pattern in patterns:
        try:
            names.update(real for _, real in expand(pattern, tree).found)
        except (OSError, ValueError):  # a bad pattern or an unreadable folder: lint reports it
            continue
    return [header, *(header.parent / n for n in sorted(names))]
