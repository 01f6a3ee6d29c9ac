"""The diff rules: each declared once (id, bump, description, example), each compared on the
contract view (`errgen.contract.view`), so a diff sees what clients see: the derived action per
scope, retryable, delays and hints, not the raw fields that produce them.

Classification: additions are minor; wording and default delays are patch; anything a client
built against OLD would misread (a removal, a rename, a changed meaning) is major.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import replace
from typing import Callable, Iterator

from errgen import semver
from errgen.registry.compose import in_folder
from errgen.contract import CodeRow, ContractView
from errgen.diff.changes import Change, Place, declare
from errgen.registry.model import ENVELOPE_ARRAY, Code, Registry
from errgen.wire import condition, source_text
from errgen.identifiers import identity_key

Rule = Callable[[ContractView, ContractView], Iterator[Change]]
RULES: list[Rule] = []
RENAME_SIMILARITY = 0.9
# Near-identical descriptions are compared pairwise only within small groups of same-shaped codes,
# so a diff stays linear; in larger groups only identical descriptions count as a rename.
MAX_FUZZY_GROUP = 16

CODE_REMOVED = declare("code-removed", "major", "code", "A code is gone from the registry: clients that branch on it, and services that emit it, break. Deprecate it first (at least one minor release), then remove it in a major release.", "`codes: {SKU_INACTIVE: ...}` -> no `SKU_INACTIVE`")
CODE_RENAMED = declare("code-renamed", "major", "code", "A code was renamed (the new code lists the old name in `renamed_from`): clients built before the rename do not know the new name.", "`UNKNOWN_DOMAIN` -> `TENANT_UNKNOWN` with `renamed_from: [UNKNOWN_DOMAIN]`")
CODE_PROBABLY_RENAMED = declare("code-probably-renamed", "major", "code", "A code disappeared and a new one with the same category, scope, HTTP status and (nearly) the same description or name appeared: most likely a rename. Declare it with `renamed_from` if so.", "`TIMED_OUT` -> `TIMEDOUT`, nothing else changed")
CODE_ADDED = declare("code-added", "minor", "code", "A new code. Clients built before it treat it as unknown (they escalate), so it needs a minor release; its `since` must be that release.", "no `QUOTA_EXCEEDED` -> `QUOTA_EXCEEDED: {..., since: 2.2.0}`")
CATEGORY_CHANGED = declare("category-changed", "major", "code", "A code moved to another category: clients that group by category, and its recovery policy, change.", "`category: validation` -> `category: auth`")
RETRYABLE_CHANGED = declare("retryable-changed", "major", "code", "A code's retryable flag flipped, so its derived action changes (retry <-> fix/escalate/skip, pause <-> stop): callers would retry, or give up, wrongly.", "category `transient` (retryable) -> category `auth` (not retryable)")
DEFAULT_SCOPE_CHANGED = declare("default-scope-changed", "major", "code", "A code's default scope (the one `new_error` uses when a service does not say) changed, so services emit a different scope and clients take a different action.", "`scope: request` -> `scope: service`")
HTTP_STATUS_CHANGED = declare("http-status-changed", "major", "code", "A code's HTTP status changed: clients and proxies that look at the status react differently.", "`http_status: 401` -> `http_status: 403`")
ACTION_CHANGED = declare("action-changed", "major", "code", "The action derived for a code on a scope it keeps changed (for a non-retryable request-scoped code: its `action`, or its category's). A code carried only on resource or service scope derives skip, pause or stop whatever `action` says, so changing that field is no change.", "`action: fix` -> `action: escalate` on a request-scoped code")
SCOPE_REMOVED = declare("scope-removed", "major", "code", "A code may no longer carry a scope: clients that handle it that way break.", "`scopes: [request, service]` -> `scopes: [request]`")
SCOPE_ADDED = declare("scope-added", "minor", "code", "A code may now carry another scope.", "`scopes: [request]` -> `scopes: [request, resource]`")
HINT_REMOVED = declare("hint-removed", "major", "code", "A code no longer carries a hint field: clients that read it break.", "`hints: [searched, accepted]` -> `hints: [searched]`")
HINT_ADDED = declare("hint-added", "minor", "code", "A code may now carry another hint field.", "`hints: [state]` -> `hints: [state, safe_to_replay]`")
CODE_DEPRECATED = declare("code-deprecated", "minor", "code", "A code is deprecated: it still works, and clients should move to its replacement.", "no `deprecated` -> `deprecated: {since: 1.3.0, replaced_by: X}`")
DESCRIPTION_CHANGED = declare("description-changed", "patch", "code", "A code's description was reworded. Descriptions are display-only.", "`description: The input is malformed.` -> `description: The input is not valid.`")
RETRY_AFTER_CHANGED = declare("retry-after-changed", "patch", "code", "A retryable code's default `retry_after_ms` changed: a timing default, not a meaning.", "`retry_after_ms: 500` -> `retry_after_ms: 800`")
CATEGORY_REMOVED = declare("category-removed", "major", "category", "A category is gone, with every code in it. Naming the category in the history entry announces it for all its codes.", "`categories: {auth: ...}` -> no `auth`")
CATEGORY_RETRYABLE_CHANGED = declare("category-retryable-changed", "major", "category", "A category's retryable flag flipped, and with it every code that inherits it. Naming the category in the history entry announces it for all its codes.", "`auth: {retryable: false}` -> `auth: {retryable: true}`")
CATEGORY_ACTION_CHANGED = declare("category-action-changed", "major", "category", "A category's `action` changed and so did the derived action of the codes that inherit it (only request-scoped, non-retryable codes derive it). Naming the category in the history entry announces it for all its codes.", "`validation: {action: fix}` -> `validation: {action: escalate}`")
CATEGORY_ADDED = declare("category-added", "minor", "category", "A new category.", "no `quota` -> `quota: {retryable: true, ...}`")
CATEGORY_DESCRIPTION_CHANGED = declare("category-description-changed", "patch", "category", "A category's description was reworded.", "`description: A human must act.` -> `description: Someone must act.`")
PROBLEM_BASE_CHANGED = declare("problem-base-changed", "major", "registry", "`problem_base` changed, and with it every code's problem type URI (`type` in RFC 9457 responses): clients that match on the type break. Naming `problem_base` (or the rule id) in the history entry announces it.", "`problem_base: https://errors.acme.dev/` -> `problem_base: https://errors.acme.com/`", keyword="problem_base")
PACKAGE_CHANGED = declare("package-changed", "major", "registry", "A generated SDK's package coordinates changed (from `name` or `targets:`): consumers must change their dependency and imports. Naming the word package (or the rule id) in the history entry announces it.", "`targets: {typescript: {package: acme-errors}}` -> `{package: '@acme/errors'}`", keyword="package")
WIRE_CHANGED = declare("wire-changed", "major", "registry", "A payload field's name on the wire, or the HTTP envelope (its key, or `[*]`: an array of payloads), changed (`wire:`): every client and service reading or writing payloads breaks. Naming `wire` (or the rule id) in the history entry announces it.", "`wire: {case: snake}` -> `wire: {case: camel}` (`retry_after_ms` becomes `retryAfterMs`)", keyword="wire")
RESPONSE_READING_CHANGED = declare("response-reading-changed", "major", "registry", "How a real response is recognised and where it carries the code changed: `wire.format` (json or xml), the `wire.response.code` sources (or their order), or `wire.response.error_when`. A client built before reads the code from another place, or takes other responses for errors, so it decides known errors as unknown ones. Naming `wire` (or the rule id) in the history entry announces it.", "`response: {code: [body:error.code]}` -> `response: {code: [header:x-error-code]}`", keyword="wire")
RESPONSE_DETAIL_CHANGED = declare("response-detail-changed", "patch", "registry", "Where a real response carries a display or timing fact changed: the `wire.response` sources of `message`, `correlation_id`, `resource_id` or `retry_after`. Clients built before still decide every code the same; they may miss the request id, the message or the server's delay and fall back to the registry's.", "`correlation_id: [header:x-request-id]` -> `correlation_id: [header:x-trace-id]`")
WIRE_CODE_CHANGED = declare("wire-code-changed", "major", "code", "The code the API sends for a code changed (`wire_code`): clients built before look for the old value and decide the new one as unknown.", "`ConditionNotMet412: {wire_code: ConditionNotMet}` -> `{wire_code: PreconditionFailed}`")
WIRE_CONDITION_CHANGED = declare("wire-condition-changed", "major", "code", "The conditions that select a code among those sharing its wire code or its `wire_prefix` changed (`when`): the same response now decides as another code in one version than in the other. Not reported when the code shared neither before and takes a new `wire_prefix` (`wire-prefix-added`): its `when` selected nothing for clients built before.", "`when: [{status: [304]}]` -> `when: [{status: [412]}]`")
WIRE_PREFIX_CHANGED = declare("wire-prefix-changed", "major", "code", "A code's `wire_prefix` changed or was removed: a client built before reads the codes that start with the old prefix as this code, which the new contract no longer says.", "`connection_exception: {wire_prefix: '08'}` -> `{wire_prefix: '080'}`")
WIRE_PREFIX_ADDED = declare("wire-prefix-added", "minor", "code", "A code gained a `wire_prefix`: codes the API sends that clients built before decide as unknown are read as this code by new clients.", "`connection_exception: {}` -> `{wire_prefix: '08'}`")
TYPE_URI_CHANGED = declare("type-uri-changed", "major", "code", "A code's RFC 9457 problem type URI (`type_uri`) changed: clients that match on `type` break.", "`type_uri: https://docs.example/errors/a` -> `type_uri: https://docs.example/errors/A`")
CODE_MOVED = declare("code-moved", "none", "code", "A code moved from one fragment of a folder registry to another (or between a fragment and the header): who maintains it changed, the contract did not. Reported for information; it needs no release.", "`CARD_DECLINED` in `teams/payments.yaml` -> in `teams/billing.yaml`")
OWNER_CHANGED = declare("owner-changed", "none", "registry", "A fragment of a folder registry declares another `owner`: its codes are maintained by someone else now, the contract is the same. Reported for information; it needs no release.", "`owner: '@acme/payments'` -> `owner: '@acme/billing'` in `teams/payments.yaml`")
HISTORY_CHANGED = declare("history-changed", "patch", "registry", "A released version's history entry was edited (its changes or date).", "`changes: [Initial.]` -> `changes: [Initial contract.]` in entry 1.0.0")


def rule(fn: Rule) -> Rule:
    RULES.append(fn)
    return fn


def _place(reg: Registry, code: Code, field: str | None = None) -> Place:
    return Place.at(reg.path, code.locs.get(field, code.loc) if field else code.loc)


def _pairs(old: ContractView, new: ContractView) -> Iterator[tuple[CodeRow, CodeRow]]:
    old_rows = old.code_map
    for row in new.codes:
        before = old_rows.get(row.code)
        if before is not None:
            yield before, row


def renames(old: Registry, new: Registry) -> tuple[dict[str, str], dict[str, str]]:
    """(declared, probable) renames as {old name: new name}, among codes gone from OLD and new in NEW."""
    removed = {c.name: c for c in old.codes if c.name not in new.code_map}
    added = [c for c in new.codes if c.name not in old.code_map]
    declared = {o: c.name for c in added for o in c.renamed_from if o in removed}
    taken = set(declared.values())
    probable: dict[str, str] = {}
    by_key = {identity_key(c.name): c for c in added if c.name not in taken}
    by_shape: dict[tuple[str, str, int], list[Code]] = defaultdict(list)
    by_text: dict[tuple[str, str, int, str], Code] = {}
    for c in added:
        if c.name not in taken:
            by_shape[(c.category, c.scope, c.http_status)].append(c)
            by_text.setdefault((c.category, c.scope, c.http_status, c.description), c)
    for name, gone in removed.items():
        if name in declared:
            continue
        shape = (gone.category, gone.scope, gone.http_status)
        twin = by_key.get(identity_key(name)) or by_text.get((*shape, gone.description))
        candidates = by_shape.get(shape, [])
        if twin is None and len(candidates) <= MAX_FUZZY_GROUP:
            twin = next((c for c in candidates if c.name not in taken and _similar(gone.description, c.description)), None)
        if twin is not None and twin.name not in taken:
            probable[name] = twin.name
            taken.add(twin.name)
    return declared, probable


def _similar(a: str, b: str) -> bool:
    """ratio() >= RENAME_SIMILARITY, after its two cheap upper bounds (length, then shared
    characters) have ruled out what they can: the full comparison was most of a large diff."""
    if a == b:
        return True
    matcher = difflib.SequenceMatcher(None, a, b)
    return (matcher.real_quick_ratio() >= RENAME_SIMILARITY and matcher.quick_ratio() >= RENAME_SIMILARITY
            and matcher.ratio() >= RENAME_SIMILARITY)


@rule
def codes_removed_renamed_or_added(old_view: ContractView, new_view: ContractView) -> Iterator[Change]:
    old, new = old_view.registry, new_view.registry
    declared, probable = renames(old, new)  # once: both removals and additions depend on it
    new_codes = new.code_map
    for code in old.codes:
        if code.name in new_codes:
            continue
        where_old = Place.at(old.path, code.loc)
        if code.name in declared or code.name in probable:
            target = declared.get(code.name) or probable[code.name]
            spec = CODE_RENAMED if code.name in declared else CODE_PROBABLY_RENAMED
            how = "renamed" if code.name in declared else "probably renamed (same category, scope, HTTP status and description; declare it with renamed_from)"
            msg = f"{code.name} was {how} to {target}: clients built before the rename do not know {target}"
            yield Change(spec.id, spec.bump, msg, code=code.name, detail=target, old=where_old,
                         new=_place(new, new_codes[target]), affects=(code.name, target))
            continue
        msg = f"{code.name} was removed: clients and services that use it break"
        if code.deprecated and _deprecated_long_enough(code, new.version):
            msg += f" (it was deprecated since {code.deprecated.since}, at least one minor version, which is the right way; it still needs a major version)"
        yield Change(CODE_REMOVED.id, CODE_REMOVED.bump, msg, code=code.name, category=code.category, old=where_old, affects=(code.name,))
    targets = set(declared.values()) | set(probable.values())
    for code in new.codes:
        if code.name not in old.code_map and code.name not in targets:
            yield Change(CODE_ADDED.id, CODE_ADDED.bump, f"{code.name} was added", code=code.name, new=_place(new, code))


def _deprecated_long_enough(code: Code, version: str) -> bool:
    since, now = semver.parse(code.deprecated.since if code.deprecated else None), semver.parse(version)
    return bool(since and now and (since.major, since.minor) < (now.major, now.minor))


def _major(spec_id: str, msg: str, before: CodeRow, after: CodeRow, old: ContractView, new: ContractView, field: str, detail: str = "") -> Change:
    b, a = old.registry.code_map[before.code], new.registry.code_map[after.code]
    return Change(spec_id, "major", msg, code=after.code, detail=detail, old=Place.at(old.registry.path, b.locs.get(field, b.loc)),
                  new=_place(new.registry, a, field), affects=(after.code,))


def _inherits_action_change(old: ContractView, new: ContractView, name: str, category: str) -> bool:
    """The code states no action in either version and its category's action changed: a
    category-level change, reported once for the category."""
    b, a = old.registry.code_map[name], new.registry.code_map[name]
    if b.stated_action is not None or a.stated_action is not None:
        return False
    old_cat, new_cat = old.registry.category_map.get(category), new.registry.category_map.get(category)
    return old_cat is not None and new_cat is not None and old_cat.action != new_cat.action


def _inherits_retryable_change(old: ContractView, new: ContractView, name: str, category: str) -> bool:
    old_cat, new_cat = old.registry.category_map.get(category), new.registry.category_map.get(category)
    return old_cat is not None and new_cat is not None and old_cat.retryable != new_cat.retryable


def action_changes(before: CodeRow, after: CodeRow) -> list[str]:
    """`scope: old -> new` for each scope both versions allow whose derived action differs."""
    return [f"{s}: {before.actions[s]} -> {after.actions[s]}" for s in after.scopes
            if s in before.actions and before.actions[s] != after.actions[s]]


@rule
def code_meaning_changed(old: ContractView, new: ContractView) -> Iterator[Change]:
    """Category, retryable, default scope, HTTP status and the derived action per scope."""
    for before, after in _pairs(old, new):
        name = after.code
        if before.category != after.category:
            moved_out = _major(CATEGORY_CHANGED.id, f"{name} moved from category {before.category} to {after.category}", before, after, old, new, "category")
            yield replace(moved_out, category=before.category)  # a category renamed: announced with it
        retry_flip = before.retryable != after.retryable
        if retry_flip and not (before.category == after.category and _inherits_retryable_change(old, new, name, after.category)):
            msg = f"{name} is now {'retryable' if after.retryable else 'not retryable'} (actions {'; '.join(action_changes(before, after)) or 'unchanged'}): callers would retry, or give up, wrongly"
            yield _major(RETRYABLE_CHANGED.id, msg, before, after, old, new, "retryable")
        if before.scope != after.scope:
            yield _major(DEFAULT_SCOPE_CHANGED.id, f"{name}'s default scope changed from {before.scope} to {after.scope}", before, after, old, new, "scope")
        if before.http_status != after.http_status:
            yield _major(HTTP_STATUS_CHANGED.id, f"{name}'s HTTP status changed from {before.http_status} to {after.http_status}", before, after, old, new, "http_status")
        # problem-base-changed covers codes whose type follows problem_base on both sides.
        follows_base = before.type_uri == old.policy.problem_base + name and after.type_uri == new.policy.problem_base + name
        if before.type_uri != after.type_uri and not follows_base:
            yield _major(TYPE_URI_CHANGED.id, f"{name}'s problem type changed from {before.type_uri} to {after.type_uri}", before, after, old, new, "type_uri")
        moved = action_changes(before, after)
        if moved and not retry_flip and not (before.category == after.category and _inherits_action_change(old, new, name, after.category)):
            yield _major(ACTION_CHANGED.id, f"{name}'s action changed ({'; '.join(moved)})", before, after, old, new, "action")


@rule
def scopes_and_hints(old: ContractView, new: ContractView) -> Iterator[Change]:
    for before, after in _pairs(old, new):
        a = new.registry.code_map[after.code]
        for field, noun, added, removed in (("scopes", "scope", SCOPE_ADDED, SCOPE_REMOVED), ("hints", "hint field", HINT_ADDED, HINT_REMOVED)):
            was, now = getattr(before, field), getattr(after, field)
            for item in now:
                if item not in was:
                    yield Change(added.id, added.bump, f"{after.code} may now carry {noun} {item}", code=after.code, detail=item,
                                 new=_place(new.registry, a, field))
            for item in was:
                if item not in now:
                    yield _major(removed.id, f"{after.code} no longer carries {noun} {item}: clients that read it break", before, after, old, new, field, item)


@rule
def deprecations(old: ContractView, new: ContractView) -> Iterator[Change]:
    for before, after in _pairs(old, new):
        if after.deprecated_since and not before.deprecated_since:
            instead = f"; use {after.replaced_by}" if after.replaced_by else ""
            yield Change(CODE_DEPRECATED.id, CODE_DEPRECATED.bump, f"{after.code} is deprecated{instead}", code=after.code,
                         new=_place(new.registry, new.registry.code_map[after.code], "deprecated"))


@rule
def wording_and_delays(old: ContractView, new: ContractView) -> Iterator[Change]:
    for before, after in _pairs(old, new):
        a = new.registry.code_map[after.code]
        if before.description != after.description:
            yield Change(DESCRIPTION_CHANGED.id, DESCRIPTION_CHANGED.bump, f"{after.code}'s description changed", code=after.code,
                         new=_place(new.registry, a, "description"))
        if before.retry_after_ms != after.retry_after_ms and before.retryable == after.retryable:
            msg = f"{after.code}'s default retry_after_ms changed from {before.retry_after_ms} to {after.retry_after_ms}"
            yield Change(RETRY_AFTER_CHANGED.id, RETRY_AFTER_CHANGED.bump, msg, code=after.code, new=_place(new.registry, a, "retry_after_ms"))


@rule
def categories(old: ContractView, new: ContractView) -> Iterator[Change]:
    old_reg, new_reg = old.registry, new.registry
    new_cats = new_reg.category_map
    codes_by_category: dict[str, list[str]] = defaultdict(list)
    for code in old_reg.codes:
        codes_by_category[code.category].append(code.name)
    new_rows, old_rows = new.code_map, old.code_map
    for before in old_reg.categories:
        after = new_cats.get(before.name)
        members = codes_by_category[before.name]
        where_old = Place.at(old_reg.path, before.loc)
        if after is None:
            msg = f"category {before.name} was removed" + (f" (its codes: {', '.join(members)})" if members else "")
            yield Change(CATEGORY_REMOVED.id, CATEGORY_REMOVED.bump, msg, category=before.name, old=where_old, affects=tuple(members))
            continue
        here = Place.at(new_reg.path, after.loc)
        staying = [c for c in members if c in new_rows and new_rows[c].category == before.name]
        if before.retryable != after.retryable:
            affected = tuple(c for c in staying if old_rows[c].retryable != new_rows[c].retryable)
            msg = f"category {after.name} is now {'retryable' if after.retryable else 'not retryable'}; affects {', '.join(affected) or 'no codes'}"
            yield Change(CATEGORY_RETRYABLE_CHANGED.id, CATEGORY_RETRYABLE_CHANGED.bump, msg, category=after.name, old=where_old, new=here, affects=affected)
        elif before.action != after.action:
            affected = tuple(c for c in staying if action_changes(old_rows[c], new_rows[c]) and _inherits_action_change(old, new, c, after.name))
            if affected:
                msg = f"category {after.name}'s action changed from {before.action or 'escalate'} to {after.action or 'escalate'}; affects {', '.join(affected)}"
                yield Change(CATEGORY_ACTION_CHANGED.id, CATEGORY_ACTION_CHANGED.bump, msg, category=after.name, old=where_old, new=here, affects=affected)
        if before.description != after.description:
            yield Change(CATEGORY_DESCRIPTION_CHANGED.id, CATEGORY_DESCRIPTION_CHANGED.bump, f"category {after.name}'s description changed", category=after.name, new=here)
    old_names = old_reg.category_map
    for cat in new_reg.categories:
        if cat.name not in old_names:
            yield Change(CATEGORY_ADDED.id, CATEGORY_ADDED.bump, f"category {cat.name} was added", category=cat.name, new=Place.at(new_reg.path, cat.loc))


def _envelope(contract: ContractView) -> str:
    """The envelope as the registry writes it: `error`, `errors[*]`, or none."""
    if contract.envelope is None:
        return "none"
    return contract.envelope + (ENVELOPE_ARRAY if contract.envelope_array else "")


@rule
def registry_level(old: ContractView, new: ContractView) -> Iterator[Change]:
    """What every code shares: the problem type base and the SDK package coordinates."""
    here = Place.at(new.registry.path, new.registry.locs.get("problem_base", new.registry.locs.get("name", (1, 1))))  # type: ignore[arg-type]
    if old.policy.problem_base != new.policy.problem_base:
        msg = f"problem_base changed from {old.policy.problem_base} to {new.policy.problem_base}: every code's problem type URI changes"
        yield Change(PROBLEM_BASE_CHANGED.id, PROBLEM_BASE_CHANGED.bump, msg, detail="problem_base", new=here)
    wire_place = Place.at(new.registry.path, new.registry.locs.get("wire", new.registry.locs.get("name", (1, 1))))  # type: ignore[arg-type]
    for before, after in zip(old.fields, new.fields):
        if before.wire != after.wire:
            msg = f"field {after.name} goes on the wire as {after.wire!r}, not {before.wire!r}: payloads written either way are rejected the other way"
            yield Change(WIRE_CHANGED.id, WIRE_CHANGED.bump, msg, detail=after.name, new=wire_place)
    if _envelope(old) != _envelope(new):
        msg = f"the HTTP envelope changed from {_envelope(old)} to {_envelope(new)}: bodies are read from another place"
        yield Change(WIRE_CHANGED.id, WIRE_CHANGED.bump, msg, detail="envelope", new=wire_place)
    for setting, was, now in _package_settings(old, new):
        if was != now:
            msg = f"package {setting} changed from {was} to {now}: consumers must change their dependency and imports"
            yield Change(PACKAGE_CHANGED.id, PACKAGE_CHANGED.bump, msg, detail=setting,
                         new=Place.at(new.registry.path, new.registry.locs.get("targets", new.registry.locs.get("name", (1, 1)))))  # type: ignore[arg-type]


def _package_settings(old: ContractView, new: ContractView) -> Iterator[tuple[str, str, str]]:
    """(`language.key`, OLD's value, NEW's value) for every package setting of every language."""
    for language, settings in new.packages.items():
        for key, now in settings.items():
            yield f"{language}.{key}", old.packages.get(language, {}).get(key, now), now


@rule
def history_text(old: ContractView, new: ContractView) -> Iterator[Change]:
    new_entries = {h.version: h for h in new.registry.history}
    for entry in old.registry.history:
        now = new_entries.get(entry.version)
        if now is not None and (now.changes != entry.changes or now.date != entry.date):
            yield Change(HISTORY_CHANGED.id, HISTORY_CHANGED.bump, f"history entry {entry.version} was edited", detail=entry.version,
                         new=Place.at(new.registry.path, now.loc))


def relative(reg: Registry, fragment_path: str) -> str:
    """A fragment's path relative to its header's folder: the same fragment compares equal whether
    it was read from the working tree or at a git ref (`origin/main:registry/teams/a.yaml`)."""
    folder = in_folder(reg.path)
    return fragment_path[len(folder):] if fragment_path.startswith(folder) else fragment_path


def _homes(reg: Registry) -> dict[str, str]:
    """Each code's fragment (relative path); codes in the header have none."""
    return {code: home for f in reg.fragments for home in (relative(reg, f.path),) for code in f.codes}


