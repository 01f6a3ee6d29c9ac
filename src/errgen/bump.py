"""errgen bump: set the version the changes require, set `since` on the codes they add (a renamed
code keeps the `since` of the code it renames, and a rename diff only detected gets its
`renamed_from`), and append the release's history entry.

Only the lines that must change are touched: the positions come from errgen's own loader, and the
result is re-parsed and compared with the intended registry. Everything else in the file stays
byte for byte (comments, indentation, quoting, line endings, a BOM, trailing white space, a `...`
end marker). Only when that check fails (an unusual layout) is the file round-tripped through
ruamel.yaml instead.
"""

from __future__ import annotations

import datetime
import difflib
import json
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from errgen import semver
from errgen.diagnostics import Fatal, Loc
from errgen.diff import diff
from errgen.diff.checks import RENAME_RULES, expected_since
from errgen.diff.changes import RULE_SPECS, Change
from errgen.registry.model import HistoryEntry, Registry
from errgen.semver import BUMP_ORDER, Bump

if TYPE_CHECKING:
    from errgen.registry.compose import ComposedDocument, WorkTree
    from errgen.registry.load import Document

BOM = "\ufeff"
_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")  # what libyaml counts as a line break
_PLAIN_VALUE = re.compile(r"[^\s,\[\]{}#]+")
_SAFE_PLAIN = re.compile(r"[A-Za-z0-9_(][^\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\"]*")


@dataclass(frozen=True)
class Source:
    """A registry file as bump found it: its text (without BOM) and the layout to keep."""

    text: str
    bom: bool

    @classmethod
    def read(cls, path: Path) -> "Source":
        from errgen.paths import read_regular
        from errgen.registry.load import MAX_BYTES

        text = read_regular(path, MAX_BYTES).decode("utf-8")  # lint read it already: same checks
        return cls(text.removeprefix(BOM), text.startswith(BOM))

    @property
    def newline(self) -> str:
        first = _BREAK.search(self.text)
        return first.group() if first and first.group() in ("\r\n", "\r") else "\n"

    def encoded(self, text: str) -> bytes:
        return ((BOM if self.bom else "") + text).encode("utf-8")


@dataclass
class BumpPlan:
    required: Bump
    version: str  # the version NEW should have
    lines: list[str]  # the new history entry's changes; empty when the entry exists already
    since: dict[str, str]  # codes whose `since` is set, and to what
    entry: HistoryEntry | None
    needed: bool  # False when NEW already is what bump would make it
    # Detected (undeclared) renames, new name -> old name: the new code gets `renamed_from: [old]`.
    renamed: dict[str, str] = field(default_factory=dict)
    text: str | None = None  # the new file text, once `apply` made it
    method: str = ""  # "lines", or "round-trip" when the line edit could not be verified
    filled: int = 0  # codes that had no `since` line (with_since gave them one)

    def apply(self, source: Source, new: Registry) -> str | None:
        if self.needed:
            self.text, self.method = rewrite(source, new, self.version, self.since, self.entry, self.renamed)
        return self.text

    def summary(self, old_version: str) -> str:
        if not self.needed:
            if self.required == "none":
                return f"nothing to do: no contract changes since {old_version or 'the start'}; version {self.version} stays"
            return f"nothing to do: version {self.version} already covers the changes since {old_version or 'the start'} (a {self.required} release)"
        parts = [f"{old_version or 'new registry'} -> {self.version} ({self.required} release)"]
        if self.lines:
            parts.append(f"{len(self.lines)} change(s) in its history entry")
        added = sum(v == self.version for v in self.since.values())
        if self.filled:
            parts.append(f"since written on {self.filled} code(s) that had none")
        if added:
            parts.append(f"since: {self.version} on {added} new code(s)")
        if len(self.since) > added:
            parts.append(f"since kept on {len(self.since) - added} renamed code(s)")
        if self.renamed:
            parts.append(f"renamed_from declared on {len(self.renamed)} code(s)")
        return ", ".join(parts)


