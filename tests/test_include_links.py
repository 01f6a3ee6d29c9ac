"""Issue 24 items 3 and 6: `include:` reads only files inside the registry's folder (a link out,
to a file or a folder, is an error that never shows what is behind it; bump never writes through
a link), and one matcher serves the working tree and a git ref, so an unchanged folder registry
diffs clean against HEAD."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, run_errgen
from errgen.registry.compose import GitTree, WorkTree, expand

EXAMPLE = ROOT / "examples" / "multi-team"
SECRET = "hunter2-very-secret"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]


def git(cwd: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True)


def nested(tmp_path: Path, include: str = "teams/**/*.yaml") -> Path:
    """examples/multi-team with its fragments in nested folders, committed."""
    repo = tmp_path / "repo"
    teams = repo / "reg" / "teams"
    for folder in ("pay/eu", "ops"):
        (teams / folder).mkdir(parents=True)
    header = (EXAMPLE / "errors.yaml").read_text().replace("include: [teams/*.yaml]", f"include: [{include!r}]")
    (repo / "reg" / "errors.yaml").write_text(header)
    shutil.copy(EXAMPLE / "teams" / "00-platform.yaml", teams / "00-platform.yaml")
    shutil.copy(EXAMPLE / "teams" / "10-payments.yaml", teams / "pay" / "eu" / "10-payments.yaml")
    shutil.copy(EXAMPLE / "teams" / "20-operations.yaml", teams / "ops" / "20-operations.yaml")
    (teams / "ops" / ".draft.yaml").write_text("not: a fragment\n")  # hidden: no wildcard matches it
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    return repo


@pytest.mark.parametrize("include", ["teams/**/*.yaml", "**/*.yaml", "teams/**"])
def test_an_unchanged_nested_folder_registry_diffs_clean_against_head(tmp_path: Path, include: str) -> None:
    repo = nested(tmp_path, include)
    done = run_errgen("diff", "--against", "HEAD", "--registry", "reg/errors.yaml", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No contract changes" in done.stdout
    bumped = run_errgen("bump", "--registry", "reg/errors.yaml", cwd=repo)
    assert bumped.returncode == 0 and "nothing to do" in bumped.stderr, bumped.stderr
    assert subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True).stdout == ""


@pytest.mark.parametrize("pattern", ["teams/**/*.yaml", "teams/*/*.yaml", "teams/*/*/*.yaml", "**/*.yaml", "teams/**",
                                     "teams/**/ops/*.yaml", "teams/.*/*.yaml", "*", "teams/*.yaml"])
def test_the_working_tree_and_a_git_ref_match_the_same_files(tmp_path: Path, pattern: str) -> None:
    repo = nested(tmp_path)
    work = expand(pattern, WorkTree(repo / "reg"))
    at_head = expand(pattern, GitTree("HEAD", "reg", repo))
    assert work == at_head
    assert all(".draft" not in shown for shown, _ in work.found)
    if pattern == "teams/**/*.yaml":
        assert [s for s, _ in work.found] == ["teams/00-platform.yaml", "teams/ops/20-operations.yaml", "teams/pay/eu/10-payments.yaml"]


def include_line(repo: Path) -> int:
    """The header's `include:` line, where a problem with a fragment is reported."""
    lines = (repo / "reg" / "errors.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.startswith("include:"))


def registry_with_link(tmp_path: Path, link_to: Path, name: str = "x.yaml", include: str = "teams/**/*.yaml") -> Path:
    """The nested registry, every fragment included (the header's wire section names a payments
    code), with teams/NAME a link."""
    repo = nested(tmp_path, include)
    (repo / "reg" / "teams" / name).symlink_to(link_to)
    return repo


@pytest.fixture()
def secret_file(tmp_path: Path) -> Path:
    outside = tmp_path / "home"
    outside.mkdir()
    (outside / ".netrc").write_text(f"owner: machine\ncodes:\n  X:\n    description: password {SECRET}\n")
    return outside / ".netrc"


@pytest.mark.parametrize("command", [("lint",), ("build", "--out", "out"), ("diff", "--against", "HEAD"), ("owners",)])
def test_a_link_to_a_file_outside_is_refused_without_showing_it(tmp_path: Path, secret_file: Path, command: tuple[str, ...]) -> None:
    repo = registry_with_link(tmp_path, secret_file)
    done = run_errgen(*command, "--registry", "reg/errors.yaml", cwd=repo)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert f"reg/errors.yaml:{include_line(repo)}:" in output and "include-outside-registry" in output
    assert SECRET not in output and ".netrc" not in output
    assert not (repo / "out").exists()


@pytest.mark.parametrize("include", ["teams/*/*.yaml", "teams/**/*.yaml"])
def test_a_link_to_a_folder_outside_is_refused_without_showing_it(tmp_path: Path, secret_file: Path, include: str) -> None:
    repo = registry_with_link(tmp_path, secret_file.parent, name="etc", include=include)
    done = run_errgen("lint", "--registry", "reg/errors.yaml", cwd=repo)
    assert done.returncode == 1 and "include-outside-registry" in done.stdout + done.stderr, done.stdout + done.stderr
    assert SECRET not in done.stdout + done.stderr


def test_a_committed_link_out_is_refused_at_the_ref_too(tmp_path: Path, secret_file: Path) -> None:
    repo = registry_with_link(tmp_path, Path("../../../home/.netrc"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "link")
    (repo / "reg" / "teams" / "x.yaml").unlink()  # gone from the working tree, still at HEAD
    done = run_errgen("diff", "--against", "HEAD", "--registry", "reg/errors.yaml", cwd=repo)
    output = done.stdout + done.stderr
    assert done.returncode == 1 and f"HEAD:reg/errors.yaml:{include_line(repo)}:" in output and "include-outside-registry" in output, output
    assert SECRET not in output


def test_a_link_inside_the_folder_is_followed_and_bump_does_not_write_through_it(tmp_path: Path) -> None:
    repo = nested(tmp_path)
    teams = repo / "reg" / "teams"
    (repo / "reg" / "shared").mkdir()
    (repo / "reg" / "shared" / "new.yaml").write_text(
        "owner: '@acme/new'\ncodes:\n  BRAND_NEW:\n    category: validation\n    scope: request\n"
        "    description: A new code.\n    since: 2.1.0\n")
    (teams / "new.yaml").symlink_to("../shared/new.yaml")
    lint = run_errgen("lint", "--registry", "reg/errors.yaml", cwd=repo)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    before = (repo / "reg" / "shared" / "new.yaml").read_bytes()
    bumped = run_errgen("bump", "--registry", "reg/errors.yaml", cwd=repo)
    assert bumped.returncode != 0 and "symbolic link" in bumped.stderr, bumped.stderr
    assert (repo / "reg" / "shared" / "new.yaml").read_bytes() == before and (teams / "new.yaml").is_symlink()


def test_a_link_cycle_inside_the_folder_ends(tmp_path: Path) -> None:
    repo = nested(tmp_path)
    (repo / "reg" / "teams" / "ops" / "loop").symlink_to("..")
    found = expand("teams/**/*.yaml", WorkTree(repo / "reg"))
    assert [s for s, _ in found.found] == ["teams/00-platform.yaml", "teams/ops/20-operations.yaml", "teams/pay/eu/10-payments.yaml"]


def test_equivalent_spellings_match_alike_and_many_double_stars_stay_fast(tmp_path: Path) -> None:
    import os

    repo = nested(tmp_path)
    base = expand("teams/**/*.yaml", WorkTree(repo / "reg"))
    for spelling in ("./teams/**/*.yaml", "teams//**/*.yaml", "teams/**/**/**/*.yaml"):
        assert expand(spelling, WorkTree(repo / "reg")) == base
    deep = repo / "reg" / "deep"
    for i in range(12):
        deep = deep / f"d{i}"
    deep.mkdir(parents=True)
    # Each (folder, segment) is searched once however many ways `**` reaches it: the listings
    # stay within folders x segments, where a naive matcher's grow exponentially. A count, not
    # a clock (bench.timing_bench times it), so the test holds on a loaded machine.
    listed: list[str] = []

    class Counting(WorkTree):
        def entries(self, folder: str) -> dict[str, str]:
            listed.append(folder)
            return super().entries(folder)

    pattern = "/".join(["**", "d*"] * 12) + "/*.yaml"
    expand(pattern, Counting(repo / "reg"))
    folders = 1 + sum(len(dirs) for _, dirs, _ in os.walk(repo / "reg"))
    assert 0 < len(listed) <= folders * len(pattern.split("/"))
