"""What a newcomer trips over (issue #29 item 9): --help names every SDK, validate counts payloads
as people do and says what a contradicted field sent, an MCP response in its JSON-RPC message is
read as the result it carries, and completion offers target names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, ROOT, run_errgen

CORPUS = FIXTURES / "validate"


def test_help_names_all_five_sdks() -> None:
    done = run_errgen("--help")
    flat = " ".join(done.stdout.split())
    assert all(sdk in flat for sdk in ("Python", "TypeScript", "Go", "Rust", "Java")), flat


def test_validate_counts_payloads_from_one(tmp_path: Path) -> None:
    good = json.loads((CORPUS / "retryable-mismatch.json").read_text(encoding="utf-8"))
    (tmp_path / "two.json").write_text(json.dumps([dict(good, retryable=False), good], indent=2), encoding="utf-8")
    for fmt, want in (("text", "payload 2: "), ("github", "::payload 2: ")):
        done = run_errgen("validate", "--format", fmt, str(tmp_path / "two.json"))
        assert done.returncode == 1 and want in done.stdout, done.stdout
        assert "payload 0" not in done.stdout and "payload 1:" not in done.stdout


def test_a_contradicted_retryable_says_what_was_sent_and_what_the_registry_says() -> None:
    done = run_errgen("validate", str(CORPUS / "retryable-mismatch.json"))
    assert "AUTH_EXPIRED: the payload sent retryable true, but the registry says retryable false" in done.stdout, done.stdout


def test_an_mcp_response_in_its_json_rpc_message_is_unwrapped(tmp_path: Path) -> None:
    result = json.loads((CORPUS / "form-mcp.json").read_text(encoding="utf-8"))
    bare = run_errgen("validate", "--format", "json", "-", input=json.dumps(result))
    wrapped = run_errgen("validate", "--format", "json", "-", input=json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}))
    assert [f["rule"] for f in json.loads(bare.stdout)] == ["category-mismatch"]  # the fixture's one finding
    assert json.loads(wrapped.stdout) == json.loads(bare.stdout) and wrapped.returncode == bare.returncode, wrapped.stdout


def test_completion_offers_target_names() -> None:
    def complete(line: str) -> list[str]:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COMP_WORDS": line, "COMP_CWORD": str(len(line.split()) - (0 if line.endswith(" ") else 1)),
               "_ERRGEN_COMPLETE": "bash_complete"}
        done = subprocess.run([sys.executable, "-m", "errgen"], env=env, capture_output=True, text=True, check=True)
        return [item.split(",", 1)[1] for item in done.stdout.split()]

    assert complete("errgen build --target ") == ["conformance", "docs", "go", "java", "python", "recovery", "rust", "schema", "site", "typescript"]
    assert complete("errgen build --target py") == ["python"]
    assert complete("errgen conformance --target ") == ["go", "java", "python", "rust", "typescript"]