def _home(fragment: str | None, owner: str | None) -> str:
    return f"{fragment} ({owner})" if fragment else "the header"


@rule
def fragments(old_view: ContractView, new_view: ContractView) -> Iterator[Change]:
    """Moves and owner changes between two folder registries. A registry that becomes (or stops
    being) a folder moves every code, which says nothing about who owns what: not reported."""
    old, new = old_view.registry, new_view.registry
    if not (old.fragments and new.fragments):
        return
    before, after = _homes(old), _homes(new)
    old_owner, new_owner = old.owners, new.owners
    for code in new.codes:
        was, now = before.get(code.name), after.get(code.name)
        if code.name not in old.code_map or was == now:
            continue
        msg = (f"{code.name} moved from {_home(was, old_owner.get(code.name))} to {_home(now, new_owner.get(code.name))}: "
               "not a contract change")
        yield Change(CODE_MOVED.id, CODE_MOVED.bump, msg, code=code.name, detail=now or "",
                     old=_place(old, old.code_map[code.name]), new=_place(new, code))
    owners_before = {relative(old, f.path): f.owner for f in old.fragments}
    for fragment in new.fragments:
        path = relative(new, fragment.path)
        if owners_before.get(path, fragment.owner) != fragment.owner:
            msg = f"{path} is now owned by {fragment.owner} (was {owners_before[path]}): not a contract change"
            yield Change(OWNER_CHANGED.id, OWNER_CHANGED.bump, msg, detail=path, new=Place.at(fragment.path, fragment.loc))


