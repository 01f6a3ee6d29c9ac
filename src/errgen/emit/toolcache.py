"""A disk cache, outside the repository, for what formatting tools make of a given input (and
jinja's compiled templates), so a build whose formatted text did not change pays neither the
tools' import nor their run.

An entry's key is the SHA-256 of every input that can change the bytes (the tool's version, its
options, the input text), so a hit returns exactly what the tool would. The folder is
`$ERRGEN_CACHE_DIR`, else `~/.cache/errgen`.

Entries are never trusted by their name: each carries an HMAC-SHA256 of its kind, key and bytes,
keyed by a random per-user secret (`key`, 0600) in the folder, and an entry that fails the check
is ignored and recomputed. The folder is used only when it is safe: a real folder (not a link)
owned by the current user, not writable by group or others, whose parents only root or the user
can change (or are sticky, as /tmp is); anything else, or a folder that cannot be read or
written, turns the cache off for the run. It changes speed, never output.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Callable

# Bumped when what is stored under a key changes shape.
LAYOUT = "2"
KEY_FILE = "key"
_KEY_BYTES = 32
_MAC_BYTES = hashlib.sha256().digest_size


def folder() -> Path:
    configured = os.environ.get("ERRGEN_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "errgen"


@cache  # a metadata lookup scans site-packages: milliseconds, asked for on every formatted file
def tool_version(distribution: str) -> str:
    """A distribution's version from its metadata, which costs far less than importing it."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "missing"


def key(*parts: str) -> str:
    digest = hashlib.sha256(LAYOUT.encode())
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big") + data)  # length-prefixed: parts cannot run together
    return digest.hexdigest()


# --- the verified folder and its secret ----------------------------------------------------------


def _uid() -> int | None:
    return os.getuid() if hasattr(os, "getuid") else None


def _private(st: os.stat_result) -> bool:
    """A folder or file only this user can change."""
    uid = _uid()
    return uid is None or (st.st_uid == uid and not st.st_mode & 0o022)


def _unsafe_parent(path: Path) -> Path | None:
    """The first folder above `path` that someone other than root or this user could change
    (not sticky, as /tmp is): they could swap the cache folder for their own. None when all are safe."""
    uid = _uid()
    if uid is None:
        return None
    for parent in path.parents:
        st = parent.stat()
        if st.st_uid not in (0, uid) or (st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX):
            return parent
    return None


def _make_folders(path: Path) -> None:
    """`path` and its missing parents, each mode 0700 (as the XDG spec asks of ~/.cache):
    `mkdir -p` would make the parents 0775 under umask 002, and then refuse them."""
    missing = [p for p in (path, *path.parents) if not os.path.lexists(p)]
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass


@cache
def _secret(where: str) -> bytes | None:
    """This user's cache secret in the folder `where`, made on first use; None when the folder
    or the secret is not private to this user (the cache is then off, and -v says why once)."""
    path = Path(where)
    try:
        _make_folders(path)
        st = path.lstat()
        if not stat.S_ISDIR(st.st_mode):
            return _off(f"{path} is not a folder (a symbolic link or a file)")
        if not _private(st):
            return _off(f"{path} is not yours alone (another owner, or writable by its group or others: chmod go-w it)")
        parent = _unsafe_parent(path.resolve())
        if parent is not None:
            return _off(f"{parent}, above it, can be changed by its group or others (umask 002 makes folders so; "
                        f"chmod go-w {parent} turns the cache on)")
        found = _read_secret(path / KEY_FILE) or _make_secret(path / KEY_FILE)
        return found if found is not None else _off(f"its key {path / KEY_FILE} cannot be made")
    except OSError as exc:
        return _off(f"{path} cannot be used: {exc.strerror or exc}")


def _off(reason: str) -> None:
    """Say once, with -v, why the cache is off (it changes speed, never output)."""
    from errgen import console

    console.current().detail(f"cache off for this run (slower, same output): {reason}")
    return None


def _read_secret(path: Path) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_mode & 0o077 or st.st_size != _KEY_BYTES:
            raise OSError(f"{path} is not a private {_KEY_BYTES}-byte file")
        return os.read(fd, _KEY_BYTES)
    finally:
        os.close(fd)


def _make_secret(path: Path) -> bytes | None:
    """A new secret, written whole under a private name, then linked into place: of two
    processes racing, both end up reading the one that won."""
    tmp = path.with_name(f"{KEY_FILE}.{os.getpid()}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.write(fd, secrets.token_bytes(_KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        tmp.unlink()
    return _read_secret(path)


def secret() -> bytes | None:
    """The current user's cache secret, or None when the cache folder is not safe to use."""
    return _secret(str(folder()))


def sign(secret_key: bytes, *parts: bytes) -> bytes:
    mac = hmac.new(secret_key, LAYOUT.encode(), hashlib.sha256)
    for part in parts:
        mac.update(len(part).to_bytes(8, "big") + part)
    return mac.digest()


def private_folder(kind: str) -> Path | None:
    """A folder of the verified cache for build products errgen runs (a conformance runner's
    build), or None when the cache folder is not safe to use."""
    if secret() is None:
        return None
    path = folder() / kind
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        st = path.lstat()
    except OSError:
        return None
    return path if stat.S_ISDIR(st.st_mode) and _private(st) else None


# --- entries -------------------------------------------------------------------------------------


def _entry_path(kind: str, entry_key: str) -> Path:
    return folder() / kind / entry_key[:2] / f"{entry_key}.entry"


def load(kind: str, entry_key: str) -> bytes | None:
    """The bytes stored for `entry_key`, if an entry exists and this user's secret signed it."""
    secret_key = secret()
    if secret_key is None:
        return None
    try:
        fd = os.open(_entry_path(kind, entry_key), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            raw = handle.read()
    except OSError:
        return None
    mac, data = raw[:_MAC_BYTES], raw[_MAC_BYTES:]
    if not hmac.compare_digest(mac, sign(secret_key, kind.encode(), entry_key.encode(), data)):
        return None  # planted, damaged or from another user's secret: recomputed
    return data


def save(kind: str, entry_key: str, data: bytes) -> None:
    secret_key = secret()
    if secret_key is None:
        return
    path = _entry_path(kind, entry_key)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(sign(secret_key, kind.encode(), entry_key.encode(), data) + data)
        os.replace(tmp, path)  # whole entries only: a concurrent reader sees the old state or the new
    except OSError:
        pass  # a cache is optional


def cached(kind: str, entry_key: str, compute: Callable[[], str]) -> str:
    """`compute()`'s text, from the cache when a verified entry for `entry_key` exists."""
    stored = load(kind, entry_key)
    if stored is not None:
        try:
            return stored.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            pass
    text = compute()
    save(kind, entry_key, text.encode("utf-8", "surrogatepass"))
    return text
