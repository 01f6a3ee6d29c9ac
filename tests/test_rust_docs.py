"""docs/sdk-rust.md as a program (issue 26, Done when): its ```rust blocks, put together as they
stand, compile under `cargo clippy -D warnings` against the crates they name (the default
registry's, and OpenAI's for the page's real-response example) and run, printing what the page
says they print. Nothing is added to the page's code: no imports, no casts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from test_rust_sdk import cargo, needs_cargo, ok, registry_of, write_crate

DOCS = ROOT / "docs" / "sdk-rust.md"
# Each program's crate, by the library its blocks `use`, and the registry it is built from.
CRATES = {"acme_errors": ROOT / "registry" / "errors.yaml", "openai_errors": ROOT / "examples" / "apis" / "openai.yaml"}


def programs() -> dict[str, str]:
    """The page's ```rust blocks, joined per crate in page order."""
    blocks = re.findall(r"^```rust\n(.*?)^```", DOCS.read_text(encoding="utf-8"), re.S | re.M)
    joined: dict[str, list[str]] = {}
    for block in blocks:
        (lib,) = set(re.findall(r"\b([a-z]+_errors)::", block))
        joined.setdefault(lib, []).append(block)
    return {lib: "\n".join(parts) for lib, parts in joined.items()}


def test_the_page_shows_a_whole_client_and_service() -> None:
    found = programs()
    assert set(found) == set(CRATES)
    service = found["acme_errors"]
    for needed in ("new_error_with(", "Box<dyn Error>", "downcast::<ErrorPayload>", "to_http_problem(",
                   "read_http_now(", ".check()?", "error.decide(", "std::thread::sleep(delay)", "retry_blocking(",
                   '"Retry-After"', "status: 429", "payload_error()", "failure_of(", "on_attempt(",
                   "with_idempotent(true)", "error_type", "impl AsResponseError for"):
        assert needed in service, needed
    assert "read_http_now(" in found["openai_errors"]
    for program in found.values():
        assert not re.search(r"\bas\s+(?:[ui](?:8|16|32|64|128|size)|f32|f64|&|\*)|\bunsafe\b|transmute", program), "no casts"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: Any) -> Path:
    root = tmp_path_factory.mktemp("rust-docs")
    members = []
    for lib, registry in CRATES.items():
        crate = write_crate(registry_of(registry), root / lib)
        (crate / "examples" / "page.rs").write_text(programs()[lib], encoding="utf-8")
        members.append(f"{lib}/rust")
    (root / "Cargo.toml").write_text(f'[workspace]\nresolver = "2"\nmembers = {json.dumps(members)}\n', encoding="utf-8")
    return root


@needs_cargo
def test_the_page_compiles_under_clippy_and_runs_as_it_says(workspace: Path) -> None:
    ok(cargo(workspace, "clippy", "--workspace", "--examples", "--", "-D", "warnings", "-W", "clippy::pedantic"))
    service = ok(cargo(workspace, "run", "--quiet", "-p", "acme-errors", "--example", "page"))
    assert service.splitlines() == [
        '404 Some("application/problem+json")',
        '{"name":"Ada"} {"name":"Ada"}',
        'skip Some("contact_4172") ["contact_4127"]',
        "404 RESOURCE_NOT_FOUND (validation): the API's own error",
        "attempt 1: reset -> retry Some(500ms)",
        "attempt 2: 502 -> retry Some(1s)",
        "fine after 1.5s",
    ]
    real = ok(cargo(workspace, "run", "--quiet", "-p", "openai-errors", "--example", "page"))
    assert real.splitlines() == [
        'Some("rate_limit_exceeded") Some("req_5f1e0c") Some(1.5s)',
        'type "requests"',
        'pause Some(1.5s), request Some("req_5f1e0c")',
    ]
    # The page says what it prints: keep its prose in step with the run.
    text = DOCS.read_text(encoding="utf-8")
    for line in service.splitlines() + real.splitlines():
        assert f"`{line}`" in text.replace("\n", " "), line