# The facts of `wire.response` whose sources decide what a response means (the rest only carry
# display and timing detail), and the default places each reads when a registry states none.
_DECIDING = ("code",)
_DETAIL = ("message", "correlation_id", "resource_id")


def _stated(registry: Registry, fact: str) -> bool:
    response = registry.wire.response
    return response is not None and bool(getattr(response, fact))


@rule
def response_reading(old: ContractView, new: ContractView) -> Iterator[Change]:
    """Compared on the resolved reading (errgen.wire.response_spec). A source both registries
    leave to the default follows the payload's wire names and envelope: wire-changed reports that."""
    was, now = old.response, new.response
    wire_place = Place.at(new.registry.path, new.registry.locs.get("wire", new.registry.locs.get("name", (1, 1))))  # type: ignore[arg-type]
    if was["format"] != now["format"]:
        msg = f"response bodies are read as {now['format']}, not {was['format']}: clients built before read no code from them"
        yield Change(RESPONSE_READING_CHANGED.id, RESPONSE_READING_CHANGED.bump, msg, detail="wire_format", new=wire_place)
    if was["error_when"] != now["error_when"]:
        msg = "wire.response.error_when changed: clients built before take other responses for errors"
        yield Change(RESPONSE_READING_CHANGED.id, RESPONSE_READING_CHANGED.bump, msg, detail="error_when", new=wire_place)
    for fact, spec in [(f, RESPONSE_READING_CHANGED) for f in _DECIDING] + [(f, RESPONSE_DETAIL_CHANGED) for f in _DETAIL]:
        if was[fact] != now[fact] and (_stated(old.registry, fact) or _stated(new.registry, fact)):
            yield Change(spec.id, spec.bump, f"a response's {fact} is read from {_sources(now[fact])}, not {_sources(was[fact])}",
                         detail=f"{fact}_source", new=wire_place)
    if was["retry_after"] != now["retry_after"]:
        msg = f"a response's delay is read from {_delays(now['retry_after'])}, not {_delays(was['retry_after'])}"
        yield Change(RESPONSE_DETAIL_CHANGED.id, RESPONSE_DETAIL_CHANGED.bump, msg, detail="retry_after_source", new=wire_place)


