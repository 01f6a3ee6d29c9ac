"""Renderings of a diff report: text (terminals), json, github (workflow annotations), sarif
(code scanning) and markdown (PR comments). All share one structure: changes grouped by what
they are (breaking, minor, patch, for information), per owner in a folder registry, each breaking change marked announced, accepted (with its
reason) or not announced; then the failed checks; then the verdict. Escaping is errgen.formats'.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache, wraps
from typing import Any, Callable

from errgen import formats
from errgen.diff.changes import RULE_SPECS, Change, DiffReport, Place, RuleSpec
from errgen.semver import Bump
from errgen.leaks import LeakScanner

GROUPS: tuple[tuple[Bump, str], ...] = (("major", "Breaking changes (major)"), ("minor", "Minor changes"), ("patch", "Patch changes"),
                                        ("none", "For information (no release needed)"))
CHECKS_HEADING = "Failed checks"


def status(c: Change) -> str:
    if c.announcement == "accepted":
        return f"accepted: {c.reason}"
    if c.announcement == "announced":
        return "announced in history"
    if c.announcement == "not-announced":
        return "not announced"
    return ""


def verdict(r: DiffReport) -> str:
    outcome = "OK." if r.ok else f"FAILED: {len(r.checks)} check(s) failed."
    if r.new_registry:
        return f"New registry at version {r.new_version}: everything in it is added. {outcome}"
    head = f"{r.old_version} -> {r.new_version}:"
    if any(c.rule == "version-backwards" for c in r.checks):
        return f"{head} the version went backwards. {outcome}"
    if r.required_bump == "none":
        said = "no release is needed" if r.old_version == r.new_version else "no release is needed (the version moved anyway, which is allowed)"
        return f"{head} no contract changes; {said}. {outcome}" if not r.changes else f"{head} only changes that need no release; {said}. {outcome}"
    made = "the version is unchanged" if r.declared_bump == "none" else f"the version makes a {r.declared_bump} release"
    return f"{head} the changes need a {r.required_bump} release; {made}. {outcome}"


def _place(p: Place | None) -> dict[str, Any] | None:
    return {"path": p.path, "line": p.line, "column": p.column} if p else None


def _where(p: Place | None) -> str:
    return f"{formats.visible(p.path)}:{p.line}:{p.column}: " if p else ""


def _used(r: DiffReport) -> list[str]:
    return sorted({c.rule for c in r.all})


def _rules_line(r: DiffReport) -> str:
    """Where each rule used is explained: `errgen docs RULE`, and online under `docs-url` when set."""
    specs = [RULE_SPECS[u] for u in _used(r)]
    if not specs:
        return ""
    links = [s.doc for s in specs if s.doc]
    if not links:
        return "Rules: " + ", ".join(s.command for s in specs)
    return f"Rules (errgen docs RULE prints one): {', '.join(links)}"


def _is_check(c: Change) -> bool:
    return RULE_SPECS[c.rule].level == "check"


def text(r: DiffReport) -> str:
    lines: list[str] = []
    for owner, changes in r.by_owner():
        indent = "  " if owner else ""
        if owner:
            lines.append(f"{formats.visible(owner)}:")
        for bump, heading in GROUPS:
            items = r.group(bump, changes)
            if items:
                lines.append(f"{indent}{heading}:")
                for c in items:
                    mark = f" [{status(c)}]" if status(c) else ""
                    lines.append(f"{indent}  {_where(c.where)}{c.rule}: {formats.visible(c.message + mark)}")
    if not r.changes:
        lines.append("No contract changes.")
    if r.checks:
        lines.append(f"{CHECKS_HEADING}:")
        lines += [f"  {_where(c.where)}error[{c.rule}]: {formats.visible(c.message)}" for c in r.checks]
    lines.append(verdict(r))
    rules = _rules_line(r)
    return "\n".join(lines + ([rules] if rules else []))


def _json_item(c: Change) -> dict[str, Any]:
    return {"rule": c.rule, "code": c.code, "category": c.category, "bump": c.bump, "severity": c.severity,
            "message": c.message, "owner": c.owner, "announcement": c.announcement, "accepted": c.announcement == "accepted",
            "reason": c.reason or None, "affects": list(c.affects), "old": _place(c.old), "new": _place(c.new),
            "location": _place(c.where), "fingerprint": c.fingerprint,
            "doc": RULE_SPECS[c.rule].doc, "docs_command": RULE_SPECS[c.rule].command}


def as_json(r: DiffReport) -> str:
    return formats.json_text({
        "old_version": r.old_version, "new_version": r.new_version, "new_registry": r.new_registry,
        "required_bump": r.required_bump, "declared_bump": r.declared_bump, "ok": r.ok, "verdict": verdict(r),
        "changes": [_json_item(c) for c in r.changes],
        "checks": [_json_item(c) for c in r.checks],
    })


def _title(c: Change) -> str:
    if c.bump == "none":
        return f"{'check' if _is_check(c) else 'info'} {c.rule}"
    return f"{c.bump} {c.rule}" + (f" ({status(c)})" if c.announcement else "")


def github(r: DiffReport) -> str:
    lines = []
    for c in r.changes + r.checks:
        p = c.where
        lines.append(formats.github_annotation(c.severity, c.message, title=_title(c), file=p.path if p else None,
                                               line=p.line if p else None, column=p.column if p else None))
    lines.append(formats.github_data(verdict(r)))  # a plain log line: kept to one line, never a command
    return "\n".join(lines)


def sarif(r: DiffReport) -> str:
    rules = [formats.SarifRule(s.id, s.description, s.command, s.doc or "") for s in RULE_SPECS.values()]
    results = []
    for c in r.changes + r.checks:
        p = c.where
        props = {"bump": c.bump, "announcement": c.announcement, "reason": c.reason or None, "code": c.code,
                 "category": c.category, "group": c.bump if c.bump != "none" else ("check" if _is_check(c) else "info"), "owner": c.owner}
        results.append(formats.sarif_result(c.rule, c.severity, c.message + (f" [{status(c)}]" if status(c) else ""),
                                            path=p.path if p else None, line=p.line if p else None, column=p.column if p else None,
                                            fingerprint=c.fingerprint, properties=props))
    return formats.sarif_log(rules, results, {"oldVersion": r.old_version, "newVersion": r.new_version,
                                              "requiredBump": r.required_bump, "declaredBump": r.declared_bump, "ok": r.ok,
                                              "verdict": verdict(r)})


def markdown(r: DiffReport) -> str:
    md = formats.md_cell
    icon = "✅" if r.ok else "❌"
    lines = [f"### {icon} Error contract {md(r.old_version or 'new')} → {md(r.new_version)}", "", md(verdict(r).replace(" -> ", " → ")), ""]
    for owner, changes in r.by_owner():
        if owner:
            lines += [f"#### {md(owner)}", ""]
        for bump, heading in GROUPS:
            items = r.group(bump, changes)
            if items and bump == "major":
                lines += [f"**{heading}**", "", "| rule | subject | change | announcement |", "| --- | --- | --- | --- |"]
                lines += [f"| `{c.rule}` | {md(c.subject)} | {md(c.message)} | {md(status(c))} |" for c in items]
            elif items:
                lines += [f"**{heading}**", "", "| rule | subject | change |", "| --- | --- | --- |"]
                lines += [f"| `{c.rule}` | {md(c.subject)} | {md(c.message)} |" for c in items]
            if items:
                lines.append("")
    if not r.changes:
        lines += ["No contract changes.", ""]
    if r.checks:
        lines += [f"**{CHECKS_HEADING}**", "", "| check | subject | what to do |", "| --- | --- | --- |"]
        lines += [f"| `{c.rule}` | {md(c.subject) or '–'} | {md(c.message)} |" for c in r.checks]
        lines.append("")
    used = _used(r)
    if used:  # links a PR comment can follow under `docs-url` (the URL is a validated setting), else the command
        lines.append("Rules: " + ", ".join(_md_rule(RULE_SPECS[u]) for u in used))
    return "\n".join(lines).rstrip() + "\n"


def _md_rule(spec: RuleSpec) -> str:
    return f"[`{spec.id}`]({spec.doc})" if spec.doc else f"`{spec.command}`"


_SCANNER = LeakScanner()


def masked(r: DiffReport) -> DiffReport:
    """The report with every secret in its text masked, as lint and validate mask theirs: a code,
    category or version can be token-shaped and each is quoted somewhere. The fingerprint is
    kept from the unmasked change, so two masked codes never share one."""
    red = lru_cache(maxsize=None)(_SCANNER.redact)  # a code is quoted in many changes

    def change(c: Change) -> Change:
        texts = dict(message=red(c.message), code=c.code and red(c.code), category=c.category and red(c.category),
                     detail=red(c.detail), reason=red(c.reason), owner=c.owner and red(c.owner), affects=tuple(map(red, c.affects)))
        if all(getattr(c, key) == value for key, value in texts.items()):
            return c
        return replace(c, **texts, pinned_fingerprint=c.fingerprint)  # type: ignore[arg-type]

    return replace(r, old_version=red(r.old_version), new_version=red(r.new_version), header=r.header and red(r.header),
                   changes=[change(c) for c in r.changes], checks=[change(c) for c in r.checks])


def _masking(render: Callable[[DiffReport], str]) -> Callable[[DiffReport], str]:
    @wraps(render)
    def rendered(r: DiffReport) -> str:
        return render(masked(r))

    return rendered


# Every format renders the masked report: nothing a diff prints carries a secret in clear.
FORMATS: dict[str, Callable[[DiffReport], str]] = {name: _masking(render) for name, render in
                                                   (("text", text), ("json", as_json), ("github", github), ("sarif", sarif),
                                                    ("markdown", markdown))}
