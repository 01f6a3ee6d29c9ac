"""Every rule id errgen can print, in one place, with the page that documents it: `errgen docs ID`
resolves each to its own entry, and a test walks them all.

Lint and diff rules are read from where they are declared (each lint rule registers itself, each
diff rule and check is `declare`d); leak classes from errgen.leaks. The ids raised where a file
is read, parsed or composed, and validate's findings, are strings at the place they are raised;
they are listed here, and a test checks the source raises no id missing from these lists.
"""

from __future__ import annotations

# Where each kind of id is documented, in the order the commands print them (lint runs first in
# every command; validate last): an id that names two things resolves to both, in this order.
PAGES = {"lint": "registry.md", "diff": "diff-rules.md", "validate": "adopting.md", "verdict": "conformance.md"}

# Reading, parsing and composing a registry (errgen.registry.load, structure, compose; errgen.paths;
# errgen.diff.git for a registry at a git ref): printed by every command that reads the registry.
LOAD = (
    "file-not-found", "file-unreadable", "file-too-large",
    "yaml-encoding", "yaml-empty", "yaml-syntax", "yaml-root", "yaml-tag", "yaml-alias",
    "duplicate-key", "too-deep", "number-too-large",
    "format-version", "unknown-key", "missing-key", "wrong-type",
    "include-pattern", "include-outside-registry", "duplicate-code", "duplicate-category",
    "fragment-categories", "fragment-owner",
    "git-missing", "git-not-a-repo", "git-no-commits", "git-unknown-ref", "git-show-failed",
)

# errgen validate's own findings (errgen.validate, errgen.payload_checks); the leak classes are added
# from errgen.leaks.
VALIDATE = (
    "invalid-json", "payload-too-large", "not-a-response", "no-code", "delay-unreadable", "http-status-mismatch",
    "retry-after-header-mismatch", "deprecated-code", "message-carries-hints",
)

# The strict verdict's problem ids (errgen.verdict), which validate prints for a payload.
VERDICT = (
    "not-an-object", "extra-field", "wrong-type", "missing-field", "resource-id-missing", "unknown-category",
    "unknown-code", "category-mismatch", "retryable-mismatch", "scope-not-allowed", "retry-after-not-retryable",
    "hint-not-allowed",
)


def leak_ids() -> tuple[str, ...]:
    from errgen.leaks import HOST, PATH, SECRET, TRACE

    return (TRACE, SECRET, HOST, PATH)


def printable() -> dict[str, tuple[str, ...]]:
    """Every id errgen can print, with the kinds it names (keys of PAGES), in PAGES' order."""
    import errgen.diff  # noqa: F401 - declares every diff rule and check
    from errgen.diff.changes import RULE_SPECS
    from errgen.registry.lint.base import RULES
    import errgen.registry.lint  # noqa: F401 - registers every lint rule

    kinds: dict[str, list[str]] = {}
    for kind, ids in (("lint", [*LOAD, *(r.id for r in RULES)]), ("diff", list(RULE_SPECS)),
                      ("validate", [*VALIDATE, *leak_ids()]), ("verdict", list(VERDICT))):
        for rule_id in ids:
            if kind not in kinds.setdefault(rule_id, []):
                kinds[rule_id].append(kind)
    return {rule_id: tuple(found) for rule_id, found in sorted(kinds.items())}


def pages_of(name: str) -> list[str]:
    """The docs pages of the commands that print `name`, in the order `printable` gives them."""
    return [PAGES[kind] for kind in printable().get(name, ())]
