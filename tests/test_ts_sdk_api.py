"""Issue 26 for TypeScript: the typed payload is accepted everywhere (newError returns it; toHttp,
toMcpResult and decide take it), decide takes an options object, an Error subclass carries the
payload, and fromHttp reads fetch's Headers. Checked by tsc --strict on a consumer written without
casts, then run under node."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import REGISTRY, build_to, tsc

CONSUMER = """
import {
  decide, ErrorPayloadError, fromHttp, newError, toHttp, toMcpResult, type Code, type Decision, type ErrorPayload,
} from "./sdk/src/index";

const payload: ErrorPayload = newError("RATE_LIMITED", "c-1");
const http = toHttp(payload);
const mcp = toMcpResult(payload);
const first: Decision = decide(payload, { attempt: 1 });
const last: Decision = decide(payload, { attempt: 3, maxAttempts: 3 });
export function typeErrors(): void {  // compiled, never run
  // @ts-expect-error a code the registry does not have
  newError("RATE_LIMITD", "c-1");
  // @ts-expect-error no positional attempt any more: an options object
  decide(payload, 2);
}

let caught: ErrorPayloadError | null = null;
try {
  throw new ErrorPayloadError(payload);
} catch (error) {
  if (error instanceof ErrorPayloadError && error.isKnown()) {
    const code: Code = error.code;
    void code;
    caught = error;
  }
}
declare const process: { stdout: { write(text: string): boolean } };
declare class Headers { constructor(init: Record<string, string>); }
const read = fromHttp(429, new Headers({ "Retry-After": "7" }) as unknown as Iterable<[string, string]>,
  '{"code":"RATE_LIMITED","category":"rate_limit","retryable":true,"scope":"service","correlation_id":"c"}', 0);
process.stdout.write(JSON.stringify({
  status: http.status, retryAfter: http.headers["Retry-After"], mcp: mcp.isError, first: [first.action, first.delayMs],
  last: last.action, caught: caught === null ? null : [caught.name, caught.code, caught.retryable, caught.correlationId,
  caught.message, caught instanceof Error, caught.decide().action, caught.toHttp().status, caught.toMcpResult().isError],
  fromFetchHeaders: read, thrown: ErrorPayloadError.fromHttp(503, {}, http.body, 0)?.code ?? null,
}));
"""


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default registry's package, built once for this file's consumers."""
    out = tmp_path_factory.mktemp("out")
    build_to(REGISTRY, out, "typescript")
    return out / "typescript"


def test_a_strict_consumer_uses_the_typed_payload_the_error_class_and_decide_options(node_bin: Path, sdk: Path, tmp_path: Path) -> None:
    (tmp_path / "sdk").symlink_to(sdk)
    (tmp_path / "use.ts").write_text(CONSUMER)
    options = json.loads("\n".join((tmp_path / "sdk" / "tsconfig.json").read_text().splitlines()[1:]))["compilerOptions"]
    options.pop("rootDir")
    (tmp_path / "tsconfig.json").write_text(json.dumps({"compilerOptions": {**options, "outDir": "js", "declaration": False},
                                                        "files": ["use.ts"]}))
    done = tsc(node_bin, tmp_path, tmp_path / "js")
    assert done.returncode == 0, done.stdout
    run = subprocess.run(["node", str(tmp_path / "js" / "use.js")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["status"] == 429 and got["retryAfter"] == "2" and got["mcp"] is True
    assert got["first"] == ["pause", 2000] and got["last"] == "stop"
    assert got["caught"] == ["ErrorPayloadError", "RATE_LIMITED", True, "c-1", "RATE_LIMITED", True, "pause", 429, True]
    assert got["fromFetchHeaders"]["retry_after_ms"] == 7000
    assert got["thrown"] == "RATE_LIMITED"


FETCH_CONSUMER = """
import { ErrorPayloadError, fromHttp, readResponse } from "./sdk/src/index";

declare const console: { log(text: string): void };

async function main(): Promise<void> {
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({ pull(c) { pulled++; c.enqueue(new Uint8Array(65536).fill(32)); } });
  const big = await readResponse(new Response(endless, { status: 503 }), 0);
  const body = '{"code":"RATE_LIMITED","category":"rate_limit","retryable":true,"scope":"service","correlation_id":"c"}';
  const response = new Response(body, { status: 429, headers: { "Retry-After": "7" } });
  const raw = fromHttp(response.status, response.headers, body, 0);  // the DOM's Headers, typed without DOM.Iterable
  const error = await ErrorPayloadError.fromResponse(new Response(body, { status: 429, headers: { "Retry-After": "7" } }), 0);
  console.log(JSON.stringify({ pulled, big: [big.error, typeof big.payload], raw, code: error?.code ?? null,
                               action: error?.decide().action ?? null, delay: error?.decide().delayMs ?? null }));
}
void main();
"""


def test_a_fetch_response_is_read_with_a_bounded_body_and_typed_dom_headers(node_bin: Path, sdk: Path, tmp_path: Path) -> None:
    """fetch's Response and Headers as the DOM lib types them (no DOM.Iterable) compile; Retry-After
    is read from them; an endless body stops being read past the size limit (unreadable)."""
    (tmp_path / "sdk").symlink_to(sdk)
    (tmp_path / "use.ts").write_text(FETCH_CONSUMER)
    options = json.loads("\n".join((tmp_path / "sdk" / "tsconfig.json").read_text().splitlines()[1:]))["compilerOptions"]
    options.pop("rootDir")
    (tmp_path / "tsconfig.json").write_text(json.dumps({"compilerOptions": {**options, "lib": ["ES2020", "DOM"], "outDir": "js",
                                                                            "declaration": False}, "files": ["use.ts"]}))
    done = tsc(node_bin, tmp_path, tmp_path / "js")
    assert done.returncode == 0, done.stdout
    run = subprocess.run(["node", str(tmp_path / "js" / "use.js")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["big"] == [True, "string"] and got["pulled"] < 40  # about 1 MB of 64 KiB chunks, then cancelled
    assert got["raw"]["retry_after_ms"] == 7000
    assert [got["code"], got["action"], got["delay"]] == ["RATE_LIMITED", "pause", 7000]
