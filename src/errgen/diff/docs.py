"""docs/diff-rules.md, rendered from the rule and check declarations (a test keeps the committed
file equal to `render()`). Refresh: python -m errgen.diff.docs > docs/diff-rules.md
"""

from __future__ import annotations

from errgen.diff import checks, rules  # noqa: F401  (declare the rules and checks)
from errgen.diff.changes import RULE_SPECS, RuleSpec

SECTIONS = (
    ("major", "Breaking changes (major)", "A client built against the old registry would misread the new one. Needs a major release (on 0.y.z: y), and NEW's history entry must announce the change: name each code it breaks, or for a category-level change the category (or the rule id); or list it under `accepted_breaks` with a reason."),
    ("minor", "Additions (minor)", "Old clients keep working; new clients can use more. Needs a minor release (on 0.y.z: z)."),
    ("patch", "Rewordings and defaults (patch)", "No client behaviour changes. Needs a patch release."),
    ("info", "For information (no release)", "Changes to who maintains the contract, not to the contract: reported in every format, never a reason to release and never a failure."),
    ("check", "Checks", "Verdicts on the diff as a whole. Each failed check is an error: `errgen diff` exits 1."),
)


def _section(spec: RuleSpec) -> str:
    return "check" if spec.level == "check" else ("info" if spec.bump == "none" else spec.bump)


def _entry(spec: RuleSpec) -> list[str]:
    level = {"code": "one code", "category": "a category (and the codes in it)", "registry": "the registry", "check": "the release"}[spec.level]
    return [f"### {spec.id}", "", spec.description, "",
            f"- Bump: {spec.bump if spec.bump != 'none' else _NO_BUMP[spec.level == 'check']}; concerns {level}.", f"- Example: {spec.example}", ""]


_NO_BUMP = {True: "(check)", False: "none"}


def render() -> str:
    lines = ["# Diff rules", "",
             "<!-- Generated from the declarations in src/errgen/diff/rules.py and checks.py by",
             "     `python -m errgen.diff.docs > docs/diff-rules.md`; a test fails when they disagree. -->", "",
             "`errgen diff` compares the contract view of two registries (`errgen.contract.view`): what clients see,",
             "such as the action derived for each scope, retryable, delays and hints, not the raw fields that produce",
             "them. Each change it reports has one of the rule ids below; every output format (text, json, github,",
             "sarif, markdown) names the rule, and `errgen docs <rule-id>` prints its section (anchor `#<rule-id>`).",
             "The required release is the largest bump of any change; a break listed under `accepted_breaks` needs",
             "a minor one. `errgen bump` computes it with the same function.", ""]
    for bump, title, intro in SECTIONS:
        lines += [f"## {title}", "", intro, ""]
        for spec in RULE_SPECS.values():
            if _section(spec) == bump:
                lines += _entry(spec)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    print(render(), end="")
