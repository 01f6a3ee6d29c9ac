"""errgen bump: set the version a diff requires and add its history entry, keeping the file's
comments, key order and formatting (ruamel.yaml round-trips them)."""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass
from pathlib import Path

from errgen import semver
from errgen.diff import classify
from errgen.diff.model import max_bump
from errgen.model import Registry
from errgen.semver import BUMP_ORDER


@dataclass
class BumpPlan:
    required: str
    version: str  # the version NEW should have
    lines: list[str]  # the history entry's changes; empty when the entry exists already
    text: str | None  # the new file text, or None when nothing needs to change

    def summary(self, old_version: str) -> str:
        if self.text is None:
            return f"nothing to do: version {self.version} already covers the changes since {old_version} (a {self.required} bump)"
        return f"{old_version} -> {self.version} ({self.required} bump), {len(self.lines)} change(s) in its history entry"


def plan(old: Registry, new: Registry, path: Path, today: datetime.date) -> BumpPlan:
    changes = classify(old, new)
    required = max_bump([c.bump for c in changes])
    old_v, new_v = semver.parse(old.version), semver.parse(new.version)
    assert old_v is not None and new_v is not None  # both registries passed lint
    covered = BUMP_ORDER[semver.declared_bump(old_v, new_v)] >= BUMP_ORDER[required] and not semver.less(new_v, old_v)
    version = new.version if covered else str(semver.bumped(old_v, required))  # type: ignore[arg-type]
    has_entry = new.history_entry(version) is not None
    if version == new.version and (has_entry or required == "none"):
        return BumpPlan(required, version, [], None)
    lines = [] if has_entry else [c.message for c in changes]
    return BumpPlan(required, version, lines, _rewrite(path.read_text(encoding="utf-8"), version, None if has_entry else (today, lines)))


def _mapping_indent(text: str) -> int:
    """How far the file indents a nested mapping (ruamel's guess measures sequences)."""
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    for parent, child in zip(lines, lines[1:]):
        stripped = child.lstrip(" ")
        if parent.rstrip().endswith(":") and not stripped.startswith("-") and len(child) > len(stripped):
            return (len(child) - len(stripped)) - (len(parent) - len(parent.lstrip(" ")))
    return 2


def _rewrite(text: str, version: str, entry: tuple[datetime.date, list[str]] | None) -> str:
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString
    from ruamel.yaml.util import load_yaml_guess_indent

    _, seq_indent, offset = load_yaml_guess_indent(text)
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 1_000_000
    yaml.indent(mapping=_mapping_indent(text), sequence=seq_indent or 2, offset=offset or 0)
    data = yaml.load(text)
    data["version"] = version
    if entry is not None:
        history = data["history"]
        previous = history[-1] if len(history) else None
        quoted = previous is not None and any(isinstance(c, DoubleQuotedScalarString) for c in previous.get("changes", ()))
        lines = [DoubleQuotedScalarString(line) if quoted else line for line in entry[1]]
        item = CommentedMap([("version", version), ("date", entry[0]), ("changes", CommentedSeq(lines))])
        if previous is not None and previous.fa.flow_style():
            item.fa.set_flow_style()
        if previous is not None and isinstance(previous.get("changes"), CommentedSeq) and previous["changes"].fa.flow_style():
            item["changes"].fa.set_flow_style()
        history.append(item)
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def write(path: Path, text: str) -> None:
    """Replace the registry atomically: a crash leaves the old file or the new one."""
    import os
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    os.replace(tmp, path)
