"""The pre-commit hooks as a service team uses them (issue 29, items 1 and 3): a git repository
with a folder registry outside registry/ and its output outside generated/ (both set in
errgen.toml), pre-commit installed, and the hooks of this repository's .pre-commit-hooks.yaml.
A commit is blocked by a lint error in a team fragment, by a stale output, and by an unannounced
break; the same break, bumped and rebuilt, commits.

The hooks run as `language: system` (the errgen under test) with every other key exactly as
.pre-commit-hooks.yaml declares them: the real pre-commit decides when each runs, with what
arguments and files; what it does not do here is pip-install errgen into its own environment
(a minute or more per run, and pip must reach errgen's dependencies): the last test, marked slow,
does that too, with `repo:` this repository at its HEAD commit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

pytest.importorskip("pre_commit")

SETTINGS = 'registry = "contract/errors.yaml"\nout = "sdk"\ntargets = ["python", "schema"]\n'


def local_hooks(args: dict[str, list[str]]) -> str:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    for hook in hooks:
        hook["language"] = "system"
        if hook["id"] in args:
            hook["args"] = args[hook["id"]]
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]}, sort_keys=False)


def make_service(tmp_path: Path, config: str) -> tuple[Path, dict[str, str]]:
    """A service repository on branch `feature`, forked from `main` where the contract and its
    build were committed, with `config` as its .pre-commit-config.yaml and pre-commit installed."""
    repo = tmp_path / "service"
    shutil.copytree(ROOT / "examples" / "multi-team", repo / "contract")
    (repo / "errgen.toml").write_text(SETTINGS)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    env.pop("GIT_DIR", None)
    run = lambda *argv: subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=300)  # noqa: E731
    assert run("git", "init", "-q", "-b", "main").returncode == 0
    assert run(sys.executable, "-m", "errgen", "build").returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(config)
    assert run("git", "add", "-A").returncode == 0
    assert run("git", "commit", "-qm", "contract 2.1.0").returncode == 0
    assert run("git", "checkout", "-qb", "feature").returncode == 0
    installed = run(sys.executable, "-m", "pre_commit", "install")
    assert installed.returncode == 0, installed.stderr
    return repo, env


@pytest.fixture()
def service(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    return make_service(tmp_path, local_hooks({"errgen-diff": ["--against", "main"]}))


def commit(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    for argv in (["git", "add", "-A"], ["git", "commit", "-m", "change"]):
        done = subprocess.run(argv, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    return done


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def errgen(repo: Path, env: dict[str, str], *args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "errgen", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_lint_error_in_a_team_fragment_blocks_the_commit(service: tuple[Path, dict[str, str]]) -> None:
    repo, env = service
    edit(repo / "contract" / "teams" / "10-payments.yaml", "http_status: 504", "http_status: 200")
    done = commit(repo, env)
    assert done.returncode != 0, done.stdout
    assert "contract/teams/10-payments.yaml:8:" in done.stdout and "http-status-range" in done.stdout
    assert "errgen lint" in done.stdout and "Skipped" not in done.stdout


def test_a_stale_output_blocks_the_commit(service: tuple[Path, dict[str, str]]) -> None:
    repo, env = service
    edit(repo / "contract" / "teams" / "10-payments.yaml", "has closed.", "has closed; refunds go through support.")
    done = commit(repo, env)
    assert done.returncode != 0, done.stdout
    assert "sdk is stale" in done.stdout


def test_an_unannounced_break_blocks_the_commit_and_the_bumped_one_passes(service: tuple[Path, dict[str, str]]) -> None:
    repo, env = service
    fragment = repo / "contract" / "teams" / "10-payments.yaml"
    text = fragment.read_text()
    fragment.write_text(text[: text.index("\n  REFUND_WINDOW_CLOSED:")] + "\n")
    errgen(repo, env, "build")
    done = commit(repo, env)
    assert done.returncode != 0, done.stdout
    assert "REFUND_WINDOW_CLOSED" in done.stdout and "not announced" in done.stdout
    errgen(repo, env, "bump", "--against", "main")
    errgen(repo, env, "build")
    done = commit(repo, env)
    assert done.returncode == 0, done.stdout + done.stderr
    # a second commit on the branch is compared with where it forked, not with the bumped commit
    edit(fragment, "Replay with the same idempotency key.", "Replay it with the same idempotency key.")
    errgen(repo, env, "build")
    done = commit(repo, env)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow  # pre-commit builds its own environment and pip-installs errgen into it (a minute or more)
def test_the_hooks_installed_by_pre_commit_from_this_repository_block_a_fragment_lint_error(tmp_path: Path) -> None:
    """The same hooks as a user gets them: `repo:` this repository at its HEAD commit, installed by
    pre-commit itself (language: python). Needs pip to reach errgen's dependencies."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    if head.returncode != 0:
        pytest.skip("this checkout is not a git repository")
    repo, env = make_service(tmp_path, yaml.safe_dump({"repos": [{"repo": str(ROOT), "rev": head.stdout.strip(), "hooks": [
        {"id": "errgen-lint"}, {"id": "errgen-build-check"}, {"id": "errgen-diff", "args": ["--against", "main"]}]}]}))
    env.pop("PYTHONPATH")  # the hooks run the errgen pre-commit installed, not this checkout's
    edit(repo / "contract" / "teams" / "10-payments.yaml", "http_status: 504", "http_status: 200")
    done = commit(repo, env)
    assert done.returncode != 0, done.stdout
    assert "contract/teams/10-payments.yaml:8:" in done.stdout and "http-status-range" in done.stdout


def test_merge_base_needs_a_ref_git_knows(tmp_path: Path) -> None:
    from conftest import run_errgen

    assert "--merge-base needs --against" in run_errgen("diff", "--merge-base", cwd=tmp_path).stderr
    done = run_errgen("diff", "--merge-base", "--against", "no-such-branch", "--registry", str(ROOT / "registry" / "errors.yaml"))
    assert done.returncode == 2 and "no merge base of 'no-such-branch' and HEAD" in done.stderr and "Traceback" not in done.stderr
