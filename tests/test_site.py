"""The site target: a page per code where its type URI points, escaped like every other output.
Its behaviour in a real browser is tests/test_site_browser.py."""

from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT, build_to, load_registry
from errgen.emit.errors import BuildError
from errgen.contract import view
from errgen.emit.targets import site
from errgen.registry.lint import lint_text

HOSTILE = "</script><script>alert(1)</script> <!-- <img src=x onerror=alert(2)> \u2028 & \"'` ]]> {{ x }}"

HOSTILE_REGISTRY = f"""errgen: 1
name: demo
version: 1.1.0
problem_base: https://errors.demo.test/
categories:
  transient: {{retryable: true, description: {json.dumps(HOSTILE)}}}
  validation: {{retryable: false, action: fix, description: Fix it.}}
codes:
  SLOW_DOWN:
    category: transient
    scope: request
    description: {json.dumps(HOSTILE)}
    since: 1.0.0
  BAD_FIELD:
    category: validation
    scope: request
    description: "<b>not bold</b> & not an entity: &amp;"
    hints: [did_you_mean]
    since: 1.0.0
  "com.example.v1#Missing":
    category: validation
    scope: request
    description: A real API's code with characters a path cannot hold.
    since: 1.1.0
  ELSEWHERE:
    category: validation
    scope: request
    description: Documented by its own API.
    type_uri: https://docs.example.test/errors/elsewhere
    deprecated: {{since: 1.1.0, replaced_by: BAD_FIELD}}
    since: 1.0.0
history:
  - {{version: 1.0.0, date: 2026-01-10, changes: [{json.dumps("Initial. " + HOSTILE)}]}}
  - {{version: 1.1.0, date: 2026-02-10, changes: ["Add com.example.v1#Missing.", "Deprecate ELSEWHERE in favour of BAD_FIELD."]}}
"""


def hostile_registry():  # type: ignore[no-untyped-def]
    result = lint_text(HOSTILE_REGISTRY)
    assert result.ok, [d.text() for d in result.diagnostics]
    return result.registry