def _sources(sources: list[dict[str, object]]) -> str:
    return ", ".join(map(source_text, sources)) or "nowhere"


def _delays(sources: list[dict[str, object]]) -> str:
    return ", ".join(f"{source_text(d['at'])} ({d['unit']}{_only(d)})" for d in sources) or "nowhere"  # type: ignore[arg-type]


def _only(delay: dict[str, object]) -> str:
    """The codes and categories a delay entry is read for, when it names some (SPEC D)."""
    names = [*delay.get("codes", ()), *delay.get("categories", ())]  # type: ignore[misc]
    return f", only for {', '.join(map(str, names))}" if names else ""


@rule
def wire_codes(old: ContractView, new: ContractView) -> Iterator[Change]:
    """A code's `wire_code` (resolved: the code itself when unset) and its `when` conditions."""
    for before, after in _pairs(old, new):
        if before.wire_code != after.wire_code:
            msg = f"{after.code} is sent as {after.wire_code}, not {before.wire_code}: clients built before decide it as unknown"
            yield _major(WIRE_CODE_CHANGED.id, msg, before, after, old, new, "wire_code")
        was, now = (tuple(map(condition, v.registry.code_map[after.code].when)) for v in (old, new))
        if was != now and not _joins_by_new_prefix(old, new, after.code):
            msg = f"the conditions that select {after.code} among the codes sent as {after.wire_code} changed"
            yield _major(WIRE_CONDITION_CHANGED.id, msg, before, after, old, new, "when")
        yield from _prefix_change(old, new, before, after)