def plan(old: Registry, new: Registry, today: datetime.date, *, new_registry: bool = False) -> BumpPlan:
    """What NEW needs, from the same report (and required-bump function) `errgen diff` uses.
    It holds no reference to OLD, so a caller can free OLD before `apply` re-parses the file."""
    report = diff(old, new, new_registry=new_registry)
    required = report.required_bump
    version = new.version if new_registry else _target_version(old, new, required, report.declared_bump)
    has_entry = new.history_entry(version) is not None
    wanted = {} if new_registry else expected_since(report.changes, old, version, new)
    since = {name: value for name, value in wanted.items() if new.code_map[name].since != value}
    renamed = {c.detail: c.code for c in report.changes if c.rule == "code-probably-renamed" and c.detail and c.code}
    if version == new.version and not since and not renamed and (has_entry or required == "none"):
        return BumpPlan(required, version, [], {}, None, needed=False)
    # Moves and owner changes (bump "none") are not the contract's: they stay out of its changelog.
    lines = [] if has_entry else [changelog_line(c) for c in report.changes if c.bump != "none"] or [f"Release {version}."]
    entry = None if has_entry else HistoryEntry(version, today.isoformat(), tuple(lines))
    return BumpPlan(required, version, lines, since, entry, needed=True, renamed=renamed)


def changelog_line(change: Change) -> str:
    """A history line for people reading the changelog: what happened to which code. A diff
    message may also say how the change was found or what to do about it; that is for the review."""
    if change.rule in RENAME_RULES:
        return f"{change.code} was renamed to {change.detail}"
    if change.rule == "code-removed":
        return f"{change.code} was removed"
    keyword = RULE_SPECS[change.rule].keyword if change.rule in RULE_SPECS else ""
    if keyword and not re.search(rf"\b{re.escape(keyword)}\b", change.message, re.IGNORECASE):
        return f"{keyword}: {change.message}"  # the word that announces a registry-level break
    return change.message


def _target_version(old: Registry, new: Registry, required: Bump, declared: Bump) -> str:
    old_v, new_v = semver.parse(old.version), semver.parse(new.version)
    assert old_v is not None and new_v is not None  # both registries passed lint
    if not semver.less(new_v, old_v) and BUMP_ORDER[declared] >= BUMP_ORDER[required]:
        return new.version
    return str(semver.bumped(old_v, required))


def intended(new: Registry, version: str, since: dict[str, str], entry: HistoryEntry | None,
             renamed: dict[str, str] | None = None) -> Registry:
    renamed = renamed or {}
    codes = tuple(replace(c, since=since.get(c.name, c.since), renamed_from=c.renamed_from + ((renamed[c.name],) if c.name in renamed else ()))
                  if c.name in since or c.name in renamed else c for c in new.codes)
    return replace(new, version=version, codes=codes, history=new.history + ((entry,) if entry else ()))


def rewrite(source: Source, new: Registry, version: str, since: dict[str, str], entry: HistoryEntry | None,
            renamed: dict[str, str] | None = None) -> tuple[str, str]:
    """The new text and how it was made: by line edits, each verified, or else by round-trip."""
    try:
        return edit_lines(source, new, version, since, entry, renamed or {}), "lines"
    except Exception:  # noqa: BLE001 - any surprise in the fast path means: round-trip instead
        return round_trip(source, new, version, since, entry, renamed or {}), "round-trip"


class EditError(Exception):
    """The file's layout is not one the line editor handles (flow history, block scalars...)."""


class _Text:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    def offset(self, loc: Loc) -> int:
        return self.starts[loc.line - 1] + loc.column - 1

    def line_end(self, line: int) -> int:
        """Offset just after line `line`'s break (1-based), or the end of the text."""
        return self.starts[line] if line < len(self.starts) else len(self.text)


