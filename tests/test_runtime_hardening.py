"""The Python runtime never raises on what a server sends (issue 10's reproducers), and its delays
are bounded; a fuzz over JSON values, bodies, headers and MCP results holds it to that."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import GENERATED

sys.path.insert(0, str(GENERATED / "python"))
import acme_errors as sdk  # noqa: E402

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["code", "scope", "retryable", "x", "retry_after_ms"]) | st.text(max_size=4), inner, max_size=5),
    max_leaves=12,
)


def test_unhashable_scope_is_an_invalid_payload_not_a_crash() -> None:
    bad = {"code": "RATE_LIMITED", "category": "rate_limit", "retryable": True, "scope": {}, "correlation_id": "c"}
    assert sdk.decide(bad).reason == sdk.Reason.INVALID_PAYLOAD
    assert sdk.check_payload(bad).parsed is sdk.Parsed.INVALID
    for parse in (sdk.parse_payload, sdk.validate_payload):
        with pytest.raises(sdk.PayloadError) as info:
            parse(bad)
        assert ("wrong-type", "field 'scope' must be one of request, resource, service") in info.value.problems


@pytest.mark.parametrize(("value", "delay"), [("\u00b2", None), ("9" * 5000, 9_007_199_254_740_991), ("-1", None), ("1.5", 1500),
                                              ("+5", None), ("2099-01-01", None), ("\u0663", None), ("1.", None), ("9" * 5000 + ".5", 9_007_199_254_740_991)])
def test_odd_retry_after_values_never_raise(value: str, delay: object) -> None:
    body = json.dumps(sdk.new_error("RATE_LIMITED", "c", scope="request").to_wire())
    got = sdk.from_http(429, {"Retry-After": value}, body, now_ms=0)
    assert isinstance(got, dict)
    assert got.get("retry_after_ms") == delay  # decimal seconds are read; 5,000 digits saturate


def test_deep_and_broken_bodies_are_text_not_crashes() -> None:
    for body in ("[" * 1000, "[" * 100_000, '{"a": 1} x', "[1 2]", "NaN", b"\xff\xfe"):
        got = sdk.from_http(502, {}, body)
        assert isinstance(got, str)
        assert sdk.decide(got).reason == sdk.Reason.INVALID_PAYLOAD


@pytest.mark.parametrize("result", [{"content": True}, {"content": 5}, {"content": [{"type": "text", "text": 5}]},
                                    {"content": [{"type": "text", "text": None}]}, None, [], "x", {"structuredContent": 7}])
def test_mcp_results_without_a_payload_give_none(result: Any) -> None:
    assert sdk.from_mcp_result(result) is None


def test_to_http_with_a_huge_or_broken_delay_does_not_crash() -> None:
    payload = {**sdk.new_error("RATE_LIMITED", "c").to_wire(), "retry_after_ms": 10**400}
    response = sdk.to_http(payload)
    assert response.headers["retry-after-ms"] == "9007199254740991"
    assert response.headers["Retry-After"] == "9007199254741"
    for odd in (float("inf"), float("nan"), 10**5000, "5", -1):
        response = sdk.to_http({**payload, "retry_after_ms": odd}, problem=True)
        assert "retry-after-ms" not in response.headers or odd == 10**5000
        json.loads(response.body)


def test_delays_are_bounded_by_max_delay_ms() -> None:
    far = {**sdk.new_error("RATE_LIMITED", "c", scope="request").to_wire(), "retry_after_ms": 3_600_001}
    assert (sdk.decide(far).action, sdk.decide(far).reason) == (sdk.Action.ESCALATE, sdk.Reason.DELAY_EXCEEDS_MAX)
    assert sdk.decide(far, max_delay_ms=4_000_000).delay_ms == 3_600_001
    body = json.dumps(sdk.new_error("RATE_LIMITED", "c", scope="request").to_wire())
    year_9999 = sdk.from_http(429, [("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")], body, now_ms=0)
    assert sdk.decide(year_9999).reason == sdk.Reason.DELAY_EXCEEDS_MAX


@settings(max_examples=300, deadline=None)
@given(value=JSON, attempt=st.integers(-5, 50))
def test_any_json_value_gets_a_decision_and_a_verdict(value: Any, attempt: int) -> None:
    decision = sdk.decide(value, attempt)
    verdict = sdk.check_payload(value)
    assert decision.action in sdk.Action and verdict.parsed in sdk.Parsed
    assert verdict.valid == (not sdk._validate.problems(value))
    assert sdk.from_mcp_result({"content": [{"type": "text", "text": json.dumps(value)}]}) == value
    if isinstance(value, dict):
        assert sdk.from_mcp_result(sdk.to_mcp_result(value)) == value


@settings(max_examples=300, deadline=None)
@given(body=st.text(max_size=40) | st.binary(max_size=40),
       headers=st.lists(st.tuples(st.sampled_from(["Retry-After", "retry-after-ms", "X"]), st.text(max_size=30)), max_size=3),
       now=st.integers(-(2**62), 2**62))
def test_any_http_response_is_read_without_raising(body: Any, headers: list[tuple[str, str]], now: int) -> None:
    raw = sdk.from_http(429, headers, body, now_ms=now)
    delay = raw.get("retry_after_ms") if isinstance(raw, dict) else None
    assert delay is None or not isinstance(delay, int) or delay <= 9_007_199_254_740_991
    sdk.decide(raw)
