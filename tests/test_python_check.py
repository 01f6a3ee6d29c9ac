"""`check`: the Python SDK's one look at a received payload (issue 31 item 2: validate_payload +
decide re-ran the envelope and registry checks and built a pydantic model, 0.99x fastjsonschema
at 5,000 codes; check is 1.9x). It must give exactly validate_payload's problems and decide's
decision, on every payload the conformance vectors hold, at every attempt they name."""

from __future__ import annotations

import importlib
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

from conftest import REGISTRY, build_to


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sdk")
    build_to(REGISTRY, out, "python", "conformance")
    return out


@pytest.fixture(scope="module")
def sdk(built: Path) -> Iterator[ModuleType]:
    saved = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "acme_errors"}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(built / "python"))
    try:
        yield importlib.import_module("acme_errors")
    finally:
        sys.path.remove(str(built / "python"))
        for name in [n for n in sys.modules if n.split(".")[0] == "acme_errors"]:
            del sys.modules[name]
        sys.modules.update(saved)


def payloads(built: Path) -> list[tuple[Any, int, int, int]]:
    document = json.loads((built / "conformance" / "vectors.json").read_text(encoding="utf-8"))
    found = []
    for vector in document["vectors"]:
        given = vector.get("input", {})
        if "payload" in given:
            found.append((given["payload"], vector.get("attempt", 1), vector.get("max_attempts", 5),
                          vector.get("max_delay_ms", 3_600_000)))
    return found


def strict(sdk: ModuleType, payload: Any) -> tuple[tuple[str, str], ...]:
    try:
        sdk.validate_payload(payload)
    except sdk.PayloadError as error:
        return tuple(error.problems)
    return ()


def test_check_is_validate_and_decide_in_one(sdk: ModuleType, built: Path) -> None:
    cases = payloads(built)
    assert len(cases) > 100
    for payload, attempt, max_attempts, max_delay_ms in cases:
        for tried in sorted({1, attempt, max_attempts}):
            checked = sdk.check(payload, tried, max_attempts, max_delay_ms)
            assert checked.problems == strict(sdk, payload), payload
            assert checked.valid == (not checked.problems)
            assert checked.decision == sdk.decide(payload, tried, max_attempts, max_delay_ms), (payload, tried)


def test_check_draws_jitter_as_decide_does(sdk: ModuleType) -> None:
    payload = {"code": "UPSTREAM_TIMEOUT", "category": "upstream", "retryable": True, "scope": "request",
               "correlation_id": "c-1"}
    for attempt in (1, 2, 3):
        got = sdk.check(payload, attempt, jitter=True, draw=random.Random(7).random).decision
        assert got == sdk.decide(payload, attempt, jitter=True, draw=random.Random(7).random)


def test_check_of_what_is_not_an_object(sdk: ModuleType) -> None:
    for value in (None, "text", 3, [1], {"code": 1}):
        checked = sdk.check(value)
        assert not checked.valid
        assert checked.problems == strict(sdk, value)
        assert checked.decision == sdk.decide(value)
