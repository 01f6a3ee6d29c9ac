"""What users expect of a command-line tool: project settings files, quiet and verbose, colour
that follows the terminal and NO_COLOR/FORCE_COLOR, -V, shell completion, and no noise from a
registry's warnings in commands other than lint."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, REGISTRY, ROOT, default_code_count, interruptible

ESC = "\x1b["
WARNED = FIXTURES / "lint" / "unused-category.yaml"  # lints with one warning and no error
LEAKY = FIXTURES / "validate" / "leak-internal-host.json"


def errgen(*args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    """Run errgen as a user would, with the colour variables only as the test sets them."""
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE")}
    return subprocess.run([sys.executable, "-m", "errgen", *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**base, "PYTHONPATH": str(ROOT / "src"), **env})


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "contract").mkdir()
    shutil.copy(REGISTRY, tmp_path / "contract" / "errors.yaml")
    return tmp_path


# --- item 8: registry warnings belong to lint -------------------------------------------------

@pytest.mark.parametrize("args", [
    ["build", "--check", "--out", "{tmp}/out", "--registry", str(WARNED)],
    ["diff", str(WARNED), str(WARNED)],
    ["bump", "--from", str(WARNED), "--registry", str(WARNED), "--dry-run"],
    ["validate", "--registry", str(WARNED), str(FIXTURES / "validate" / "expected.json")],
], ids=lambda a: a[0])
def test_other_commands_do_not_repeat_the_registry_warnings(args: list[str], tmp_path: Path) -> None:
    done = errgen(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert "unused-category" not in done.stderr + done.stdout and "Found " not in done.stderr, done.stderr
    verbose = errgen("-v", *(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert f"{WARNED}: 1 warning(s); `errgen lint` lists them" in verbose.stderr


def test_lint_still_lists_the_warnings() -> None:
    linted = errgen("lint", "--registry", str(WARNED))
    assert "warning[unused-category]" in linted.stderr and "Found 0 error(s), 1 warning(s)." in linted.stderr


def test_other_commands_still_print_registry_errors(tmp_path: Path) -> None:
    done = errgen("build", "--out", str(tmp_path), "--registry", str(FIXTURES / "lint" / "unknown-category.yaml"))
    assert done.returncode == 1 and "error[unknown-category]" in done.stderr


# --- item 19: quiet, verbose, version, colour, completion ---------------------------------------

def test_quiet_drops_status_lines_but_not_problems(tmp_path: Path) -> None:
    assert errgen("lint").stderr.strip() == f"registry/errors.yaml: ok ({default_code_count()} codes)"
    for args in (["-q", "lint"], ["lint", "-q"], ["lint", "--quiet"]):
        done = errgen(*args)
        assert (done.returncode, done.stderr) == (0, ""), args
    built = errgen("build", "-q", "--out", str(tmp_path / "out"), "--target", "schema")
    assert (built.returncode, built.stderr) == (0, "") and (tmp_path / "out" / "schema").is_dir()
    failing = errgen("-q", "lint", "--registry", str(FIXTURES / "lint" / "unknown-category.yaml"))
    assert failing.returncode == 1 and "error[unknown-category]" in failing.stderr


def test_quiet_and_verbose_together_is_a_usage_error() -> None:
    done = errgen("-q", "lint", "-v")
    assert done.returncode == 2 and "-q or -v, not both" in done.stderr


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version(flag: str) -> None:
    from errgen import __version__

    done = errgen(flag)
    assert (done.returncode, done.stdout.strip()) == (0, f"errgen, version {__version__}")


@pytest.mark.parametrize(("args", "env", "coloured"), [
    ([], {}, False),  # a pipe is not a terminal
    ([], {"FORCE_COLOR": "1"}, True),
    ([], {"FORCE_COLOR": "0"}, False),
    ([], {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    (["--color", "always"], {"NO_COLOR": "1"}, True),
    (["--color", "never"], {"FORCE_COLOR": "1"}, False),
    (["--color", "auto"], {"FORCE_COLOR": "1"}, True),
], ids=["pipe", "force", "force-0", "no-color-wins", "always", "never", "auto"])
def test_colour_follows_the_flag_then_no_color_then_force_color(args: list[str], env: dict[str, str], coloured: bool) -> None:
    done = errgen("lint", *args, "--registry", str(WARNED), **env)
    assert done.returncode == 0
    assert (ESC in done.stderr) is coloured, repr(done.stderr)
    plain = done.stderr.replace(f"{ESC}0m", "")
    assert "warning[unused-category]" in __import__("re").sub(r"\x1b\[[0-9;]*m", "", plain)


def test_colour_on_a_terminal() -> None:
    """`auto` colours a real terminal (a pseudo-terminal here), not only when forced."""
    pty = pytest.importorskip("pty")
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    primary, secondary = pty.openpty()
    subprocess.run([sys.executable, "-m", "errgen", "lint", "--registry", str(WARNED)], cwd=ROOT, stderr=secondary,
                   stdout=subprocess.DEVNULL, env={**base, "PYTHONPATH": str(ROOT / "src")}, timeout=300)
    os.close(secondary)
    output = os.read(primary, 65536).decode()
    os.close(primary)
    assert ESC in output and "unused-category" in output


def test_colour_never_touches_machine_formats() -> None:
    done = errgen("lint", "--format", "json", "--registry", str(WARNED), FORCE_COLOR="1")
    assert ESC not in done.stdout


def test_completion_scripts_complete_commands(tmp_path: Path) -> None:
    for shell, marker in (("bash", "_ERRGEN_COMPLETE=bash_complete"), ("zsh", "compdef"), ("fish", "_ERRGEN_COMPLETE=fish_complete")):
        done = errgen("completion", shell)
        assert done.returncode == 0 and marker in done.stdout, shell
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    shim = tmp_path / "errgen"  # the script calls `errgen`; make this checkout's the one on PATH
    shim.write_text(f'#!/bin/sh\nPYTHONPATH={ROOT / "src"} exec {sys.executable} -m errgen "$@"\n')
    shim.chmod(0o755)
    script = 'source <(errgen completion bash); COMP_WORDS=(errgen bu); COMP_CWORD=1; _errgen_completion errgen; echo "${COMPREPLY[@]}"'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"})
    assert done.stdout.split() == ["build", "bump"], done.stderr


# --- item 18: errgen.toml and [tool.errgen] -----------------------------------------------------

def test_errgen_toml_sets_registry_out_and_targets(project: Path) -> None:
    (project / "errgen.toml").write_text('registry = "contract/errors.yaml"\nout = "sdk"\ntargets = ["schema"]\n')
    done = errgen("build", cwd=project)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (project / "sdk").iterdir()) == [".errgen-cache.json", ".errgen-manifest.json", ".gitignore", "schema"]
    assert errgen("lint", cwd=project).stderr.startswith("contract/errors.yaml: ok")
    flags_win = errgen("build", "--out", "other", "--target", "recovery", cwd=project)
    assert flags_win.returncode == 0 and (project / "other" / "recovery.json").exists() and not (project / "other" / "schema").exists()


def test_pyproject_table_in_a_parent_folder_with_paths_relative_to_it(project: Path) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.errgen]\nregistry = "contract/errors.yaml"\n')
    (project / ".git").mkdir()  # the lookup climbs up to the repository root, no further
    nested = project / "src" / "deep"
    nested.mkdir(parents=True)
    done = errgen("-v", "lint", cwd=nested)
    assert done.returncode == 0, done.stderr
    assert "settings from ../../pyproject.toml [tool.errgen]" in done.stderr
    assert "../../contract/errors.yaml: ok" in done.stderr


def test_a_pyproject_without_the_table_is_not_a_setting(project: Path) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n')
    done = errgen("lint", cwd=project)
    assert done.returncode == 2 and "no registry at registry/errors.yaml" in done.stderr


def test_validate_allow_lists_come_from_the_settings(project: Path) -> None:
    assert errgen("validate", "--registry", str(REGISTRY), str(LEAKY), cwd=project).returncode == 1
    # settings name a registry inside the project (one outside it is refused: test_security_paths)
    (project / "errgen.toml").write_text('registry = "contract/errors.yaml"\n\n[validate]\nallow-hosts = ["internal"]\n')
    done = errgen("validate", str(LEAKY), cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr


def test_settings_point_at_a_missing_registry(project: Path) -> None:
    (project / "errgen.toml").write_text('registry = "nope.yaml"\n')
    done = errgen("lint", cwd=project)
    assert done.returncode == 2
    assert "no registry at nope.yaml (set by errgen.toml registry)" in done.stderr


@pytest.mark.parametrize(("text", "message"), [
    ('[tool.errgen]\nregistyr = "x.yaml"\n', "pyproject.toml: [tool.errgen] unknown key 'registyr'; did you mean 'registry'?"),
    ('[tool.errgen]\nout = 3\n', "pyproject.toml: [tool.errgen] out must be a path (a non-empty string), found 3"),
    ('[tool.errgen]\ntargets = "python"\n', "pyproject.toml: [tool.errgen] targets must be a list of target names (strings), found 'python'"),
    ('[tool.errgen.validate]\nallow-host = ["a"]\n', "pyproject.toml: [tool.errgen] unknown key 'validate.allow-host'; did you mean 'allow-hosts'?"),
    ('[tool.errgen]\nregistry = "x\n', "pyproject.toml: not valid TOML: Illegal character '\\n' (at line 2, column 14)"),
], ids=["unknown-key", "wrong-type", "list-expected", "nested-unknown", "syntax"])
def test_bad_settings_name_file_and_key(project: Path, text: str, message: str) -> None:
    (project / "pyproject.toml").write_text(text)
    done = errgen("lint", cwd=project)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == f"errgen: {message}"


def test_unknown_target_in_settings_says_where_it_was_set(project: Path) -> None:
    (project / "errgen.toml").write_text('registry = "contract/errors.yaml"\ntargets = ["cobol"]\n')
    done = errgen("build", cwd=project)
    assert done.returncode == 2 and "unknown target 'cobol'" in done.stderr and "(set by errgen.toml targets)" in done.stderr


def test_init_writes_where_the_settings_say(project: Path) -> None:
    (project / "errgen.toml").write_text('registry = "errors/registry.yaml"\n')
    assert errgen("init", cwd=project).returncode == 0
    assert (project / "errors" / "registry.yaml").exists()
    assert errgen("lint", cwd=project).returncode == 0


def test_ctrl_c_is_exit_130_with_one_line_and_nothing_written(tmp_path: Path) -> None:
    """SIGINT in the middle of a large build: the shell's exit code, no traceback, and the output
    folder this build had begun is gone."""
    import signal
    import time

    from bench import synth

    registry = synth.write(tmp_path, 20_000)
    out = tmp_path / "generated"
    proc = subprocess.Popen([sys.executable, "-m", "errgen", "build", "--registry", str(registry), "--out", str(out)],
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                            preexec_fn=interruptible)
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "errgen: interrupted" and "Traceback" not in err, err
    assert not out.exists()


# --- issue 24 item 4: settings lookup stops at the repository root ---------------------------------

HOSTILE = 'out = "attacker/sdk"\n\n[validate]\nallow-patterns = [".*"]\n'


@pytest.mark.parametrize("marker", ["dir", "file"])
def test_a_settings_file_above_the_repository_is_ignored(tmp_path: Path, marker: str) -> None:
    (tmp_path / "errgen.toml").write_text(HOSTILE)  # a shared folder above the checkout
    repo = tmp_path / "checkout"
    shutil.copytree(Path(REGISTRY).parent, repo / "registry")
    if marker == "dir":
        (repo / ".git").mkdir()
    else:
        (repo / ".git").write_text("gitdir: /elsewhere/worktrees/x\n")  # a worktree or submodule
    (repo / "sub").mkdir()
    for cwd in (repo, repo / "sub"):
        done = errgen("-v", "validate", "--registry", str(REGISTRY), str(LEAKY), cwd=cwd)
        assert done.returncode == 1, done.stdout + done.stderr  # the leak is still found
        assert "no settings file" in done.stderr and "repository root" in done.stderr
        assert "attacker" not in done.stderr


def test_outside_a_repository_only_the_current_folder_is_read(tmp_path: Path) -> None:
    (tmp_path / "errgen.toml").write_text(HOSTILE)
    here = tmp_path / "work"
    here.mkdir()
    done = errgen("-v", "validate", "--registry", str(REGISTRY), str(LEAKY), cwd=here)
    assert done.returncode == 1 and "parent folders are not read" in done.stderr, done.stderr
    (here / "errgen.toml").write_text(HOSTILE)
    done = errgen("-v", "validate", "--registry", str(REGISTRY), str(LEAKY), cwd=here)
    assert done.returncode == 0 and "settings from errgen.toml" in done.stderr, done.stderr


@pytest.mark.parametrize("args", [["conformance", "--out", "nowhere"], ["targets"], ["owners"], ["build", "--check"]])
def test_every_command_says_where_settings_came_from_with_v(project: Path, args: list[str]) -> None:
    (project / "errgen.toml").write_text('registry = "contract/errors.yaml"\n')
    done = errgen(*args[:1], "-v", *args[1:], cwd=project)
    assert "settings from errgen.toml" in done.stderr, (args, done.stderr)


def test_a_missing_dependency_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """black missing from the environment (an install gone wrong): a sentence, not a traceback."""
    script = ("import sys\n"
              "class Block:\n"
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name == 'black' or name.startswith('black.'):\n"
              "            raise ModuleNotFoundError(\"No module named 'black'\", name='black')\n"
              "sys.meta_path.insert(0, Block())\n"
              "sys.argv = ['errgen', 'build', '--out', sys.argv[1]]\n"
              "from errgen.cli import run\n"
              "run()\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "ERRGEN_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "'black' is missing" in done.stderr
