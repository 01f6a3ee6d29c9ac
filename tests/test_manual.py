"""Every link errgen prints resolves wherever the output is read (issue 29, item 4): the docs ship
with errgen (`errgen docs TOPIC|RULE` prints them), and links are absolute, under the published
location or the `docs-url` setting; each anchor names a heading of the page it points at."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT, run_errgen
from errgen import manual
from errgen.diff.changes import RULE_SPECS
from errgen.registry.lint.base import RULES

OLD = ROOT / "tests" / "fixtures" / "releases" / "errors-2.0.0.yaml"


def anchors(page: str) -> set[str]:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    return {manual.slug(line) for line in text.splitlines() if line.startswith("#")}


@pytest.mark.parametrize("rule", sorted({*RULE_SPECS, *(r.id for r in RULES)}))
def test_every_rule_is_documented_and_errgen_docs_prints_it(rule: str) -> None:
    text = manual.lookup(rule)
    assert text is not None and rule in text
    page, anchor = re.search(r"online: \S+/([a-z-]+\.md)#([a-z0-9-]+)\)", text).groups()  # type: ignore[union-attr]
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


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "sarif"])
def test_diff_links_are_absolute_and_name_a_heading(fmt: str) -> None:
    done = run_errgen("diff", "--format", fmt, str(OLD), str(REGISTRY))
    assert done.returncode == 0, done.stderr
    assert "](docs/" not in done.stdout and " docs/diff-rules.md" not in done.stdout and '"docs/' not in done.stdout
    found = [u for u in links(done.stdout) if u.startswith(manual.PUBLISHED)]
    assert found
    for url in found:
        page, _, anchor = url[len(manual.PUBLISHED):].partition("#")
        assert anchor in anchors(page), url


def test_docs_url_setting_moves_every_link(tmp_path: Path) -> None:
    (tmp_path / "errgen.toml").write_text('docs-url = "https://docs.internal.example/errgen"\n')
    done = run_errgen("diff", "--format", "markdown", str(OLD), str(REGISTRY), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "(https://docs.internal.example/errgen/diff-rules.md#code-added)" in done.stdout
    assert manual.PUBLISHED not in done.stdout
    (tmp_path / "errgen.toml").write_text('docs-url = "javascript:alert(1)"\n')
    bad = run_errgen("diff", str(OLD), str(REGISTRY), cwd=tmp_path)
    assert bad.returncode == 2 and "docs-url must be an http(s) URL" in bad.stderr


def test_lint_sarif_points_each_rule_at_its_documentation(tmp_path: Path) -> None:
    broken = tmp_path / "r.yaml"
    broken.write_text(REGISTRY.read_text().replace("http_status: 429", "http_status: 200", 1))
    done = run_errgen("lint", "--format", "sarif", "--registry", str(broken))
    [rule] = json.loads(done.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert rule["helpUri"] == f"{manual.PUBLISHED}registry.md#lint-rules" and "lint-rules" in anchors("registry.md")
    assert rule["help"]["text"] == "errgen docs http-status-range"


def test_the_vectors_cite_the_published_conformance_page() -> None:
    from errgen.emit.targets import vectors as conformance

    from conftest import load_registry

    head = json.loads(conformance.render(load_registry())["conformance/vectors.json"])["$comment"]
    assert f"{manual.PUBLISHED}conformance.md" in head and "errgen docs conformance" in head


def test_errgen_docs_completes_pages_and_rule_ids() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COMP_WORDS": "errgen docs co", "COMP_CWORD": "2", "_ERRGEN_COMPLETE": "bash_complete"}
    done = subprocess.run([sys.executable, "-m", "errgen"], env=env, capture_output=True, text=True, timeout=60)
    offered = [line.split(",", 1)[1] for line in done.stdout.splitlines()]
    assert {"conformance", "code-removed", "code-renamed"} <= set(offered) and offered == sorted(offered)