def edit_lines(source: Source, new: Registry, version: str, since: dict[str, str], entry: HistoryEntry | None,
               renamed: dict[str, str] | None = None) -> str:
    doc = _Text(source.text)
    edits: list[tuple[int, int, str]] = []
    if version != new.version:
        edits.append(_scalar(doc, new.locs["version"], new.version, version))
    edits += _code_edits(doc, new, _here(new, since), _here(new, renamed or {}), source.newline)
    if entry is not None:
        edits.append(_append_entry(doc, new, entry, source.newline))
        _verify_history(doc, new, edits[-1], entry)
    text = _applied(source.text, edits)
    if renamed and _here(new, renamed):
        _verify_codes(text, new, _here(new, since), _here(new, renamed))
    return text


def with_since(source: Source, display: str) -> tuple[Source, list[str]]:
    """The README's promise: a new code may leave `since` out and bump sets it. The registry
    does not load without it (it is required), so a line `since: VERSION` (the file's version, a
    placeholder bump then edits like any other since) is inserted as each such code's first key;
    returns the text to bump and the codes given one (a code written as a flow mapping gets it as
    its first item). A file that does not load is left as it is (lint then says what is missing).
    A folder registry's fragments get theirs from `Filled`."""
    from errgen.registry.load import Map, load_text

    try:
        root = load_text(source.text, display).root
    except Exception:  # noqa: BLE001 - lint reports why the file does not load
        return source, []
    version = root.get("version") if isinstance(root, Map) else None
    if not isinstance(version, str) or semver.parse(version) is None:
        return source, []
    return _placeholders(source, root, version)


def _placeholders(source: Source, root: object, version: str) -> tuple[Source, list[str]]:
    """`source` with `since: VERSION` as the first key of each code in `root` (its loaded
    text) that has none, and those codes' names."""
    from errgen.registry.load import Map

    codes = root.get("codes") if isinstance(root, Map) else None
    if not isinstance(codes, Map):
        return source, []
    doc = _Text(source.text)
    edits, names = [], []
    for name, code in codes.items():
        if isinstance(code, Map) and code and "since" not in code:
            start, at = doc.starts[code.loc.line - 1], doc.offset(code.loc)
            indent = doc.text[start:at]
            if doc.text.startswith("{", at):  # a flow mapping: its first item
                edits.append((at + 1, at + 1, f"since: {version}, "))
            elif indent.strip(" "):  # a key after `- `: not a line of its own
                continue
            else:
                edits.append((start, start, f"{indent}since: {version}{source.newline}"))
            names.append(name)
    return (replace(source, text=_applied(source.text, edits)), names) if names else (source, [])


class Filled:
    """The registry bump lints: the header's text (after `with_since`) and, in a folder
    registry, every fragment holding a code without `since` given the placeholder too, in memory
    only (compose reads those texts instead of the files). `fragments` says which: shown path ->
    (the file's text as read, the text with placeholders); `names` the codes given one."""

    def __init__(self, header: Source, display: str, folder: Path) -> None:
        self.header, self.display, self.folder = header, display, folder
        self.fragments: dict[str, tuple[Source, Source]] = {}
        self.names: list[str] = []

    def document(self) -> "Document":
        from errgen.registry import compose
        from errgen.registry.load import load_text

        doc = load_text(self.header.text, self.display)
        if not compose.includes(doc):
            return doc
        tree = compose.WorkTree(self.folder)
        composed = compose.compose(doc, tree)
        version = doc.root.get("version")
        if not isinstance(composed, compose.ComposedDocument) or not isinstance(version, str) or semver.parse(version) is None:
            return composed  # lint says what is wrong
        texts = {}
        for shown in _lacking_since(composed):
            try:
                original, patched, names = self._fill(tree, composed.files[shown], shown, version)
            except (OSError, ValueError, Fatal):  # changed since compose read it: lint reports what is missing
                continue
            if names:
                texts[composed.files[shown]] = patched.encoded(patched.text)
                self.fragments[shown] = (original, patched)
                self.names += names
        if not texts:
            return composed
        header = load_text(self.header.text, self.display)  # compose merged into the header's own codes mapping
        return compose.compose(header, compose.Overlay(tree, texts))

    @staticmethod
    def _fill(tree: "WorkTree", real: str, shown: str, version: str) -> tuple[Source, Source, list[str]]:
        from errgen.registry.load import load_text

        text = tree.read(real).decode("utf-8")  # compose read and loaded it a moment ago
        original = Source(text.removeprefix(BOM), text.startswith(BOM))
        return original, *_placeholders(original, load_text(original.text, shown).root, version)


