"""The typed, immutable registry every later step works on.

`action_for` is the one place where the recovery rule lives: every target renders its result, and
the generated runtimes implement the same rule for codes they do not know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal, Mapping

from errgen import identifiers
from errgen.diagnostics import Loc

SCOPES = ("request", "resource", "service")
ACTIONS = ("retry", "pause", "skip", "fix", "stop", "escalate")
CHOOSABLE_ACTIONS = ("fix", "escalate")
HINTS = ("searched", "did_you_mean", "accepted", "state", "safe_to_replay")
STATES = ("unchanged", "changed", "unknown")
# The payload's fields, in wire order (errgen.contract.fields gives each its type and doc).
FIELD_NAMES = ("code", "category", "retryable", "retry_after_ms", "scope", "resource_id", "correlation_id", "message",
               *HINTS)

Scope = Literal["request", "resource", "service"]
Action = Literal["retry", "pause", "skip", "fix", "stop", "escalate"]



def derive_action(retryable: bool, scope: str, chosen: str | None) -> str:
    """Article 000's rule, with service scope split by retryable into pause and stop."""
    if scope == "service":
        return "pause" if retryable else "stop"
    if retryable:
        return "retry"
    if scope == "resource":
        return "skip"
    return chosen or "escalate"


@dataclass(frozen=True, slots=True)
class Category:
    name: str
    retryable: bool
    description: str
    action: str | None = None
    # The HTTP status of the category's codes that state none (transport-agnostic registries).
    http_status: int | None = None
    identifier: str | None = None
    loc: Loc = field(default=Loc(1, 1), compare=False, repr=False)
    locs: Mapping[str, Loc] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Condition:
    """A test on a response (docs/registry.md, "Reading real responses"): `op` is `equals` (the
    value at `at` equals `value`), `non_empty` (it is a non-empty string, array or object) or
    `status` (the status is one of `value`, a tuple of ints)."""

    op: str
    at: str | None = None
    value: Any = None
    loc: Loc = field(default=Loc(1, 1), compare=False, repr=False)
    stated: tuple[str, ...] = field(default=(), compare=False, repr=False)  # the keys as written, for lint


@dataclass(frozen=True, slots=True)
class DelaySource:
    at: str
    unit: str = "http"
    loc: Loc = field(default=Loc(1, 1), compare=False, repr=False)
    extra: tuple[str, ...] = ()  # keys other than at, unit, codes and categories (lint reports them)
    # Filters (Okta's X-Rate-Limit-Reset is on every response, not only on rate limits): when any
    # is given, the entry is read only for a code listed, or a code of a category listed.
    codes: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    malformed: tuple[str, ...] = ()  # `codes` or `categories` given as anything but a list of names


@dataclass(frozen=True, slots=True)
class Response:
    """Where a real API's response carries each fact; each a list of sources tried in order.
    `retry_after` None: the default headers (retry-after-ms, then Retry-After)."""

    error_when: tuple[Condition, ...] = ()
    code: tuple[str, ...] = ()
    message: tuple[str, ...] = ()
    correlation_id: tuple[str, ...] = ()
    resource_id: tuple[str, ...] = ()
    retry_after: tuple[DelaySource, ...] | None = None
    # Each source string's location, by "fact:index".
    locs: Mapping[str, Loc] = field(default_factory=dict, compare=False, repr=False)


# The suffix of an envelope whose key holds an array of payloads: `errors[*]`.
ENVELOPE_ARRAY = "[*]"


@dataclass(frozen=True, slots=True)
class Wire:
    """How payload fields are named on the wire and where the payload sits in an HTTP body."""

    case: str = "snake"
    rename: Mapping[str, str] = field(default_factory=dict)
    envelope: str | None = None
    locs: Mapping[str, Loc] = field(default_factory=dict, compare=False, repr=False)
    format: str = "json"
    # None: the payload's own places (a registry for a new API).
    response: Response | None = None
    # How a response with no readable code is decided: status ("404") or class ("5xx") -> action,
    # over errgen.wire.STATUS_ACTIONS.
    statuses: Mapping[str, str] = field(default_factory=dict)

    def key(self) -> tuple[str, tuple[tuple[str, str], ...], str | None]:
        return (self.case, tuple(sorted(self.rename.items())), self.envelope)

    @property
    def envelope_key(self) -> str | None:
        """The body key the payload sits under: `envelope` without its `[*]`."""
        if self.envelope is None:
            return None
        return self.envelope.removesuffix(ENVELOPE_ARRAY)

    @property
    def envelope_array(self) -> bool:
        """`envelope: "errors[*]"`: the key holds an array of payloads (OCI, JSON:API)."""
        return self.envelope is not None and self.envelope.endswith(ENVELOPE_ARRAY)

    def name_of(self, field_name: str) -> str:
        """A payload field's name on the wire: renamed, else in the registry's case."""
        if field_name in self.rename:
            return self.rename[field_name]
        return identifiers.camel(field_name) if self.case == "camel" else field_name


