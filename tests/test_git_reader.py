"""Fragments read at a git ref: one `git cat-file --batch` for every fragment gives what a
`git show` per fragment gave, on the example and on a ref where fragments moved or went; a link
committed as a fragment is refused, never followed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, run_errgen
from errgen.registry import compose as composing
from errgen.registry.compose import GitTree, compose, expand
from errgen.registry.lint import lint_document
from errgen.registry.load import load_text

EXAMPLE = ROOT / "examples" / "multi-team"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]


def matched(tree: GitTree, *patterns: str) -> list[str]:
    return [real for pattern in patterns for _, real in expand(pattern, tree).found]


def commit(repo: Path) -> str:
    subprocess.run(GIT + ["add", "-A"], cwd=repo, check=True)
    subprocess.run(GIT + ["commit", "-qm", "release"], cwd=repo, check=True)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


class ShowTree(GitTree):
    """The reader as it was: one `git show` per fragment."""

    def read(self, name: str) -> bytes:
        return subprocess.run(["git", "show", f"{self.rev}:registry/{name}"], cwd=self.cwd, capture_output=True, check=True).stdout


@pytest.fixture()
def history(tmp_path: Path) -> tuple[Path, list[str]]:
    """The multi-team example committed under registry/, then a release where one fragment moved
    (renamed), one was deleted and one edited, then one with a fragment in a new sub-folder."""
    shutil.copytree(EXAMPLE, tmp_path / "registry")
    subprocess.run(GIT + ["init", "-q"], cwd=tmp_path, check=True)
    refs = [commit(tmp_path)]
    teams = tmp_path / "registry" / "teams"
    (teams / "10-payments.yaml").rename(teams / "15-payments.yaml")
    (teams / "20-operations.yaml").unlink()
    platform = teams / "00-platform.yaml"
    platform.write_text(platform.read_text(encoding="utf-8").replace("owner:", "# edited\nowner:", 1), encoding="utf-8")
    refs.append(commit(tmp_path))
    (teams / "nested").mkdir()
    (teams / "15-payments.yaml").rename(teams / "nested" / "payments.yaml")
    refs.append(commit(tmp_path))
    return tmp_path, refs


def composed(tree: GitTree, include: str = "teams/*.yaml, teams/*/*.yaml") -> tuple[list[tuple[str, str]], list[tuple[str, str, tuple[str, ...]]], list[str]]:
    header = subprocess.run(["git", "show", f"{tree.rev}:registry/errors.yaml"], cwd=tree.cwd, capture_output=True, check=True).stdout
    header_text = header.decode().replace("include: [teams/*.yaml]", f"include: [{include}]")
    result = lint_document(compose(load_text(header_text, f"{tree.rev}:registry/errors.yaml"), tree))
    codes = [(c.name, c.description) for c in result.registry.codes]
    fragments = [(f.path, f.owner, f.codes) for f in result.registry.fragments]
    return codes, fragments, [f"{d.rule} {d.path}:{d.line}: {d.message}" for d in result.diagnostics]


def test_every_fragment_reads_as_git_show_reads_it(history: tuple[Path, list[str]]) -> None:
    repo, refs = history
    for ref in refs:
        new, old = GitTree(ref, "registry", repo), ShowTree(ref, "registry", repo)
        try:
            names = matched(new, "teams/*.yaml", "teams/*/*.yaml")
            assert names and names == matched(old, "teams/*.yaml", "teams/*/*.yaml")
            for name in names:
                assert new.read(name) == old.read(name), (ref, name)
            assert composed(GitTree(ref, "registry", repo)) == composed(old)
        finally:
            new.close()


def test_the_example_composes_the_same_at_the_ref_as_in_the_working_tree(history: tuple[Path, list[str]]) -> None:
    repo, refs = history
    tree = GitTree(refs[0], "registry", repo)
    try:
        codes, fragments, diagnostics = composed(tree, "teams/*.yaml")
    finally:
        tree.close()
    from errgen.registry.lint import lint_path

    here = lint_path(EXAMPLE / "errors.yaml")
    assert codes == [(c.name, c.description) for c in here.registry.codes]
    assert [owner for _, owner, _ in fragments] == [f.owner for f in here.registry.fragments]
    assert diagnostics == []


def test_one_tree_starts_two_git_processes_however_many_fragments(history: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    repo, refs = history
    started: list[list[str]] = []
    run, popen = subprocess.run, subprocess.Popen

    def counted_run(args: list[str], *a: object, **kw: object) -> object:
        started.append(list(args))
        return run(args, *a, **kw)  # type: ignore[call-overload]

    def counted_popen(args: list[str], *a: object, **kw: object) -> object:
        started.append(list(args))
        return popen(args, *a, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr(composing.subprocess, "run", counted_run)
    monkeypatch.setattr(composing.subprocess, "Popen", counted_popen)
    tree = GitTree(refs[0], "registry", repo)
    try:
        names = matched(tree, "teams/*.yaml")
        reads = [tree.read(name) for name in names * 3]
    finally:
        tree.close()
    assert len(names) == 3 and all(reads)
    readers = [args for args in started if args[:2] in (["git", "show"], ["git", "cat-file"])]
    assert readers == [["git", "cat-file", "--batch"]]


def test_diff_against_a_ref_with_moved_and_deleted_fragments(history: tuple[Path, list[str]]) -> None:
    repo, refs = history
    subprocess.run(["git", "checkout", "-q", refs[0]], cwd=repo, check=True)
    shutil.rmtree(repo / "registry")
    subprocess.run(["git", "checkout", "-q", refs[1], "--", "registry"], cwd=repo, check=True)
    done = run_errgen("diff", "--against", refs[0], "--registry", "registry/errors.yaml", "--format", "json", cwd=repo)
    assert done.returncode in (0, 1), done.stderr
    import json

    rules = {c["rule"] for c in json.loads(done.stdout)["changes"]}
    assert "code-moved" in rules  # payments' codes now live in another file: information
    assert "code-removed" in rules  # the operations fragment went with its codes


def test_a_link_committed_as_a_fragment_is_refused_not_followed(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "registry")
    (tmp_path / "outside.yaml").write_text("owner: '@evil'\ncodes:\n  SMUGGLED:\n    category: validation\n"
                                          "    scope: request\n    description: From outside.\n    since: 1.0.0\n", encoding="utf-8")
    (tmp_path / "registry" / "teams" / "30-link.yaml").symlink_to("../../outside.yaml")
    subprocess.run(GIT + ["init", "-q"], cwd=tmp_path, check=True)
    ref = commit(tmp_path)
    tree = GitTree(ref, "registry", tmp_path)
    try:
        with pytest.raises(OSError, match="symbolic link"):
            tree.read("teams/30-link.yaml")
        with pytest.raises(OSError):
            tree.read("teams/none.yaml")
    finally:
        tree.close()
    done = run_errgen("diff", "--against", ref, "--registry", "registry/errors.yaml", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "SMUGGLED" not in done.stdout + done.stderr
    assert "30-link.yaml" in done.stdout + done.stderr