def _lacking_since(composed: "ComposedDocument") -> list[str]:
    """The fragments (shown paths) holding a code, written as a mapping, without `since`."""
    from errgen.registry.load import Map

    codes = composed.root.get("codes")
    found = {code.loc.path for code in codes.values() if isinstance(code, Map) and code and "since" not in code} if isinstance(codes, Map) else set()
    return sorted(p for p in found if p is not None and p in composed.files)


def fill_since(plan: BumpPlan, old: Registry | None, new: Registry, filled: list[str]) -> None:
    """The codes `with_since` gave a placeholder get their true since: a new code's is the
    release's version (for a registry new on the branch, its version); a code OLD has keeps OLD's."""
    for name in filled:
        want = plan.since.get(name) or (old.code_map[name].since if old and name in old.code_map else plan.version)
        plan.since[name] = want
    if filled:
        plan.needed, plan.filled = True, len(filled)


def verify_since(text: str, new: Registry, plan: BumpPlan, filled: list[str]) -> None:
    """Re-parse the written text: every code given a since says the one intended."""
    if filled:
        _verify_codes(text, new, {name: plan.since[name] for name in filled}, {})


def _applied(text: str, edits: list[tuple[int, int, str]]) -> str:
    pieces, done = [], 0
    for start, end, value in sorted(edits):
        pieces += [text[done:start], value]
        done = end
    return "".join(pieces) + text[done:]


def _here(new: Registry, names: dict[str, str]) -> dict[str, str]:
    """The codes written in the registry file itself (a folder registry's fragments hold the rest)."""
    return {name: value for name, value in names.items() if new.code_map[name].loc.path is None}


def edits(path: Path, source: Source, text: str | None, new: Registry, plan: BumpPlan,
          filled: dict[str, tuple[Source, Source]] | None = None) -> list[tuple[Path, Source, str]]:
    """Every file the bump changes, with its new text: the registry file (when `text` is not None)
    and, in a folder registry, each fragment holding a new code's `since` or a rename's
    `renamed_from` (`filled`: the fragments `Filled` gave placeholders). Raises EditError."""
    found = [(path, source, text)] if text is not None else []
    changed = fragment_edits(new, plan.since, plan.renamed, filled)
    return found + [(Path(p), src, new_text) for p, (src, new_text) in changed.items()]


def unified_diff(path: Path, source: Source, text: str) -> str:
    """What --dry-run prints for one file."""
    return "".join(difflib.unified_diff(source.text.splitlines(keepends=True), text.splitlines(keepends=True), str(path), f"{path} (bumped)"))


def _code_edits(doc: _Text, new: Registry, since: dict[str, str], renamed: dict[str, str], newline: str) -> list[tuple[int, int, str]]:
    """Each code's new `since` (the old scalar replaced) and `renamed_from` (a line inserted
    before its `since` key, or an item in a flow mapping)."""
    edits = []
    for name, value in since.items():
        code = new.code_map[name]
        edits.append(_scalar(doc, code.locs["since"], code.since, value))
    for name, old in renamed.items():
        edits.append(_insert_renamed_from(doc, new.code_map[name].locs["since"], old, newline))
    return edits


_SINCE_KEY = re.compile(r"since[ \t]*:[ \t]*")


def _insert_renamed_from(doc: _Text, since_value: Loc, old: str, newline: str) -> tuple[int, int, str]:
    at = doc.offset(since_value)
    line_start = doc.starts[since_value.line - 1]
    key = doc.text.rfind("since", line_start, at)
    if key < 0 or not _SINCE_KEY.fullmatch(doc.text, key, at):
        raise EditError(f"the since key of line {since_value.line} is not plain")
    item = f"renamed_from: [{json.dumps(old)}]"
    if doc.text[line_start:key].strip(" ") == "":  # a block mapping: a line of its own, same indentation
        return line_start, line_start, doc.text[line_start:key] + item + newline
    return key, key, item + ", "  # a flow mapping


def _verify_codes(text: str, new: Registry, since: dict[str, str], renamed: dict[str, str]) -> None:
    """Re-parse the edited file: each edited code says the intended since and renamed_from."""
    from errgen.registry.load import Map, load_text

    codes = load_text(text, new.path).root.get("codes")
    if not isinstance(codes, Map):
        raise EditError("the codes did not re-parse")
    for name in {**since, **renamed}:
        code = codes.get(name)
        want = list(new.code_map[name].renamed_from) + ([renamed[name]] if name in renamed else [])
        if not isinstance(code, Map) or code.get("since") != since.get(name, new.code_map[name].since) or list(code.get("renamed_from", [])) != want:
            raise EditError(f"code {name} did not re-parse as intended")


def fragment_edits(new: Registry, since: dict[str, str], renamed: dict[str, str] | None = None,
                   filled: dict[str, tuple[Source, Source]] | None = None) -> dict[str, tuple[Source, str]]:
    """For a folder registry: each fragment file that holds a code whose `since` is set or that
    gets `renamed_from`, with its new text (only those places edited, then re-parsed), and its
    text as read. A fragment in `filled` (as read, with placeholder since lines) is edited from
    its placeholder text: NEW's positions are in that text. Raises EditError on a layout the line
    editor refuses, or a fragment reached through a link."""
    renamed, filled = renamed or {}, filled or {}
    by_file: dict[str, tuple[dict[str, str], dict[str, str]]] = {}
    for names, slot in ((since, 0), (renamed, 1)):
        for name, value in names.items():
            path = new.code_map[name].loc.path
            if path is not None:
                by_file.setdefault(path, ({}, {}))[slot][name] = value
    out: dict[str, tuple[Source, str]] = {}
    for path, (file_since, file_renamed) in by_file.items():
        _refuse_links(Path(new.path).parent, Path(path))
        source, base = filled[path] if path in filled else (Source.read(Path(path)),) * 2
        text = _applied(base.text, _code_edits(_Text(base.text), new, file_since, file_renamed, base.newline))
        if file_renamed or path in filled:
            _verify_codes(text, new, file_since, file_renamed)
        out[path] = (source, text)
    return out


def _refuse_links(folder: Path, fragment: Path) -> None:
    """bump writes a fragment only where it is: never through a symbolic link (the file, or a
    folder on its way from the registry's folder), which could point anywhere."""
    try:
        below = fragment.relative_to(folder).parts
    except ValueError:
        below = fragment.parts
    for depth in range(1, len(below) + 1):
        if (folder / Path(*below[:depth])).is_symlink():
            raise EditError(f"{fragment} is reached through a symbolic link ({Path(*below[:depth])}); bump does not write through links")


def _scalar(doc: _Text, loc: Loc, old: str, value: str) -> tuple[int, int, str]:
    """Replace the scalar `old` written at `loc` by `value`, inside its quotes if it has them.
    Exactly the old token is replaced by a token of the same kind (versions are plain-safe and
    quote-free), so the document's structure cannot change; anything else raises EditError."""
    if not _PLAIN_VALUE.fullmatch(value) or semver.parse(value) is None:
        raise EditError(f"{value!r} is not a plain version")
    at = doc.offset(loc)
    quote = doc.text[at:at + 1]
    if quote in ("'", '"'):
        end = doc.text.find(quote, at + 1)
        if end < 0 or doc.text[at + 1:end] != old:
            raise EditError(f"unexpected quoted scalar at line {loc.line}")
        return at + 1, end, value
    match = _PLAIN_VALUE.match(doc.text, at)
    if not match or match.group() != old:
        raise EditError(f"unexpected scalar at line {loc.line}")
    return match.start(), match.end(), value


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _append_entry(doc: _Text, new: Registry, entry: HistoryEntry, newline: str) -> tuple[int, int, str]:
    if not new.history:
        raise EditError("history is empty")
    last = new.history[-1]
    at = doc.offset(last.loc)
    line_start = doc.starts[last.loc.line - 1]
    prefix = doc.text[line_start:at]
    if not re.fullmatch(r" *- +", prefix):
        raise EditError("the last history entry does not start its line with '- '")
    dash = prefix.index("-")
    # The entry runs on while lines are indented deeper than its dash (or are blank or comments).
    last_content = last.loc.line
    line = last.loc.line + 1
    while line <= len(doc.starts):
        body = doc.text[doc.starts[line - 1]:doc.line_end(line)]
        stripped = _BREAK.sub("", body).strip()
        if stripped and not stripped.startswith("#"):
            if _indent(body) <= dash:
                break
            last_content = line
        line += 1
    insert = doc.line_end(last_content)
    block = doc.text[at:insert]
    lead = "" if insert == 0 or doc.text[insert - 1] in "\n\r\x85\u2028\u2029" else newline  # a file without a final break
    return insert, insert, lead + _render_entry(entry, block, prefix, " " * (last.loc.column - 1), newline)


def _verify_history(doc: _Text, new: Registry, edit: tuple[int, int, str], entry: HistoryEntry) -> None:
    """Re-parse the history block with the new entry (from the top-level `history:` key to the
    insertion): it must hold the old entries' versions and then exactly the new entry. The text
    outside that block is untouched, so this is the whole document's check at the block's cost."""
    from errgen.registry.load import load_text

    line = new.locs["history"].line - 1
    while line > 0 and doc.text[doc.starts[line - 1]:doc.line_end(line)].strip()[:1] in ("", "#"):
        line -= 1
    key_start = doc.starts[line - 1] if line > 0 else 0
    if not re.match(r"history[ \t]*:[ \t]*(#[^\r\n]*)?(\r\n|[\r\n])", doc.text[key_start:doc.line_end(line)]):
        raise EditError("the history key is not a top-level key on its own line")
    insert, _, value = edit
    loaded = load_text(doc.text[key_start:insert] + value, new.path).root
    items = loaded.get("history")
    want = {"version": entry.version, "date": entry.date, "changes": list(entry.changes)}
    if list(loaded) != ["history"] or not isinstance(items, list) or len(items) != len(new.history) + 1:
        raise EditError("the history block did not re-parse as the history")
    if [getattr(i, "get", lambda _: None)("version") for i in items[:-1]] != [h.version for h in new.history] or items[-1] != want:
        raise EditError("the new history entry did not re-parse as intended")


def _render_entry(entry: HistoryEntry, previous: str, dash: str, inner: str, nl: str) -> str:
    """The new entry in the style of the previous one: its dash and indentation, flow or block,
    quoted or plain items."""
    changes = re.search(r"(?:^|[\s{,])changes\s*:[ \t]*(.)", previous, re.S)
    flow_entry = previous.startswith("{")
    flow_list = flow_entry or bool(changes and changes.group(1) == "[")
    first_item = re.search(r"changes\s*:\s*(?:\[\s*|-\s+)(.)", previous)
    quoted = bool(first_item and first_item.group(1) in "\"'")
    items = [_string(c, quoted, flow_list) for c in entry.changes]
    listed = "[" + ", ".join(items) + "]"
    if flow_entry:
        return f"{dash}{{version: {entry.version}, date: {entry.date}, changes: {listed}}}{nl}"
    head = f"{dash}version: {entry.version}{nl}{inner}date: {entry.date}{nl}"
    if flow_list:
        return head + f"{inner}changes: {listed}{nl}"
    item = re.search(r"changes\s*:[^\n]*\n( *- +)", previous)
    item_dash = item.group(1) if item else inner + "  - "
    return head + f"{inner}changes:{nl}" + "".join(f"{item_dash}{i}{nl}" for i in items)


