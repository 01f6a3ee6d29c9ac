"""Issue 42, "the first afternoon": the next step each message names works, and the docs, site and
tests hold up for a newcomer."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import default_version, interruptible, next_version, run_errgen


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                          capture_output=True, text=True)
    return done.stdout


@pytest.fixture()
def repo(workdir: Path) -> Path:
    git(workdir, "init", "-q", "-b", "main")
    git(workdir, "add", ".")
    git(workdir, "commit", "-q", "-m", "release 2.1.0")
    return workdir


# --- point 1: diff's hint names the bump that compares with the same base ---------------------------

@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif", "markdown"])
def test_diff_hint_names_the_base_so_bump_works_after_the_break_is_committed(repo: Path, fmt: str) -> None:
    path = repo / "registry" / "errors.yaml"
    path.write_text(path.read_text().replace("    http_status: 401\n", "    http_status: 403\n", 1))
    git(repo, "commit", "-qam", "break")
    assert "nothing to do" in run_errgen("bump", "--dry-run", cwd=repo).stderr.lower() + run_errgen("bump", "--dry-run", cwd=repo).stdout.lower()
    done = run_errgen("diff", "--against", "HEAD~1", "--format", fmt, cwd=repo)
    assert done.returncode == 1
    shown = done.stdout.replace("\\", "")  # markdown escapes ` and ~; rendered, they read as typed
    assert "errgen bump --against HEAD~1" in shown, done.stdout
    assert "run `errgen bump`" not in shown
    fixed = run_errgen("bump", "--against", "HEAD~1", cwd=repo)
    assert fixed.returncode == 0, fixed.stderr
    assert f"version: {next_version('major')}\n" in path.read_text()


def test_diff_hint_with_merge_base_names_the_fork_commit_and_files_name_from(repo: Path) -> None:
    fork = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-qb", "work")
    path = repo / "registry" / "errors.yaml"
    path.write_text(path.read_text().replace("    http_status: 401\n", "    http_status: 403\n", 1))
    done = run_errgen("diff", "--against", "main", "--merge-base", "--format", "json", cwd=repo)
    messages = [c["message"] for c in json.loads(done.stdout)["checks"]]
    assert any(f"errgen bump --against {fork}" in m for m in messages), messages
    old = repo / "old.yaml"
    old.write_text(git(repo, "show", "HEAD:registry/errors.yaml"))
    done = run_errgen("diff", str(old), str(path), cwd=repo)
    assert f"errgen bump --from {old} --registry {path}" in done.stdout, done.stdout


# --- point 8: bump writes `since` on a new code that has none yet -----------------------------------

QUOTA = "  QUOTA_EXCEEDED:\n    category: rate_limit\n    scope: request\n    http_status: 429\n    description: Quota used up.\n\n"


def test_bump_writes_since_on_a_new_code_that_has_none(repo: Path) -> None:
    path = repo / "registry" / "errors.yaml"
    before = path.read_text()
    path.write_text(before.replace("  INTERNAL_ERROR:\n", QUOTA + "  INTERNAL_ERROR:\n", 1))
    done = run_errgen("bump", "--date", "2026-11-30", cwd=repo)
    assert done.returncode == 0, done.stderr
    text = path.read_text()
    assert "  QUOTA_EXCEEDED:\n    since: 2.2.0\n    category: rate_limit\n" in text
    assert "version: 2.2.0\n" in text and '    changes: ["QUOTA_EXCEEDED was added"]\n' in text
    # Only the lines bump must write changed: the code as typed, plus its since, version and history.
    assert text.replace("    since: 2.2.0\n    category: rate_limit", "    category: rate_limit").count("\n") == \
        (before + QUOTA).count("\n") + 3
    assert run_errgen("diff", "--against", "HEAD", cwd=repo).returncode == 0
    again = run_errgen("bump", cwd=repo)
    assert again.returncode == 0 and path.read_text() == text and "nothing to do" in again.stderr + again.stdout


def test_bump_dry_run_shows_the_since_line_and_writes_nothing(repo: Path) -> None:
    path = repo / "registry" / "errors.yaml"
    typed = path.read_text().replace("  INTERNAL_ERROR:\n", QUOTA + "  INTERNAL_ERROR:\n", 1)
    path.write_text(typed)
    done = run_errgen("bump", "--dry-run", "--date", "2026-11-30", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "+    since: 2.2.0\n" in done.stdout and path.read_text() == typed


def test_bump_sets_since_in_a_flow_mapping_too(repo: Path) -> None:
    path = repo / "registry" / "errors.yaml"
    flow = "  QUOTA_EXCEEDED: {category: rate_limit, scope: request, http_status: 429, description: Quota used up.}\n\n"
    path.write_text(path.read_text().replace("  INTERNAL_ERROR:\n", flow + "  INTERNAL_ERROR:\n", 1))
    done = run_errgen("bump", "--date", "2026-11-30", cwd=repo)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "  QUOTA_EXCEEDED: {since: 2.2.0, category: rate_limit," in path.read_text()


def test_bump_of_a_registry_that_does_not_load_says_what_is_wrong(repo: Path) -> None:
    path = repo / "registry" / "errors.yaml"
    flow = "  QUOTA_EXCEEDED: {category: rate_limit, scope: request, http_status: 429, description: Quota used up.\n\n"
    path.write_text(path.read_text().replace("  INTERNAL_ERROR:\n", flow + "  INTERNAL_ERROR:\n", 1))
    done = run_errgen("bump", cwd=repo)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert re.search(r"^registry/errors\.yaml:\d+:\d+: error\[yaml-syntax\]", done.stderr, re.M), done.stderr


# --- point 7: Ctrl-C, help text, docs a newcomer follows ---------------------------------------------

def _errgen_env(*front: Path) -> dict[str, str]:
    import os

    from conftest import ROOT

    return {**os.environ, "PYTHONPATH": os.pathsep.join([*(str(p) for p in front), str(ROOT / "src")])}


@pytest.mark.parametrize("how", ["module", "console-script"])
def test_ctrl_c_during_imports_exits_130_with_one_line(tmp_path: Path, how: str) -> None:
    import sys

    # A click that is interrupted while it loads: Ctrl-C landing in errgen's biggest import.
    (tmp_path / "click").mkdir()
    (tmp_path / "click" / "__init__.py").write_text("raise KeyboardInterrupt\n")
    argv = [sys.executable, "-m", "errgen", "lint"] if how == "module" else \
        [sys.executable, "-c", "import sys; from errgen.entry import main; sys.argv = ['errgen', 'lint']; sys.exit(main())"]
    done = subprocess.run(argv, cwd=tmp_path, env=_errgen_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (130, "errgen: interrupted\n")


def test_the_console_script_starts_where_ctrl_c_is_handled() -> None:
    import tomllib

    from conftest import ROOT

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"errgen": "errgen.entry:main"}
    assert "from errgen.entry import main\n" in (ROOT / "src" / "errgen" / "__main__.py").read_text()


def test_ctrl_c_while_a_command_loads_exits_130_without_a_traceback(tmp_path: Path, workdir: Path) -> None:
    import signal
    import sys

    # A real SIGINT, sent while errgen is importing click (a stand-in that says so, then waits).
    (tmp_path / "click").mkdir()
    (tmp_path / "click" / "__init__.py").write_text("import sys, time\nprint('loading', file=sys.stderr, flush=True)\ntime.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-m", "errgen", "build"], cwd=workdir, env=_errgen_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)
    assert proc.stderr is not None and proc.stderr.readline() == "loading\n"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "errgen: interrupted\n")


def _help_texts(width: int) -> dict[str, str]:
    from click.testing import CliRunner

    from errgen.cli import main

    runner = CliRunner()
    return {name: runner.invoke(main, [name, "--help"], terminal_width=width).output for name in main.commands}


@pytest.mark.parametrize("width", [60, 80, 100])
def test_help_never_breaks_a_word_at_a_hyphen(width: int) -> None:
    import re

    texts = _help_texts(width)
    assert "errgen docs diff-rules" in " ".join(texts["diff"].split())
    for name, text in texts.items():
        assert not re.search(r"\w-\n", text), (name, text)


def test_ci_docs_pin_pre_commit_by_commit_sha_and_say_how_tags_would_be_used() -> None:
    from conftest import ROOT

    text = (ROOT / "docs" / "ci.md").read_text()
    assert "rev: <tag>" not in text and "@v0.1.0`," not in text  # errgen's repository has no tags
    assert "rev: <commit sha>" in text and "git ls-remote" in text and "autoupdate --freeze" in text
    assert "Once errgen tags its releases" in text


def test_adopting_shows_a_wire_rename_that_lints(workdir: Path) -> None:
    import re

    from conftest import ROOT

    text = (ROOT / "docs" / "adopting.md").read_text()
    blocks = re.findall(r"```yaml\n(wire:\n  rename: [^\n]+\n)```", text)
    assert blocks == ["wire:\n  rename: {code: type, correlation_id: request_id}\n"]
    path = workdir / "registry" / "errors.yaml"
    registry = path.read_text()
    # Into the registry's own `wire:` section when it has one, else a section of its own.
    registry = (registry.replace("\nwire:\n", "\n" + blocks[0], 1) if "\nwire:\n" in registry
                else registry.replace("problem_base:", blocks[0] + "problem_base:", 1))
    path.write_text(registry)
    done = run_errgen("build", "--target", "schema", cwd=workdir)
    assert done.returncode == 0, done.stderr
    schema = (workdir / "generated" / "schema" / "error.schema.json").read_text()
    assert '"type"' in schema and '"request_id"' in schema


# --- point 9: tests do not depend on ignored files or on an idle machine -----------------------------

def test_golden_tests_compare_the_repository_files_not_an_installs_leftovers(tmp_path: Path) -> None:
    from conftest import repository_files

    git(tmp_path, "init", "-q")
    (tmp_path / ".gitignore").write_text("*.egg-info/\n")
    python = tmp_path / "generated" / "python"
    (python / "acme_errors.egg-info").mkdir(parents=True)
    (python / "acme_errors.egg-info" / "PKG-INFO").write_text("Metadata-Version: 2.1\n")  # pip install ./generated/python
    (python / "pyproject.toml").write_text("[project]\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "x")
    (python / "new.py").write_text("")  # not committed yet, not ignored: a build's new output counts
    assert repository_files(tmp_path / "generated", tmp_path) == [python / "new.py", python / "pyproject.toml"]


def test_no_golden_comparison_lists_the_generated_folder_itself() -> None:
    import re

    from conftest import ROOT

    walks = re.compile(r"(GENERATED|generated\b)[^\n]*\.(rglob|iterdir|glob)\(|os\.walk\((GENERATED|generated)\b")
    found = [f"{p.name}:{n}" for p in sorted((ROOT / "tests").glob("test_*.py"))
             for n, line in enumerate(p.read_text().splitlines(), 1) if walks.search(line) and "tmp_path" not in line
             and "workdir" not in line and "repository_files" not in line]
    assert found == []


# --- point 6: the site's index wraps code names only at `_`, `.`, `-` --------------------------------

def test_index_name_cells_wrap_only_after_underscore_dot_or_hyphen() -> None:
    import re

    from conftest import load_registry
    from errgen.emit.targets import site

    files = site.render(load_registry())
    cells = re.findall(r'<td><a href="[^"]*"><code class="name">(.*?)</code></a>', files["site/index.html"])
    names = [cell.replace("<wbr>", "") for cell in cells]
    assert "RATE_LIMITED" in names and len(names) == len(set(names)) >= 10
    for cell in cells:
        pieces = cell.split("<wbr>")
        assert all(piece[-1] in "_.-" for piece in pieces[:-1]), cell  # a break only after those
        assert all(not re.search(r"[_.-].", piece) for piece in pieces), cell  # and after every one of them
    css = files["site/site.css"]
    rule = re.search(r"td code\.name \{([^}]*)\}", css)
    assert rule and "overflow-wrap: normal" in rule.group(1) and "word-break: keep-all" in rule.group(1)
    assert css.index("td code { overflow-wrap: anywhere; }") < rule.start()  # the later, more specific rule wins


# --- point 4: generated prose names the fields as the wire does --------------------------------------

RENAMED_WIRE = "wire:\n  rename: {code: type, correlation_id: request_id, retry_after_ms: wait_ms, did_you_mean: suggestions}\n"


def test_catalogue_recovery_table_and_site_use_the_wire_names() -> None:
    from conftest import REGISTRY
    from errgen.emit.targets import docs, recovery, site
    from errgen.registry.lint import lint_text

    text = REGISTRY.read_text().replace("problem_base:", RENAMED_WIRE + "problem_base:", 1)
    registry = lint_text(text).registry
    assert registry is not None and any(code.hints for code in registry.codes)
    docs = {**docs.render(registry), **recovery.render(registry), **site.render(registry)}
    prose = {name: body for name, body in docs.items() if name.endswith((".md", ".html"))}
    assert {"docs/errors.md", "recovery.md", "site/index.html"} <= set(prose)
    for name, body in prose.items():
        for old in ("code", "correlation_id", "retry_after_ms", "did_you_mean"):
            assert f"`{old}`" not in body and f"<code>{old}</code>" not in body and f"| {old} |" not in body, (name, old)
    assert "stable `type`" in prose["docs/errors.md"] and "`request_id`" in prose["docs/errors.md"]
    assert "`suggestions`" in prose["docs/errors.md"]
    assert "| wait_ms |" in prose["recovery.md"] and "with the `request_id`" in prose["recovery.md"]
    assert "<code>type</code>" in prose["site/index.html"]
    assert any("<code>request_id</code>" in body for name, body in prose.items() if name.startswith("site/") and name.endswith("/index.html"))


# --- point 2: errgen docs resolves every rule id errgen can print, to its own entry ------------------

def test_every_printable_rule_id_has_its_own_docs_entry() -> None:
    from errgen import manual, rule_ids

    ids = rule_ids.printable()
    assert {"unknown-key", "missing-key", "wrong-type", "duplicate-key", "yaml-syntax", "file-not-found", "too-deep",
            "number-too-large", "include-pattern", "fragment-owner", "git-unknown-ref", "leak-secret", "leak-stack-trace",
            "no-code", "http-status-mismatch", "retry-after-header-mismatch", "deprecated-code", "message-carries-hints",
            "code-removed", "version-bump-insufficient", "unknown-category", "http-status-range"} <= set(ids)
    for rule_id, kinds in ids.items():
        text = manual.lookup(rule_id, rule_ids.pages_of(rule_id))
        assert text is not None, rule_id
        entries = [line for line in text.splitlines() if line.startswith(f"| `{rule_id}` |") or line.lstrip("#").strip() == rule_id]
        assert len(entries) == len(kinds), (rule_id, kinds, text)


def test_an_id_naming_a_lint_rule_and_a_verdict_problem_prints_both_lint_first() -> None:
    done = run_errgen("docs", "unknown-category")
    assert done.returncode == 0, done.stderr
    lint = done.stdout.index("| `unknown-category` | A code's category is one of the registry's categories")
    verdict = done.stdout.index("| `unknown-category` | (only when the envelope has no problems)")
    assert lint < verdict and "(registry.md)" in done.stdout and "(conformance.md)" in done.stdout
    assert "leak-secret" in run_errgen("docs", "leak-secret").stdout


def test_the_source_raises_no_id_missing_from_the_list() -> None:
    import re

    from conftest import ROOT
    from errgen.rule_ids import LOAD, VALIDATE, VERDICT, printable

    raised = set()
    for path in (ROOT / "src" / "errgen").rglob("*.py"):
        if "languages" in path.parts or "emit" in path.parts:
            continue  # the SDKs' runtimes and the vectors name their own cases
        text = path.read_text(encoding="utf-8")
        raised |= set(re.findall(r'(?:diag|_fatal|error)\(\s*"([a-z0-9]+(?:-[a-z0-9]+)+)"', text))
        raised |= set(re.findall(r'yield \(\s*"([a-z0-9]+(?:-[a-z0-9]+)+)"', text))
        raised |= set(re.findall(r'found\.append\(\s*\(\s*"([a-z0-9]+(?:-[a-z0-9]+)+)"', text))
        raised |= set(re.findall(r'error_rule(?:: str)? ?= ?"([a-z-]+)"', text))
    raised |= {f"duplicate-{kind}" for kind in ("code", "category")}  # compose names them with an f-string
    assert {"yaml-syntax", "git-unknown-ref", "no-code", "invalid-json", "payload-too-large", "hint-not-allowed"} <= raised
    assert raised <= set(printable()), sorted(raised - set(printable()))
    assert len(set(LOAD)) == len(LOAD) and len(set(VALIDATE)) == len(VALIDATE) and len(set(VERDICT)) == len(VERDICT)


# --- point 5: renames on the site and in the catalogue -----------------------------------------------

def _renamed_later() -> str:
    """The default registry, then a 3.0.0 that renames RATE_LIMITED (since 1.0.0) to TOO_MANY_REQUESTS
    and removes CONFLICT, written as `errgen bump` writes the history."""
    from conftest import REGISTRY

    text = REGISTRY.read_text().replace("  RATE_LIMITED:\n", "  TOO_MANY_REQUESTS:\n    renamed_from: [RATE_LIMITED]\n", 1)
    start = text.index("  CONFLICT:\n")
    end = text.index("\n\n", start) + 2
    text = text[:start] + text[end:]
    text = text.replace(f"\nversion: {default_version()}\n", f"\nversion: {next_version('major')}\n", 1)
    return text + (f'  - version: {next_version("major")}\n    date: 2026-12-01\n'
                   '    changes: ["RATE_LIMITED was renamed to TOO_MANY_REQUESTS", "CONFLICT was removed"]\n')


def test_site_lists_a_rename_under_the_version_that_renamed_it_and_keeps_the_old_page() -> None:
    import re

    from errgen.emit.targets import docs, site
    from errgen.registry.lint import lint_text

    result = lint_text(_renamed_later())
    assert result.ok, [d.text() for d in result.diagnostics]
    registry = result.registry
    assert registry.code_map["TOO_MANY_REQUESTS"].since == "1.0.0"  # a rename keeps its since
    files = site.render(registry)
    changelog = files["site/changelog.html"]
    v3 = changelog[changelog.index(f'id="v{next_version("major")}"'):changelog.index(f'id="v{default_version()}"')]
    v1 = changelog[changelog.index('id="v1.0.0"'):]
    assert "TOO_MANY_REQUESTS</code></a> (from" in v3 and "TOO_MANY_REQUESTS</code></a> (from" not in v1
    assert "<h3>Removed</h3>" in v3 and '<a href="CONFLICT/index.html"><code>CONFLICT</code></a>' in v3
    # The old type URIs still answer, say what happened, and link on.
    old = files["site/RATE_LIMITED/index.html"]
    assert "was renamed to" in old and '<a href="../TOO_MANY_REQUESTS/index.html">' in old and f'href="../changelog.html#v{next_version("major")}"' in old
    assert "was removed in version" in files["site/CONFLICT/index.html"]
    # Search knows the old names.
    index = files["site/search-index.js"]
    assert re.search(r'\["RATE_LIMITED", "[a-z_]+", "renamed to TOO_MANY_REQUESTS in ' + re.escape(next_version("major")) + r'", "TOO_MANY_REQUESTS/index\.html", 0\]', index)
    assert f'["CONFLICT", "removed", "removed in {next_version("major")}", "CONFLICT/index.html", 0]' in index
    # The Markdown catalogue mentions the rename and the removal.
    md = docs.render(registry)["docs/errors.md"]
    assert f"- Renamed from `RATE_LIMITED` in {next_version('major')}" in md and "## Removed codes" in md and f"- `CONFLICT`: removed in {next_version('major')}" in md


def test_ctrl_c_while_the_command_line_is_parsed_exits_130_not_aborted(tmp_path: Path) -> None:
    import sys

    # click would print "Aborted!" and exit 1 for an interrupt while it builds the context.
    script = ("import sys, click\n"
              "def interrupted(*args, **kwargs):\n    raise KeyboardInterrupt\n"
              "click.Context.__init__ = interrupted\n"
              "sys.argv = ['errgen', 'lint']\n"
              "from errgen.entry import main\nmain()\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=_errgen_env(), capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (130, "errgen: interrupted\n")
