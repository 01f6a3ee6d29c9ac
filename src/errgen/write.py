"""Write a build's outputs all or nothing, and compare a planned build with the disk.

The plan (relative path -> text) is complete in memory before anything touches the disk. Files
are first staged in OUT/.errgen-staging; renaming that folder to OUT/.errgen-commit marks the
staged set complete, and only then are files moved into place. A run that finds a commit folder
(a build killed while moving) finishes moving it; a staging folder (killed earlier) is discarded.
So the outputs are always either the previous build's or the new one's.

errgen owns only the files listed in OUT/.errgen-manifest.json; it never deletes anything else.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = ".errgen-manifest.json"
STAGING = ".errgen-staging"
COMMIT = ".errgen-commit"
MANIFEST_COMMENT = "Files written by errgen build; errgen deletes only files listed here. Do not edit."

Plan = dict[str, str]


def digest(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


@dataclass
class Manifest:
    """Per target: a fingerprint of its inputs, and the files it wrote with their hashes."""

    targets: dict[str, dict[str, object]] = field(default_factory=dict)

    def files(self, target: str | None = None) -> dict[str, str]:
        entries = [self.targets[target]] if target else list(self.targets.values())
        out: dict[str, str] = {}
        for entry in entries:
            if entry:
                out.update(entry["files"])  # type: ignore[arg-type]
        return out

    def text(self) -> str:
        body = {"$comment": MANIFEST_COMMENT, "targets": {k: self.targets[k] for k in sorted(self.targets)}}
        return json.dumps(body, indent=2, sort_keys=False) + "\n"


def read_manifest(out: Path) -> Manifest:
    try:
        raw = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        return Manifest(dict(raw["targets"]))
    except (OSError, ValueError, KeyError, TypeError):
        return Manifest()


def recover(out: Path) -> None:
    """Finish or discard what an interrupted build left behind."""
    if (out / COMMIT).is_dir():
        _move_into_place(out / COMMIT, out)
    if (out / STAGING).exists():
        shutil.rmtree(out / STAGING)


@dataclass
class Changes:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)

    def summary(self) -> str:
        if not self.written and not self.deleted:
            return f"up to date ({self.unchanged} files unchanged)"
        return f"{len(self.written)} written, {len(self.deleted)} deleted, {self.unchanged} unchanged"


def commit(out: Path, plans: dict[str, Plan], fingerprints: dict[str, str]) -> Changes:
    """Make OUT hold exactly `plans` for the given targets, all at once."""
    out.mkdir(parents=True, exist_ok=True)
    recover(out)
    old = read_manifest(out)
    new = Manifest(dict(old.targets))
    changes = Changes()
    staging = out / STAGING
    staging.mkdir()
    for target, plan in plans.items():
        new.targets[target] = {"fingerprint": fingerprints[target], "files": {p: digest(t) for p, t in sorted(plan.items())}}
        for rel, text in sorted(plan.items()):
            if _same(out / rel, text):
                changes.unchanged += 1
                continue
            _write_synced(staging / rel, text.encode("utf-8"))
            changes.written.append(rel)
    changes.deleted = sorted(set(old.files()) - set(new.files()))
    _write_synced(staging / MANIFEST, new.text().encode("utf-8"))
    (staging / ".delete").write_text("\n".join(changes.deleted), encoding="utf-8")
    _fsync_dir(staging)
    os.replace(staging, out / COMMIT)
    _fsync_dir(out)
    _move_into_place(out / COMMIT, out)
    return changes


def _move_into_place(commit_dir: Path, out: Path) -> None:
    deletions = commit_dir / ".delete"
    doomed = [p for p in deletions.read_text(encoding="utf-8").splitlines() if p] if deletions.exists() else []
    for src in sorted(commit_dir.rglob("*")):
        rel = src.relative_to(commit_dir)
        if src.is_dir() or str(rel) in (".delete", MANIFEST):
            continue
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dest)
    for rel in doomed:
        _remove(out, rel)
    # The manifest moves last: until it does, the old one still describes what errgen owns.
    if (commit_dir / MANIFEST).exists():
        os.replace(commit_dir / MANIFEST, out / MANIFEST)
    shutil.rmtree(commit_dir)


def _remove(out: Path, rel: str) -> None:
    path = out / rel
    path.unlink(missing_ok=True)
    parent = path.parent
    while parent != out and parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()
        parent = parent.parent


def _same(path: Path, text: str) -> bool:
    try:
        return path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def _write_synced(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class Report:
    stale: list[tuple[str, str]] = field(default_factory=list)  # (path, unified diff)
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.stale or self.missing or self.extra)

    def render(self) -> str:
        lines = [f"would rewrite {p}" for p, _ in self.stale]
        lines += [f"missing {p}" for p in self.missing]
        lines += [f"extra {p} (written by an earlier build, no longer generated)" for p in self.extra]
        diffs = [d for _, d in self.stale if d]
        return "\n".join(lines + diffs)


def compare(out: Path, plans: dict[str, Plan]) -> Report:
    """What a build of `plans` would change in OUT, with unified diffs of stale files."""
    report = Report()
    planned: set[str] = set()
    for plan in plans.values():
        for rel, text in sorted(plan.items()):
            planned.add(rel)
            path = out / rel
            if not path.is_file():
                report.missing.append(rel)
            elif not _same(path, text):
                report.stale.append((rel, _diff(path, text, rel)))
    owned = read_manifest(out)
    for target in plans:
        if target in owned.targets:
            report.extra += sorted(p for p in owned.files(target) if p not in planned and (out / p).exists())
    return report


def compare_manifest(out: Path, target: str, fingerprint: str) -> Report | None:
    """A cheap check without rendering: None when the manifest's fingerprint differs (render to know)."""
    entry = read_manifest(out).targets.get(target)
    if not entry or entry.get("fingerprint") != fingerprint:
        return None
    report = Report()
    for rel, sha in sorted(entry["files"].items()):  # type: ignore[union-attr]
        path = out / rel
        if not path.is_file():
            report.missing.append(rel)
        elif digest(path.read_bytes()) != sha:
            report.stale.append((rel, f"{rel}: edited by hand since the last build"))
    return report


def _diff(path: Path, text: str, rel: str) -> str:
    try:
        current = path.read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError):
        return f"{rel}: not a UTF-8 text file"
    lines = difflib.unified_diff(current, text.splitlines(keepends=True), f"{rel} (on disk)", f"{rel} (from registry)", n=2)
    return "".join(lines)