def _string(text: str, quoted: bool, flow: bool) -> str:
    if not quoted and _plain_ok(text, flow):
        return text
    out = json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar...
    # ...once the characters YAML does not allow raw (or reads as line breaks) are escaped too.
    return "".join(f"\\u{ord(ch):04x}" if (0x7F <= ord(ch) <= 0x9F or ch in "\u2028\u2029\ufeff") else ch for ch in out)


def _plain_ok(text: str, flow: bool) -> bool:
    from errgen.registry.load import _resolve_plain

    return (bool(_SAFE_PLAIN.fullmatch(text)) and text == text.strip() and ": " not in text and " #" not in text
            and not text.endswith(":") and not (flow and any(ch in text for ch in ",[]{}"))
            and _resolve_plain(text) == "tag:yaml.org,2002:str")


def round_trip(source: Source, new: Registry, version: str, since: dict[str, str], entry: HistoryEntry | None,
               renamed: dict[str, str] | None = None) -> str:
    """The slow, general way: ruamel.yaml keeps comments and key order, not every byte."""
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.util import load_yaml_guess_indent

    text = source.text
    _, seq_indent, offset = load_yaml_guess_indent(text)
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 1_000_000
    yaml.indent(mapping=2, sequence=seq_indent or 2, offset=offset or 0)
    data = yaml.load(text)
    data["version"] = version
    for name, value in _here(new, since).items():
        data["codes"][name]["since"] = value
    for name, old in _here(new, renamed or {}).items():
        data["codes"][name]["renamed_from"] = CommentedSeq([*data["codes"][name].get("renamed_from", []), old])
    if entry is not None:
        data["history"].append(CommentedMap([("version", entry.version), ("date", entry.date), ("changes", CommentedSeq(entry.changes))]))
    out = io.StringIO()
    yaml.dump(data, out)
    result = out.getvalue()
    return result.replace("\n", source.newline) if source.newline != "\n" else result


def write(path: Path, data: bytes) -> None:
    """Replace one registry file atomically (see write_files)."""
    write_files([(path, data)])


def write_files(files: list[tuple[Path, bytes]]) -> None:
    """Replace every file, or none: a folder registry's header and fragments change together.
    Each new content is written and synced beside its file first (through a symlink, keeping the
    file's permissions); only when every one is on disk are they renamed over the files. A rename
    that fails after others succeeded puts the earlier files' contents back."""
    staged: list[tuple[Path, Path, bytes]] = []
    try:
        for path, data in files:
            target = path.resolve()
            staged.append((_stage(target, data), target, target.read_bytes()))
    except BaseException:
        for tmp, _, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    replaced: list[tuple[Path, bytes]] = []
    try:
        for tmp, target, original in staged:
            os.replace(tmp, target)
            replaced.append((target, original))
    except BaseException:
        for tmp, _, _ in staged:
            tmp.unlink(missing_ok=True)
        for target, original in replaced:
            os.replace(_stage(target, original), target)
        raise


def _stage(target: Path, data: bytes) -> Path:
    """A synced temporary file beside target holding data, with target's permissions. It is
    written unnamed first (O_TMPFILE) where the system allows, so a kill mid-write leaves nothing."""
    mode = stat.S_IMODE(os.stat(target).st_mode)
    tmp = target.parent / f".{target.name}.{os.getpid()}.tmp"
    try:
        fd = os.open(target.parent, os.O_TMPFILE | os.O_WRONLY, mode)
    except (AttributeError, OSError):
        fd = -1
    if fd >= 0:
        try:
            _write_all(fd, data, mode)
            tmp.unlink(missing_ok=True)
            os.link(f"/proc/self/fd/{fd}", tmp)
            return tmp
        except OSError:
            pass
        finally:
            os.close(fd)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        _write_all(fd, data, mode)
    except BaseException:
        os.close(fd)
        Path(name).unlink(missing_ok=True)
        raise
    os.close(fd)
    return Path(name)


def _write_all(fd: int, data: bytes, mode: int) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fchmod(fd, mode)
    os.fsync(fd)
