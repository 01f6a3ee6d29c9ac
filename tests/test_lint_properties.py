"""Property tests: random valid registries lint clean; each mutation produces its rule."""

from __future__ import annotations

import copy
from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from errgen.registry.lint import lint_text
from strategies import dump, registries


@settings(max_examples=150, deadline=None)
@given(registries())
def test_random_valid_registries_lint_clean(registry: dict[str, Any]) -> None:
    result = lint_text(dump(registry))
    # Hostile text may look interpolated or hold a format character such as U+202A (warnings about
    # how it displays); nothing else may be reported.
    warned = {"description-interpolates", "invisible-character"}
    assert [d.text() for d in result.diagnostics if d.rule not in warned or d.severity != "warning"] == []
    assert [c.description for c in result.registry.codes] == [c["description"] for c in registry["codes"].values()]


def _first(registry: dict[str, Any]) -> dict[str, Any]:
    return next(iter(registry["codes"].values()))


def _set(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda r: _first(r).__setitem__(field, value)


def _flip_retryable(r: dict[str, Any]) -> None:
    code = _first(r)
    code["retryable"] = not r["categories"][code["category"]]["retryable"]
    code.pop("retry_after_ms", None)
    code.pop("action", None)


def _dup_scope(r: dict[str, Any]) -> None:
    code = _first(r)
    code["scopes"] = [code["scope"], code["scope"]]


def _rename_from_existing(r: dict[str, Any]) -> None:
    names = list(r["codes"])
    _first(r)["renamed_from"] = [names[-1]] if len(names) > 1 else [names[0]]


MUTATIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "unknown-key": _set("colour", "blue"),
    "wrong-type": _set("http_status", "404"),
    "http-status-range": _set("http_status", 299),
    "unknown-scope": _set("scope", "planet"),
    "unknown-category": _set("category", "zzz_not_a_category"),
    "unknown-hint": _set("hints", ["stack_trace"]),
    "description-empty": _set("description", " "),
    "description-too-long": _set("description", "x" * 501),
    "retry-after-range": _set("retry_after_ms", 86_400_001),
    "since-after-version": _set("since", "9.0.0"),
    "version-semver": _set("since", "one"),
    "replaced-by-unknown": _set("deprecated", {"since": "1.0.0", "replaced_by": "NO_SUCH_CODE_X"}),
    "retryable-contradiction": _flip_retryable,
    "duplicate-item": _dup_scope,
    "renamed-from-exists": _rename_from_existing,
    "code-name": lambda r: r["codes"].__setitem__("lower case!", copy.deepcopy(_first(r))),
    "missing-key": lambda r: _first(r).pop("since"),
    "history-current": lambda r: r.__setitem__("version", "1.0.1"),
}


@settings(max_examples=150, deadline=None)
@given(registries(), st.sampled_from(sorted(MUTATIONS)))
def test_each_mutation_produces_its_rule(registry: dict[str, Any], rule: str) -> None:
    MUTATIONS[rule](registry)
    rules = {d.rule for d in lint_text(dump(registry)).diagnostics}
    assert rule in rules


def test_the_interpolation_prefilter_never_hides_a_match() -> None:
    """description-interpolates skips prose without any of the characters every match holds;
    random text over the characters its patterns use never matches without one."""
    import random
    import string

    from errgen.registry.lint.prose import _MAY_INTERPOLATE, INTERPOLATED

    rng = random.Random(18)
    alphabet = string.ascii_letters + string.digits + " _-{}%$'\"./:"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))) for _ in range(50_000)]
    texts += ["deadbeef-dead-beef-dead-beefdeadbeef", "id contact_4127", "wait 5 ms", "{name}", "%s", "${x}", "'acme'"]
    matched = [t for t in texts if INTERPOLATED.search(t)]
    assert len(matched) > 1000
    assert all(_MAY_INTERPOLATE.search(t) for t in matched)
