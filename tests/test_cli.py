"""The command line as a user meets it: exit codes, messages, no tracebacks, fast start."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, REGISTRY, ROOT, run_errgen


def test_lint_default_registry_is_clean() -> None:
    done = run_errgen("lint")
    assert done.returncode == 0, done.stderr
    assert "ok (13 codes)" in done.stderr


def test_lint_reports_path_line_col_rule(tmp_path: Path) -> None:
    done = run_errgen("lint", "--registry", str(FIXTURES / "lint" / "unknown-category.yaml"))
    assert done.returncode == 1
    assert "unknown-category.yaml:16:15: error[unknown-category]: code BAD_INPUT: unknown category 'validaton'" in done.stderr
    assert "Traceback" not in done.stderr


def test_lint_json_format_has_the_same_fields() -> None:
    done = run_errgen("lint", "--format", "json", "--registry", str(FIXTURES / "lint" / "wrong-type.yaml"))
    assert done.returncode == 1
    [item] = [d for d in json.loads(done.stdout) if d["severity"] == "error"]
    assert item == {
        "rule": "wrong-type", "severity": "error", "line": 12, "column": 18,
        "path": str(FIXTURES / "lint" / "wrong-type.yaml"),
        "message": "codes.TIMED_OUT.http_status must be an integer, found the string '503'",
    }


def test_lint_json_on_clean_registry_is_an_empty_list() -> None:
    done = run_errgen("lint", "--format", "json")
    assert (done.returncode, json.loads(done.stdout)) == (0, [])


def test_warnings_alone_exit_zero() -> None:
    done = run_errgen("lint", "--registry", str(FIXTURES / "lint" / "unused-category.yaml"))
    assert done.returncode == 0
    assert "warning[unused-category]" in done.stderr


@pytest.mark.parametrize("content", [b"", b"a: [", b"\xff\xfe"], ids=["empty", "syntax", "encoding"])
def test_unparseable_registry_exits_2_without_traceback(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes(content)
    done = run_errgen("lint", "--registry", str(path))
    assert done.returncode == 2
    assert f"{path}:1:" in done.stderr or f"{path}:2:" in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_default_registry_names_init(tmp_path: Path) -> None:
    done = run_errgen("lint", cwd=tmp_path)
    assert done.returncode == 2
    assert "registry/errors.yaml" in done.stderr and "errgen init" in done.stderr


def test_init_scaffolds_a_registry_that_lints_and_builds(tmp_path: Path) -> None:
    assert run_errgen("init", cwd=tmp_path).returncode == 0
    assert run_errgen("lint", cwd=tmp_path).returncode == 0
    again = run_errgen("init", cwd=tmp_path)
    assert again.returncode == 2 and "--force" in again.stderr


def test_help_explains_commands_and_exit_codes() -> None:
    done = run_errgen("--help")
    assert done.returncode == 0
    for word in ("lint", "build", "Exit codes"):
        assert word in done.stdout


def test_unknown_target_is_a_clear_error() -> None:
    done = run_errgen("build", "--check", "--target", "cobol")
    assert done.returncode == 2
    assert "unknown target 'cobol'" in done.stderr and "python" in done.stderr


HEAVY = ("black", "jinja2", "datamodel_code_generator")


@pytest.mark.parametrize("args", [["--help"], ["lint"], ["lint", "--format", "json"],
                                  ["diff", "tests/fixtures/releases/errors-2.0.0.yaml", "registry/errors.yaml"],
                                  ["validate", "tests/fixtures/validate/unknown-code.json"]], ids=" ".join)
def test_fast_commands_do_not_import_heavy_modules(args: list[str]) -> None:
    code = "import sys, runpy; sys.argv = ['errgen', *%r]\ntry:\n    runpy.run_module('errgen', run_name='__main__')\nexcept SystemExit:\n    pass\nprint(sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (args, HEAVY)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "src")})
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr
