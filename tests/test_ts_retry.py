"""Issue 26 items 2-3 for TypeScript: `Decision.code` is the `Code` union once `known` says the code
is the registry's (a misspelt code then fails to compile, a switch over it is checked for
exhaustiveness), and `retry(call, {maxAttempts, maxDelayMs, jitter, sleep, signal})` applies
`decide` and the registry's limits with a replaceable sleeper and an AbortSignal. Compiled by tsc
with the SDK's own strict options (fetch's DOM types for AbortController), then run under node."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import REGISTRY, build_to, tsc

TYPES = """
import { decide, isKnownCode, newError, type Code, type Decision } from "./sdk/src/index";

export function describe(d: Decision): string {
  // @ts-expect-error before `known` is tested, code may be a newer server's or null
  const unchecked: Code = d.code;
  void unchecked;
  if (!d.known) return d.code === null ? "no code" : `unknown ${d.code}`;
  // @ts-expect-error a misspelt code has no overlap with the Code union
  if (d.code === "RATE_LIMITD") return "typo";
  switch (d.code) {
    case "RATE_LIMITED": case "RESOURCE_NOT_FOUND": case "AUTH_EXPIRED": case "UPSTREAM_TIMEOUT":
    case "VALIDATION_FAILED": case "CONFLICT": case "TENANT_UNKNOWN": case "OPERATOR_NOT_ALLOWED":
    case "PAYMENT_TIMEOUT": case "REFUND_WINDOW_CLOSED": case "SERVICE_UNAVAILABLE": case "INTERNAL_ERROR":
      return `known ${d.code}`;
    default: {
      // Every code but ITEM_MISSING is handled above: the compiler says which one is left.
      const left: "ITEM_MISSING" = d.code;
      return `known ${left}`;
    }
  }
}

export function narrowed(text: string): Code | null {
  return isKnownCode(text) ? text : null;
}

export const described = [
  describe(decide(newError("RATE_LIMITED", "c"))),
  describe(decide({ code: "BRAND_NEW", category: "rate_limit", retryable: true, scope: "service", correlation_id: "c" })),
  describe(decide("not a payload")),
  describe(decide(newError("ITEM_MISSING", "c"))),
];
console.log(JSON.stringify(described));
"""

RETRY = """
import { ErrorPayloadError, newError, retry, type Decision, type Sleeper } from "./sdk/src/index";

const rateLimited = (): ErrorPayloadError => new ErrorPayloadError(newError("RATE_LIMITED", "req-1"));

async function outcome<T>(run: () => Promise<T>): Promise<unknown> {
  try {
    return { ok: await run() };
  } catch (error) {
    if (error instanceof ErrorPayloadError) return { rejected: error.code };
    return { rejected: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = {};
  const slept: number[] = [];
  const fake: Sleeper = async (ms) => { slept.push(ms); };

  // Two rate limits, then an answer: the registry's 2 s pause, twice.
  const seen: [number, string, string][] = [];
  out["succeeds"] = await outcome(() => retry(async (attempt) => {
    if (attempt < 3) throw rateLimited();
    return `answer on attempt ${attempt}`;
  }, { sleep: fake, onDecision: (d: Decision, attempt: number) => { seen.push([attempt, d.action, d.reason]); } }));
  out["succeedsSlept"] = slept.splice(0);
  out["seen"] = seen;

  // Always rate limited: the registry's attempt budget (DEFAULT_MAX_ATTEMPTS) ends it.
  let calls = 0;
  out["exhausted"] = await outcome(() => retry(() => { calls++; throw rateLimited(); }, { sleep: fake }));
  out["exhaustedCalls"] = calls;
  out["exhaustedSlept"] = slept.splice(0);
  calls = 0;
  out["maxAttempts"] = await outcome(() => retry(() => { calls++; throw rateLimited(); }, { sleep: fake, maxAttempts: 2 }));
  out["maxAttemptsCalls"] = calls;
  out["maxAttemptsSlept"] = slept.splice(0);

  // Not a timed action (escalate), a wait past maxDelayMs, a foreign error: rejected at once.
  calls = 0;
  out["escalates"] = await outcome(() => retry(() => { calls++; throw new ErrorPayloadError(newError("AUTH_EXPIRED", "c")); },
                                               { sleep: fake }));
  out["tooLong"] = await outcome(() => retry(() => { calls++; throw rateLimited(); }, { sleep: fake, maxDelayMs: 1999 }));
  out["foreign"] = await outcome(() => retry(() => { calls++; throw new TypeError("boom"); }, { sleep: fake }));
  out["rejectedAtOnce"] = [calls, slept.splice(0)];

  // A payload's own delay is waited as named; jitter spreads only a backoff.
  const named = new ErrorPayloadError(newError("PAYMENT_TIMEOUT", "c", { retry_after_ms: 7 }));
  await outcome(() => retry((attempt) => { if (attempt === 1) throw named; return 1; }, { sleep: fake, jitter: true }));
  out["namedWithJitter"] = slept.splice(0);

  // The default sleeper waits for real (a 40 ms delay named by the payload).
  const started = Date.now();
  const waited = new ErrorPayloadError(newError("PAYMENT_TIMEOUT", "c", { retry_after_ms: 40 }));
  out["realSleep"] = await outcome(() => retry((attempt) => { if (attempt === 1) throw waited; return "after"; }));
  out["realSleepMs"] = Date.now() - started;

  // Aborting during the registry's 2 s wait rejects at once with the signal's reason; an aborted
  // signal calls nothing. "At once" without a clock: a 2 s marker set before the wait begins
  // would fire before the wait could end, and node runs the rejection's promise callbacks before
  // the next timer, so the marker has not fired when the rejection arrives, however loaded.
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error("user gave up")), 30);
  let waitedOut = false;
  const marker = setTimeout(() => { waitedOut = true; }, 2000);
  calls = 0;
  out["aborted"] = await outcome(() => retry(() => { calls++; throw rateLimited(); }, { signal: controller.signal }));
  out["abortedBeforeTheWaitEnded"] = !waitedOut;
  clearTimeout(marker);
  out["abortedCalls"] = calls;
  out["alreadyAborted"] = await outcome(() => retry(() => { calls++; return 1; }, { signal: controller.signal }));
  out["alreadyAbortedCalls"] = calls;
  const plain = new AbortController();
  plain.abort();
  out["abortWithoutReason"] = await outcome(() => retry(() => 1, { signal: plain.signal }));
  // A replaced sleeper receives the signal too.
  const signals: boolean[] = [];
  await outcome(() => retry((attempt) => { if (attempt === 1) throw rateLimited(); return 1; },
                              { signal: new AbortController().signal, sleep: async (_ms, signal) => { signals.push(signal !== undefined); } }));
  out["sleeperGetsSignal"] = signals;
  console.log(JSON.stringify(out));
}

