"""Lint: load a registry, check its shape, then run every rule; report all problems in one go."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from errgen.diagnostics import Diagnostic, has_errors, sort_key
from errgen.registry.lint.base import RULES, Context
from errgen.registry.lint import categories, codes, fragments, history, names, package, prose, targets, text, wire  # noqa: F401  (registers the rules)
from errgen.registry.load import Document, load_path, load_text
from errgen.registry.model import Registry
from errgen.registry import compose, structure
from errgen.leaks import LeakScanner


class LintResult:
    def __init__(self, registry: Registry, diagnostics: list[Diagnostic]) -> None:
        self.registry = registry
        self.diagnostics = sorted(diagnostics, key=sort_key)

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def lint_document(doc: Document) -> LintResult:
    registry, diagnostics, names = structure.build(doc)
    diagnostics = doc.diagnostics + diagnostics
    ctx = Context(registry, names, doc)
    for rule in RULES:
        diagnostics.extend(rule.run(ctx))
    return LintResult(registry, [masked(d) for d in diagnostics])


_SCANNER = LeakScanner()


def masked(d: Diagnostic) -> Diagnostic:
    """Messages quote registry text (names, values, descriptions, a file's first line when it
    does not load); a secret in it is masked."""
    message = _SCANNER.redact(d.message)
    return d if message == d.message else dataclasses.replace(d, message=message)


def lint_path(path: Path, display: str | None = None) -> LintResult:
    """Raises `Fatal` when the file cannot be read or parsed at all. A header that includes
    fragments is linted as the registry they compose."""
    doc = load_path(path, display)
    if compose.includes(doc):
        doc = compose.compose(doc, compose.WorkTree(path.parent))
    return lint_document(doc)


def lint_text(text: str, display: str = "<registry>") -> LintResult:
    return lint_document(load_text(text, display))
