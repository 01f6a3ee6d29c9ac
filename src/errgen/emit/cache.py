"""The local cache behind a fast no-op `build --check`, in OUT/.errgen-cache.json (ignored by git).

Per target: the key of its inputs (registry model, templates,
errgen and tool versions) and the files the build wrote, each bound to its inode, size, mtime
and ctime. A hit needs every file untouched since that build, which a cache copied from
elsewhere (a checkout, a pull request) cannot fake; anything else renders. Never committed.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from errgen.emit.write import CACHE, MAX_MANIFEST_BYTES, Hashes, WriteError, write_synced, relative_path


def record(root: Path, keys: dict[str, str], expected: dict[str, Hashes]) -> None:
    entries: dict[str, Any] = {}
    for target, key in keys.items():
        files = {}
        for rel, sha in expected[target].items():
            try:
                st = (root / rel).lstat()
            except OSError:
                break
            files[rel] = [sha, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
        else:
            entries[target] = {"key": key, "files": files}
    try:
        old = _read_cache(root)
        write_synced(root / f"{CACHE}.tmp", json.dumps({**old, **entries}, sort_keys=True).encode("utf-8"))
        os.replace(root / f"{CACHE}.tmp", root / CACHE)
    except OSError:
        pass  # a cache is optional


def recall(root: Path, target: str, key: str) -> Hashes | None:
    """The files `target` produces for `key`, if the last build recorded them and they are
    untouched since; else None."""
    entry = _read_cache(root).get(target)
    if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("files"), dict):
        return None
    found: Hashes = {}
    for rel, row in entry["files"].items():
        try:
            st = (root / relative_path(rel, CACHE)).lstat()
        except (OSError, WriteError):
            return None
        if not isinstance(row, list) or len(row) != 5 or not isinstance(row[0], str) or row[1:] != [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns] or not stat.S_ISREG(st.st_mode):
            return None
        found[rel] = row[0]
    return found


def _read_cache(root: Path) -> dict[str, Any]:
    path = root / CACHE
    try:
        st = path.lstat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_MANIFEST_BYTES:
            return {}
        raw = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return {}
    return raw if isinstance(raw, dict) else {}
