"""SPEC P (issue 39 point 4): codes that vary by suffix or belong to a class (SQLSTATE `08*`,
Dropbox's `path/not_found/...`) are matched by a code's `wire_prefix`, exact wire codes first,
then the longest prefix; the view holds the prefixes as one ordered table the runtimes read."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import load_registry

from errgen.contract import view
from errgen.emit.targets import _response_vectors as _responses
from errgen.emit.targets import conformance as vectors
from errgen.registry.lint import lint_path

REGISTRY = """errgen: 1
name: pg
version: 1.0.0
categories:
  unavailable: {retryable: true, description: Try again later.}
  broken: {retryable: false, description: A human must look.}
codes:
  connection_exception:
    category: unavailable
    wire_prefix: "08"
    scope: service
    description: The database connection failed.
    since: 1.0.0
  connection_failure:
    category: unavailable
    wire_prefix: "08006"
    scope: service
    description: The connection broke.
    since: 1.0.0
  connection_refused_by_proxy:
    category: broken
    wire_prefix: "08"
    when: [{status: [502]}]
    scope: request
    description: A proxy refused the connection.
    since: 1.0.0
  insufficient_resources:
    category: unavailable
    wire_prefix: "53"
    scope: service
    description: The database ran out of resources.
    since: 1.0.0
history:
  - {version: 1.0.0, date: 2026-01-10, changes: [Initial.]}
"""


def lint(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "errors.yaml"
    path.write_text(text, encoding="utf-8")
    return lint_path(path)


def test_the_view_orders_prefixes_longest_first_and_when_first(tmp_path: Path) -> None:
    result = lint(tmp_path, REGISTRY)
    assert result.ok, [d.text() for d in result.diagnostics]
    table = view(result.registry).response["prefixes"]
    assert [prefix for prefix, _ in table] == ["08006", "08", "53"]
    assert [name for name, _ in table[1][1]] == ["connection_refused_by_proxy", "connection_exception"]
    assert table[1][1][0][1] == [{"status": [502]}]


def test_lint_refuses_a_wildcard_and_a_second_prefix_without_when(tmp_path: Path) -> None:
    wildcard = lint(tmp_path, REGISTRY.replace('wire_prefix: "53"', 'wire_prefix: "53*"'))
    assert [d.rule for d in wildcard.diagnostics] == ["wire-prefix"] and "no wildcard" in wildcard.diagnostics[0].message
    too_long = lint(tmp_path, REGISTRY.replace('wire_prefix: "53"', f'wire_prefix: "{"5" * 65}"'))
    assert [d.rule for d in too_long.diagnostics] == ["wire-prefix"]
    twice = lint(tmp_path, REGISTRY.replace("    when: [{status: [502]}]\n", ""))
    assert [d.rule for d in twice.diagnostics] == ["wire-prefix"]
    assert "never chosen" in twice.diagnostics[0].message


def test_the_response_vectors_read_a_prefixed_code_as_the_registry_code_it_matches(tmp_path: Path) -> None:
    result = lint(tmp_path, REGISTRY)
    contract = view(result.registry)
    cases = {case.name: case for case in _responses.cases(contract)}
    longest = cases["response/prefix/connection_failure"]
    assert (json.loads(longest.body)["code"], longest.raw["code"]) == ("080069", "connection_failure")
    by_status = cases["response/prefix/connection_refused_by_proxy"]
    assert (by_status.status, by_status.raw["code"]) == (502, "connection_refused_by_proxy")
    assert cases["response/prefix/connection_exception"].raw["code"] == "connection_exception"


def test_the_default_registry_pins_prefixes_and_the_code_as_sent() -> None:
    contract = view(load_registry())
    assert contract.response["prefixes"], "registry/errors.yaml carries wire_prefix codes: the vectors pin P"
    by_name = {case.name: vectors.vector(contract, case) for case in vectors.cases(contract)}
    prefixed = [v for name, v in by_name.items() if name.startswith("http/prefix/")]
    assert prefixed
    for vector in prefixed:
        sent = json.loads(vector["input"]["http"]["body"])["code"]
        decision = vector["expected"]["decision"]
        assert decision["code"] in contract.code_map and decision["wire_code"] == sent != decision["code"]
