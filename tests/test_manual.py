"""Every link errgen prints resolves wherever the output is read (issue 29, item 4): the docs ship
with errgen (`errgen docs TOPIC|RULE` prints them) and errgen publishes them nowhere, so without the
`docs-url` setting output names the command and prints no link at all; with it, links are absolute
under it and each anchor names a heading of the page it points at."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from typing import Iterator

from conftest import REGISTRY, ROOT, run_errgen
from errgen import manual
from errgen.rule_ids import pages_of
from errgen.diff.changes import RULE_SPECS
from errgen.registry.lint.base import RULES

OLD = ROOT / "tests" / "fixtures" / "releases" / "errors-2.0.0.yaml"
BASE = "https://docs.internal.example/errgen/"  # a team's own copy of docs/


@pytest.fixture
def docs_url() -> Iterator[str]:
    """The `docs-url` setting, for code run in-process (the CLI sets it from the settings)."""
    manual.use(BASE)
    try:
        yield BASE
    finally:
        manual.use(None)


def with_docs_url(tmp_path: Path) -> Path:
    (tmp_path / "errgen.toml").write_text(f'docs-url = "{BASE.rstrip("/")}"\n')  # made to end in '/'
    return tmp_path


def anchors(page: str) -> set[str]:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    return {manual.slug(line) for line in text.splitlines() if line.startswith("#")}


@pytest.mark.parametrize("rule", sorted({*RULE_SPECS, *(r.id for r in RULES)}))
def test_every_rule_is_documented_and_errgen_docs_prints_it(rule: str) -> None:
    text = manual.lookup(rule, pages_of(rule))
    assert text is not None and rule in text
    assert re.search(r"\n\([a-z-]+\.md\)\n$", text) and "http" not in text.splitlines()[-1]  # the page, no link


@pytest.mark.parametrize("rule", sorted({*RULE_SPECS, *(r.id for r in RULES)}))
def test_under_docs_url_errgen_docs_links_each_rule_to_a_heading(rule: str, docs_url: str) -> None:
    text = manual.lookup(rule, pages_of(rule))
    assert text is not None
    page, anchor = re.search(rf"online: {re.escape(docs_url)}([a-z-]+\.md)#([a-z0-9-]+)\)", text).groups()  # type: ignore[union-attr]
    assert anchor in anchors(page)


def test_errgen_docs_prints_a_page_a_rule_and_says_when_it_knows_neither() -> None:
    listed = run_errgen("docs")
    assert listed.returncode == 0 and re.search(r"^conformance +Conformance", listed.stdout, re.M)
    page = run_errgen("docs", "conformance")
    assert page.returncode == 0 and page.stdout == (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    rule = run_errgen("docs", "code-removed")
    assert rule.returncode == 0 and rule.stdout.startswith("### code-removed\n") and "### code-renamed" not in rule.stdout
    missing = run_errgen("docs", "../README")
    assert missing.returncode == 1 and "errgen docs` lists the pages" in missing.stderr


def links(text: str) -> list[str]:
    return re.findall(r"https?://[^\s)<>,\"]+", text)


def code_added_doc(fmt: str, out: str) -> object:
    """What a format says about where code-added is explained."""
    if fmt == "json":
        change = next(c for c in json.loads(out)["changes"] if c["rule"] == "code-added")
        return {k: change[k] for k in ("doc", "docs_command")}
    if fmt == "sarif":
        rule = next(r for r in json.loads(out)["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "code-added")
        return {k: rule.get(k) for k in ("help", "helpUri")}
    return out.rstrip("\n").splitlines()[-1]


def rules_of_the_diff(tmp_path: Path) -> list[str]:
    """The rule ids the release diff (OLD -> REGISTRY) reports, read from its JSON: the formats'
    last lines list exactly these, whatever the next release of the sample registry adds."""
    done = run_errgen("diff", "--format", "json", str(OLD), str(REGISTRY), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rules = sorted({c["rule"] for c in json.loads(done.stdout)["changes"]})
    assert "code-added" in rules
    return rules


def by_command(fmt: str, rules: list[str]) -> object:
    """Without the setting: the command, never a link."""
    return {
        "text": "Rules: " + ", ".join(f"errgen docs {r}" for r in rules),
        "markdown": "Rules: " + ", ".join(f"`errgen docs {r}`" for r in rules),
        "json": {"doc": None, "docs_command": "errgen docs code-added"},
        "sarif": {"help": {"text": "errgen docs code-added"}, "helpUri": None},
    }[fmt]


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "sarif"])
def test_diff_without_docs_url_names_the_command_and_prints_no_link(fmt: str, tmp_path: Path) -> None:
    done = run_errgen("diff", "--format", fmt, str(OLD), str(REGISTRY), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert code_added_doc(fmt, done.stdout) == by_command(fmt, rules_of_the_diff(tmp_path))
    assert [u for u in links(done.stdout) if "sarif" not in u] == []  # only SARIF's $schema is a URL
    assert "diff-rules.md" not in done.stdout and "helpUri" not in done.stdout


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "sarif"])
def test_diff_links_under_docs_url_are_absolute_and_name_a_heading(fmt: str, tmp_path: Path) -> None:
    done = run_errgen("diff", "--format", fmt, str(OLD), str(REGISTRY), cwd=with_docs_url(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "](docs/" not in done.stdout and " docs/diff-rules.md" not in done.stdout and '"docs/' not in done.stdout
    found = [u for u in links(done.stdout) if "sarif" not in u]
    assert found and all(u.startswith(BASE) for u in found)
    assert f"{BASE}diff-rules.md#code-added" in found
    for url in found:
        page, _, anchor = url[len(BASE):].partition("#")
        assert anchor in anchors(page), url
    rules = rules_of_the_diff(tmp_path)
    assert code_added_doc(fmt, done.stdout) == {
        "text": "Rules (errgen docs RULE prints one): " + ", ".join(f"{BASE}diff-rules.md#{r}" for r in rules),
        "markdown": "Rules: " + ", ".join(f"[`{r}`]({BASE}diff-rules.md#{r})" for r in rules),
        "json": {"doc": f"{BASE}diff-rules.md#code-added", "docs_command": "errgen docs code-added"},
        "sarif": {"help": {"text": "errgen docs code-added"}, "helpUri": f"{BASE}diff-rules.md#code-added"},
    }[fmt]


def test_docs_url_setting_sets_every_link_and_must_be_http(tmp_path: Path) -> None:
    done = run_errgen("diff", "--format", "markdown", str(OLD), str(REGISTRY), cwd=with_docs_url(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "[`code-added`](https://docs.internal.example/errgen/diff-rules.md#code-added)" in done.stdout
    (tmp_path / "errgen.toml").write_text('docs-url = "javascript:alert(1)"\n')
    bad = run_errgen("diff", str(OLD), str(REGISTRY), cwd=tmp_path)
    assert bad.returncode == 2 and "docs-url must be an http(s) URL" in bad.stderr


def test_lint_sarif_points_each_rule_at_its_documentation(tmp_path: Path) -> None:
    broken = tmp_path / "r.yaml"
    broken.write_text(REGISTRY.read_text().replace("http_status: 429", "http_status: 200", 1))
    done = run_errgen("lint", "--format", "sarif", "--registry", str(broken), cwd=tmp_path)
    [rule] = json.loads(done.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert rule["help"]["text"] == "errgen docs http-status-range" and "helpUri" not in rule
    linked = run_errgen("lint", "--format", "sarif", "--registry", str(broken), cwd=with_docs_url(tmp_path))
    [rule] = json.loads(linked.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert rule["helpUri"] == f"{BASE}registry.md#lint-rules" and "lint-rules" in anchors("registry.md")
    assert rule["help"]["text"] == "errgen docs http-status-range"


@pytest.mark.parametrize("base", [None, BASE])
def test_the_vectors_cite_the_conformance_page_by_command_whatever_the_setting(base: str | None) -> None:
    from errgen.emit.targets import conformance

    from conftest import load_registry

    manual.use(base)
    try:
        head = json.loads(conformance.render(load_registry())["conformance/vectors.json"])["$comment"]
    finally:
        manual.use(None)
    assert head.endswith(" The format and every rule: errgen docs conformance.") and "http" not in head


def test_errgen_docs_completes_pages_and_rule_ids() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COMP_WORDS": "errgen docs co", "COMP_CWORD": "2", "_ERRGEN_COMPLETE": "bash_complete"}
    done = subprocess.run([sys.executable, "-m", "errgen"], env=env, capture_output=True, text=True, timeout=60)
    offered = [line.split(",", 1)[1] for line in done.stdout.splitlines()]
    assert {"conformance", "code-removed", "code-renamed"} <= set(offered) and offered == sorted(offered)
