"""Hostile flat-XML bodies beside a benign body of the same size, read by the TypeScript SDK
(issue 38 item 8): 1 MiB each, read with `readHttp` of the SDK built from
examples/apis/azure-storage.yaml (format: xml).

  benign    JSON with one long string
  distinct  115,965 distinct empty children of <Error> (<a0/><a1/>...)
  entities  209,703 `&amp;` entities in one <Message>
  empty     262,140 empty <a/> elements (one key)
  deep      149,781 <p></p> elements at depth 16

Timed in one node process: a warm-up read of each body, then each body's best of seven reads, the
bodies taking turns so a changing load falls on all alike. The figures were 20-65x the benign body
before the reader was made linear (a sticky regular expression made a match array per token, each
entity was sliced and looked up, the children went through a Map copied at the end); after, within
about 10x. This is a measurement, not a test: tests/test_ts_xml_speed.py checks only what these
bodies read to, which does not depend on the machine's load.

    python -m bench.xml_bench [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

from bench.common import ROOT, table

AZURE = ROOT / "examples" / "apis" / "azure-storage.yaml"

# The bodies, shared with tests/test_ts_xml_speed.py (which reads them once, untimed).
BODIES = """
const M = 1 << 20;
const fill = (head, unit, tail = "") => head + unit.repeat(Math.floor((M - head.length - tail.length) / unit.length)) + tail;
const distinct = () => { const parts = ["<Error>"]; let size = 7; for (let i = 0; size < M - 30; i++) { const e = `<a${i}/>`; parts.push(e); size += e.length; } parts.push("</Error>"); return parts.join(""); };
const bodies = {
  benign: JSON.stringify({ Code: "ServerBusy", Message: "x".repeat(M - 40) }),
  distinct: distinct(),
  entities: fill("<Error><Code>ServerBusy</Code><Message>", "&amp;", "</Message></Error>"),
  empty: fill("<Error>", "<a/>", "</Error>"),
  deep: fill("<a><b><c><d><e><f><g><h><i><j><k><l><m><n><o>", "<p></p>", "</o></n></m></l></k></j></i></h></g></f></e></d></c></b></a>"),
};
"""

TIMING = """
const sdk = require("./out/typescript/dist/cjs/index.js");
const rounds = Number(process.argv[1]);
for (const body of Object.values(bodies)) sdk.readHttp(503, {}, body, 0);
const best = {};
for (let round = 0; round < rounds; round++) {
  for (const [name, body] of Object.entries(bodies)) {
    const start = process.hrtime.bigint();
    sdk.readHttp(503, {}, body, 0);
    best[name] = Math.min(best[name] ?? Infinity, Number(process.hrtime.bigint() - start) / 1e6);
  }
}
console.log(JSON.stringify({ best, bytes: Object.fromEntries(Object.entries(bodies).map(([n, b]) => [n, b.length])) }));
"""


def build(where: Path) -> None:
    from errgen.emit.build import build as build_registry
    from errgen.registry.lint import lint_path

    linted = lint_path(AZURE)
    if not linted.ok:
        raise SystemExit("\n".join(d.text() for d in linted.diagnostics))
    build_registry(linted.registry, where / "out", ("typescript",))


def measure(where: Path, rounds: int) -> dict[str, dict[str, float]]:
    done = subprocess.run(["node", "-e", BODIES + TIMING, str(rounds)], cwd=where, capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"node failed: {done.stderr.strip()}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="timed reads of each body (best kept)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        build(where)
        figures = measure(where, max(1, args.rounds))
    best, size = figures["best"], figures["bytes"]
    rows = [[name, size[name], ms, ms / best["benign"]] for name, ms in best.items()]
    print(table(["body", "chars", "best ms", "x benign"], rows))


if __name__ == "__main__":
    main()
