"""Rules on reading real responses: `wire.format`, `wire.response` and the codes' `wire_code`/`when`
(docs/registry.md, "Reading real responses")."""

from __future__ import annotations

from typing import Iterator

from errgen.diagnostics import Loc
from errgen.registry.lint.base import Context, Finding, Nearest, rule
from errgen.registry.lint.names import MAX_CODE_LENGTH, WIRE_VALUE
from errgen.registry.model import ACTIONS, Condition
from errgen.registry.sources import PREFIX, STATUS_KEY
from errgen.registry.sources import FORMATS, UNITS, SourceError, parse_source


@rule("wire-format")
def wire_format(ctx: Context) -> Iterator[Finding]:
    """`wire.format` is `json` or `xml`; an `xml` registry says where its code is (`wire.response.code`)."""
    wire = ctx.registry.wire
    loc = wire.locs.get("format", ctx.registry.loc_of("wire"))
    if wire.format not in FORMATS:
        yield Finding(f"wire format {wire.format!r} must be one of: {', '.join(FORMATS)}", loc)
    elif wire.format == "xml" and (wire.response is None or not wire.response.code):
        yield Finding("an xml registry needs wire.response.code: where its error documents carry the code "
                      "(S3: [\"body:Error.Code\"])", loc)


def _source_problem(text: str) -> str | None:
    try:
        parse_source(text)
    except SourceError as error:
        return str(error)
    return None


@rule("wire-source")
def wire_source(ctx: Context) -> Iterator[Finding]:
    """A `wire.response` source is `body:PATH` (keys, `["quoted key"]`, `[N]` with N at most 64, `[*]`; at most 16 steps), `header:NAME` (an HTTP header name) or, for `code` only, `status`."""
    wire = ctx.registry.wire
    response = wire.response
    if response is None:
        return
    where = wire.locs.get("response", ctx.registry.loc_of("wire"))
    for fact in ("code", "message", "correlation_id", "resource_id"):
        for index, text in enumerate(getattr(response, fact)):
            misplaced = text == "status" and fact != "code"
            problem = _source_problem(text) or ("'status' is a source of code only" if misplaced else None)
            if problem:
                yield Finding(f"wire.response.{fact}[{index}]: {problem}", response.locs.get(f"{fact}:{index}", where))
    for index, delay in enumerate(response.retry_after or ()):
        if delay.extra:
            yield Finding(f"wire.response.retry_after[{index}] has unknown keys {', '.join(map(repr, delay.extra))}; "
                          "expected a source string or {at: SOURCE, unit: UNIT, codes: [...], categories: [...]}", delay.loc)
        for key in delay.malformed:
            yield Finding(f"wire.response.retry_after[{index}].{key} is a list of {key[:-1] if key == 'codes' else 'category'} "
                          "names", delay.loc)
        problem = _source_problem(delay.at) if delay.at else "needs `at: SOURCE` (body:PATH or header:NAME)"
        problem = problem or ("'status' is a source of code only" if delay.at == "status" else None)
        if problem:
            yield Finding(f"wire.response.retry_after[{index}]: {problem}", delay.loc)
    for cond in _conditions(ctx):
        if cond.at is not None:
            problem = _source_problem(cond.at) or ("test the status with {status: [N, ...]}" if cond.at == "status" else None)
            if problem:
                yield Finding(f"condition: {problem}", cond.loc)


def _conditions(ctx: Context) -> Iterator[Condition]:
    response = ctx.registry.wire.response
    yield from response.error_when if response else ()
    for code in ctx.registry.codes:
        yield from code.when


@rule("wire-condition")
def wire_condition(ctx: Context) -> Iterator[Finding]:
    """An `error_when` or `when` condition is `{at: SOURCE, equals: VALUE}`, `{at: SOURCE, non_empty: true}` or (`when` only) `{status: [N, ...]}`."""
    response = ctx.registry.wire.response
    in_error_when = {id(c) for c in (response.error_when if response else ())}
    for cond in _conditions(ctx):
        ops = [k for k in cond.stated if k in ("equals", "non_empty", "status")]
        if len(ops) != 1:
            found = f"states {' and '.join(ops)}" if ops else "states none"
            yield Finding(f"a condition states exactly one of equals, non_empty or status; this one {found}", cond.loc)
        elif cond.op == "status":
            if id(cond) in in_error_when:
                yield Finding("error_when cannot test the status: any status >= 300 is an error already", cond.loc)
            elif cond.at is not None:
                yield Finding("a status condition has no `at`", cond.loc)
            elif not cond.value or any(not 100 <= s <= 599 for s in cond.value):
                yield Finding("a status condition lists HTTP statuses, 100-599", cond.loc)
        elif cond.at is None:
            yield Finding(f"a condition with {cond.op} needs `at: SOURCE` (body:PATH or header:NAME)", cond.loc)
        elif cond.op == "non_empty" and cond.value is not True:
            yield Finding("non_empty is `true` (a test that a value is empty is not supported)", cond.loc)


