"""A disk cache, outside the repository, for what formatting tools make of a given input, so a
build whose formatted text did not change pays neither the tools' import nor their run.

An entry's key is the SHA-256 of every input that can change the bytes (the tool's version, its
options, the input text), so a hit returns exactly what the tool would. The folder is
`$ERRGEN_CACHE_DIR`, else `~/.cache/errgen`; one that cannot be read or written is ignored.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Callable

# Bumped when what is stored under a key changes shape.
LAYOUT = "1"


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


def cached(kind: str, entry_key: str, compute: Callable[[], str]) -> str:
    """`compute()`'s text, from the cache when an entry for `entry_key` exists."""
    path = folder() / kind / entry_key[:2] / f"{entry_key}.txt"
    try:
        return path.read_bytes().decode("utf-8", "surrogatepass")
    except (OSError, UnicodeDecodeError):
        pass
    text = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(text.encode("utf-8", "surrogatepass"))
        os.replace(tmp, path)  # whole entries only: a concurrent reader sees the old state or the new
    except OSError:
        pass  # a cache is optional
    return text
