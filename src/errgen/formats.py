"""The one writer per machine-readable output format, shared by lint, diff and validate.

Each format escapes what it carries as that format requires, so text taken from a registry or a
payload (a key like `"x\\n::error::owned"`) can never be read back as structure: GitHub workflow
commands escape `%`, CR and LF in messages and also `:` and `,` in properties; SARIF and JSON are
written by `json.dumps`; Markdown table cells escape their inline syntax.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from errgen import __version__
from errgen.render_text import visible  # noqa: F401  (re-exported: formats.visible)

if TYPE_CHECKING:
    from errgen.diagnostics import Diagnostic

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
GITHUB_KINDS = {"error": "error", "warning": "warning", "info": "notice", "notice": "notice"}
SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note", "notice": "note", "none": "none"}


# --- Terminal text -----------------------------------------------------------------------------

# `visible` lives in errgen.render_text (diagnostics need it, and this module needs diagnostics).


# --- GitHub workflow commands -------------------------------------------------------------------

def github_data(text: str) -> str:
    """A workflow command's message: `%`, CR and LF are percent-encoded, so it stays one line."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """A workflow command's property value: as a message, plus `:` and `,` which end a property."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(severity: str, message: str, *, file: str | None = None, line: int | None = None,
                      column: int | None = None, title: str | None = None) -> str:
    """One `::error file=...,line=...,title=...::message` line (severity: error, warning, info/notice)."""
    props = []
    if file is not None:
        props.append(f"file={github_property(file)}")
        if line is not None:
            props.append(f"line={int(line)}")
        if column is not None:
            props.append(f"col={int(column)}")
    if title is not None:
        props.append(f"title={github_property(title)}")
    head = GITHUB_KINDS[severity] + (" " + ",".join(props) if props else "")
    return f"::{head}::{github_data(message)}"


# --- SARIF 2.1.0 --------------------------------------------------------------------------------

@dataclass(frozen=True)
class SarifRule:
    id: str
    description: str  # fullDescription
    help: str = ""
    help_uri: str = ""  # the rule's section online (the `docs-url` setting); omitted without one

    def as_dict(self) -> dict[str, Any]:
        short = self.description.split("\n", 1)[0].split(". ", 1)[0].rstrip(".")
        out: dict[str, Any] = {"id": self.id, "shortDescription": {"text": short or self.id},
                               "fullDescription": {"text": self.description or self.id}}
        if self.help:
            out["help"] = {"text": self.help}
        if self.help_uri:
            out["helpUri"] = self.help_uri
        return out


def sarif_result(rule_id: str, severity: str, message: str, *, path: str | None = None, line: int | None = None,
                 column: int | None = None, fingerprint: str | None = None,
                 properties: dict[str, Any] | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {"ruleId": rule_id, "level": SARIF_LEVELS[severity], "message": {"text": message}}
    if path is not None:
        region = {"startLine": max(1, int(line or 1)), "startColumn": max(1, int(column or 1))}
        result["locations"] = [{"physicalLocation": {"artifactLocation": {"uri": path}, "region": region}}]
    if fingerprint is not None:
        result["partialFingerprints"] = {"errgen/v1": fingerprint}
    if properties:
        result["properties"] = properties
    return result


def sarif_log(rules: Iterable[SarifRule], results: list[dict[str, Any]], properties: dict[str, Any] | None = None) -> str:
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "errgen", "version": __version__, "rules": [r.as_dict() for r in rules]}},
        "results": results,
    }
    if properties:
        run["properties"] = properties
    return json_text({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]})


class SarifStream:
    """A SARIF log written result by result (validate streams any number of payloads). The run's
    results come first and its tool last, so the rules can list every rule the results used."""

    head = '{"$schema": ' + json.dumps(SARIF_SCHEMA) + ', "version": "2.1.0", "runs": [{"results": ['

    def __init__(self) -> None:
        self.first = True
        self.rule_ids: set[str] = set()

    def result(self, item: dict[str, Any]) -> str:
        sep = "" if self.first else ", "
        self.first = False
        self.rule_ids.add(item["ruleId"])
        return sep + json.dumps(item, ensure_ascii=False)

    def tail(self, describe: dict[str, str] | None = None) -> str:
        rules = [SarifRule(rid, (describe or {}).get(rid, "")).as_dict() for rid in sorted(self.rule_ids)]
        driver = {"name": "errgen", "version": __version__, "rules": rules}
        return '], "tool": {"driver": ' + json.dumps(driver, ensure_ascii=False) + "}}]}"


# --- JSON and Markdown --------------------------------------------------------------------------

def json_text(body: Any) -> str:
    return json.dumps(body, indent=2, ensure_ascii=False)


def md_cell(text: str) -> str:
    """Inline Markdown for a table cell: its syntax (`|` included) escaped, on one line."""
    from errgen.render_text import md_inline

    return md_inline(text)



# --- Diagnostics (lint, and the registry checks every command runs first) -----------------------

def diagnostics(diags: list[Diagnostic], fmt: str) -> str:
    """Lint findings as GitHub annotations or a SARIF log (text and json: diagnostics.render)."""
    from errgen.diagnostics import render, sort_key

    ordered = sorted(diags, key=sort_key)
    if fmt == "github":
        return "\n".join(github_annotation(d.severity, d.message, file=d.path, line=d.line, column=d.column, title=d.rule)
                         for d in ordered)
    if fmt == "sarif":
        from errgen import manual

        docs = _lint_rule_docs()
        listed = manual.url("registry.md", "lint-rules") or ""  # every lint rule is a row of that table
        rules = [SarifRule(rid, docs[rid], manual.command(rid), listed) if rid in docs else SarifRule(rid, "")
                 for rid in sorted({d.rule for d in ordered})]
        results = [sarif_result(d.rule, d.severity, d.message, path=d.path, line=d.line, column=d.column) for d in ordered]
        return sarif_log(rules, results)
    return render(ordered, fmt)


def _lint_rule_docs() -> dict[str, str]:
    from errgen.registry.lint.base import RULES

    return {r.id: r.doc for r in RULES}
