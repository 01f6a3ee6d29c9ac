"""docs/sdk-typescript.md runs as written (issue 26, Done when): its `ts` blocks, in order, are one
module that a consumer compiles against the generated package installed from its folder, with tsc
--strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes and no casts or `any`; its `js`
block serves the page's handler on loopback with Node's http module and runs both clients against
it (a 429 with Retry-After, decided, waited, retried)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from conftest import REGISTRY, ROOT, build_to

DOCS = ROOT / "docs" / "sdk-typescript.md"
NPM = ["npm", "--offline", "--no-audit", "--no-fund", "--loglevel=error"]


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", DOCS.read_text(encoding="utf-8"), re.S | re.M)


def test_the_docs_page_compiles_strictly_and_runs_against_a_loopback_server(node_bin: Path, tmp_path: Path) -> None:
    program = "\n".join(blocks("ts"))
    assert "throw new ErrorPayloadError" in program and "toHttp()" in program and "retry(" in program
    assert "readResponse(" in program and "decide(" in program and "toMcpResult(" in program
    # Issue 40: the error hierarchy, the hooks and the client helpers, compiled with the rest.
    assert "instanceof RateLimitError" in program and "instanceof UnknownCode" in program and "error.headers[" in program
    assert "failureOf(" in program and "decideFailure(" in program and "decideResponse(" in program
    assert "onAttempt:" in program and "logger:" in program and "span," in program and "fromAxios(" in program
    # No casts, no any, no silenced errors, no non-null assertions.
    assert not re.search(r"\bas\s+(?!const\b)[A-Za-z{(\[]|\bany\b|@ts-|<[A-Za-z]+>\s*\w|\w!\.", program), program
    build_to(REGISTRY, tmp_path / "out", "typescript")
    consumer = tmp_path / "consumer"
    consumer.mkdir()
    (consumer / "package.json").write_text(json.dumps({"name": "consumer", "version": "1.0.0", "private": True, "type": "module"}))
    installed = subprocess.run([*NPM, "install", str(tmp_path / "out" / "typescript")], cwd=consumer, capture_output=True,
                               text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    (consumer / "invoices.ts").write_text(program, encoding="utf-8")
    (consumer / "serve.mjs").write_text(blocks("js")[0], encoding="utf-8")
    (consumer / "tsconfig.json").write_text(json.dumps({"compilerOptions": {
        "strict": True, "noUncheckedIndexedAccess": True, "exactOptionalPropertyTypes": True, "module": "nodenext",
        "moduleResolution": "nodenext", "target": "ES2022", "lib": ["ES2022", "DOM"], "types": [], "outDir": "."},
        "files": ["invoices.ts"]}))
    typed = subprocess.run([str(node_bin / "tsc"), "-p", str(consumer)], capture_output=True, text=True, timeout=300)
    assert typed.returncode == 0, typed.stdout
    run = subprocess.run(["node", "serve.mjs"], cwd=consumer, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    printed = DOCS.read_text(encoding="utf-8").split("It prints:\n\n```\n", 1)[1].split("```", 1)[0]
    assert run.stdout == printed
