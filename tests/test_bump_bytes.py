"""errgen bump edits only the lines it must (issue 10 Low, issue 14 item 5), agrees with diff on
every pair (issue 12 bug 2), and explains itself outside git (issue 11 item 12)."""

from __future__ import annotations

import copy
import datetime
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import REGISTRY, ROOT, run_errgen
from test_diff import BASE, ROWS, codes
from test_diff_git_and_bump import git
from errgen import bump as bumping
from errgen.cli import main
from errgen.registry.lint import lint_text

DAY = "2026-11-30"

# A registry written the way people write them: CRLF, a BOM, comments everywhere (one after
# `history:`), trailing white space, block-style entries with block lists, and a `...` end marker.
LAYOUT = (
    "\ufeff# Contract of the demo service.   \n"
    "errgen: 1\n"
    "name: demo\n"
    "version: '1.2.0'   # keep quoted\n"
    "categories:\n"
    "    transient: {retryable: true, description: Try again later.}\n"
    "    auth:\n"
    "        retryable: false\n"
    "        description: A human must act.\n"
    "codes:\n"
    "    TIMED_OUT:\n"
    "        category: transient\n"
    "        scope: request\n"
    "        http_status: 504   \n"
    "        description: The upstream did not answer in time.\n"
    "        since: 1.0.0\n"
    "    # Added by the branch under test:\n"
    "    TOKEN_EXPIRED: {category: auth, scope: request, http_status: 401, description: The token expired., since: 1.0.0}\n"
    "history:  # newest last\n"
    "-   version: 1.0.0\n"
    "    date: 2026-01-10\n"
    "    changes:\n"
    "    -   \"Initial.\"\n"
    "\n"
    "-   version: 1.2.0   # the last release\n"
    "    date: 2026-03-10\n"
    "    changes:\n"
    "    -   \"Tweaks.\"   \n"
    "    -   \"More tweaks.\"\n"
    "# end of history\n"
    "...\n"
)
OLD_LAYOUT = LAYOUT.replace("    # Added by the branch under test:\n    TOKEN_EXPIRED: {category: auth, scope: request, http_status: 401, description: The token expired., since: 1.0.0}\n", "")


def write(path: Path, text: str, crlf: bool) -> Path:
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8") if crlf else text.encode("utf-8"))
    return path


@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
def test_bump_changes_only_its_lines_and_keeps_every_other_byte(tmp_path: Path, crlf: bool) -> None:
    old = write(tmp_path / "old.yaml", OLD_LAYOUT, crlf)
    new = write(tmp_path / "errors.yaml", LAYOUT, crlf)
    new.chmod(0o644)
    link = tmp_path / "link.yaml"
    link.symlink_to(new.name)
    done = run_errgen("bump", "--from", str(old), "--registry", str(link), "--date", DAY)
    assert done.returncode == 0, done.stderr
    assert "1.2.0 -> 1.3.0 (minor release), 1 change(s) in its history entry, since: 1.3.0 on 1 new code(s)" in done.stderr
    expected = (LAYOUT.replace("version: '1.2.0'   #", "version: '1.3.0'   #")
                .replace("The token expired., since: 1.0.0}", "The token expired., since: 1.3.0}")
                .replace("    -   \"More tweaks.\"\n", "    -   \"More tweaks.\"\n-   version: 1.3.0\n    date: 2026-11-30\n    changes:\n    -   \"TOKEN_EXPIRED was added\"\n"))
    assert new.read_bytes() == (expected.replace("\n", "\r\n") if crlf else expected).encode("utf-8")
    assert link.is_symlink() and stat.S_IMODE(new.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    assert run_errgen("diff", str(old), str(link)).returncode == 0
    again = run_errgen("bump", "--from", str(old), "--registry", str(link))
    assert "nothing to do" in again.stderr and new.read_bytes() == (expected.replace("\n", "\r\n") if crlf else expected).encode("utf-8")


def test_a_layout_the_line_editor_cannot_take_falls_back_to_the_round_trip(tmp_path: Path) -> None:
    text = LAYOUT.removeprefix("\ufeff").split("history:")[0] + (
        "history: [{version: 1.0.0, date: 2026-01-10, changes: [Initial.]}, {version: 1.2.0, date: 2026-03-10, changes: [Tweaks.]}]\n")
    old_text = text.replace("    # Added by the branch under test:\n    TOKEN_EXPIRED: {category: auth, scope: request, http_status: 401, description: The token expired., since: 1.0.0}\n", "")
    registry = lint_text(text, "r.yaml").registry
    plan = bumping.plan(lint_text(old_text, "o.yaml").registry, registry, datetime.date(2026, 11, 30))
    plan.apply(bumping.Source(text, False), registry)
    assert plan.method == "round-trip"
    result = lint_text(plan.text or "", "r.yaml")
    assert result.ok and result.registry.version == "1.3.0" and result.registry.code_map["TOKEN_EXPIRED"].since == "1.3.0"
    assert result.registry.history[-1].changes == ("TOKEN_EXPIRED was added",)


def test_bump_takes_the_line_path_without_loading_the_round_trip_library(tmp_path: Path) -> None:
    old = write(tmp_path / "old.yaml", OLD_LAYOUT, False)
    new = write(tmp_path / "errors.yaml", LAYOUT, False)
    script = ("import sys\nfrom errgen.cli import main\n"
              "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
              "assert 'ruamel' not in ' '.join(sys.modules), 'ruamel.yaml was imported'\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", script, "bump", "--from", str(old), "--registry", str(new), "--date", DAY],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "version: '1.3.0'" in new.read_text(encoding="utf-8-sig")


def test_a_kill_during_the_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    old = write(tmp_path / "old.yaml", OLD_LAYOUT, False)
    new = write(tmp_path / "errors.yaml", LAYOUT, False)
    script = ("import os, signal\nfrom errgen.cli import main\n"
              "os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)\nmain()\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", script, "bump", "--from", str(old), "--registry", str(new), "--date", DAY],
                          capture_output=True, text=True, env=env)
    assert done.returncode == -9
    assert new.read_text(encoding="utf-8") == LAYOUT
    assert sorted(p.name for p in tmp_path.iterdir()) == ["errors.yaml", "old.yaml"]


