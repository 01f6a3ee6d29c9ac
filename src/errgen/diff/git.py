"""Read a registry as it was at a git ref (for `errgen diff --against REF` and `errgen bump`).

A folder registry is read whole at the ref: its header, and every fragment its `include`
patterns matched there, so OLD is composed exactly as NEW is from the working tree.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from errgen.diagnostics import Fatal, Loc, diag
from errgen.registry.load import Document


@dataclass(frozen=True)
class Snapshot:
    """The registry file at a ref: its bytes, a display name like `origin/main:registry/errors.yaml`,
    and where its folder is in the repository (for the fragments a header includes)."""

    data: bytes
    display: str
    ref: str
    folder: str  # the header's folder relative to the repository root, "" at the root
    top: Path  # the repository root

    def document(self) -> Document:
        """The header loaded, with its fragments at the same ref composed in. Raises `Fatal`
        when the header cannot be parsed; a fragment's problems are diagnostics."""
        from errgen.registry import compose
        from errgen.registry.load import decode, load_text

        doc = load_text(decode(self.data, self.display), self.display)
        if compose.includes(doc):
            tree = compose.GitTree(self.ref, self.folder, self.top)
            try:
                doc = compose.compose(doc, tree)
            finally:
                tree.close()
        return doc


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    except FileNotFoundError:
        raise Fatal(diag("git-missing", "git is not installed", str(cwd), Loc(1, 1))) from None


def _line(out: bytes) -> str:
    """One path git printed: only its own final newline removed (a path may end in one), any
    bytes shown (a path need not be UTF-8)."""
    return (out[:-1] if out.endswith(b"\n") else out).decode("utf-8", "replace")


def read_at(ref: str, path: Path) -> Snapshot | None:
    """The file at `ref`; None when it does not exist there (the registry is new on this branch)."""
    folder = path.absolute().parent
    if not folder.is_dir():
        raise Fatal(diag("file-not-found", f"no folder {folder}", str(path), Loc(1, 1)))
    prefix = _git(["rev-parse", "--show-prefix"], folder)
    if prefix.returncode != 0:
        raise Fatal(diag("git-not-a-repo", f"{os.fsdecode(folder)} is not inside a git repository", str(path), Loc(1, 1)))
    folder_in_repo = _line(prefix.stdout)
    display = f"{ref}:{folder_in_repo}{path.name}"
    if _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], folder).returncode != 0:
        if _git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], folder).returncode != 0:
            raise Fatal(diag("git-no-commits", "the git repository has no commits yet", display, Loc(1, 1)))
        raise Fatal(diag("git-unknown-ref", f"git has no commit {ref!r} (fetch it first, e.g. git fetch origin)", display, Loc(1, 1)))
    shown = _git(["show", f"{ref}:./{path.name}"], folder)
    if shown.returncode != 0:
        listed = _git(["ls-tree", "--name-only", ref, "--", path.name], folder)
        if listed.returncode == 0 and not listed.stdout.strip():
            return None
        raise Fatal(diag("git-show-failed", f"git could not read {display}: {_line(shown.stderr)}", display, Loc(1, 1)))
    top = _git(["rev-parse", "--show-toplevel"], folder)
    return Snapshot(shown.stdout, display, ref, folder_in_repo.rstrip("/"), Path(_line(top.stdout)))


def merge_base(ref: str, path: Path) -> str:
    """The commit HEAD's branch forked from `ref`: what a pull request into `ref` is compared with,
    so every commit on the branch is checked against the release it will change, not the last commit."""
    folder = path.absolute().parent
    done = _git(["merge-base", "--end-of-options", ref, "HEAD"], folder) if folder.is_dir() else None
    if done is None or done.returncode != 0:
        msg = (f"git finds no merge base of {ref!r} and HEAD (fetch it first, e.g. git fetch origin, "
               "or name the branch your work merges into)")
        raise Fatal(diag("git-unknown-ref", msg, str(path), Loc(1, 1)))
    return _line(done.stdout).strip()