class _Page(HTMLParser):
    """The text of an HTML page and the elements it has, as a browser's parser sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.ids.update(v for k, v in attrs if k == "id" and v)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    page.close()
    return page


def test_every_code_has_a_page_at_its_type_uris_path_under_problem_base() -> None:
    registry = load_registry(REGISTRY)
    files = site.render(registry)
    contract = view(registry)
    base = contract.policy.problem_base
    assert base == "https://errors.acme.dev/"
    for row in contract.codes:
        page = f"site/{row.type_uri.removeprefix(base)}/index.html"
        assert page in files, row.code
        assert f"<h1><code>{row.code}</code></h1>" in files[page]
    assert {"site/index.html", "site/changelog.html", "site/search-index.js", "site/site.js", "site/site.css"} <= set(files)


def test_hostile_text_is_text_in_every_page_and_cannot_leave_the_search_index_script() -> None:
    files = site.render(hostile_registry())
    for rel, text in files.items():
        if not rel.endswith(".html"):
            continue
        page = parse(text)
        scripts = [attrs.get("src") for tag, attrs in page.tags if tag == "script"]
        assert all(scripts) and len(scripts) == 2, (rel, scripts)  # only the site's own, none inline
        assert not any(tag in ("img", "b") for tag, _ in page.tags), rel
        assert not any(k.startswith("on") for _, attrs in page.tags for k in attrs), rel
    code_page = parse(files["site/SLOW_DOWN/index.html"])
    assert HOSTILE in "".join(code_page.text)  # shown exactly, as text
    assert "<b>not bold</b> & not an entity: &amp;" in "".join(parse(files["site/BAD_FIELD/index.html"]).text)
    assert HOSTILE in "".join(parse(files["site/changelog.html"]).text)

    index = files["site/search-index.js"]
    for unsafe in ("</script", "<!--", "]]>", "\u2028", "<", ">"):
        assert unsafe not in index
    # The script means exactly the registry's text: JavaScript reads it back unchanged.
    data = subprocess.run(["node", "-e", index.replace("window.", "globalThis.") + "\nprocess.stdout.write(JSON.stringify(ERRGEN_SEARCH))"],
                          capture_output=True, text=True, check=True).stdout
    rows = {row[0]: row for row in json.loads(data)}
    assert rows["SLOW_DOWN"][2] == HOSTILE


def test_script_json_escapes_what_ends_a_script_or_a_line() -> None:
    text = site.script_json(["</script>", "<!--", "\u2028\u2029", "&"])
    assert json.loads(text) == ["</script>", "<!--", "\u2028\u2029", "&"]
    assert not re.search("[<>&\u2028\u2029]", text)


def test_codes_whose_type_uri_names_no_path_under_problem_base_get_a_page_under_codes() -> None:
    contract = view(hostile_registry())
    pages = site.page_paths(contract)
    assert pages["SLOW_DOWN"] == "SLOW_DOWN/index.html"
    assert pages["ELSEWHERE"] == "codes/ELSEWHERE/index.html"
    assert re.fullmatch(r"codes/com\.example\.v1-Missing-[0-9a-f]{8}/index\.html", pages["com.example.v1#Missing"])
    files = site.render(contract.registry)
    index = files["site/index.html"]
    for page in pages.values():
        assert f'href="{page}"' in index
    elsewhere = files["site/codes/ELSEWHERE/index.html"]
    assert "https://docs.example.test/errors/elsewhere" in elsewhere  # shown as its type URI
    assert '<a href="../../BAD_FIELD/index.html"><code>BAD_FIELD</code></a>' in elsewhere  # replaced_by links


def test_a_code_whose_page_would_collide_with_another_file_stops_the_build() -> None:
    text = HOSTILE_REGISTRY.replace("    type_uri: https://docs.example.test/errors/elsewhere", "    type_uri: https://errors.demo.test/SLOW_DOWN/index.html")
    with pytest.raises(BuildError, match=r"code ELSEWHERE's page \(SLOW_DOWN/index.html/index.html\) lies under code SLOW_DOWN's page"):
        site.render(lint_text(text).registry)
    text = HOSTILE_REGISTRY.replace("    type_uri: https://docs.example.test/errors/elsewhere", "    type_uri: https://errors.demo.test/changelog.html")
    with pytest.raises(BuildError, match="lies under the site's changelog.html"):
        site.render(lint_text(text).registry)


def test_path_segments_that_could_leave_the_site_are_not_paths() -> None:
    for uri in ("https://errors.demo.test/../escape", "https://errors.demo.test/a//b", "https://errors.demo.test/x%2F..", "https://errors.demo.test/"):
        text = HOSTILE_REGISTRY.replace("https://docs.example.test/errors/elsewhere", uri)
        assert site.page_paths(view(lint_text(text).registry))["ELSEWHERE"] == "codes/ELSEWHERE/index.html", uri


def test_changelog_lists_what_each_version_added_deprecated_and_renamed_with_links() -> None:
    files = site.render(load_registry(REGISTRY))
    changelog = files["site/changelog.html"]
    v2 = changelog[changelog.index('id="v2.0.0"'):changelog.index('id="v1.1.0"')]
    assert ('<a href="TENANT_UNKNOWN/index.html"><code>TENANT_UNKNOWN</code></a> (from '
            '<a href="UNKNOWN_DOMAIN/index.html"><code>UNKNOWN_DOMAIN</code></a>)') in v2  # the old name's page says what happened
    v21 = changelog[changelog.index('id="v2.1.0"'):changelog.index('id="v2.0.0"')]
    assert "Deprecated" in v21 and '<a href="ITEM_MISSING/index.html">' in v21 and "Added" in v21
    assert "Deprecate <a href=\"ITEM_MISSING/index.html\"><code>ITEM_MISSING</code></a> in favour of" in v21


def test_each_sdk_snippet_names_the_code_as_that_sdk_does() -> None:
    page = site.render(load_registry(REGISTRY))["site/TENANT_UNKNOWN/index.html"]
    for expected in ("Code.TENANT_UNKNOWN:", "acmeerrors.CodeTenantUnknown", "acme_errors::Code::TenantUnknown",
                     "Code.TENANT_UNKNOWN)", "payload.code === &#34;TENANT_UNKNOWN&#34;"):
        assert expected in page, expected
    # The same names the built SDKs declare.
    generated = ROOT / "generated"
    assert "CodeTenantUnknown " in (generated / "go" / "vocabulary.go").read_text()
    assert "TenantUnknown" in (generated / "rust" / "src" / "data.rs").read_text()
    assert 'TENANT_UNKNOWN("TENANT_UNKNOWN")' in (generated / "java" / "src/main/java/com/example/acmeerrors/Code.java").read_text()
    assert 'TENANT_UNKNOWN = "TENANT_UNKNOWN"' in (generated / "python" / "acme_errors" / "enums.py").read_text()


def test_a_folder_registry_shows_each_codes_owner(tmp_path: Path) -> None:
    build_to(ROOT / "examples" / "multi-team" / "errors.yaml", tmp_path, "site")
    page = (tmp_path / "site" / "PAYMENT_TIMEOUT" / "index.html").read_text()
    assert "<dt>Owner</dt><dd>@acme/payments</dd>" in page
    assert "<dt>Owner</dt>" not in site.render(load_registry(REGISTRY))["site/PAYMENT_TIMEOUT/index.html"]


def test_the_site_is_a_default_target() -> None:
    from errgen.emit.targets import select

    assert site in select([])  # `errgen build` with no --target builds it
