"""validate on hostile input: masking of every string it prints in every output format, strict
JSON, no traceback on any shape of payload, MCP result or HTTP recording, a finding per unknown key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import REGISTRY
from errgen.cli import main

FORMATS = ["text", "json", "github"]
OK = {"code": "RATE_LIMITED", "category": "rate_limit", "retryable": True, "scope": "service", "correlation_id": "c-1", "message": "slow down"}


def validate(tmp_path: Path, name: str, content: str, *args: str) -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--registry", str(REGISTRY), *args, str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


SECRETS = {
    "code": ({**OK, "code": "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"}, "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"),
    "category": ({**OK, "category": "sk_live_4eC39HqLyjWDarjtT1zdp7dc"}, "4eC39HqLyjWDarjtT1zdp7dc"),
    "key": ({**OK, "AKIAIOSFODNN7EXAMPLE": 1}, "IOSFODNN7EXAMPLE"),
    "nested key": ({**OK, "searched": {"npm_abcdefghijklmnopqrstuvwxyz0123456789": "x"}}, "abcdefghijklmnopqrstuvwxyz0123456789"),
    "value": ({**OK, "message": "db at postgres://admin:p@ssW0rdSecret@db.example.com failed"}, "ssW0rdSecret"),
    "password": ({**OK, "resource_id": "password=Tr0ub4dor&3x"}, "Tr0ub4dor"),
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("where", sorted(SECRETS))
def test_secrets_are_masked_wherever_they_sit(tmp_path: Path, fmt: str, where: str) -> None:
    payload, secret = SECRETS[where]
    code, out = validate(tmp_path, "p.json", json.dumps(payload), "--format", fmt)
    assert code == 1 and "leak-secret" in out or "unknown-code" in out or "category" in out, out
    assert secret not in out, out


HOSTILE = {
    "deep-array.json": "[" * 995 + "]" * 995,
    "deep-object.json": '{"a":' * 995 + "1" + "}" * 995,
    "deep-value.json": json.dumps({**OK, "searched": 0})[:-1] + ', "x": ' + "[" * 900 + "]" * 900 + "}",
    "mcp-content-5.json": json.dumps({"isError": True, "content": 5}),
    "mcp-text-5.json": json.dumps({"isError": True, "content": [{"type": "text", "text": 5}]}),
    "mcp-text-null.json": json.dumps({"isError": True, "content": [{"type": "text", "text": None}]}),
    "retry-after-1e400.json": '{"status": 429, "headers": {"Retry-After": "1"}, "body": ' + json.dumps(OK)[:-1] + ', "retry_after_ms": 1e400}}',
    "huge-number.jsonl": '{"a": ' + "9" * 5000 + "}\n" + json.dumps(OK) + "\n",
    "huge-delay.json": json.dumps(OK)[:-1] + ', "retry_after_ms": ' + "9" * 5000 + "}",
    "nan.json": json.dumps(OK)[:-1] + ', "retry_after_ms": NaN}',
    "headers-list.json": json.dumps({"status": [1], "headers": [], "body": OK}),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_is_a_finding_not_a_traceback(tmp_path: Path, name: str) -> None:
    code, out = validate(tmp_path, name, HOSTILE[name])
    assert code in (1, 2) and "Traceback" not in out, out




@pytest.mark.parametrize("header", [pytest.param("²"), pytest.param("9" * 5000), "-1", "1.5", "+5"])
def test_odd_retry_after_headers(tmp_path: Path, header: str) -> None:
    recording = {"status": 429, "headers": {"Retry-After": header}, "body": {**OK, "retry_after_ms": 1000}}
    code, out = validate(tmp_path, "r.json", json.dumps(recording))
    assert code in (0, 1) and "Traceback" not in out


@pytest.mark.parametrize("content, where", [(json.dumps(OK) + " garbage", "line 1 column"), ("[1 2]", "expected ',' or ']'"), ("{} {}", "after the JSON value")])
def test_invalid_json_is_rejected_with_its_position(tmp_path: Path, content: str, where: str) -> None:
    code, out = validate(tmp_path, "bad.json", content)
    assert code == 2 and "not valid JSON" in out and where in out, out


@pytest.mark.parametrize("name", ["empty.log", "empty.json", "blank.jsonl"])
def test_an_empty_file_is_clean(tmp_path: Path, name: str) -> None:
    code, out = validate(tmp_path, name, "" if "blank" not in name else "\n\n")
    assert code == 0, out


def test_a_byte_order_mark_is_not_part_of_the_json(tmp_path: Path) -> None:
    code, out = validate(tmp_path, "bom.json", "\ufeff" + json.dumps({**OK, "code": "NOPE"}))
    assert code == 1 and "unknown-code" in out, out


def test_every_unknown_key_is_a_finding_of_its_own(tmp_path: Path) -> None:
    """One payload of 300 keys outside the contract: 300 findings, in the payload's order, each
    naming its key. How the time grows with the keys (40,000 beside clean payloads of the same
    bytes) is bench.linear_bench's "validate: 40,000 keys" case; a clock here failed under load."""
    code, out = validate(tmp_path, "k.json", json.dumps({**OK, **{f"k{i}": "v" for i in range(300)}}), "--format", "json")
    findings = json.loads(out[:out.rindex("]") + 1])
    assert code == 1 and [f["rule"] for f in findings] == ["extra-field"] * 300, out[-500:]
    assert [f["message"] for f in findings] == [f"field 'k{i}' is not part of the contract" for i in range(300)]


def test_repeated_header_names_are_folded_into_one_value() -> None:
    """A recorded response repeating one header name is folded into one value ("v, v, ..."), as
    HTTP folds them: once built by adding to the string each time (quadratic: 600,000 repeats
    took 24x as long as 600,000 distinct names), now joined once; the time beside distinct names
    is bench.linear_bench's "validate: 600,000 repeated headers" case."""
    from errgen.validate.responses import _lowered

    n = 1_000
    assert _lowered([["A", "1"], ["b", "2"], ["a", "3"]]) == {"a": "1, 3", "b": "2"}
    assert _lowered([["X-Rep", "v"]] * n) == {"x-rep": ", ".join(["v"] * n)}
    assert _lowered([[f"X-{i:06d}", "v"] for i in range(n)]) == {f"x-{i:06d}": "v" for i in range(n)}
