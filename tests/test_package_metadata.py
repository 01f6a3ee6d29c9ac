"""Package metadata (`description`, `license`, `repository`, `homepage`, `keywords`): read from the
registry onto the view, checked by lint the way package registries check it, and kept out of every
file header so a release rewrites only the files that state the version."""

from __future__ import annotations

from pathlib import Path

from conftest import FIXTURES, REGISTRY, repository_files
from errgen.contract import view
from errgen.registry.lint import lint_path, lint_text

MINIMAL = (FIXTURES / "valid-minimal.yaml").read_text(encoding="utf-8")


def _with(top: str) -> str:
    return MINIMAL.replace("version: 1.0.0\n", f"version: 1.0.0\n{top}\n", 1)


def _registry(text: str):  # type: ignore[no-untyped-def]
    result = lint_text(text)
    assert result.diagnostics == [], [d.text() for d in result.diagnostics]
    return result.registry


def test_the_view_carries_the_metadata_as_written() -> None:
    text = _with("license: MIT OR Apache-2.0\nrepository: https://github.com/acme/errors\n"
                 "homepage: https://errors.acme.dev/\nkeywords: [errors, acme]\ndescription: Acme's errors.")
    about = view(_registry(text)).about
    assert (about.license, about.repository, about.homepage, about.keywords, about.description) == (
        "MIT OR Apache-2.0", "https://github.com/acme/errors", "https://errors.acme.dev/", ("errors", "acme"), "Acme's errors.")


def test_without_metadata_there_is_no_licence_and_a_default_description() -> None:
    about = view(_registry(MINIMAL)).about
    assert about.license is None and about.repository is None and about.keywords == ()
    assert about.description.startswith("The demo error contract")


def test_a_licence_in_another_spelling_is_reported_with_the_spdx_one() -> None:
    diags = lint_text(_with("license: apache-2.0")).diagnostics
    assert [(d.rule, d.line) for d in diags] == [("package-license", 4)]
    assert "'Apache-2.0'" in diags[0].message


def test_keywords_past_five_and_repeated_are_reported() -> None:
    diags = lint_text(_with("keywords: [a, b, c, d, e, a]")).diagnostics
    messages = [d.message for d in diags if d.rule == "package-keywords"]
    assert any("at most 5" in m for m in messages) and any("repeats 'a'" in m for m in messages)


def test_a_plain_http_or_git_url_is_not_a_repository() -> None:
    for url in ("http://github.com/acme/errors", "git@github.com:acme/errors.git", "https://acme.dev/a b"):
        assert [d.rule for d in lint_text(_with(f"repository: '{url}'")).diagnostics] == ["package-url"], url


def test_the_default_registry_declares_its_licence() -> None:
    assert view(lint_path(REGISTRY).registry).about.license == "Apache-2.0"


def test_no_generated_file_header_names_the_version() -> None:
    generated = REGISTRY.parent.parent / "generated"
    registry = lint_path(REGISTRY).registry
    stamp = f"registry {registry.name} {registry.version}"
    stamped = [str(p.relative_to(generated)) for p in repository_files(generated)
               if stamp in p.read_text(encoding="utf-8", errors="replace")]
    assert stamped == []
