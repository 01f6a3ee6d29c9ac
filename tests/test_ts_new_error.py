"""Issue 26 (TypeScript: "newError is untyped"): newError's fields are typed per code (its scopes,
its hints, a delay only when it is retryable) and it returns that code's payload variant, so what
the contract would reject at run time is a compile error, and the result narrows without a check."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import REGISTRY, build_to, tsc

CONSUMER = """
import { newError, type Code, type ErrorPayload } from "./sdk/src/index";

const limited = newError("RATE_LIMITED", "c", { retry_after_ms: 1000, message: "Slow down", scope: "request" });
const retryable: true = limited.retryable;  // the variant of RATE_LIMITED, not the whole union
const missing = newError("RESOURCE_NOT_FOUND", "c", { did_you_mean: ["r-2"], scope: "resource", resource_id: "r-1", state: "unchanged" });
declare const anyCode: Code;
export const widened = (): ErrorPayload => newError(anyCode, "c");

export function typeErrors(): void {  // compiled, never run
  // @ts-expect-error AUTH_EXPIRED is not retryable: it names no delay
  newError("AUTH_EXPIRED", "c", { retry_after_ms: 5 });
  // @ts-expect-error did_you_mean is not one of AUTH_EXPIRED's hints
  newError("AUTH_EXPIRED", "c", { did_you_mean: ["x"] });
  // @ts-expect-error RATE_LIMITED is never resource-scoped
  newError("RATE_LIMITED", "c", { scope: "resource" });
  // @ts-expect-error category and retryable come from the registry
  newError("RATE_LIMITED", "c", { retryable: false });
}

declare const console: { log(text: string): void };
console.log(JSON.stringify([retryable, limited, missing.did_you_mean ?? null]));
"""


def test_new_error_fields_and_result_are_typed_per_code(node_bin: Path, tmp_path: Path) -> None:
    build_to(REGISTRY, tmp_path / "out", "typescript")
    sdk = tmp_path / "out" / "typescript"
    (tmp_path / "sdk").symlink_to(sdk)
    (tmp_path / "use.ts").write_text(CONSUMER)
    options = json.loads("\n".join((sdk / "tsconfig.json").read_text().splitlines()[1:]))["compilerOptions"]
    options.pop("rootDir")
    (tmp_path / "tsconfig.json").write_text(json.dumps({"compilerOptions": {**options, "outDir": "js", "declaration": False},
                                                        "files": ["use.ts"]}))
    done = tsc(node_bin, tmp_path, tmp_path / "js")
    assert done.returncode == 0, done.stdout
    run = subprocess.run(["node", str(tmp_path / "js" / "use.js")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    retryable, limited, hint = json.loads(run.stdout)
    assert retryable is True and hint == ["r-2"]
    assert limited == {"code": "RATE_LIMITED", "category": "rate_limit", "retryable": True, "scope": "request",
                       "correlation_id": "c", "retry_after_ms": 1000, "message": "Slow down"}
