"""Where errgen may read and write: the repository it runs in, and regular files only.

In CI on a pull request everything in the checkout, settings and symbolic links included, is
written by whoever opened it; the command line is not. So the project's registry and output
folder, when the settings name them or they are left at their defaults, must resolve inside the
repository root after every symbolic link is followed (`confine`); the root is the first folder
up from the current one that holds `.git`, or, outside a repository, the current folder. A path
typed on the command line (`--registry`, `--out`, `diff OLD NEW`, `bump --from`, `validate FILE`)
is the caller's choice and may be anywhere, but a path that is inside the repository as typed
may not leave it through a link (`no_link_out`): a link committed into the checkout never points
errgen outside it. docs/security.md states the rule.

A registry file is read only when it is a regular file (a FIFO would block, `/dev/zero` never
ends), and never past the loader's size limit, before a byte is parsed.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class Outside(Exception):
    """A path errgen will not use; the message names the setting or flag, never what is there."""


def search_path(start: Path) -> tuple[list[Path], Path | None]:
    """The folders whose settings may apply in `start`, nearest first, and the repository root
    they end at (None outside a repository: then `start` alone)."""
    start = start.absolute()
    folders = [start, *start.parents]
    for depth, folder in enumerate(folders):
        if os.path.lexists(folder / ".git"):
            return folders[:depth + 1], folder
    return [start], None


def root(start: Path | None = None) -> Path:
    """The repository root of `start` (default: the current folder), links resolved; outside a
    repository, `start` itself."""
    here = Path.cwd() if start is None else start
    _, top = search_path(here)
    return Path(os.path.realpath(top if top is not None else here))


def _inside(real: str, top: Path) -> bool:
    return real == str(top) or real.startswith(str(top).rstrip(os.sep) + os.sep)


def _where(top: Path, start: Path | None) -> str:
    in_repo = search_path(Path.cwd() if start is None else start)[1] is not None
    return f"the repository ({top})" if in_repo else f"the current folder ({top}; not in a git repository)"


def confine(path: Path, label: str, shown: str | None = None, start: Path | None = None) -> Path:
    """`path` when it resolves, every link followed, inside the repository root; else Outside,
    naming `label` (`errgen.toml: registry`, `--out`) and the value as written (`shown`)."""
    top = root(start)
    written = shown if shown is not None else str(path)
    absolute = os.path.abspath(path)
    if _inside(os.path.realpath(absolute), top):
        return path
    if not _inside(absolute, top):
        raise Outside(f'{label}: "{written}" is outside {_where(top, start)}')
    raise Outside(f'{label}: "{written}" leads outside {_where(top, start)} through a symbolic link; '
                  "errgen does not follow it")


def no_link_out(path: Path, label: str, start: Path | None = None) -> Path:
    """`path`, a file named on the command line: anywhere as written, but a path inside the
    repository must stay inside once its links are followed."""
    top = root(start)
    absolute = os.path.abspath(path)
    if _inside(absolute, top) and not _inside(os.path.realpath(absolute), top):
        raise Outside(f'{label}: "{path}" leads outside {_where(top, start)} through a symbolic link; '
                      "errgen does not follow it")
    return path


class NotRegular(OSError):
    """The path names something other than a regular file; `kind` says what ("a FIFO", "a device")."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(f"{path} is {kind}, not a regular file")
        self.kind = kind


class TooLarge(OSError):
    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{size} bytes; the limit is {limit}")
        self.size, self.limit = size, limit


def read_regular(path: Path | str, limit: int, dir_fd: int | None = None, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. Opened without blocking (a FIFO with
    no writer would wait forever) and checked with fstat on the open file, so what is read is what
    was checked; never more than limit + 1 bytes are read, whatever the file claims its size is."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, dir_fd=dir_fd)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "Is a directory", str(path))
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(str(path), _kind(st.st_mode))
        if st.st_size > limit:
            raise TooLarge(st.st_size, limit)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # the file grew after fstat
            raise TooLarge(total, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"  # pragma: no cover - every other type is one of the above