@dataclass(frozen=True, slots=True)
class Deprecation:
    since: str
    replaced_by: str | None = None


@dataclass(frozen=True, slots=True)
class Code:
    name: str
    category: str
    retryable: bool
    scope: str
    scopes: tuple[str, ...]
    # As stated; None when the code leaves it to its category (errgen.contract resolves it).
    http_status: int | None
    description: str
    since: str
    retry_after_ms: int | None = None
    hints: tuple[str, ...] = ()
    deprecated: Deprecation | None = None
    renamed_from: tuple[str, ...] = ()
    action: str | None = None
    # The RFC 9457 problem type, when not problem_base + code (a real API's documentation URL).
    type_uri: str | None = None
    # The words every language names this code after, when the wire value's are not wanted.
    identifier: str | None = None
    # The code the API sends, when one wire code has several meanings; `when` selects this one.
    wire_code: str | None = None
    when: tuple[Condition, ...] = ()
    # A start the API's codes of this kind share (SQLSTATE class "08", Dropbox's "path/not_found/"):
    # a code read that no wire code equals is this code when it starts so (the longest prefix wins).
    wire_prefix: str | None = None
    # What the file itself says, before the category's values are inherited (for lint and diff).
    stated_retryable: bool | None = field(default=None, compare=False)
    stated_action: str | None = field(default=None, compare=False)
    loc: Loc = field(default=Loc(1, 1), compare=False, repr=False)
    locs: Mapping[str, Loc] = field(default_factory=dict, compare=False, repr=False)

    def action_for(self, scope: str) -> str:
        return derive_action(self.retryable, scope, self.action)

    @property
    def actions(self) -> dict[str, str]:
        """The action for each allowed scope, in the registry's scope order."""
        key = (self.retryable, self.scopes, self.action)
        known = _ACTIONS.get(key)
        if known is None:
            known = tuple((scope, self.action_for(scope)) for scope in self.scopes)
            if len(_ACTIONS) < 4096:  # bounded: scopes not yet linted may be anything
                _ACTIONS[key] = known
        return dict(known)


# The actions of each (retryable, scopes, action) asked about: a registry's codes share a few
# dozen, and the contract view asks for every code's (a diff, for two registries').
_ACTIONS: dict[tuple[bool, tuple[str, ...], str | None], tuple[tuple[str, str], ...]] = {}


@dataclass(frozen=True, slots=True)
class AcceptedBreak:
    """A break shipped on purpose: one rule on one code, or on one category (category-level rules)."""

    rule: str
    code: str | None
    reason: str
    loc: Loc = field(default=Loc(1, 1), compare=False, repr=False)
    category: str | None = None


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    version: str
    date: str
    changes: tuple[str, ...]
    accepted_breaks: tuple[AcceptedBreak, ...] = ()
    loc: Loc = field(default=Loc(1, 1), compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class About:
    """What package registries (PyPI, npm, crates.io, Maven Central) show of the SDKs. Not part of
    the contract: no SDK behaves differently and `diff` does not compare it."""

    description: str = ""
    license: str | None = None  # an SPDX licence expression
    repository: str | None = None
    homepage: str | None = None
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Registry:
    name: str
    version: str
    categories: tuple[Category, ...]
    codes: tuple[Code, ...]
    history: tuple[HistoryEntry, ...]
    problem_base: str | None = None
    # Per-language package settings as written (`targets:`); errgen.contract resolves the defaults.
    targets: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    wire: Wire = field(default_factory=Wire)
    about: About = field(default_factory=About, compare=False)
    # errgen.registry.compose.Fragment for each fragment file of a folder registry: who owns which codes.
    # Not part of the contract: a composed registry builds exactly as its single-file equivalent.
    fragments: tuple[Any, ...] = field(default=(), compare=False, repr=False)
    path: str = "registry/errors.yaml"
    locs: Mapping[str, Loc] = field(default_factory=dict, compare=False, repr=False)

    def loc_of(self, key: str) -> Loc:
        return self.locs.get(key, Loc(1, 1))

    @cached_property
    def category_map(self) -> dict[str, Category]:
        return {c.name: c for c in self.categories}

    @cached_property
    def code_map(self) -> dict[str, Code]:
        return {c.name: c for c in self.codes}

    @cached_property
    def owners(self) -> dict[str, str]:
        """Each code's owner, for a folder registry (empty for a single file)."""
        return {code: f.owner for f in self.fragments for code in f.codes}

    def history_entry(self, version: str) -> HistoryEntry | None:
        return next((h for h in self.history if h.version == version), None)
