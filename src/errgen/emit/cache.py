"""The local cache behind a fast no-op `build --check`, in OUT/.errgen-cache.json (ignored by git).

Per target: the key of its inputs (registry model, templates,
errgen and tool versions) and the files the build wrote, each bound to its inode, size, mtime
and ctime. A hit needs every file untouched since that build, which a cache copied from
elsewhere (a checkout, a pull request) cannot fake; anything else renders. Never committed.

The entries are signed with the current user's cache secret (errgen.toolcache): a file written by
anyone else, or edited, is ignored, so a planted cache can never make `build --check` say "up to
date". Without a usable secret nothing is recorded and every check renders.
"""

from __future__ import annotations

import hmac
import json
import os
import stat
from pathlib import Path
from typing import Any

from errgen.emit import toolcache
from errgen.emit.commit import CACHE, MAX_MANIFEST_BYTES, Hashes, WriteError, write_synced, relative_path


def record(root: Path, keys: dict[str, str], expected: dict[str, Hashes]) -> None:
    entries: dict[str, Any] = {}
    prefix = os.path.join(root, "")  # string paths: pathlib's parsing per file cost more than the lstat
    for target, key in keys.items():
        files = {}
        for rel, sha in expected[target].items():
            try:
                st = os.lstat(prefix + rel)
            except OSError:
                break
            files[rel] = [sha, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
        else:
            entries[target] = {"key": key, "files": files}
    secret = toolcache.secret()
    if secret is None:
        return
    try:
        merged = {**_read_cache(root), **entries}
        write_synced(root / f"{CACHE}.tmp", json.dumps({"entries": merged, "mac": _mac(secret, root, merged)}, sort_keys=True).encode("utf-8"))
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
    prefix = os.path.join(root, "")
    for rel, row in entry["files"].items():
        try:
            st = os.lstat(prefix + relative_path(rel, CACHE))
        except (OSError, WriteError):
            return None
        if not isinstance(row, list) or len(row) != 5 or not isinstance(row[0], str) or row[1:] != [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns] or not stat.S_ISREG(st.st_mode):
            return None
        found[rel] = row[0]
    return found


def _read_cache(root: Path) -> dict[str, Any]:
    """The recorded entries, when this user's secret signed them for this folder; else none."""
    secret = toolcache.secret()
    path = root / CACHE
    try:
        st = path.lstat()
        if secret is None or not stat.S_ISREG(st.st_mode) or st.st_size > MAX_MANIFEST_BYTES:
            return {}
        raw = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(raw, dict) or not isinstance(raw.get("entries"), dict) or not isinstance(raw.get("mac"), str):
        return {}
    return raw["entries"] if hmac.compare_digest(raw["mac"], _mac(secret, root, raw["entries"])) else {}


def _mac(secret: bytes, root: Path, entries: dict[str, Any]) -> str:
    text = json.dumps(entries, sort_keys=True)
    return toolcache.sign(secret, b"check-cache", os.fsencode(root), text.encode("utf-8", "surrogatepass")).hex()
