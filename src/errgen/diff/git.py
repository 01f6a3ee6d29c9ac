"""Read a registry as it was at a git ref (for `errgen diff --against REF`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from errgen.diagnostics import Fatal, Loc, diag


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    except FileNotFoundError:
        raise Fatal(diag("git-missing", "git is not installed; pass OLD and NEW files instead of --against", str(cwd), Loc(1, 1))) from None


def read_at(ref: str, path: Path) -> tuple[bytes, str]:
    """The file's bytes at `ref`, and a display name like `origin/main:registry/errors.yaml`."""
    folder = path.resolve().parent
    if not folder.is_dir():
        raise Fatal(diag("file-not-found", f"no folder {folder}", str(path), Loc(1, 1)))
    top = _git(["rev-parse", "--show-toplevel"], folder)
    if top.returncode != 0:
        raise Fatal(diag("git-not-a-repo", f"{folder} is not inside a git repository; --against needs one", str(path), Loc(1, 1)))
    root = Path(top.stdout.decode().strip())
    rel = path.resolve().relative_to(root.resolve()).as_posix()
    display = f"{ref}:{rel}"
    if _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], root).returncode != 0:
        raise Fatal(diag("git-unknown-ref", f"git has no commit {ref!r} (fetch it first, e.g. git fetch origin)", display, Loc(1, 1)))
    shown = _git(["show", f"{ref}:{rel}"], root)
    if shown.returncode != 0:
        raise Fatal(diag("git-file-missing", f"{rel} does not exist at {ref}", display, Loc(1, 1)))
    return shown.stdout, display
