"""errgen validate --responses: recorded real responses read through the registry's response spec
by the Python runtime's own reading code (issue 25 item 6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import REGISTRY, ROOT, load_registry, run_errgen
from errgen.contract import view
from errgen.emit.targets import _response_vectors as _responses
from errgen.validate import Validator
from errgen.leaks import LeakScanner
from errgen.validate.responses import read

APIS = ROOT / "examples" / "apis"
RECORDED = ROOT / "tests" / "fixtures" / "responses"
CONTRACT_RULES = {"unknown-code", "http-status-mismatch", "no-code", "not-a-response"}


def findings(registry: Path, records: Any, tmp_path: Path, name: str = "r.json") -> list[tuple[str, str]]:
    path = tmp_path / name
    path.write_text(records if isinstance(records, str) else json.dumps(records))
    return [(f.rule, f.message) for f in Validator(load_registry(registry), LeakScanner(), responses=True).file(str(path))]


@pytest.mark.parametrize("api", sorted(p.name for p in RECORDED.iterdir()))
def test_every_recorded_response_of_a_real_api_is_read_as_its_registry_says(api: str) -> None:
    contract = view(load_registry(APIS / f"{api}.yaml"))
    for path in sorted((RECORDED / api).glob("*.json")):
        recorded = json.loads(path.read_text())
        got = read(contract, recorded["status"], recorded["headers"], recorded["body"])
        assert got.error, path.name
        assert got.registry_code == recorded.get("code", got.registry_code), path.name
        found = Validator(contract.registry, LeakScanner(), responses=True).file(str(path))
        assert [f.rule for f in found if f.rule in CONTRACT_RULES] == [], path.name


@pytest.mark.parametrize("registry", [REGISTRY, *sorted(APIS.glob("*.yaml"))], ids=lambda p: p.stem)
def test_the_code_is_read_as_the_conformance_responses_expect(registry: Path) -> None:
    """The readings every SDK's read_http must make (conformance/responses.json), made by validate."""
    contract = view(load_registry(registry))
    for case in _responses.cases(contract):
        got = read(contract, case.status, case.headers, " " * case.pad + case.body)
        assert (got.error, got.code) == (case.error, case.code), case.name


def slack(status: int, error: str, **extra: Any) -> dict[str, Any]:
    return {"status": status, "headers": {"Content-Type": "application/json"}, "body": json.dumps({"ok": False, "error": error}), **extra}


def test_an_unknown_code_names_the_nearest_known(tmp_path: Path) -> None:
    assert findings(APIS / "slack.yaml", slack(200, "channel_not_fund"), tmp_path) == [
        ("unknown-code", "unknown code 'channel_not_fund'; did you mean 'channel_not_found'?")]


def test_a_status_the_registry_does_not_give_the_code_is_reported(tmp_path: Path) -> None:
    recorded = json.loads((RECORDED / "openai" / "invalid-api-key.json").read_text())
    recorded["status"] = 500
    assert findings(APIS / "openai.yaml", recorded, tmp_path) == [
        ("http-status-mismatch", "invalid_api_key is sent with HTTP 401, not 500")]


def test_a_status_several_variants_share_lists_them_all(tmp_path: Path) -> None:
    azure = load_registry(APIS / "azure-storage.yaml")
    shared = {row.wire_code for row in view(azure).codes if row.wire_code != row.code}
    assert "ConditionNotMet" in shared
    recorded = {"status": 500, "headers": {"x-ms-error-code": "ConditionNotMet"}, "body": ""}
    rules = findings(APIS / "azure-storage.yaml", recorded, tmp_path)
    assert rules == [("http-status-mismatch", "ConditionNotMet is sent with HTTP 304 or 412, not 500")]


def test_extra_keys_are_ignored_and_missing_contract_fields_are_no_finding(tmp_path: Path) -> None:
    lines = "\n".join(json.dumps(slack(200, "channel_not_found", source="https://api.slack.com", action="stop")) for _ in range(2)) + "\n"
    assert findings(APIS / "slack.yaml", lines, tmp_path, "r.jsonl") == []


def test_an_error_without_a_code_and_a_record_that_is_no_response(tmp_path: Path) -> None:
    records = [{"status": 502, "headers": {}, "body": "<html>Bad gateway</html>"}, {"code": "x"}, {"status": 200, "body": "{}"}]
    got = findings(APIS / "openai.yaml", records, tmp_path)
    assert [rule for rule, _ in got] == ["no-code", "not-a-response"]
    assert "body:error.code, body:error.type" in got[0][1]


