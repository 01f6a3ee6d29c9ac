"""Issue 38 point 1: nothing outside the repository is read or written because the checkout says
so. The registry and output folder set by the settings (or left at their defaults) resolve
inside the repository root after links are followed; a path typed on the command line is the
caller's, but a link inside the repository never leads errgen out of it; a FIFO or a device is
never read as a registry; and a file that does not load is quoted masked."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import REGISTRY, run_errgen

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # a GitHub token's shape
URL = "https://deploy:s3cr3t-Passw0rd-xyz@git.example.com/acme/repo"


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    """A folder beside the repository holding a 'secret' file: one YAML scalar, a URL with a password."""
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / ".netrc").write_text(URL + "\n")
    return folder


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A repository (a `.git` folder is what marks its root) with the default registry."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "registry").mkdir()
    shutil.copy(REGISTRY, root / "registry" / "errors.yaml")
    return root


def _clean(done: "object", *secrets: str) -> str:
    text = done.stdout + done.stderr  # type: ignore[attr-defined]
    for secret in (*secrets, "s3cr3t-Passw0rd", TOKEN):
        assert secret not in text, text
    return text


# --- settings may not point outside -----------------------------------------------------------

@pytest.mark.parametrize("value", ["{outside}/.netrc", "../home/.netrc", "registry/../../home/.netrc"])
@pytest.mark.parametrize("command", [["lint"], ["build", "--check"], ["validate", "-"]])
def test_a_registry_setting_outside_the_repository_is_refused(repo: Path, outside: Path, value: str, command: list[str]) -> None:
    written = value.format(outside=outside)
    (repo / "errgen.toml").write_text(f'registry = "{written}"\n')
    done = run_errgen(*command, cwd=repo, input="{}")
    assert done.returncode == 2
    text = _clean(done)
    assert f'errgen.toml: registry: "{written}" is outside the repository ({os.path.realpath(repo)})' in text


def test_a_pyproject_out_setting_outside_is_refused_and_nothing_is_written(repo: Path, tmp_path: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.errgen]\nout = "../written-outside"\n')
    done = run_errgen("build", "--target", "schema", cwd=repo)
    assert done.returncode == 2
    assert 'pyproject.toml: [tool.errgen] out: "../written-outside" is outside the repository' in done.stderr
    assert not (tmp_path / "written-outside").exists()


def test_an_out_setting_through_a_link_is_refused_for_build_and_conformance(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (repo / "sdk").symlink_to(tmp_path / "elsewhere")
    (repo / "errgen.toml").write_text('out = "sdk"\n')
    for command in (["build", "--target", "schema"], ["conformance"]):
        done = run_errgen(*command, cwd=repo)
        assert done.returncode == 2, done.stderr
        assert 'errgen.toml: out: "sdk" leads outside the repository' in done.stderr
    assert not list((tmp_path / "elsewhere").iterdir())


def test_outside_a_repository_the_current_folder_is_the_root(tmp_path: Path, outside: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "errgen.toml").write_text('registry = "../home/.netrc"\n')
    done = run_errgen("lint", cwd=project)
    assert done.returncode == 2
    assert f'is outside the current folder ({os.path.realpath(project)}; not in a git repository)' in _clean(done)


def test_init_never_writes_where_the_settings_point_outside(repo: Path, tmp_path: Path) -> None:
    (repo / "errgen.toml").write_text('registry = "../planted/errors.yaml"\n')
    done = run_errgen("init", "--force", cwd=repo)
    assert done.returncode == 2 and not (tmp_path / "planted").exists()


# --- committed links that lead out ---------------------------------------------------------------

def test_a_committed_registry_link_that_leads_out_is_refused_and_never_printed(repo: Path, outside: Path) -> None:
    (repo / "registry" / "errors.yaml").unlink()
    (repo / "registry" / "errors.yaml").symlink_to(outside / ".netrc")
    for command in (["lint"], ["lint", "--format", "json"], ["build", "--check"], ["lint", "--registry", "registry/errors.yaml"],
                    ["diff", "--against", "HEAD"], ["bump", "--dry-run"]):
        done = run_errgen(*command, cwd=repo)
        assert done.returncode == 2, (command, done.stderr)
        assert "leads outside the repository" in _clean(done), command


def test_a_committed_output_folder_link_that_leads_out_is_refused(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (repo / "generated").symlink_to(tmp_path / "elsewhere")
    for command in (["build", "--target", "schema"], ["build", "--check"], ["conformance"], ["build", "--out", "generated"]):
        done = run_errgen(*command, cwd=repo)
        assert done.returncode == 2, (command, done.stderr)
        assert '"generated" leads outside the repository' in done.stderr, command
    assert "the default output folder" in run_errgen("build", cwd=repo).stderr
    assert not list((tmp_path / "elsewhere").iterdir())


def test_named_files_may_be_anywhere_but_not_through_a_link_in_the_repository(repo: Path, outside: Path, tmp_path: Path) -> None:
    shutil.copy(REGISTRY, tmp_path / "old.yaml")  # a copy of the last release beside the checkout: the caller's choice
    assert run_errgen("diff", str(tmp_path / "old.yaml"), "registry/errors.yaml", cwd=repo).returncode == 0
    (repo / "old.yaml").symlink_to(outside / ".netrc")
    (repo / "payloads.json").symlink_to(outside / ".netrc")
    for command in (["diff", "old.yaml", "registry/errors.yaml"], ["bump", "--from", "old.yaml", "--dry-run"],
                    ["validate", "payloads.json"]):
        done = run_errgen(*command, cwd=repo)
        assert done.returncode == 2, (command, done.stderr)
        assert "leads outside the repository" in _clean(done), command


# --- only regular files, and quoted masked ------------------------------------------------------

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_as_the_registry_is_refused_before_reading(device: str) -> None:
    """Refused by what the path is, not by what reading it gives: /dev/zero read would never end
    (run_errgen's timeout is the guard against that hang, not a measure of speed)."""
    done = run_errgen("lint", "--registry", device)
    assert done.returncode == 2 and f"{device} is a device, not a regular file" in done.stderr


def test_a_fifo_as_the_registry_or_a_fragment_is_never_opened_for_reading(repo: Path) -> None:
    fifo = repo / "registry" / "pipe.yaml"
    os.mkfifo(fifo)
    done = run_errgen("lint", "--registry", "registry/pipe.yaml", cwd=repo)  # would block forever if read
    assert done.returncode == 2 and "is a FIFO, not a regular file" in done.stderr
    header = repo / "registry" / "errors.yaml"
    header.write_text(header.read_text() + "include: ['*.yaml']\n")
    done = run_errgen("lint", cwd=repo)  # a pattern passes the FIFO by: it is no file
    assert done.returncode == 0 and "pipe.yaml" not in done.stdout + done.stderr, done.stderr


@pytest.mark.parametrize("secret", [URL, TOKEN])
@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_a_registry_that_does_not_load_is_quoted_masked(repo: Path, secret: str, fmt: str) -> None:
    (repo / "registry" / "errors.yaml").write_text(secret + "\n")
    done = run_errgen("lint", "--format", fmt, cwd=repo)
    assert done.returncode == 2
    text = _clean(done)
    assert "ghp_" in text or "deploy:****@git.example.com" in text  # recognisable, not usable
    if fmt == "json":
        json.loads(done.stdout)


def test_a_named_old_registry_that_does_not_load_is_quoted_masked(repo: Path, outside: Path) -> None:
    done = run_errgen("diff", str(outside / ".netrc"), "registry/errors.yaml", cwd=repo)
    assert done.returncode == 2 and "deploy:****@git.example.com" in _clean(done)


def test_a_settings_error_quoting_a_value_is_masked(repo: Path) -> None:
    (repo / "errgen.toml").write_text(f'targets = "{TOKEN}"\n')
    done = run_errgen("lint", cwd=repo)
    assert done.returncode == 2 and "targets must be" in _clean(done)
    (repo / "errgen.toml").write_text(f'targets = ["{TOKEN}"]\n')
    done = run_errgen("build", "--check", cwd=repo)
    assert done.returncode == 2 and "unknown target 'ghp_" in _clean(done)


@pytest.mark.parametrize("name", ["errgen.toml", "pyproject.toml"])
def test_a_settings_file_that_is_a_link_out_of_the_repository_is_not_read(repo: Path, outside: Path, name: str) -> None:
    (outside / "creds.toml").write_text(f'[tool.errgen]\npassword = "{TOKEN}"\n' if name == "pyproject.toml" else f'password = "{TOKEN}"\n')
    (repo / name).symlink_to(outside / "creds.toml")
    done = run_errgen("lint", cwd=repo)
    assert done.returncode == 2
    assert f"{name}: leads outside the repository" in _clean(done) and "password" not in done.stderr
