"""Renderings of a diff report: text (terminals), json, github (workflow annotations),
sarif (SARIF 2.1.0, code-scanning dashboards) and markdown (PR comments, changelogs)."""

from __future__ import annotations

import json
from typing import Any, Callable

from errgen import __version__
from errgen.diff.model import Change, DiffReport, Place

HEADINGS = (("error", "Errors"), ("warning", "Breaking changes (announced)"), ("info", "Other changes"))


def _place(p: Place | None) -> dict[str, Any] | None:
    return {"path": p.path, "line": p.line, "column": p.column} if p else None


def _where(c: Change) -> str:
    p = c.where
    return f"{p.path}:{p.line}:{p.column}: " if p else ""


def _verdict(r: DiffReport) -> str:
    head = f"{r.old_version} -> {r.new_version}: changes require a {r.required_bump} bump; the version declares {r.declared_bump}."
    return head + (" OK." if r.ok else " FAILED.")


def text(r: DiffReport) -> str:
    lines: list[str] = []
    for severity, heading in HEADINGS:
        items = [c for c in r.all if c.severity == severity]
        if items:
            lines.append(f"{heading}:")
            lines += [f"  {_where(c)}{c.bump if c.bump != 'none' else 'check'}[{c.rule}] {c.message}" for c in items]
    if not r.changes:
        lines.append("No contract changes.")
    lines.append(_verdict(r))
    return "\n".join(lines)


def as_json(r: DiffReport) -> str:
    body = {
        "old_version": r.old_version,
        "new_version": r.new_version,
        "required_bump": r.required_bump,
        "declared_bump": r.declared_bump,
        "ok": r.ok,
        "changes": [
            {"rule": c.rule, "code": c.code, "category": c.category, "bump": c.bump, "severity": c.severity,
             "message": c.message, "accepted": c.accepted, "affects": list(c.affects),
             "old": _place(c.old), "new": _place(c.new), "fingerprint": c.fingerprint}
            for c in r.all
        ],
    }
    return json.dumps(body, indent=2, ensure_ascii=False)


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def github(r: DiffReport) -> str:
    kinds = {"error": "error", "warning": "warning", "info": "notice"}
    lines = []
    for c in r.all:
        props = [f"title={_escape_prop(c.rule)}"]
        if c.where:
            props = [f"file={_escape_prop(c.where.path)}", f"line={c.where.line}", f"col={c.where.column}"] + props
        lines.append(f"::{kinds[c.severity]} {','.join(props)}::{_escape_data(c.message)}")
    lines.append(_verdict(r))
    return "\n".join(lines)


def sarif(r: DiffReport) -> str:
    levels = {"error": "error", "warning": "warning", "info": "note"}
    rule_ids = sorted({c.rule for c in r.all})
    results = []
    for c in r.all:
        result: dict[str, Any] = {
            "ruleId": c.rule,
            "level": levels[c.severity],
            "message": {"text": c.message},
            "partialFingerprints": {"errgenChange/v1": c.fingerprint},
            "properties": {"bump": c.bump, "accepted": c.accepted, "code": c.code, "category": c.category},
        }
        if c.where:
            result["locations"] = [{"physicalLocation": {"artifactLocation": {"uri": c.where.path},
                                    "region": {"startLine": c.where.line, "startColumn": c.where.column}}}]
        results.append(result)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "errgen", "version": __version__,
                                "rules": [{"id": rid, "shortDescription": {"text": rid.replace("-", " ")}} for rid in rule_ids]}},
            "results": results,
            "properties": {"oldVersion": r.old_version, "newVersion": r.new_version,
                           "requiredBump": r.required_bump, "declaredBump": r.declared_bump, "ok": r.ok},
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


def _md(s: str) -> str:
    from errgen.render_text import md_inline

    return md_inline(s)


def markdown(r: DiffReport) -> str:
    icon = "✅" if r.ok else "❌"
    lines = [f"### {icon} Error contract {r.old_version} → {r.new_version}", "",
             f"Required bump: **{r.required_bump}**; declared: **{r.declared_bump}**.", ""]
    for severity, heading in HEADINGS:
        items = [c for c in r.all if c.severity == severity]
        if items:
            lines += [f"**{heading}**", "", "| bump | rule | subject | change |", "| --- | --- | --- | --- |"]
            lines += [f"| {c.bump} | `{c.rule}` | {_md(c.code or c.category or '')} | {_md(c.message)} |" for c in items]
            lines.append("")
    if not r.changes:
        lines.append("No contract changes.")
    return "\n".join(lines).rstrip() + "\n"


FORMATS: dict[str, Callable[[DiffReport], str]] = {"text": text, "json": as_json, "github": github, "sarif": sarif, "markdown": markdown}