void main();
"""


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    build_to(REGISTRY, out, "typescript")
    return out / "typescript"


MISSPELT = ('import type { Decision } from "./sdk/src/index";\n'
            'export const f = (d: Decision): boolean => d.known && d.code === "RATE_LIMITD";\n')


@pytest.fixture(scope="module")
def compiled(node_bin: Path, sdk: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list[str]], Path]:
    """types.ts, retry.ts and misspelt.ts, each its own module, compiled by one tsc run with the
    SDK's own strict options (plus fetch's DOM types): the errors by file name (a file without
    errors is absent), and the folder of the JavaScript."""
    root = tmp_path_factory.mktemp("use")
    (root / "sdk").symlink_to(sdk)
    sources = {"types.ts": TYPES, "retry.ts": RETRY, "misspelt.ts": MISSPELT}
    for name, source in sources.items():
        (root / name).write_text(source)
    options = json.loads("\n".join((sdk / "tsconfig.json").read_text().splitlines()[1:]))["compilerOptions"]
    options.pop("rootDir")
    options.update({"lib": ["ES2020", "DOM"], "outDir": "js", "declaration": False})
    (root / "tsconfig.json").write_text(json.dumps({"compilerOptions": options, "files": list(sources)}))
    done = tsc(node_bin, root, root / "js")
    errors: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        if ": error TS" in line:
            errors.setdefault(Path(line.split("(", 1)[0]).name, []).append(line)
    assert (done.returncode == 0) == (errors == {}), done.stdout
    assert set(errors) <= {"misspelt.ts"}, done.stdout
    return errors, root / "js"


def run(compiled: tuple[dict[str, list[str]], Path], name: str) -> object:
    errors, js = compiled
    assert f"{name}.ts" not in errors, errors[f"{name}.ts"]
    done = subprocess.run(["node", str(js / f"{name}.js")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_decision_code_narrows_to_the_code_union_when_known(compiled: tuple[dict[str, list[str]], Path]) -> None:
    described = run(compiled, "types")
    assert described == ["known RATE_LIMITED", "unknown BRAND_NEW", "no code", "known ITEM_MISSING"]


def test_a_misspelt_code_in_a_switch_under_known_does_not_compile(compiled: tuple[dict[str, list[str]], Path]) -> None:
    """Without the discriminated Decision this compiles (code is a plain string): the typo goes unseen."""
    errors, _ = compiled
    assert any("TS2367" in line and '"RATE_LIMITD"' in line for line in errors.get("misspelt.ts", [])), errors


def test_retry_applies_decide_and_the_registry_limits(compiled: tuple[dict[str, list[str]], Path]) -> None:
    got = run(compiled, "retry")
    assert isinstance(got, dict)
    assert got["succeeds"] == {"ok": "answer on attempt 3"} and got["succeedsSlept"] == [2000, 2000]
    assert got["seen"] == [[1, "pause", "registry"], [2, "pause", "registry"]]
    # DEFAULT_MAX_ATTEMPTS is 5: five calls, four waits, then the error itself.
    assert got["exhausted"] == {"rejected": "RATE_LIMITED"} and got["exhaustedCalls"] == 5
    assert got["exhaustedSlept"] == [2000] * 4
    assert got["maxAttempts"] == {"rejected": "RATE_LIMITED"} and got["maxAttemptsCalls"] == 2 and got["maxAttemptsSlept"] == [2000]
    assert got["escalates"] == {"rejected": "AUTH_EXPIRED"} and got["tooLong"] == {"rejected": "RATE_LIMITED"}
    assert got["foreign"] == {"rejected": "TypeError: boom"} and got["rejectedAtOnce"] == [3, []]
    assert got["namedWithJitter"] == [7]
    # A lower bound only: load makes the wait longer, never shorter.
    assert got["realSleep"] == {"ok": "after"} and got["realSleepMs"] >= 39
    assert got["aborted"] == {"rejected": "Error: user gave up"} and got["abortedBeforeTheWaitEnded"] and got["abortedCalls"] == 1
    assert got["alreadyAborted"] == {"rejected": "Error: user gave up"} and got["alreadyAbortedCalls"] == 1
    assert got["abortWithoutReason"] == {"rejected": "AbortError: This operation was aborted"}
    assert got["sleeperGetsSignal"] == [True]
