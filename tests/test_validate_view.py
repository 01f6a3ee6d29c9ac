"""errgen validate reads every payload field through the contract view (issue 27 item 5): no field
name is spelled in src/errgen/validate/, so a renamed or camelCase field is checked where it is;
and an enveloped body is read as the SDKs read it (issue 25 item 6)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from conftest import ROOT
from errgen.contract import Policy, fields
from errgen.registry.lint import lint_text
from errgen.validate import Validator
from errgen.leaks import LeakScanner

VALIDATE = ROOT / "src" / "errgen" / "validate"

REGISTRY = """errgen: 1
name: demo
version: 1.0.0
{wire}categories:
  transient: {{retryable: true, http_status: 503, description: Try again later.}}
  validation: {{retryable: false, action: fix, http_status: 422, description: Fix it.}}
codes:
  busy:
    category: transient
    scope: request
    retry_after_ms: 2000
    description: The service is busy.
    since: 1.0.0
  bad_field:
    category: validation
    scope: request
    description: A field is wrong.
    since: 1.0.0
history:
  - {{version: 1.0.0, date: 2026-01-10, changes: [Initial.]}}
"""


def registry(wire: str = ""):  # type: ignore[no-untyped-def]
    result = lint_text(REGISTRY.format(wire=wire), "demo.yaml")
    assert result.ok, [d.text() for d in result.diagnostics]
    return result.registry


def rules(tmp_path: Path, wire: str, document: object, name: str = "p.json") -> list[str]:
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return [f.rule for f in Validator(registry(wire), LeakScanner()).file(str(path))]


def test_no_field_name_is_spelled_in_validate() -> None:
    names = {spec.name for spec in fields(Policy())}
    found = []
    for path in sorted(VALIDATE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in names:
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert found == []


def test_a_renamed_message_still_carries_hints(tmp_path: Path) -> None:
    payload = {"code": "bad_field", "category": "validation", "retryable": False, "scope": "request", "correlation_id": "r1",
               "detail_text": "Unknown field; did you mean 'name'?"}
    assert rules(tmp_path, "wire: {rename: {message: detail_text}}\n", payload) == ["message-carries-hints"]


@pytest.mark.parametrize("wire, delay", [("", "retry_after_ms"), ("wire: {case: camel}\n", "retryAfterMs")])
def test_retry_after_header_is_compared_with_the_delay_in_any_case(tmp_path: Path, wire: str, delay: str) -> None:
    camel = bool(wire)
    body = {"code": "busy", "category": "transient", "retryable": True, "scope": "request",
            "correlationId" if camel else "correlation_id": "r1", delay: 2000}
    recorded = {"status": 503, "headers": {"Retry-After": "9"}, "body": body}
    assert rules(tmp_path, wire, recorded) == ["retry-after-header-mismatch"]


ENVELOPED = {"error": {"code": "bad_field", "category": "validation", "retryable": False, "scope": "request", "correlation_id": "r1"}}


@pytest.mark.parametrize("name, text", [("p.json", json.dumps(ENVELOPED)),
                                        ("p.jsonl", json.dumps(ENVELOPED) + "\n" + json.dumps(ENVELOPED) + "\n")])
def test_an_enveloped_body_is_read_under_its_envelope(tmp_path: Path, name: str, text: str) -> None:
    assert rules(tmp_path, "wire: {envelope: error}\n", text, name) == []
    # Without an envelope in the registry the same body is a payload with one unknown field.
    assert "extra-field" in rules(tmp_path, "", text, name)


def test_an_array_envelope_is_read_at_the_entry_holding_the_payload(tmp_path: Path) -> None:
    """SPEC E: `errors[*]`: the payload may follow entries of the API's own (OCI's `{"code",
    "message"}`); those are not judged as payloads, but a secret in them is still found."""
    theirs = {"code": "DENIED", "message": "requested access to the resource is denied"}
    payload = {**ENVELOPED["error"], "code": "nope"}
    line = json.dumps({"errors": [theirs, payload]})
    wire = 'wire: {envelope: "errors[*]"}\n'
    assert rules(tmp_path, wire, line + "\n", "p.jsonl") == ["unknown-code"]  # the second entry's code
    leaked = json.dumps({"errors": [{**theirs, "detail": "token ghp_" + "a1B2" * 9}, ENVELOPED["error"]]})
    assert rules(tmp_path, wire, leaked + "\n", "p.jsonl") == ["leak-secret"]
    # No entry holds the payload: the array itself is judged, and is no payload.
    assert rules(tmp_path, wire, json.dumps({"errors": [theirs]}) + "\n", "p.jsonl") == ["not-an-object"]
