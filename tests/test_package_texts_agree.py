"""The five SDKs say the same about themselves (errgen.languages.packaging): one LICENSE notice,
byte for byte, or none in every one; one README Licence section; and one README example code, the
same in every language (each in its own syntax), never one scoped to a resource where another
code is not, with the same resource id when the example needs one."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from conftest import REGISTRY, ROOT
from errgen import contract
from errgen.languages.go import target as go
from errgen.languages.java import target as java
from errgen.languages.packaging import EXAMPLE_RESOURCE_ID, example_code, license_notice
from errgen.languages.python import target as python
from errgen.languages.rust import target as rust
from errgen.languages.typescript import target as typescript
from errgen.registry.lint import lint_path, lint_text
from errgen.registry.model import Registry

TARGETS: dict[str, Any] = {"python": python, "go": go, "java": java, "rust": rust, "typescript": typescript}
_NAME = r"([A-Za-z0-9_$]+)"
_TS_STRING = r'("(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')'
# Per language: the README's example call (the code's name, and the resource id when it passes
# one), and the site's code snippet, which names each code in the same syntax.
README = {
    "python": re.compile(rf'new_error\(Code\.{_NAME}, "req-1"(?:, resource_id="([^"]*)")?\)'),
    "go": re.compile(rf'NewError\(\w+\.{_NAME}, "req-1"(?:, \w+\.WithResourceID\("([^"]*)"\))?\)'),
    "java": re.compile(rf'Errors\.newError\(Code\.{_NAME}, requestId(?:, b -> b\.resourceId\("([^"]*)"\))?\)'),
    "rust": re.compile(rf"Some\(&Code::{_NAME}\)"),
    "typescript": re.compile(rf'newError\({_TS_STRING}, "req-1"(?:, \{{ \S+: "([^"]*)" \}})?\)'),
}
SNIPPET = {
    "python": re.compile(rf"Code\.{_NAME}:"),
    "go": re.compile(rf"== \w+\.{_NAME} \{{"),
    "java": re.compile(rf"== Code\.{_NAME}\)"),
    "rust": re.compile(rf"Code::{_NAME} \{{"),
    "typescript": re.compile(rf"=== {_TS_STRING}\) \{{"),
}

SMALL = """errgen: 1
name: shelf
version: 1.0.0
{license}categories:
  conflict: {{retryable: false, action: fix, description: The request collides with the resource's state.}}
  busy: {{retryable: true, description: The resource is busy.}}
codes:
  BOOK_LOCKED: {{category: conflict, scope: resource, http_status: 409, description: Locked., since: 1.0.0}}
  BOOK_BUSY: {{category: busy, scope: resource, http_status: 503, description: Busy; try again., since: 1.0.0}}
history:
  - {{version: 1.0.0, date: 2026-01-10, changes: ["First."]}}
"""


def _registry(text: str) -> Registry:
    result = lint_text(text)
    assert result.registry is not None, [d.text() for d in result.diagnostics]
    return result.registry


def _licensed(spdx: str | None) -> Registry:
    text = REGISTRY.read_text(encoding="utf-8")
    assert "\nlicense: Apache-2.0\n" in text
    return _registry(text.replace("\nlicense: Apache-2.0\n", f"\nlicense: {spdx}\n" if spdx else "\n", 1))


def _readme_example(language: str, files: dict[str, str], view: contract.ContractView) -> tuple[str, str | None]:
    """(the wire code, the resource id or None) of the README's example, read back through the
    language's own names for the codes."""
    readme = files[f"{language}/README.md"]
    found = README[language].findall(readme)
    assert found, f"{language}: no example call in its README"
    name, resource = found[0] if isinstance(found[0], tuple) else (found[0], "")
    assert all((f if isinstance(f, tuple) else (f, ""))[0] == name for f in found), f"{language}: two example codes"
    named = {SNIPPET[language].search(s).group(1): code  # type: ignore[union-attr]
             for code, s in TARGETS[language].code_snippets(view).items()}
    return named[name], resource or None


# Registries by name: the default, every example API, the two example services, and one whose
# codes are all scoped to a resource (its README example must pass a resource id).
FILES = {"default": REGISTRY, **{f"apis/{p.stem}": p for p in sorted((ROOT / "examples" / "apis").glob("*.yaml"))},
         **{p.name: p for p in (ROOT / "examples" / "payments-api.yaml", ROOT / "examples" / "refund-tool.yaml")}}
RESOURCE_ONLY = "resource-only"


def _named(name: str) -> Registry:
    if name == RESOURCE_ONLY:
        return _registry(SMALL.format(license=""))
    registry = lint_path(FILES[name]).registry
    assert registry is not None, name
    return registry


@pytest.mark.parametrize("spdx", ["Apache-2.0", "MIT OR Apache-2.0", "LicenseRef-Acme", None])
def test_every_sdk_ships_the_same_licence_notice_or_none(spdx: str | None) -> None:
    registry = _licensed(spdx)
    notice = license_notice(contract.view(registry))
    assert (notice is None) == (spdx is None)
    for language, target in TARGETS.items():
        assert target.render(registry).get(f"{language}/LICENSE") == notice, language


@pytest.mark.parametrize("spdx", ["Apache-2.0", "MIT OR Apache-2.0", None])
def test_every_readme_says_the_same_about_the_licence(spdx: str | None) -> None:
    """Each README's Licence section, with what the language calls its package made one word."""
    registry = _licensed(spdx)
    sections = {}
    for language, target in TARGETS.items():
        readme = target.render(registry)[f"{language}/README.md"]
        section = readme.split("\n## Licence\n\n", 1)[1].split("\n\n", 1)[0].rstrip("\n")
        sections[language] = re.sub(r"\b(package|module|crate)\.$", "PACKAGE.", section)
    expected = "Apache-2.0 (SPDX); see the LICENSE file." if spdx == "Apache-2.0" else None
    assert len(set(sections.values())) == 1, sections
    assert expected is None or sections["python"] == expected
    assert (spdx is None) == sections["python"].startswith("No licence is declared")


def test_the_notice_names_the_licence_and_only_real_spdx_pages() -> None:
    notices = {spdx: license_notice(contract.view(_licensed(spdx))) or "" for spdx in ("Apache-2.0", "MIT OR Apache-2.0", "LicenseRef-Acme")}
    assert notices["Apache-2.0"].endswith("\nIt is licensed under Apache-2.0; the licence text: https://spdx.org/licenses/Apache-2.0.html\n")
    assert notices["MIT OR Apache-2.0"].endswith(
        "; the SPDX licence texts: https://spdx.org/licenses/MIT.html, https://spdx.org/licenses/Apache-2.0.html\n")
    assert notices["LicenseRef-Acme"].endswith("\nIt is licensed under LicenseRef-Acme.\n")  # a licence of one's own: no page invented
    assert all(n.startswith(f"Generated by errgen from registry acme. Do not edit.\n\nSPDX-License-Identifier: {s}\n\n") for s, n in notices.items())


@pytest.mark.parametrize("name", [*FILES, RESOURCE_ONLY])
def test_every_readme_example_uses_the_same_code(name: str) -> None:
    registry = _named(name)
    view = contract.view(registry)
    chosen = example_code(view)
    assert chosen is not None
    shown = {language: _readme_example(language, target.render(registry), view) for language, target in TARGETS.items()}
    resource = EXAMPLE_RESOURCE_ID if chosen.scope == "resource" else None
    expected = {language: (chosen.code, None if language == "rust" else resource) for language in TARGETS}
    assert shown == expected
    if any(c.scope != "resource" for c in view.codes):
        assert chosen.scope != "resource"


def test_stripes_first_code_is_resource_scoped_and_no_readme_shows_it() -> None:
    view = contract.view(_named("apis/stripe"))
    assert view.codes[0].scope == "resource"
    assert (example_code(view) or view.codes[0]).code != view.codes[0].code


def _with_codes(view: contract.ContractView, *rows: tuple[str, bool, str | None]) -> contract.ContractView:
    template = view.codes[0]
    codes = tuple(dataclasses.replace(template, code=f"C{i}", scope=scope, retryable=retryable, deprecated_since=deprecated)
                  for i, (scope, retryable, deprecated) in enumerate(rows))
    return dataclasses.replace(view, codes=codes)


def test_the_example_code_prefers_a_current_retryable_code_not_scoped_to_a_resource() -> None:
    view = contract.view(_named(RESOURCE_ONLY))

    def pick(*rows: tuple[str, bool, str | None]) -> str | None:
        row = example_code(_with_codes(view, *rows))
        return row.code if row else None

    assert pick(("resource", True, None), ("request", False, None), ("service", True, None)) == "C2"
    assert pick(("service", True, "1.0.0"), ("request", True, None)) == "C1"  # deprecated codes are not shown
    assert pick(("resource", True, None), ("request", False, None)) == "C1"  # no resource id needed beats retryable
    assert pick(("resource", False, None), ("resource", True, None)) == "C0"
    assert pick(("request", False, "1.0.0")) == "C0"  # every code deprecated: the first still shows
    assert example_code(dataclasses.replace(view, codes=())) is None
