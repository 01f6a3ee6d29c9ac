"""validate rules out leaks and secrets for a whole payload, and for all of a payload's messages,
in one pass each (issue 31 item 4: a payload of 40,000 unknown keys cost 1.6x a clean input of
its size, a needle check per key and per message); a payload that does hold one is still scanned
string by string."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import REGISTRY
from errgen.registry.lint import lint_path
import errgen.leaks as leaks
from errgen.validate import Validator
from errgen.leaks import LeakScanner


def findings(tmp_path: Path, payload: dict, monkeypatch: pytest.MonkeyPatch) -> tuple[list, int]:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    asked: list[int] = []
    real = leaks._possible
    monkeypatch.setattr(leaks, "_possible", lambda text, *tables: asked.append(1) or real(text, *tables))
    found = list(Validator(lint_path(REGISTRY).registry, LeakScanner()).file(str(path)))
    return found, len(asked)


def test_a_payload_of_many_unknown_keys_is_ruled_out_in_a_few_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found, asked = findings(tmp_path, {f"key_{i}": i for i in range(500)}, monkeypatch)
    assert len([f for f in found if "key_" in f.message]) == 500
    assert asked <= 4


def test_a_secret_among_many_keys_is_still_found_and_masked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    token = "ghp_" + "a1B2c3D4e5" * 4
    payload = {f"key_{i}": i for i in range(50)} | {token: 1, "note": f"token {token}"}
    found, _ = findings(tmp_path, payload, monkeypatch)
    assert any(f.rule.startswith("leak") or "token" in f.message for f in found)
    assert all(token not in f.message for f in found)
