"""The generated Python SDK reading hostile HTTP error responses beside clean ones of the same
size (read_http, in this process, best of 5): a body whose code is a number of 1,000,000 digits
must cost about what a body of the same bytes with a long message does (big-number parsing is
quadratic in the digits; the SDK never converts a number longer than MAX_NUMBER_CHARS), and a body
past MAX_BODY_BYTES (1 MiB of spaces before the JSON) must cost no more than reading a body just
under the limit (it is refused by its length, before it is decoded). tests/test_wire_reading.py
checks what is read; a clock there failed on a loaded machine.

Then the TypeScript SDK (its dist/cjs, as built) of examples/apis/stripe.yaml and s3.yaml (JSON
and XML) on TS_HOSTILE, the megabyte of hostile input per case that tests/test_api_catalog.py
checks is read to nothing it cannot hold: each case's milliseconds (best of 3 node runs) beside
the benign 1 MB JSON body (issue 24 item 9: each under 1 s).

Run: python -m bench.wire_bench [--no-typescript]   (target: each hostile body within 1.5x its clean one)
"""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from typing import Any

from bench.common import OUT, ROOT, table, time_call
from errgen.emit.build import build
from errgen.registry.lint import lint_path

REGISTRY = ROOT / "tests" / "fixtures" / "wire" / "real-api.yaml"
DIGITS = 1_000_000
# Shared with tests/test_api_catalog.py, which runs it once and checks what each case reads to.
TS_HOSTILE = """
const m = require(process.argv[1]);
const MB = 1 << 20;
const many = Array.from({ length: 200000 }, (_, i) => ["x-h" + i, "v"]);
const cases = {
  benign: [500, [], JSON.stringify({ error: { code: "x", message: "x".repeat(MB - 60) } })],
  deepArrays: [200, [], "[".repeat(MB - 10)],
  deepObjects: [200, [], '{"a":'.repeat(200000)],
  bigNumberCode: [400, [], '{"error":{"code":' + "1".repeat(MB - 100) + "}}"],
  bigNumberDelay: [429, [], '{"error":{"retry_after_ms":' + "9".repeat(MB - 100) + "}}"],
  digits: [500, [], "7".repeat(MB - 1)],
  digitString: [500, [], '"' + "7".repeat(MB - 3) + '"'],
  manyHeaders: [429, many.concat([["retry-after", "5"]]), "{}"],
  manyHeadersIterable: [429, new Map(many.concat([["retry-after", "5"]])), "{}"],
  longHeader: [429, [["retry-after", "1".repeat(MB)]], "{}"],
  overLimit: [500, [], " ".repeat(MB) + "{}"],
  overLimitBytes: [500, [], new Uint8Array(MB + 1).fill(0x20)],
  notUtf8: [500, [], new Uint8Array(MB).fill(0xff)],
  escapes: [500, [], '["' + '\\\\"'.repeat(300000) + '"]'],
  deepXml: [500, [], "<a>".repeat(300000)],
  xmlEntities: [500, [], "<Error><Code>" + "&amp;".repeat(200000) + "</Code></Error>"],
  xmlComment: [500, [], "<a><!--" + "-".repeat(MB - 20)],
  xmlPis: [500, [], "<?".repeat(500000)],
  xmlAttributes: [500, [], "<a" + ' b="c"'.repeat(170000)],
  xmlSpaces: [500, [], "<a" + " ".repeat(MB - 10)],
};
const out = {};
for (const [name, [status, headers, body]] of Object.entries(cases)) {
  const start = process.hrtime.bigint();
  try {
    const r = m.readHttp(status, headers, body, 0);
    const d = m.decide(r.payload, { attempt: 1 });
    out[name] = { ms: Number(process.hrtime.bigint() - start) / 1e6, code: r.code === null ? null : r.code.length,
                  delayMs: r.delayMs, action: d.action };
  } catch (e) {
    out[name] = { threw: String(e) };
  }
}
console.log(JSON.stringify(out));
"""

STRIPE_DECLINED = json.dumps({"error": {"code": "card_declined", "message": "Your card was declined.", "type": "card_error"}})


def sdk() -> Any:
    out = OUT / "wire"
    shutil.rmtree(out, ignore_errors=True)
    build(lint_path(REGISTRY).registry, out, ["python"])
    sys.path.insert(0, str(out / "python"))
    return importlib.import_module("realapi_errors")


def cases(limit: int) -> list[tuple[str, tuple[int, dict[str, str], str], tuple[int, dict[str, str], str]]]:
    """(label, hostile read_http arguments, clean arguments of about the same size)."""
    number = '{"error": {"code": ' + "9" * DIGITS + "}}"
    message = '{"error": {"code": "card_declined", "message": "' + "x" * (DIGITS - 32) + '"}}'
    header = {"x-ms-error-code": "card_declined"}
    over = " " * (1 << 20) + STRIPE_DECLINED
    under = STRIPE_DECLINED.replace("Your card was declined.", "x" * (limit - len(STRIPE_DECLINED) - 8))
    return [
        (f"code: a number of {DIGITS:,} digits", (400, {}, number), (400, {}, message)),
        ("body: 1 MiB of spaces, past the limit", (402, header, over), (402, header, under)),
    ]


def typescript(rounds: int = 3) -> None:
    """TS_HOSTILE through each API's built TypeScript SDK, best of `rounds` node runs per case."""
    from errgen.emit.build import build as build_registry

    rows = []
    for api in ("stripe", "s3"):
        out = OUT / "wire-ts" / api
        shutil.rmtree(out, ignore_errors=True)
        build_registry(lint_path(ROOT / "examples" / "apis" / f"{api}.yaml").registry, out, ["typescript"])
        best: dict[str, float] = {}
        for _ in range(rounds):
            done = subprocess.run(["node", "-e", TS_HOSTILE, str(out / "typescript" / "dist" / "cjs" / "index.js")],
                                  capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                raise SystemExit(f"node failed: {done.stderr.strip()[-2000:]}")
            for name, got in json.loads(done.stdout).items():
                best[name] = min(best.get(name, float("inf")), got.get("ms", float("nan")))
        rows += [[api, name, f"{ms:.1f}", f"{ms / best['benign']:.1f}x", "< 1000 ms"] for name, ms in best.items()]
    print(table(["api", "case", "best ms", "x benign", "target"], rows), flush=True)


def main() -> None:
    module = sdk()
    limit = importlib.import_module("realapi_errors._contract").MAX_BODY_BYTES
    rows = []
    for label, hostile, clean in cases(limit):
        bad = time_call(lambda: module.read_http(*hostile))
        good = time_call(lambda: module.read_http(*clean))
        rows.append([label, f"{bad:.4f}", f"{good:.4f}", f"{bad / good:.2f}x", "<= 1.5x"])
    print(table(["case", "hostile s", "clean s", "ratio", "target"], rows), flush=True)
    if "--no-typescript" not in sys.argv[1:]:
        typescript()


if __name__ == "__main__":
    main()
