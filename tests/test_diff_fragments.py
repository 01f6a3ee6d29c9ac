"""diff and bump on folder registries: OLD is composed at the ref exactly like NEW; moves and
owner changes are information, not contract changes; reports group by owner and point at fragments."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT, run_errgen
from errgen.diff.changes import RULE_SPECS
from test_compose import code, folder

EXAMPLE = ROOT / "examples" / "multi-team" / "errors.yaml"
RELEASE = ROOT / "tests" / "fixtures" / "releases" / "errors-2.0.0.yaml"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]


def commit(repo: Path, message: str = "release") -> None:
    subprocess.run(GIT + ["add", "-A"], cwd=repo, check=True)
    subprocess.run(GIT + ["commit", "-qm", message], cwd=repo, check=True)


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A git repository whose registry lives in registry/: a header and two teams' fragments."""
    reg = tmp_path / "registry"
    reg.mkdir()
    folder(reg, {"a.yaml": "owner: '@org/a'\ncodes:\n" + code("ALPHA") + code("SHARED"),
                 "b.yaml": "owner: '@org/b'\ncodes:\n" + code("BETA")})
    subprocess.run(GIT + ["init", "-q"], cwd=tmp_path, check=True)
    commit(tmp_path)
    return tmp_path


def write(repo: Path, name: str, text: str) -> None:
    (repo / "registry" / "teams" / name).write_text(text, encoding="utf-8")


def diff_json(repo: Path, *extra: str) -> tuple[int, dict]:
    done = run_errgen("diff", "--against", "HEAD", "--registry", "registry/errors.yaml", "--format", "json", *extra, cwd=repo)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def test_an_unchanged_folder_registry_has_no_changes_at_the_ref(repo: Path) -> None:
    status, report = diff_json(repo)
    assert status == 0 and report["changes"] == [] and report["required_bump"] == "none"


def test_against_reads_every_fragment_at_the_ref(repo: Path) -> None:
    # Without the fragments at the ref, OLD would have no codes and every code would be "added".
    write(repo, "b.yaml", "owner: '@org/b'\ncodes:\n" + code("BETA") + code("GAMMA"))
    write(repo, "c.yaml", "owner: '@org/c'\ncodes:\n" + code("DELTA"))
    status, report = diff_json(repo)
    assert sorted((c["rule"], c["code"]) for c in report["changes"]) == [("code-added", "DELTA"), ("code-added", "GAMMA")]
    assert report["required_bump"] == "minor" and status == 1  # the version was not bumped
    owners = {c["code"]: c["owner"] for c in report["changes"]}
    assert owners == {"GAMMA": "@org/b", "DELTA": "@org/c"}
    where = {c["code"]: c["location"]["path"] for c in report["changes"]}
    assert where == {"GAMMA": "registry/teams/b.yaml", "DELTA": "registry/teams/c.yaml"}


def test_a_code_removed_from_a_fragment_is_a_break_owned_by_its_old_team(repo: Path) -> None:
    write(repo, "a.yaml", "owner: '@org/a'\ncodes:\n" + code("ALPHA"))
    _, report = diff_json(repo)
    [change] = report["changes"]
    assert (change["rule"], change["code"], change["owner"]) == ("code-removed", "SHARED", "@org/a")
    # It points at the fragment it was removed from, in the checkout (not at the ref's copy).
    assert change["location"] == {"path": "registry/teams/a.yaml", "line": 1, "column": 1}
    assert change["old"]["path"] == "HEAD:registry/teams/a.yaml" and change["old"]["line"] == 8


