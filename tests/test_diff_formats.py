"""One writer per output format (errgen.formats) for lint, diff and validate: escaping that no
registry or payload text can break out of, SARIF that validates, and annotations that point at
files in the checkout (issue 10 High 1, issue 11 items 4 and 20, issue 12 bug 4)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from conftest import FIXTURES, REGISTRY, run_errgen
from test_diff import SARIF_SCHEMA
from test_diff_git_and_bump import edit, git
from errgen import formats

INJECTION = "x\n::error title=INJECTED::owned"


def sarif_valid(text: str) -> dict:  # type: ignore[type-arg]
    log = json.loads(text)
    Draft7Validator(json.loads(SARIF_SCHEMA.read_text())).validate(log)
    return log


def no_injected_command(output: str) -> None:
    for line in output.splitlines():
        assert not line.startswith("::error title=INJECTED"), line


def test_github_annotation_escapes_messages_and_properties() -> None:
    line = formats.github_annotation("error", "50% done\r\n::error::x", file="a,b:c.yaml", line=3, column=4, title="t:1,2")
    assert line == "::error file=a%2Cb%3Ac.yaml,line=3,col=4,title=t%3A1%2C2::50%25 done%0D%0A::error::x"
    assert "\n" not in line and formats.github_annotation("info", "m") == "::notice::m"


def test_markdown_cells_cannot_break_the_table() -> None:
    cell = formats.md_cell("a | b\n# c")
    assert "|" not in cell.replace("\\|", "") and "\n" not in cell


def test_validate_github_escapes_payload_keys(tmp_path: Path) -> None:
    payload = {"code": "RATE_LIMITED", "category": "rate_limit", "retryable": True, "scope": "service", "correlation_id": "c1",
               "retry_after_ms": 2000, INJECTION: 1}
    path = tmp_path / "a,b:c.json"
    path.write_text(json.dumps([payload]))
    done = run_errgen("validate", "--format", "github", str(path))
    assert done.returncode == 1 and "extra-field" in done.stdout
    no_injected_command(done.stdout)
    assert "file=" + str(path).replace(",", "%2C").replace(":", "%3A") in done.stdout


def test_validate_github_writer_keeps_a_raw_line_break_on_one_line() -> None:
    from errgen.validate import PayloadFinding
    from errgen.validate.report import stream

    out: list[str] = []
    finding = PayloadFinding("extra-field", "error", f"field {INJECTION} is extra", "p,1.json", 1, 0)
    assert stream([finding], "github", out.append) == {"error": 1, "warning": 0}
    assert out == ["::error file=p%2C1.json,line=1,title=extra-field::payload 1: field x%0A::error title=INJECTED::owned is extra"]


def test_validate_sarif_is_a_valid_log(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps([{"code": "NOPE", "category": "x"}, {"code": "RATE_LIMITED"}]))
    done = run_errgen("validate", "--format", "sarif", str(path))
    assert done.returncode == 1
    log = sarif_valid(done.stdout)
    results = log["runs"][0]["results"]
    assert {"unknown-code", "missing-field"} <= {r["ruleId"] for r in results}
    assert {r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]} == {r["ruleId"] for r in results}
    assert results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == str(path)


def broken_registry(tmp_path: Path) -> Path:
    text = (FIXTURES / "valid-minimal.yaml").read_text().replace("http_status: 503", "http_status: 200")
    path = tmp_path / "reg,x:y.yaml"
    path.write_text(text.replace("    since: 1.0.0\n  BAD_INPUT:", f"    since: 1.0.0\n    {json.dumps(INJECTION)}: 1\n  BAD_INPUT:"))
    return path


def test_lint_github_annotations(tmp_path: Path) -> None:
    done = run_errgen("lint", "--format", "github", "--registry", str(broken_registry(tmp_path)))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith("::error ") for line in lines)
    assert any("title=http-status-range::" in line for line in lines) and any("title=unknown-key::" in line for line in lines)
    assert all("file=" + str(tmp_path).replace(":", "%3A").replace(",", "%2C") + "/reg%2Cx%3Ay.yaml,line=" in line for line in lines)
    no_injected_command(done.stdout)


def test_lint_sarif(tmp_path: Path) -> None:
    done = run_errgen("lint", "--format", "sarif", "--registry", str(broken_registry(tmp_path)))
    assert done.returncode == 1
    log = sarif_valid(done.stdout)
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert {"http-status-range", "unknown-key"} <= set(rules)
    assert rules["http-status-range"]["help"]["text"] == "errgen docs http-status-range"
    assert "helpUri" not in rules["http-status-range"]  # no docs-url: no link to invent (tests/test_manual.py sets one)
    clean = run_errgen("lint", "--format", "sarif", "--registry", str(REGISTRY))
    assert clean.returncode == 0 and sarif_valid(clean.stdout)["runs"][0]["results"] == []


def test_lint_sarif_describes_rules_from_their_docstrings(tmp_path: Path) -> None:
    from errgen.registry.lint.base import RULES

    log = sarif_valid(run_errgen("lint", "--format", "sarif", "--registry", str(broken_registry(tmp_path))).stdout)
    docs = {r.id: r.doc for r in RULES}
    for rule in log["runs"][0]["tool"]["driver"]["rules"]:
        if rule["id"] in docs:
            assert rule["fullDescription"]["text"] == docs[rule["id"]]


@pytest.fixture()
def remote_repo(workdir: Path) -> Path:
    git(workdir, "init", "-q", "-b", "feature")
    git(workdir, "add", ".")
    git(workdir, "commit", "-q", "-m", "release 2.1.0")
    subprocess.run(["git", "update-ref", "refs/remotes/origin/main", "HEAD"], cwd=workdir, check=True)
    return workdir


@pytest.mark.parametrize("fmt", ["github", "sarif"])
def test_removed_codes_point_at_the_checkout_file_not_the_ref(remote_repo: Path, fmt: str) -> None:
    path = remote_repo / "registry" / "errors.yaml"
    text = path.read_text()
    start = text.index("  REFUND_WINDOW_CLOSED:")
    path.write_text(text[:start] + text[text.index("\n\n", start) + 2:])
    done = run_errgen("diff", "--against", "origin/main", "--format", fmt, cwd=remote_repo)
    assert done.returncode == 1, done.stderr
    assert "origin/main:" not in done.stdout.replace('"origin/main:registry/errors.yaml"', "")
    if fmt == "github":
        [line] = [l for l in done.stdout.splitlines() if "title=major code-removed" in l]
        assert line.startswith("::warning file=registry/errors.yaml,line=")
    else:
        log = sarif_valid(done.stdout)
        [result] = [r for r in log["runs"][0]["results"] if r["ruleId"] == "code-removed"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "registry/errors.yaml"


def test_json_keeps_where_the_removed_code_was(remote_repo: Path) -> None:
    edit(remote_repo, "  REFUND_WINDOW_CLOSED:\n", "  REFUND_WINDOW_SHUT:\n")
    done = run_errgen("diff", "--against", "origin/main", "--format", "json", cwd=remote_repo)
    [change] = [c for c in json.loads(done.stdout)["changes"] if c["rule"] in ("code-renamed", "code-probably-renamed", "code-removed")]
    assert change["old"]["path"] == "origin/main:registry/errors.yaml" and change["location"]["path"] == "registry/errors.yaml"
