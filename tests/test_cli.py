"""The command line as a user meets it: exit codes, messages, no tracebacks, fast start."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXIT_RETURNS, FIXTURES, REGISTRY, ROOT, default_code_count, run_errgen


def test_lint_default_registry_is_clean() -> None:
    done = run_errgen("lint")
    assert done.returncode == 0, done.stderr
    assert f"ok ({default_code_count()} codes)" in done.stderr


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


def test_init_starts_a_small_project_registry_that_lints_clean_and_builds(tmp_path: Path) -> None:
    project = tmp_path / "Billing-API"
    project.mkdir()
    done = run_errgen("init", cwd=project)
    assert done.returncode == 0, done.stderr
    registry = project / "registry" / "errors.yaml"
    text = registry.read_text(encoding="utf-8")
    lint = run_errgen("lint", "--format", "json", cwd=project)
    assert (lint.returncode, json.loads(lint.stdout)) == (0, [])  # not even a warning
    from errgen.registry.lint import lint_path

    model = lint_path(registry).registry
    assert (model.name, model.version, len(model.history)) == ("billing_api", "0.1.0", 1)
    assert 3 <= len(model.codes) <= 6 and "acme" not in text  # a starter, not errgen's own example
    built = run_errgen("build", cwd=project)
    assert built.returncode == 0, built.stderr
    assert (project / "generated" / "python" / "billing_api_errors").is_dir()


def test_init_refers_to_nothing_outside_the_project(tmp_path: Path) -> None:
    assert run_errgen("init", "contract/errors.yaml", cwd=tmp_path).returncode == 0
    text = (tmp_path / "contract" / "errors.yaml").read_text(encoding="utf-8")
    assert "docs/registry.md" not in text and "file:" not in text and str(ROOT) not in text
    [hint] = [line.split("$schema=", 1)[1] for line in text.splitlines() if "$schema=" in line]
    schema = json.loads((tmp_path / "contract" / hint).read_text(encoding="utf-8"))  # relative to the registry
    import yaml
    from jsonschema import Draft202012Validator

    document = json.loads(json.dumps(yaml.safe_load(text), default=str))
    assert list(Draft202012Validator(schema).iter_errors(document)) == []
    assert "docs/registry.md" not in json.dumps(schema)


def test_init_never_overwrites_without_force(tmp_path: Path) -> None:
    assert run_errgen("init", cwd=tmp_path).returncode == 0
    registry = tmp_path / "registry" / "errors.yaml"
    registry.write_text("mine", encoding="utf-8")
    again = run_errgen("init", cwd=tmp_path)
    assert again.returncode == 2 and "--force" in again.stderr and registry.read_text() == "mine"
    assert run_errgen("init", "--force", cwd=tmp_path).returncode == 0
    assert registry.read_text().startswith("# yaml-language-server")


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
    code = EXIT_RETURNS + "import sys, runpy; sys.argv = ['errgen', *%r]\ntry:\n    runpy.run_module('errgen', run_name='__main__')\nexcept SystemExit:\n    pass\nprint(sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (args, HEAVY)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "src")})
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr
