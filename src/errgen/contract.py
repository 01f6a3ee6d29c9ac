"""The contract view: everything a language target, `validate`, `diff` and the conformance vectors
need, derived once from the registry.

A vocabulary, a limit, a policy constant or the recovery rule is written here (or in `model`) and
nowhere else; targets render what this view holds, runtimes read the data targets render from it.
Adding a language never means restating any of this.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal, Mapping

from errgen import identifiers
from errgen.languages import all_languages
from errgen.wire import response_spec
from errgen.registry.model import ACTIONS, FIELD_NAMES, About, CHOOSABLE_ACTIONS, HINTS, SCOPES, STATES, Category, Code, Registry, Wire, derive_action

FieldType = Literal["string", "boolean", "integer", "enum", "string_list", "scalar_map"]

# Why a decision was taken; stable ids every SDK emits and the vectors pin.
REASONS = ("registry", "unknown-code", "invalid-payload", "contradicts-registry", "attempts-exhausted", "delay-exceeds-max",
           "status-fallback", "transport-failure", "outcome-unknown")
# What went wrong when no response came (docs/conformance.md, "Transport failures"): the first two
# before the request left, the others possibly after the server applied it.
TRANSPORT_FAILURES = ("refused", "tls", "reset", "timeout")

# Why the strict verdict rejects a payload; stable ids every SDK and `errgen validate` report.
ENVELOPE_PROBLEMS = ("not-an-object", "extra-field", "wrong-type", "missing-field", "resource-id-missing")
REGISTRY_PROBLEMS = ("unknown-category", "unknown-code", "category-mismatch", "retryable-mismatch", "scope-not-allowed",
                     "retry-after-not-retryable", "hint-not-allowed")
PROBLEMS = ENVELOPE_PROBLEMS + REGISTRY_PROBLEMS

# The tolerant verdict of a raw payload.
PARSED = ("known", "unknown", "invalid")

# What each value of errgen's own vocabularies means, for an SDK's doc comments (Markdown code
# spans). The registry's codes and categories say it themselves, in their descriptions; a hint is
# the payload field of that name, documented by its field description.
VALUE_MEANINGS: dict[str, dict[str, str]] = {
    "Scope": {
        "request": "This request failed; other requests are not affected.",
        "resource": "One resource failed (the payload's `resource_id`); other resources are not affected.",
        "service": "The whole service failed: every call to it fails until it recovers.",
    },
    "Action": {
        "retry": "Call again after the decision's delay: the same call may succeed.",
        "pause": "Wait the decision's delay, then resume the whole job: the service is limited or unavailable.",
        "skip": "Record the resource (`resource_id`, with `correlation_id`) and go on with the next item.",
        "fix": "Change the call (the payload's hints say how) before making it again.",
        "stop": "Stop the job and report upstream: no call will succeed.",
        "escalate": "Hand the error to a human, with its `correlation_id`: no rule can recover from it.",
    },
    "State": {
        "unchanged": "Nothing was read or written before the failure.",
        "changed": "Something was read or written before the failure.",
        "unknown": "The server cannot tell whether anything was read or written before the failure.",
    },
    "Reason": {
        "registry": "The registry's action for the code in the payload's scope.",
        "unknown-code": "A code or category this registry version does not know: the rule for unknown "
                        "codes, on the payload's own `retryable` and `scope`.",
        "invalid-payload": "The payload breaks the contract (its envelope, or a delay on a final error): "
                           "`escalate`.",
        "contradicts-registry": "The payload contradicts the registry (its category, `retryable`, scope or "
                                "hints): `escalate`.",
        "attempts-exhausted": "The attempts ran out: a `retry` became `escalate`, a `pause` became `stop`.",
        "delay-exceeds-max": "The delay asked for is longer than the caller's maximum: `escalate`.",
        "status-fallback": "A response without a payload, decided by its HTTP status.",
        "transport-failure": "No response came (refused, TLS, reset, timeout), and the call is tried again.",
        "outcome-unknown": "No response came after the request may have been applied, and the call is not "
                           "idempotent: `escalate`, only the caller can look.",
    },
    "Parsed": {
        "known": "A well-formed payload whose code and category the registry knows.",
        "unknown": "A well-formed payload whose code or category this registry version does not know (a "
                   "newer server's): kept, never an error.",
        "invalid": "A payload that breaks the contract's envelope, or a final error naming a delay.",
    },
    # When the strict verdict reports each (docs/conformance.md).
    "Problem": {
        "not-an-object": "The raw payload is not a JSON object (no other check runs).",
        "extra-field": "A key that is not a contract field.",
        "wrong-type": "A field's value has the wrong type.",
        "missing-field": "A required field is absent.",
        "resource-id-missing": "The scope is `resource` and `resource_id` is absent.",
        "unknown-category": "The category is not in the registry (checked when the envelope has no problems).",
        "unknown-code": "The code is not in the registry (checked when the envelope has no problems).",
        "category-mismatch": "A known code whose category is not the code's category in the registry.",
        "retryable-mismatch": "A known code whose `retryable` is not what the code's category says.",
        "scope-not-allowed": "A known code whose scope is not one of the code's scopes.",
        "retry-after-not-retryable": "A known code that is not retryable, with a `retry_after_ms`.",
        "hint-not-allowed": "A known code with a hint field the code does not declare.",
    },
}

# RFC 9457 members a problem+json body adds around the payload; `from_http` drops them.
PROBLEM_MEMBERS = ("type", "title", "status", "detail", "instance")

# The largest delay any SDK represents: 2^53 - 1 ms, the largest integer every language's JSON
# reader keeps exactly. Larger requests saturate to it (and then exceed any max_delay_ms).
MAX_DELAY_VALUE_MS = 9_007_199_254_740_991


@dataclass(frozen=True, slots=True)
class Policy:
    """How every SDK times and bounds its decisions. Documented in docs/conformance.md."""

    default_max_attempts: int = 5
    # A server asking for a longer wait than this gets `escalate` / `delay-exceeds-max`.
    default_max_delay_ms: int = 3_600_000
    # min(backoff_base_ms * 2^(attempt-1), backoff_max_ms), exponent capped at backoff_max_exponent.
    backoff_base_ms: int = 500
    backoff_max_ms: int = 30_000
    backoff_max_exponent: int = 30
    jitter: str = "full"
    max_suggestions: int = 10
    did_you_mean_limit: int = 3
    max_delay_value_ms: int = MAX_DELAY_VALUE_MS
    # Nesting beyond this is an invalid payload in every SDK (parsers stay iterative or bounded).
    max_json_depth: int = 64
    # Reading a response (docs/conformance.md, "Limits of reading"): past these nothing raises or
    # spins. A body longer than max_body_bytes (UTF-8) is unreadable; a JSON number whose text is
    # longer than max_number_chars is out of range (never converted); headers past max_headers are
    # not read, a value longer than max_header_chars counts as absent; XML nests max_xml_depth deep.
    max_body_bytes: int = 1_048_576
    max_number_chars: int = 64
    max_headers: int = 100
    max_header_chars: int = 8192
    max_xml_depth: int = 16
    problem_base: str = ""


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One payload field: its canonical (snake_case) name, the name on the wire, and its type."""

    name: str
    wire: str
    type: FieldType
    required: bool
    description: str
    values: tuple[str, ...] = ()  # for type "enum"
    hint: bool = False
    minimum: int | None = None
    maximum: int | None = None
    max_items: int | None = None


class WireNames:
    """Each payload field's name on the wire, by canonical name as an attribute
    (`view.on_wire.retry_after_ms`): code outside this module never spells a field name as a
    string, so a renamed or camelCase field is read where it is."""

    __slots__ = ("_names",)

    def __init__(self, specs: tuple[FieldSpec, ...]) -> None:
        self._names = {spec.name: spec.wire for spec in specs}

    def __getattr__(self, name: str) -> str:
        try:
            return self._names[name]
        except KeyError:
            raise AttributeError(f"no payload field {name!r}") from None

    def all(self) -> frozenset[str]:
        return frozenset(self._names.values())


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """A closed set of wire strings every SDK names as one type (an enum, a union, typed constants).

    open: a reader keeps a value it does not know (a newer server's) instead of refusing it; a
    closed vocabulary is one the SDK itself produces, so it holds every value there is.
    words: per value, what each language names it after (errgen.identifiers); empty: the value.
    """

    name: str  # the type's name, PascalCase; a language may spell it its own way (see its target)
    doc: str  # one sentence, short enough for one comment line in every language
    values: tuple[str, ...]
    open: bool
    words: tuple[tuple[str, ...], ...] = ()

    @property
    def spelled(self) -> tuple[str, ...]:
        """Each value as the text a language's naming module names it after."""
        if not self.words:
            return self.values
        return tuple("_".join(w) or v for v, w in zip(self.values, self.words))


@dataclass(frozen=True, slots=True)
class CategoryRow:
    name: str  # the wire value
    retryable: bool
    description: str
    action: str | None
    words: tuple[str, ...]  # what each language names it after (errgen.identifiers)

    @property
    def identifier_text(self) -> str:
        """What a language's naming module names this after: its words, else the wire value."""
        return "_".join(self.words) or self.name


@dataclass(frozen=True, slots=True)
class CodeRow:
    """One code as every SDK's table holds it; `actions` is the rule applied to each allowed scope."""

    code: str  # the wire value
    words: tuple[str, ...]  # what each language names it after (errgen.identifiers)
    category: str
    retryable: bool
    scope: str  # the default scope, for new_error
    scopes: tuple[str, ...]
    actions: Mapping[str, str]
    retry_after_ms: int | None
    http_status: int  # resolved: the code's, else its category's, else 503 retryable / 400 not
    hints: tuple[str, ...]
    description: str
    since: str
    deprecated_since: str | None
    replaced_by: str | None
    type_uri: str
    # The code the API sends for it (its `wire_code`, else the code itself).
    wire_code: str = ""
    renamed_from: tuple[str, ...] = ()  # the names this code had before (the site's changelog links them)

    @property
    def identifier_text(self) -> str:
        """What a language's naming module names this after: its words, else the wire value."""
        return "_".join(self.words) or self.code

    def as_dict(self) -> dict[str, Any]:
        """The row as plain data: the one serialisation of a code that JSON tables hold (recovery.json,
        the Python and Java SDKs' tables), so no target writes its own."""
        return {
            "code": self.code, "category": self.category, "retryable": self.retryable, "scope": self.scope,
            "scopes": list(self.scopes), "actions": dict(self.actions), "retry_after_ms": self.retry_after_ms,
            "http_status": self.http_status, "hints": list(self.hints),
            "deprecated": {"since": self.deprecated_since, "replaced_by": self.replaced_by} if self.deprecated_since else None,
            "description": self.description, "since": self.since, "type_uri": self.type_uri,
        }


@dataclass(frozen=True)
class ContractView:
    name: str
    version: str
    header: str
    policy: Policy
    # Every vocabulary an SDK names, in the order SDKs declare them (Code and Category first).
    vocabularies: tuple[Vocabulary, ...]
    choosable_actions: tuple[str, ...]
    fields: tuple[FieldSpec, ...]
    # The body key the payload is nested under on HTTP (`{"error": {...}}`), or None: top level.
    envelope: str | None
    # True for `envelope: "errors[*]"`: the key holds an array and the payload is its first entry
    # holding every required field (`{"errors": [{...}]}`); written as a one-entry array.
    envelope_array: bool
    categories: tuple[CategoryRow, ...]
    codes: tuple[CodeRow, ...]
    # Each language's package settings (language -> key -> value): `targets:`, else the defaults
    # its declaration gives (errgen.languages).
    packages: Mapping[str, Mapping[str, str]]
    # The rule for a code the SDK does not know (no chosen action): scope -> retryable -> action.
    fallback_actions: Mapping[str, Mapping[bool, str]]
    # The timed actions (they wait a delay) and what each becomes when the attempts run out.
    exhausted: Mapping[str, str]
    # How a real response carries each fact, as plain data (errgen.wire.response_spec).
    response: Mapping[str, Any]
    # HTTP error status -> the one category the registry gives it, ascending: the error class a
    # response takes when its payload names no category the SDK knows (a gateway's bare 429).
    status_categories: tuple[tuple[int, str], ...]
    registry: Registry = field(repr=False, compare=False)
    # What package registries show (licence, links, keywords); the description is never empty.
    about: About = field(default_factory=About, compare=False)

    @cached_property
    def vocabulary(self) -> dict[str, Vocabulary]:
        """The vocabularies by name."""
        return {v.name: v for v in self.vocabularies}

    @property
    def scopes(self) -> tuple[str, ...]:
        return self.vocabulary["Scope"].values

    @property
    def actions(self) -> tuple[str, ...]:
        return self.vocabulary["Action"].values

    @property
    def hints(self) -> tuple[str, ...]:
        return self.vocabulary["Hint"].values

    @property
    def states(self) -> tuple[str, ...]:
        return self.vocabulary["State"].values

    @property
    def reasons(self) -> tuple[str, ...]:
        return self.vocabulary["Reason"].values

    @property
    def parsed(self) -> tuple[str, ...]:
        return self.vocabulary["Parsed"].values

    @property
    def problems(self) -> tuple[str, ...]:
        return self.vocabulary["Problem"].values

    @cached_property
    def code_map(self) -> dict[str, CodeRow]:
        return {c.code: c for c in self.codes}

    @cached_property
    def codes_by_identity(self) -> dict[str, list[str]]:
        """Codes by `identifiers.identity_key`: the ones that differ from a name only in case or separators."""
        found: dict[str, list[str]] = {}
        for name in self.code_names:
            found.setdefault(identifiers.identity_key(name), []).append(name)
        return found

    @cached_property
    def field_map(self) -> dict[str, FieldSpec]:
        return {f.name: f for f in self.fields}

    @property
    def code_sources(self) -> list[dict[str, Any]]:
        """Where a real response carries the code, in the order they are tried."""
        return list(self.response["code"])

    @cached_property
    def on_wire(self) -> WireNames:
        return WireNames(self.fields)

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.required)

    @cached_property
    def code_names(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.codes)

    @cached_property
    def category_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.categories)


def header(registry: Registry) -> str:
    """Without the version: a release then rewrites only the files that say it (package metadata,
    the changelogs), not every generated file."""
    return f"Generated by errgen from registry {registry.name}. Do not edit."


def about(registry: Registry) -> About:
    default = f"The {registry.name} error contract: typed error payloads and recovery decisions, generated by errgen."
    return replace(registry.about, description=registry.about.description or default)


def fields(policy: Policy, wire: Wire = Wire()) -> tuple[FieldSpec, ...]:
    """The payload fields in wire order, each with its name on the wire."""
    f = FieldSpec
    specs = (
        f("code", "code", "string", True, "Stable error code; branch on this, never on message."),
        f("category", "category", "string", True, "Class of failure; one recovery policy per category."),
        f("retryable", "retryable", "boolean", True, "Whether the identical call may succeed later."),
        f("retry_after_ms", "retry_after_ms", "integer", False, "How long to wait before retrying.",
          minimum=0, maximum=policy.max_delay_value_ms),
        f("scope", "scope", "enum", True, "What failed: this request, one resource, or the whole service.", values=SCOPES),
        f("resource_id", "resource_id", "string", False, "The resource that failed; required when scope is resource."),
        f("correlation_id", "correlation_id", "string", True, "Id a human can trace; carried on every escalation."),
        f("message", "message", "string", False, "Display-only text; never a branch condition."),
        f("searched", "searched", "scalar_map", False, "The parameters the server actually resolved.", hint=True),
        f("did_you_mean", "did_you_mean", "string_list", False,
          "Near-miss suggestions drawn only from values the caller may read.", hint=True, max_items=policy.max_suggestions),
        f("accepted", "accepted", "string_list", False, "The values that would have been accepted.", hint=True),
        f("state", "state", "enum", False, "Whether anything was read or written before the failure.", values=STATES, hint=True),
        f("safe_to_replay", "safe_to_replay", "boolean", False,
          "Whether replaying the call with the same idempotency key is safe.", hint=True),
    )
    assert tuple(spec.name for spec in specs) == FIELD_NAMES
    return tuple(replace(spec, wire=wire.name_of(spec.name)) for spec in specs)


def vocabularies(registry: Registry) -> tuple[Vocabulary, ...]:
    """Every vocabulary of the contract: the registry's codes and categories, then the fixed ones."""
    v = Vocabulary
    return (
        v("Code", "Stable error codes, in registry order; branch on these, never on message text.",
          tuple(c.name for c in registry.codes), True, tuple(identifiers.words(c.identifier or c.name) for c in registry.codes)),
        v("Category", "Classes of failure; one recovery policy per category.",
          tuple(c.name for c in registry.categories), True,
          tuple(identifiers.words(c.identifier or c.name) for c in registry.categories)),
        v("Scope", "What failed: this request, one resource, or the whole service.", SCOPES, True),
        v("Action", "What a caller does about a failure.", ACTIONS, True),
        v("State", "Whether anything was read or written before the failure.", STATES, True),
        v("Hint", "Optional payload fields that help a caller build its next call, by canonical name.", HINTS, False),
        v("Reason", "Which rule decided a Decision.", REASONS, False),
        v("Parsed", "The tolerant reading of a raw payload: known, unknown or invalid.", PARSED, False),
        v("Problem", "Why the strict verdict rejects a payload.", PROBLEMS, False),
    )


def packages(registry: Registry) -> dict[str, dict[str, str]]:
    return {language.name: language.packages(registry.name, registry.targets.get(language.name, {})) for language in all_languages()}


def http_status(code: Code, category: Category | None) -> int:
    """The code's status, else its category's, else 503 for retryable and 400 otherwise."""
    if code.http_status is not None:
        return code.http_status
    if category is not None and category.http_status is not None:
        return category.http_status
    return 503 if code.retryable else 400


def code_row(code: Code, policy: Policy, category: Category | None = None) -> CodeRow:
    return CodeRow(
        code=code.name,
        words=identifiers.words(code.identifier or code.name),
        category=code.category,
        retryable=code.retryable,
        scope=code.scope,
        scopes=code.scopes,
        actions=code.actions,
        retry_after_ms=code.retry_after_ms,
        http_status=http_status(code, category),
        hints=code.hints,
        description=code.description,
        since=code.since,
        deprecated_since=code.deprecated.since if code.deprecated else None,
        replaced_by=code.deprecated.replaced_by if code.deprecated else None,
        type_uri=code.type_uri or policy.problem_base + code.name,
        wire_code=code.wire_code or code.name,
        renamed_from=code.renamed_from,
    )


def fallback_actions() -> dict[str, dict[bool, str]]:
    """`derive_action` tabulated for every scope and retryable, so runtimes never restate the rule."""
    return {scope: {retryable: derive_action(retryable, scope, None) for retryable in (True, False)} for scope in SCOPES}


# A `retry` out of attempts needs a human; a paused job out of attempts stops.
EXHAUSTED = {"retry": "escalate", "pause": "stop"}


# The views of the last registries asked for: every target of one build reads the same view.
_RECENT: list[ContractView] = []


def status_categories(registry: Registry) -> tuple[tuple[int, str], ...]:
    """HTTP error status -> the one category the registry gives it, for a response whose payload
    names no category an SDK knows (a gateway's bare 429, a newer server's category): the category
    that declares the status (`http_status`), else the category of every code answering with it.
    A status two categories share is left out (the SDK's base error class then), as is any status
    below 400."""
    declared: dict[int, set[str]] = {}
    for category in registry.categories:
        if category.http_status is not None:
            declared.setdefault(category.http_status, set()).add(category.name)
    answered: dict[int, set[str]] = {}
    for code in registry.codes:
        answered.setdefault(http_status(code, registry.category_map.get(code.category)), set()).add(code.category)
    out: list[tuple[int, str]] = []
    for status in sorted({*declared, *answered}):
        names = declared.get(status) or answered[status]
        if status >= 400 and len(names) == 1:
            out.append((status, next(iter(names))))
    return tuple(out)


def view(registry: Registry) -> ContractView:
    """The registry's contract view, derived once per registry object (registries are immutable)."""
    for made in _RECENT:
        if made.registry is registry:
            return made
    made = _derive(registry)
    _RECENT[:] = [made, *_RECENT[:1]]  # two: `diff` alternates between an old and a new registry
    return made


def _derive(registry: Registry) -> ContractView:
    policy = Policy(problem_base=registry.problem_base or f"urn:errgen:{registry.name}:")
    specs = fields(policy, registry.wire)
    return ContractView(
        name=registry.name,
        version=registry.version,
        header=header(registry),
        policy=policy,
        vocabularies=vocabularies(registry),
        choosable_actions=CHOOSABLE_ACTIONS,
        fields=specs,
        envelope=registry.wire.envelope_key,
        envelope_array=registry.wire.envelope_array,
        categories=tuple(
            CategoryRow(c.name, c.retryable, c.description, c.action, identifiers.words(c.identifier or c.name))
            for c in registry.categories
        ),
        codes=tuple(code_row(c, policy, registry.category_map.get(c.category)) for c in registry.codes),
        packages=packages(registry),
        fallback_actions=fallback_actions(),
        exhausted=dict(EXHAUSTED),
        response=response_spec(registry, {f.name: f.wire for f in specs}),
        status_categories=status_categories(registry),
        registry=registry,
        about=about(registry),
    )


__all__ = ["ContractView", "CodeRow", "Vocabulary", "CategoryRow", "FieldSpec", "Policy", "WireNames", "PARSED", "PROBLEMS", "REASONS",
           "derive_action", "view"]