# --- bump followed by diff always agrees (one required-bump function) ----------------------------

def cli(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(main, list(args))
    return done.exit_code, done.output


@pytest.mark.parametrize("mutation", [r[1] for r in ROWS], ids=[r[0] for r in ROWS])
def test_bump_then_diff_agree_on_every_kind_of_change(mutation, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    new = copy.deepcopy(BASE)
    mutation(new)
    old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old_path.write_text(yaml.safe_dump(BASE, sort_keys=False))
    new_path.write_text(yaml.safe_dump(new, sort_keys=False))
    code, out = cli("bump", "--from", str(old_path), "--registry", str(new_path), "--date", DAY)
    assert code == 0, out
    code, out = cli("diff", str(old_path), str(new_path))
    assert code == 0, out
    assert "nothing to do" in cli("bump", "--from", str(old_path), "--registry", str(new_path))[1]


@pytest.mark.parametrize("version", ["1.3.0", "2.0.0"])
def test_an_accepted_break_needs_the_same_release_in_bump_and_diff(version: str, tmp_path: Path) -> None:
    new = copy.deepcopy(BASE)
    del codes(new)["TOKEN_EXPIRED"]
    new["version"] = version
    new["history"].append({"version": version, "date": "2026-04-01", "changes": ["Drop a code."],
                           "accepted_breaks": [{"rule": "code-removed", "code": "TOKEN_EXPIRED", "reason": "never emitted"}]})
    old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old_path.write_text(yaml.safe_dump(BASE, sort_keys=False))
    new_path.write_text(yaml.safe_dump(new, sort_keys=False))
    assert cli("diff", str(old_path), str(new_path))[0] == 0
    code, out = cli("bump", "--from", str(old_path), "--registry", str(new_path), "--dry-run")
    assert code == 0 and "nothing to do" in out and f"version {version} already covers" in out


@pytest.mark.parametrize("version", ["0.3.1", "1.2.0"])
def test_bump_and_diff_agree_on_zero_major_and_release_versions(version: str, tmp_path: Path) -> None:
    old = copy.deepcopy(BASE)
    old["version"] = version
    old["history"] = [{"version": version, "date": "2026-01-10", "changes": ["Initial."]}]
    for code in old["codes"].values():
        code["since"] = version
        code.get("deprecated", {})["since"] = version
    new = copy.deepcopy(old)
    del codes(new)["BAD_INPUT"]
    new["codes"]["NEW_CODE"] = {"category": "auth", "scope": "request", "http_status": 403, "description": "New.", "since": version}
    old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old_path.write_text(yaml.safe_dump(old, sort_keys=False))
    new_path.write_text(yaml.safe_dump(new, sort_keys=False))
    code, out = cli("bump", "--from", str(old_path), "--registry", str(new_path), "--date", DAY)
    assert code == 0 and ("-> 0.4.0" if version.startswith("0.") else "-> 2.0.0") in out
    assert cli("diff", str(old_path), str(new_path))[0] == 0


# --- bump without git history (issue 11 item 12) ------------------------------------------------

def project(tmp_path: Path) -> Path:
    (tmp_path / "registry").mkdir()
    (tmp_path / "registry" / "errors.yaml").write_text(REGISTRY.read_text())
    return tmp_path


def test_bump_outside_git_points_at_from_file(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = project(tmp_path_factory.mktemp("nogit"))
    done = run_errgen("bump", cwd=folder)
    assert done.returncode == 2 and "not inside a git repository" in done.stderr and "--from FILE" in done.stderr
    assert "--against needs" not in done.stderr and "Traceback" not in done.stderr


def test_bump_in_a_repository_without_commits_says_so(tmp_path: Path) -> None:
    folder = project(tmp_path)
    git(folder, "init", "-q", "-b", "main")
    done = run_errgen("bump", cwd=folder)
    assert done.returncode == 2 and "has no commits yet" in done.stderr and "--from FILE" in done.stderr
    assert "git fetch" not in done.stderr


def test_bump_when_the_registry_is_new_on_the_branch(tmp_path: Path) -> None:
    folder = project(tmp_path)
    git(folder, "init", "-q", "-b", "main")
    (folder / "README").write_text("x")
    git(folder, "add", "README")
    git(folder, "commit", "-q", "-m", "start")
    done = run_errgen("bump", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "nothing to do" in done.stderr
    assert run_errgen("diff", "--against", "HEAD", cwd=folder).returncode == 0


MINIMAL = (ROOT / "tests" / "fixtures" / "valid-minimal.yaml").read_text()
HISTORY = "history:\n  - {version: 1.0.0, date: 2026-01-10, changes: [Initial.]}\n"
LAYOUTS = {
    "flow entries": MINIMAL,
    "history first": MINIMAL.replace(HISTORY, "").replace("categories:", HISTORY + "categories:"),
    "no final line break": MINIMAL.rstrip("\n"),
    "indentless block": MINIMAL.replace(HISTORY, "history:\n- version: 1.0.0\n  date: 2026-01-10\n  changes: [Initial.]\n"),
    "block lists": MINIMAL.replace(HISTORY, "history:\n  - version: 1.0.0\n    date: 2026-01-10\n    changes:\n      - Initial.\n"),
    "comment before items": MINIMAL.replace(HISTORY, "history:\n\n  # oldest first\n" + HISTORY.split("\n", 1)[1]),
    "end marker and trailing comment": MINIMAL + "# the end\n...\n",
}
ADDED = "  NEW_CODE:\n    category: transient\n    scope: request\n    http_status: 503\n    description: 'New: \"quoted\", [x]'\n    since: 1.0.0\n"


@pytest.mark.parametrize("layout", LAYOUTS, ids=list(LAYOUTS))
def test_line_edits_re_parse_as_the_intended_registry(layout: str) -> None:
    from errgen.registry import structure
    from errgen.registry.load import load_text

    old_text = LAYOUTS[layout]
    new_text = old_text.replace("codes:\n", "codes:\n" + ADDED, 1).replace("    http_status: 400\n", "    http_status: 422\n")
    old, new = lint_text(old_text, "o.yaml").registry, lint_text(new_text, "r.yaml").registry
    plan = bumping.plan(old, new, datetime.date(2026, 11, 30))
    text = plan.apply(bumping.Source(new_text, False), new)
    assert plan.method == "lines" and text is not None
    assert structure.build(load_text(text, "r.yaml"))[0] == bumping.intended(new, "2.0.0", {"NEW_CODE": "2.0.0"}, plan.entry)
    changed = [line for line in text.splitlines() if line not in new_text.splitlines()]
    assert len(changed) <= 6, changed  # the version line, one since line and the new entry
    assert lint_text(text, "r.yaml").ok
