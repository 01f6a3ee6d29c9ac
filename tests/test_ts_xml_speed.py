"""Issue 38 item 8 for TypeScript: a hostile 1 MiB XML body (120,000 distinct children, 200,000
entities, 260,000 empty elements, 150,000 elements at depth 16) is read within 10x a benign 1 MiB
body (JSON with one long string). It was 20-65x: a sticky regular expression made a match array per
token, each entity was sliced and looked up, and the children went through a Map copied at the end.
Timed in one node process, each body's best of seven reads after a warm-up, the bodies taking
turns; the machine is shared, so a ratio past the bound is measured again (three tries) before the
test fails."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import ROOT, build_to

AZURE = ROOT / "examples" / "apis" / "azure-storage.yaml"  # format: xml

SCRIPT = """
const sdk = require("./out/typescript/dist/cjs/index.js");
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
for (const body of Object.values(bodies)) sdk.readHttp(503, {}, body, 0);
const best = {};
for (let round = 0; round < 7; round++) {
  for (const [name, body] of Object.entries(bodies)) {
    const start = process.hrtime.bigint();
    sdk.readHttp(503, {}, body, 0);
    best[name] = Math.min(best[name] ?? Infinity, Number(process.hrtime.bigint() - start) / 1e6);
  }
}
console.log(JSON.stringify(best));
"""


def timings(where: Path) -> dict[str, float]:
    done = subprocess.run(["node", "-e", SCRIPT], cwd=where, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_hostile_xml_bodies_are_read_within_10x_a_benign_body(tmp_path: Path) -> None:
    build_to(AZURE, tmp_path / "out", "typescript")
    for _ in range(3):
        best = timings(tmp_path)
        ratios = {name: ms / best["benign"] for name, ms in best.items() if name != "benign"}
        if max(ratios.values()) <= 10:
            return
    raise AssertionError(f"a hostile body past 10x the benign one: {best} ms, ratios {ratios}")