def _joins_by_new_prefix(old: ContractView, new: ContractView, code: str) -> bool:
    """Whether `code` shared neither a wire code nor a prefix before and takes a new `wire_prefix`:
    its `when` selected nothing for clients built before (wire-prefix-added reports the change)."""
    groups = [*old.response["variants"].values(), *(rows for _, rows in old.response["prefixes"])]
    return (old.registry.code_map[code].wire_prefix is None and new.registry.code_map[code].wire_prefix is not None
            and not any(row[0] == code for rows in groups for row in rows))


def _prefix_change(old: ContractView, new: ContractView, before: CodeRow, after: CodeRow) -> Iterator[Change]:
    was, now = (v.registry.code_map[after.code].wire_prefix for v in (old, new))
    if was == now:
        return
    if was is None:
        code = new.registry.code_map[after.code]
        yield Change(WIRE_PREFIX_ADDED.id, WIRE_PREFIX_ADDED.bump, f"{after.code} now takes the codes that start with {now!r}",
                     code=after.code, new=_place(new.registry, code, "wire_prefix"), affects=(after.code,))
    else:
        msg = f"{after.code} takes the codes that start with {now!r}, not {was!r}" if now else f"{after.code} no longer takes the codes that start with {was!r}"
        yield _major(WIRE_PREFIX_CHANGED.id, msg, before, after, old, new, "wire_prefix")
