"""errgen validate: one fixture per finding and per input form (tests/fixtures/validate, with
expected.json naming the rule, line and payload index each must produce), clean payloads from the
generated SDK, streaming JSON Lines, masking, allow-lists and exit codes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, GENERATED, load_registry, run_errgen
from errgen.validate import Validator
from errgen.leaks import LeakScanner

CORPUS = FIXTURES / "validate"
EXPECTED: dict[str, Any] = json.loads((CORPUS / "expected.json").read_text())
sys.path.insert(0, str(GENERATED / "python"))
import acme_errors as sdk  # noqa: E402


def findings(path: Path, **scanner: Any) -> list[Any]:
    return list(Validator(load_registry(), LeakScanner(**scanner)).file(str(path)))


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=sorted(EXPECTED))
def test_each_fixture_produces_its_finding(name: str) -> None:
    got = [(f.rule, f.line, f.index) for f in findings(CORPUS / name)]
    for want in (EXPECTED[name], EXPECTED[name].get("also")):
        if want:
            assert (want["rule"], want["line"], want["index"]) in got


def test_corpus_covers_every_rule() -> None:
    rules = {e["rule"] for e in EXPECTED.values()}
    assert rules >= {"unknown-code", "category-mismatch", "retryable-mismatch", "scope-not-allowed", "hint-not-allowed", "missing-field",
                     "extra-field", "retry-after-not-retryable", "resource-id-missing", "deprecated-code", "http-status-mismatch",
                     "retry-after-header-mismatch", "invalid-json", "leak-stack-trace", "leak-secret", "leak-internal-host",
                     "leak-file-path", "message-carries-hints"}


def test_secrets_are_masked_in_every_output_format() -> None:
    for name, secret in (("leak-secret-aws.json", "AKIAIOSFODNN7EXAMPLE"), ("leak-secret-connection-string.json", "hunter2"),
                         ("leak-secret-api-key.json", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"), ("leak-secret-bearer.json", "eyJhbGciOiJIUzI1NiJ9.payload.sig")):
        for fmt in ("text", "json", "github"):
            done = run_errgen("validate", "--format", fmt, str(CORPUS / name))
            assert done.returncode == 1 and "leak-secret" in done.stdout
            assert secret not in done.stdout + done.stderr


def test_allow_lists_silence_known_safe_values() -> None:
    assert [f.rule for f in findings(CORPUS / "leak-internal-host.json", allow_hosts=("internal",))] == []
    assert [f.rule for f in findings(CORPUS / "leak-file-path.json", allow_patterns=(r"^/var/lib/app/",))] == []
    done = run_errgen("validate", "--allow-pattern", "(", str(CORPUS / "leak-file-path.json"))
    assert done.returncode == 2 and "not a valid regular expression" in done.stderr


def test_clean_sdk_payloads_in_every_form_validate_clean(tmp_path: Path) -> None:
    payloads = [sdk.new_error("RATE_LIMITED", "c-1", retry_after_ms=1500).to_wire(), sdk.new_error("VALIDATION_FAILED", "c-2", resource_id="row_9", accepted=["a"]).to_wire(),
                sdk.new_error("TENANT_UNKNOWN", "c-3", did_you_mean=["www"], searched={"tenant": "wwww"}, state="unchanged").to_wire()]
    (tmp_path / "a.json").write_text(json.dumps(payloads, indent=2))
    (tmp_path / "b.jsonl").write_text("\n".join(json.dumps(p) for p in payloads) + "\n")
    (tmp_path / "c.json").write_text(json.dumps([sdk.to_mcp_result(p) for p in payloads]))
    http = [sdk.to_http(p, problem=problem) for p in payloads for problem in (False, True)]
    (tmp_path / "d.json").write_text(json.dumps([{"status": r.status, "headers": dict(r.headers), "body": r.body} for r in http]))
    done = run_errgen("validate", *(str(tmp_path / n) for n in ("a.json", "b.jsonl", "c.json", "d.json")))
    assert done.returncode == 0, done.stdout
    assert "0 error(s), 0 warning(s) in 4 file(s)" in done.stderr


codes = st.sampled_from([e for e in sdk.RECOVERY_TABLE.values() if not e.deprecated])
words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=12)


@st.composite
def sdk_payloads(draw: st.DrawFn) -> dict[str, Any]:
    entry = draw(codes)
    scope = draw(st.sampled_from(entry.scopes)).value
    fields: dict[str, Any] = {"scope": scope, "message": draw(st.none() | st.text(max_size=40).filter(lambda s: not any(LeakScanner().scan(s))))}
    if scope == "resource":
        fields["resource_id"] = draw(words)
    if entry.retryable and draw(st.booleans()):
        fields["retry_after_ms"] = draw(st.integers(0, 86_400_000))
    values = {"searched": st.dictionaries(words, st.integers() | words | st.booleans(), max_size=3), "did_you_mean": st.lists(words, max_size=10),
              "accepted": st.lists(words, max_size=5), "state": st.sampled_from(["unchanged", "changed", "unknown"]), "safe_to_replay": st.booleans()}
    for hint in entry.hints:
        if draw(st.booleans()):
            fields[hint] = draw(values[hint])
    return sdk.new_error(entry.code.value, draw(words), **fields).to_wire()


@settings(max_examples=200, deadline=None)
@given(payload=sdk_payloads())
def test_payloads_from_the_generated_constructor_always_validate_clean(payload: dict[str, Any]) -> None:
    validator = Validator(load_registry(), LeakScanner())
    from errgen.validate.inputs import Record

    found = [f.text() for f in validator.record("gen", Record(0, 1, payload, json.dumps(payload), 0)) if f.rule != "message-carries-hints"]
    assert found == []


def test_a_malformed_line_is_one_finding_and_the_rest_is_checked(tmp_path: Path) -> None:
    got = [(f.rule, f.line) for f in findings(CORPUS / "form-lines.jsonl")]
    assert got == [("invalid-json", 3), ("retryable-mismatch", 4)]


def test_exit_codes(tmp_path: Path) -> None:
    assert run_errgen("validate", str(CORPUS / "deprecated-code.json")).returncode == 0
    assert run_errgen("validate", "--strict", str(CORPUS / "deprecated-code.json")).returncode == 1
    assert run_errgen("validate", str(CORPUS / "unknown-code.json")).returncode == 1
    assert run_errgen("validate", str(tmp_path / "missing.json")).returncode == 2
    (tmp_path / "bad.json").write_text("{not json")
    done = run_errgen("validate", str(tmp_path / "bad.json"))
    assert done.returncode == 2 and "not valid JSON" in done.stderr and "Traceback" not in done.stderr
    piped = run_errgen("validate", "-", input=(CORPUS / "unknown-code.json").read_text())
    assert piped.returncode == 1 and "-:2: error[unknown-code]" in piped.stdout


def test_json_output_is_one_document(tmp_path: Path) -> None:
    done = run_errgen("validate", "--format", "json", str(CORPUS / "form-lines.jsonl"))
    items = json.loads(done.stdout)
    assert [(i["rule"], i["line"], i["index"], i["severity"]) for i in items] == [("invalid-json", 3, 2, "error"), ("retryable-mismatch", 4, 3, "error")]