def test_a_move_between_fragments_and_an_owner_change_need_no_release(repo: Path) -> None:
    write(repo, "a.yaml", "owner: '@org/a'\ncodes:\n" + code("ALPHA"))
    write(repo, "b.yaml", "owner: '@org/billing'\ncodes:\n" + code("BETA") + code("SHARED"))
    status, report = diff_json(repo)
    assert status == 0 and report["ok"] and report["required_bump"] == "none"
    got = {(c["rule"], c["bump"], c["severity"]) for c in report["changes"]}
    assert got == {("code-moved", "none", "info"), ("owner-changed", "none", "info")}
    moved = next(c for c in report["changes"] if c["rule"] == "code-moved")
    assert "teams/a.yaml (@org/a)" in moved["message"] and "teams/b.yaml (@org/billing)" in moved["message"]
    assert moved["location"] == {"path": "registry/teams/b.yaml", "line": 8, "column": 3}
    owner = next(c for c in report["changes"] if c["rule"] == "owner-changed")
    assert owner["location"]["path"] == "registry/teams/b.yaml" and "was @org/b" in owner["message"]
    # bump agrees: nothing to release, the files stay as they are.
    before = (repo / "registry" / "errors.yaml").read_bytes()
    done = run_errgen("bump", "--registry", "registry/errors.yaml", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "nothing to do" in done.stderr + done.stdout
    assert (repo / "registry" / "errors.yaml").read_bytes() == before


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "github", "sarif"])
def test_information_renders_in_every_format_and_never_fails(repo: Path, fmt: str) -> None:
    write(repo, "a.yaml", "owner: '@org/a'\ncodes:\n" + code("ALPHA"))
    write(repo, "b.yaml", "owner: '@org/b'\ncodes:\n" + code("BETA") + code("SHARED"))
    done = run_errgen("diff", "--against", "HEAD", "--registry", "registry/errors.yaml", "--format", fmt, cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "code-moved" in out and "SHARED" in out
    if fmt == "text":
        assert "For information (no release needed):" in out and "registry/teams/b.yaml:8:3: code-moved" in out
    if fmt == "markdown":
        assert "**For information (no release needed)**" in out and "| `code-moved` | SHARED |" in out
    if fmt == "github":
        [line] = [x for x in out.splitlines() if "code-moved" in x]
        assert line.startswith("::notice file=registry/teams/b.yaml,line=8,col=3,title=info code-moved::")
    if fmt == "sarif":
        [result] = json.loads(out)["runs"][0]["results"]
        assert result["level"] == "note" and result["properties"]["group"] == "info"
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "registry/teams/b.yaml"


def test_text_and_markdown_reports_group_by_owner(repo: Path) -> None:
    write(repo, "b.yaml", "owner: '@org/b'\ncodes:\n" + code("BETA") + code("GAMMA"))
    write(repo, "a.yaml", "owner: '@org/a'\ncodes:\n" + code("ALPHA") + code("SHARED").replace("A code.", "Reworded."))
    header = (repo / "registry" / "errors.yaml").read_text(encoding="utf-8")
    (repo / "registry" / "errors.yaml").write_text(header.replace("Fix it.", "Fix the input."), encoding="utf-8")
    done = run_errgen("diff", "--against", "HEAD", "--registry", "registry/errors.yaml", cwd=repo)
    lines = done.stdout.splitlines()
    heads = [x for x in lines if x and not x.startswith(" ") and x.endswith(":")]
    assert heads[:3] == ["@org/a:", "@org/b:", "registry/errors.yaml (no owner):"]
    section = lines[lines.index("@org/a:"):lines.index("@org/b:")]
    assert section[1:] == ["  Patch changes:", "    registry/teams/a.yaml:11:18: description-changed: SHARED's description changed"]
    assert any("category-description-changed" in x for x in lines[lines.index("registry/errors.yaml (no owner):"):])
    md = run_errgen("diff", "--against", "HEAD", "--registry", "registry/errors.yaml", "--format", "markdown", cwd=repo).stdout
    assert md.index("#### @org/a") < md.index("SHARED") < md.index("#### @org/b") < md.index("GAMMA") < md.index("#### registry/errors.yaml (no owner)")


def test_a_single_file_report_is_not_grouped() -> None:
    done = run_errgen("diff", str(RELEASE), str(REGISTRY))
    assert "(no owner)" not in done.stdout and not done.stdout.startswith("@")


def test_a_folder_registry_new_on_the_branch_is_all_added(tmp_path: Path) -> None:
    subprocess.run(GIT + ["init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "README").write_text("x\n", encoding="utf-8")
    commit(tmp_path, "start")
    (tmp_path / "registry").mkdir()
    folder(tmp_path / "registry", {"a.yaml": "owner: '@a'\ncodes:\n" + code("ALPHA")})
    status, report = diff_json(tmp_path)
    assert status == 0 and report["new_registry"]
    assert [(c["rule"], c["code"], c["owner"]) for c in report["changes"] if c["code"]] == [("code-added", "ALPHA", "@a")]


def test_a_broken_fragment_at_the_ref_is_reported_not_a_traceback(repo: Path) -> None:
    write(repo, "b.yaml", "owner: '@org/b'\ncodes: [unclosed\n")
    commit(repo, "broken")
    write(repo, "b.yaml", "owner: '@org/b'\ncodes:\n" + code("BETA"))
    done = run_errgen("diff", "--against", "HEAD", "--registry", "registry/errors.yaml", cwd=repo)
    assert done.returncode in (1, 2) and "Traceback" not in done.stderr
    assert "HEAD:registry/teams/b.yaml" in done.stderr + done.stdout


def test_the_example_and_its_single_file_classify_the_same_against_a_release() -> None:
    def classified(new: Path) -> tuple[list[tuple[str | None, ...]], dict]:
        done = run_errgen("diff", str(RELEASE), str(new), "--format", "json")
        assert done.returncode in (0, 1), done.stderr
        report = json.loads(done.stdout)
        rows = sorted((c["rule"], c["code"], c["category"], c["bump"], c["announcement"], c["message"]) for c in report["changes"])
        verdict = {k: report[k] for k in ("required_bump", "declared_bump", "ok")}
        return rows, verdict

    folder_rows, folder_verdict = classified(EXAMPLE)
    single_rows, single_verdict = classified(REGISTRY)
    assert folder_rows and folder_rows == single_rows
    assert folder_verdict == single_verdict


def test_every_informational_rule_is_exercised_here() -> None:
    info = {s.id for s in RULE_SPECS.values() if s.bump == "none" and s.level != "check"}
    assert info == {"code-moved", "owner-changed"}


def test_bump_on_a_folder_registry_sets_since_in_the_fragment_and_the_version_in_the_header(repo: Path) -> None:
    write(repo, "b.yaml", "owner: '@org/billing'\ncodes:\n" + code("BETA") + code("GAMMA") + code("SHARED"))
    write(repo, "a.yaml", "owner: '@org/a'\ncodes:\n" + code("ALPHA"))
    done = run_errgen("bump", "--registry", "registry/errors.yaml", "--date", "2026-12-01", cwd=repo)
    assert done.returncode == 0, done.stderr
    header = (repo / "registry" / "errors.yaml").read_text(encoding="utf-8")
    assert "version: 1.1.0" in header
    # The history entry is the contract's changelog: the addition, not the move or the owner.
    assert "changes: [GAMMA was added]" in header and "SHARED" not in header and "billing" not in header
    fragment = (repo / "registry" / "teams" / "b.yaml").read_text(encoding="utf-8")
    assert fragment == "owner: '@org/billing'\ncodes:\n" + code("BETA") + code("GAMMA").replace("since: 1.0.0", "since: 1.1.0") + code("SHARED")
    status, report = diff_json(repo)
    assert status == 0 and report["required_bump"] == "minor" and report["declared_bump"] == "minor"
    again = run_errgen("bump", "--registry", "registry/errors.yaml", cwd=repo)
    assert again.returncode == 0 and "nothing to do" in again.stderr + again.stdout


def test_a_registry_at_the_repository_root_names_fragments_at_the_ref_and_sees_moves(tmp_path: Path) -> None:
    folder(tmp_path, {"a.yaml": "owner: '@a'\ncodes:\n" + code("ALPHA") + code("SHARED"), "b.yaml": "owner: '@b'\ncodes:\n" + code("BETA")})
    subprocess.run(GIT + ["init", "-q"], cwd=tmp_path, check=True)
    commit(tmp_path)
    (tmp_path / "teams" / "a.yaml").write_text("owner: '@a'\ncodes:\n" + code("ALPHA"), encoding="utf-8")
    (tmp_path / "teams" / "b.yaml").write_text("owner: '@b'\ncodes:\n" + code("BETA") + code("SHARED"), encoding="utf-8")
    done = run_errgen("diff", "--against", "HEAD", "--registry", "errors.yaml", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    [moved] = json.loads(done.stdout)["changes"]
    assert moved["rule"] == "code-moved" and moved["old"]["path"] == "HEAD:teams/a.yaml"
    assert moved["location"]["path"] == "teams/b.yaml"