@rule("wire-statuses")
def wire_statuses(ctx: Context) -> Iterator[Finding]:
    """`wire.statuses` maps an HTTP status (`404`) or a class (`5xx`), 100-599, to an action
    (`retry`, `pause`, `skip`, `fix`, `stop`, `escalate`): how a response without a readable code is decided."""
    wire = ctx.registry.wire
    loc = wire.locs.get("statuses", ctx.registry.loc_of("wire"))
    for key, action in wire.statuses.items():
        if not STATUS_KEY.fullmatch(key):
            yield Finding(f"wire.statuses: {key[:40]!r} must be an HTTP status from 100 to 599 (404) or a class (5xx)", loc)
        elif action not in ACTIONS:
            yield Finding(f"wire.statuses: {key}: action {action[:40]!r} must be one of: {', '.join(ACTIONS)}", loc)


@rule("wire-unit")
def wire_unit(ctx: Context) -> Iterator[Finding]:
    """A `retry_after` unit is `http`, `seconds`, `ms`, `epoch_seconds` or `duration`."""
    response = ctx.registry.wire.response
    for index, delay in enumerate(response.retry_after or () if response else ()):
        if delay.unit not in UNITS:
            yield Finding(f"wire.response.retry_after[{index}]: unit {delay.unit!r} must be one of: {', '.join(UNITS)}", delay.loc)


@rule("wire-code")
def wire_code(ctx: Context) -> Iterator[Finding]:
    """A code's `wire_code` is a code name (the rules of `code-name`): the code the API sends. Codes that send the same wire code (their `wire_code`, else their name) are told apart by `when`: only one of them may go without."""
    yield from _wire_code_values(ctx)
    yield from _shared_without_when(ctx)


def _wire_code_values(ctx: Context) -> Iterator[Finding]:
    for code in ctx.registry.codes:
        sent = code.wire_code
        if sent is None:
            continue
        loc = code.locs.get("wire_code", code.loc)
        if not WIRE_VALUE.fullmatch(sent) or len(sent) > MAX_CODE_LENGTH:
            yield Finding(f"wire_code {sent[:40]!r} of {code.name!r} must be a code as the API sends it: ASCII letters, "
                          f"digits and _ - . : # /, at most {MAX_CODE_LENGTH} characters", loc)
        elif sent == code.name:
            yield Finding(f"wire_code of {code.name!r} is the code itself; leave it out", loc, "warning")


def _shared_without_when(ctx: Context) -> Iterator[Finding]:
    """A response's code picks the first code without `when` among those sending it (errgen.wire
    `variants`): a later one without `when` could never be chosen."""
    shared = {c.wire_code for c in ctx.registry.codes if c.wire_code is not None}
    first: dict[str, str] = {}
    for code in ctx.registry.codes:
        sent = code.wire_code or code.name
        if sent not in shared or code.when:
            continue
        if sent not in first:
            first[sent] = code.name
            continue
        yield Finding(f"{code.name!r} and {first[sent]!r} both send wire code {sent!r} without `when`: {code.name!r} is never "
                      "chosen; give it `when` conditions that tell them apart", code.locs.get("wire_code", code.loc))


@rule("wire-prefix")
def wire_prefix(ctx: Context) -> Iterator[Finding]:
    """A code's `wire_prefix` is 1 to 64 characters of a code name (no `*`): a code read that no wire code equals is the code whose prefix it starts with, the longest first. Codes sharing a prefix are told apart by `when`, as codes sharing a wire code are: only one of them may go without."""
    groups: dict[str, list[str]] = {}
    for code in ctx.registry.codes:
        prefix = code.wire_prefix
        if prefix is None:
            continue
        loc = code.locs.get("wire_prefix", code.loc)
        if not PREFIX.fullmatch(prefix):
            yield Finding(f"wire_prefix {prefix[:40]!r} of {code.name!r} must be the start of a code as the API sends it: "
                          "1 to 64 ASCII letters, digits and _ - . : # / (no wildcard: the prefix is matched as written)", loc)
            continue
        if not code.when:
            groups.setdefault(prefix, []).append(code.name)
    for prefix, names in groups.items():
        for name in names[1:]:
            code = ctx.registry.code_map[name]
            yield Finding(f"{name!r} and {names[0]!r} both take wire_prefix {prefix!r} without `when`: {name!r} is never "
                          "chosen; give it `when` conditions that tell them apart", code.locs.get("wire_prefix", code.loc))


@rule("unknown-code")
def unknown_code(ctx: Context) -> Iterator[Finding]:
    """A `retry_after` entry's `codes` name codes of the registry (an entry that applies to some codes only)."""
    suggest = Nearest(ctx.registry.code_map)
    response = ctx.registry.wire.response
    for index, delay in enumerate(response.retry_after or () if response else ()):
        for name in delay.codes:
            if name not in ctx.registry.code_map:
                yield Finding(f"wire.response.retry_after[{index}].codes: unknown code {name[:80]!r}{suggest(name)}", delay.loc)
