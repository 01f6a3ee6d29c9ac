"""Jitter spreads a backoff; it never decides whether to escalate. The bound (max_delay_ms) is on
the delay the rule asks for, then full jitter draws below it, in every SDK that jitters
(issue 27: Python and TypeScript used to jitter first, so the same input escalated at random)."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import GENERATED

# An unknown retryable code: no registry delay, so attempt 4 asks for the 4,000 ms backoff.
UNKNOWN = {"code": "NOT_YET_KNOWN", "category": "transient", "retryable": True, "scope": "request",
           "correlation_id": "c-1", "message": "m"}
DRAWS = 300

PYTHON = """
import json, sys
import acme_errors as sdk
payload = json.loads(sys.argv[1])
over = {sdk.decide(payload, 4, 10, 1000, jitter=True).action.value for _ in range(%d)}
under = [sdk.decide(payload, 4, 10, 60000, jitter=True) for _ in range(%d)]
print(json.dumps({"over": sorted(over), "under": sorted({d.action.value for d in under}),
                  "delays": [d.delay_ms for d in under]}))
""" % (DRAWS, DRAWS)

NODE = """
const sdk = require(process.argv[2]);
const payload = JSON.parse(process.argv[1]);
const over = new Set(), under = new Set(), delays = [];
for (let i = 0; i < %d; i++) over.add(sdk.decide(payload, {attempt: 4, maxAttempts: 10, maxDelayMs: 1000, jitter: true}).action);
for (let i = 0; i < %d; i++) {
  const d = sdk.decide(payload, {attempt: 4, maxAttempts: 10, maxDelayMs: 60000, jitter: true});
  under.add(d.action); delays.push(d.delayMs);
}
console.log(JSON.stringify({over: [...over].sort(), under: [...under].sort(), delays}));
""" % (DRAWS, DRAWS)


def _check(got: dict[str, list]) -> None:
    assert got["over"] == ["escalate"]  # every draw: the asked 4,000 ms exceeds the 1,000 ms bound
    assert got["under"] == ["retry"]
    assert all(0 <= d < 4000 for d in got["delays"]) and len(set(got["delays"])) > 1  # drawn below the backoff


def test_python_bounds_the_asked_delay_then_jitters() -> None:
    done = subprocess.run([sys.executable, "-c", PYTHON, json.dumps(UNKNOWN)], cwd=GENERATED / "python",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    _check(json.loads(done.stdout))


def test_typescript_bounds_the_asked_delay_then_jitters() -> None:
    done = subprocess.run(["node", "-e", NODE, json.dumps(UNKNOWN), str(GENERATED / "typescript" / "dist" / "cjs" / "index.js")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    _check(json.loads(done.stdout))
