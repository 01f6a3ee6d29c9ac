"""SPEC D (issue 39 point 3): a `retry_after` entry may apply to some codes or categories only
(Okta sends X-Rate-Limit-Reset on every response: a 500 must not wait out the rate window)."""

from __future__ import annotations

from pathlib import Path

from conftest import load_registry

from errgen.contract import view
from errgen.emit.targets import _response_vectors as _responses
from errgen.registry.lint import lint_path

REGISTRY = """errgen: 1
name: okta
version: 1.0.0
wire:
  response:
    code: ["body:errorCode"]
    retry_after:
      - {at: "header:x-rate-limit-reset", unit: epoch_seconds, categories: [rate_limit]}
      - {at: "header:x-backend-retry", unit: seconds, codes: [E0000009]}
      - "header:retry-after"
categories:
  rate_limit: {retryable: true, description: Too many requests.}
  server: {retryable: true, description: The server failed.}
codes:
  E0000047:
    category: rate_limit
    scope: service
    description: API call exceeded rate limit due to too many requests.
    since: 1.0.0
  E0000009:
    category: server
    scope: request
    description: Internal Server Error.
    since: 1.0.0
history:
  - {version: 1.0.0, date: 2026-01-10, changes: [Initial.]}
"""


def lint(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "errors.yaml"
    path.write_text(text, encoding="utf-8")
    return lint_path(path)


def test_the_view_keeps_filters_only_where_given(tmp_path: Path) -> None:
    result = lint(tmp_path, REGISTRY)
    assert result.ok, [d.text() for d in result.diagnostics]
    entries = view(result.registry).response["retry_after"]
    assert [sorted(e) for e in entries] == [["at", "categories", "unit"], ["at", "codes", "unit"], ["at", "unit"]]


def test_lint_names_unknown_codes_and_categories_and_malformed_filters(tmp_path: Path) -> None:
    found = lint(tmp_path, REGISTRY.replace("categories: [rate_limit]", "categories: [rate_limits]")
                 .replace("codes: [E0000009]", "codes: [E000009]"))
    assert sorted(d.rule for d in found.diagnostics) == ["unknown-category", "unknown-code"]
    assert any("did you mean 'E0000009'" in d.message for d in found.diagnostics)
    malformed = lint(tmp_path, REGISTRY.replace("codes: [E0000009]", "codes: E0000009"))
    assert [d.rule for d in malformed.diagnostics] == ["wire-source"]


def test_the_response_vectors_read_a_filtered_delay_only_for_its_codes(tmp_path: Path) -> None:
    contract = view(lint(tmp_path, REGISTRY).registry)
    cases = {case.name: case for case in _responses.cases(contract)}
    assert cases["response/delay/source-0/future"].delay_ms == 60_000
    assert cases["response/delay/source-0/future"].code == "E0000047"
    assert cases["response/delay/source-0/not-for-E0000009"].delay_ms is None
    assert cases["response/delay/source-0/not-for-unknown-code"].delay_ms is None
    assert cases["response/delay/source-1/not-for-E0000047"].delay_ms is None
    # A response without a code reads only the unfiltered entries (the Retry-After of a bare 429).
    bare = [c for name, c in cases.items() if name.startswith("response/infrastructure/")]
    assert bare and all(c.code is None for c in bare)


def test_the_default_registry_pins_filtered_delays() -> None:
    contract = view(load_registry())
    assert any("codes" in e or "categories" in e for e in contract.response["retry_after"])
    names = {case.name for case in _responses.cases(contract)}
    assert any("/not-for-" in name for name in names) and any("/prefix-" in name for name in names)
