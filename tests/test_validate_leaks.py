"""errgen validate looks for leaks in everything a consumer receives: a recorded response's
headers, a body that is not a JSON object (a text or HTML error page, a string, an array), and what
sits beside the registry's envelope; and no secret it finds is printed in any output format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import load_registry, run_errgen
from errgen.validate import Validator
from errgen.leaks import LeakScanner

JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MjQyIiwiZXhwIjoxNzAwMDAwMDAwfQ.Qm9ndXNTaWduYXR1cmVGb3JUZXN0c09ubHkxMjM0NTY"
PASSWORD = "Wq8vT3kLmZ2p"
HTML_500 = ("<html><body><h1>500 Internal Server Error</h1><pre>java.lang.IllegalStateException: db down\n"
            "\tat com.acme.billing.ChargeService.charge(ChargeService.java:88)\n"
            f"\tat com.acme.web.Api.post(Api.java:31)\nconfig: password={PASSWORD}</pre></body></html>")
RESPONSES = [
    {"status": 500, "headers": {"Content-Type": "text/html"}, "body": HTML_500},
    {"status": 401, "headers": {"Set-Cookie": f"access_token={JWT}; Secure; HttpOnly", "Content-Type": "application/json"},
     "body": {"code": "AUTH_EXPIRED", "category": "auth", "retryable": False, "scope": "request"}},
    {"status": 502, "headers": {"X-Upstream-Token": "tok_" + "7f3a9c" * 5, "X-Debug": "upstream db-primary.prod.internal"}, "body": "Bad Gateway"},
    {"status": 500, "headers": {}, "body": ["see /srv/app/config/secrets.yml"]},
]


def rules_by_record(path: Path) -> list[set[str]]:
    out: list[set[str]] = [set() for _ in RESPONSES]
    for f in Validator(load_registry(), LeakScanner()).file(str(path)):
        out[f.index].add(f.rule)
    return out


@pytest.fixture()
def recorded(tmp_path: Path) -> Path:
    path = tmp_path / "responses.json"
    path.write_text(json.dumps(RESPONSES, indent=2))
    return path


def test_headers_and_non_object_bodies_are_scanned(recorded: Path) -> None:
    html, cookie, gateway, array = rules_by_record(recorded)
    assert {"leak-stack-trace", "leak-secret"} <= html
    assert "leak-secret" in cookie
    assert {"leak-secret", "leak-internal-host"} <= gateway
    assert "leak-file-path" in array


def test_a_header_finding_names_the_header(recorded: Path) -> None:
    messages = [f.message for f in Validator(load_registry(), LeakScanner()).file(str(recorded)) if f.index == 1]
    assert "headers.set-cookie contains a credential ('access_token=****'); it must never cross the boundary" in messages, messages


def test_a_reported_token_keeps_its_recognisable_prefix(tmp_path: Path) -> None:
    """The excerpt is masked once: the whole message's masking must not star it again."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"status": 500, "headers": {}, "body": "key ghp_" + "A1b2C3d4E5" * 4}))
    messages = [f.message for f in Validator(load_registry(), LeakScanner()).file(str(path))]
    assert "payload contains an API token ('ghp_************'); it must never cross the boundary" in messages, messages


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_no_secret_from_a_header_or_text_body_is_printed(recorded: Path, fmt: str) -> None:
    done = run_errgen("validate", "--format", fmt, str(recorded))
    assert done.returncode == 1 and "leak-secret" in done.stdout, done.stdout + done.stderr
    for secret in (JWT, JWT.split(".")[1], PASSWORD, "7f3a9c" * 5):
        assert secret not in done.stdout + done.stderr, fmt


def test_what_sits_beside_the_envelope_is_scanned(tmp_path: Path) -> None:
    registry = Path(__file__).parent.parent / "examples" / "payments-api.yaml"  # its payload sits under "error"
    payload = {"error": {"code": "card_declined"}, "debug": "Traceback (most recent call last):\n  File \"/srv/app/pay.py\", line 3"}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"status": 402, "headers": {}, "body": payload}))
    rules = {f.rule for f in Validator(load_registry(registry), LeakScanner()).file(str(path))}
    assert "leak-stack-trace" in rules, rules