def test_the_cli_exit_code_and_a_payload_registry(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps([slack(200, "channel_not_found"), slack(200, "no_such_thing")]))
    done = run_errgen("validate", "--responses", "--registry", str(APIS / "slack.yaml"), str(path))
    assert done.returncode == 1 and "payload 2: unknown code 'no_such_thing'" in done.stdout, done.stdout + done.stderr
    path.write_text(json.dumps(slack(200, "channel_not_found")))
    assert run_errgen("validate", "--responses", "--registry", str(APIS / "slack.yaml"), str(path)).returncode == 0


def test_a_request_id_header_is_not_a_twilio_token(tmp_path: Path) -> None:
    recorded = json.loads((RECORDED / "twilio" / "not-found.json").read_text())
    assert findings(APIS / "twilio.yaml", recorded, tmp_path) == []
    recorded["headers"]["x-debug"] = "twilio auth token 0a1b2c3d4e5f60718293a4b5c6d7e8f9"
    assert [rule for rule, _ in findings(APIS / "twilio.yaml", recorded, tmp_path)] == ["leak-secret"]


def test_the_schema_ships_the_enveloped_body_beside_the_payload() -> None:
    from jsonschema import Draft202012Validator

    from errgen import payload_schema
    from errgen.emit.targets import schema as target

    registry = load_registry(ROOT / "examples" / "payments-api.yaml")
    files = target.render(registry)
    assert sorted(files) == ["schema/error-body.schema.json", "schema/error.schema.json"]
    body = json.loads(files["schema/error-body.schema.json"])
    Draft202012Validator.check_schema(body)
    check = Draft202012Validator(body)
    contract = view(registry)
    example = payload_schema.example(contract, contract.codes[0])
    assert check.is_valid({"error": example, "request_log_url": "https://dashboard.example/logs/1"})  # the API's own siblings
    assert not check.is_valid(example)  # a payload is not a body
    assert not check.is_valid({"error": {**example, "extra": 1}})  # the payload stays strict
    # Without an envelope the body is the payload: one file (the default registry's output is unchanged).
    assert sorted(target.render(load_registry(REGISTRY))) == ["schema/error.schema.json"]


def test_a_delay_its_unit_cannot_read_is_reported(tmp_path: Path) -> None:
    """#39: a Retry-After of `soon`, or a body delay of `"a minute"`, is no delay: the client waits
    its own backoff, so the recorded response is worth a warning; decimal seconds are read."""
    body = json.dumps({"kind": "Status", "status": "Failure", "reason": "TooManyRequests", "code": 429,
                       "details": {"retryAfterSeconds": "a minute"}})
    records = [{"status": 429, "headers": {"Retry-After": "soon"}, "body": body},
               {"status": 429, "headers": {"Retry-After": "2.5"}, "body": body.replace('"a minute"', "3")}]
    got = findings(APIS / "kubernetes.yaml", records, tmp_path)
    assert [rule for rule, _ in got] == ["delay-unreadable", "delay-unreadable"]
    assert "body:details.retryAfterSeconds (unit seconds) holds 'a minute'" in got[0][1]
    assert "header:retry-after (unit http) holds 'soon'" in got[1][1]


def test_an_array_envelope_body_holds_the_payload_among_the_apis_entries() -> None:
    """SPEC E: the body schema of `errors[*]` takes what to_http writes (a one-entry array), and an
    entry of the API's own beside the payload, but no array without a payload."""
    from jsonschema import Draft202012Validator

    from errgen import payload_schema
    from errgen.emit.targets import _writing_vectors as writing
    from errgen.emit.targets import schema as target

    registry = load_registry(APIS / "oci-distribution.yaml")
    body = json.loads(target.render(registry)["schema/error-body.schema.json"])
    Draft202012Validator.check_schema(body)
    check = Draft202012Validator(body)
    contract = view(registry)
    for row in contract.codes:
        example = payload_schema.example(contract, row)
        for problem in (False, True):
            written = writing.http(contract, example, problem)["body"]
            assert len(written["errors"]) == 1 and check.is_valid(written), (row.code, problem, written)
        theirs = {"code": "DENIED", "message": "requested access to the resource is denied"}
        assert check.is_valid({"errors": [theirs, example]})
    assert not check.is_valid({"errors": [theirs]})  # no entry is a payload
    assert not check.is_valid({"errors": []})
    assert not check.is_valid({"errors": example})  # the schema says array (a reader still takes it)
