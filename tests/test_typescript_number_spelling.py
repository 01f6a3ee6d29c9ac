"""A JavaScript number cannot tell `2.0` from `2`, so the TypeScript runner's emit lines printed a
`searched` number as JavaScript spells it (`2`, `0`, `1000`) where the Python SDK, the reference,
prints what it read (`2.0`, `-0.0`, `1000.0`). The TypeScript SDK's JSON reader now keeps the
spelling of such numbers beside the document (the values stay plain numbers), and the runner
prints them as Python does: emit lines are byte-identical for every spelling, whether the payload
comes from the vectors file, an HTTP body or an MCP result's text. And the reader that keeps
spellings reads exactly what JSON.parse reads, a lone surrogate read as U+FFFD."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import REGISTRY, ROOT, build_to

SPELLINGS = ["2.0", "-0.0", "-0", "0", "1E3", "1e16", "1e15", "1e-5", "0.0001", "1.5e300", "5e-324", "100000.0", "2.5",
             "9007199254740993", "123456789012345678901234567890", "-1e-7", "1.0e+2", "12345678901234567890.5", "1e22"]


def _payload(spelling: str) -> str:
    return ('{"code":"RESOURCE_NOT_FOUND","category":"validation","retryable":false,"scope":"resource","resource_id":"r",'
            f'"correlation_id":"c","searched":{{"a":{spelling},"b":"x","c":{spelling}}}}}')


def _vectors() -> str:
    lines = []
    for i, spelling in enumerate(SPELLINGS):
        payload = _payload(spelling)
        lines.append(f'{{"name":"payload-{i}","input":{{"payload":{payload}}}}}')
        lines.append(json.dumps({"name": f"http-{i}", "input": {"http": {"status": 404, "headers": [], "body": payload}}}))
        lines.append(json.dumps({"name": f"mcp-{i}", "input": {"mcp": {"content": [{"type": "text", "text": payload}]}}}))
    # A repeated member: the last value and its spelling win, in every reader.
    lines.append('{"name":"repeated","input":{"payload":' + _payload("2.0")[:-2] + ',"a":3}}}}')
    return '{"vectors":[' + ",\n".join(lines) + "]}"


def _emit(out: Path, target: str, vectors: Path) -> bytes:
    done = subprocess.run([sys.executable, "-m", "errgen", "conformance", "-q", "--out", str(out), "--target", target,
                           "--emit", str(vectors)], capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_searched_numbers_print_as_python_prints_them(tmp_path: Path) -> None:
    build_to(REGISTRY, tmp_path / "out", "python", "typescript", "conformance")
    vectors = tmp_path / "spellings.json"
    vectors.write_text(_vectors(), encoding="utf-8")
    python, typescript = _emit(tmp_path / "out", "python", vectors), _emit(tmp_path / "out", "typescript", vectors)
    lines = python.decode("utf-8").splitlines()
    assert len(lines) == 3 * len(SPELLINGS) + 1
    decided = [json.loads(line)["decision"] for line in lines]
    assert all(d["reason"] == "registry" and d["searched"]["b"] == "x" for d in decided), decided[:2]
    assert '"searched":{"a":2.0,"b":"x","c":2.0}' in lines[0]  # the reference keeps the float
    assert typescript == python


# The same texts through JSON.parse and through the SDK's reader; every value compared in full
# (a number by its exact value, -0 by sign) along with whether it read at all.
DIFFERENTIAL = r'''
const { readJson } = require(process.argv[2]);
const texts = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
const show = (v) => JSON.stringify(v, (k, x) => typeof x === "number" ? (Object.is(x, -0) ? "-0" : "n" + String(x)) : x);
// A lone surrogate reads as U+FFFD in every SDK (docs/conformance.md), in keys and values alike.
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const mend = (v) => typeof v === "string" ? v.replace(LONE, "\ufffd")
  : Array.isArray(v) ? v.map(mend)
  : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [mend(k), mend(x)])) : v;
const differing = [];
for (const text of texts) {
  let expected;
  try { expected = [true, show(mend(JSON.parse(text)))]; } catch { expected = [false, null]; }
  const [ok, value] = readJson(text);
  const got = [ok, ok ? show(value) : null];
  if (got[0] !== expected[0] || got[1] !== expected[1]) differing.push([text, expected, got]);
  if (ok && text.includes("__proto__") && Object.getPrototypeOf(value) !== Object.prototype) differing.push([text, "prototype"]);
}
process.stdout.write(JSON.stringify(differing));
'''

TEXTS = ['{"a":2.0}', ' [1.5 , -0, 2e3 ] ', '{"a":1.0,"a":2}', '{"__proto__":{"x":1.5}}', '{"a":"\\u00e9\\ud800\\"",'
         '"b":[1.0,{}]}', '1.0', '"x"', '[1.0,]', '{"a":1.0,}', '{"a" 1.0}', '[01.0]', '[1.]', '[.5]', '[1e]', '[-]',
         '[1.0 2]', '{"a":1.0}x', '"\u0001"', '"\\x"', '["a\\"]', '[tru, 1.0]', '[true,false,null,1.0]', '\ufeff[1.0]',
         '[1.0]\u00a0', '\t\r\n{ "k" : [ 2.0 ] }\n', '{}', '[]', '[1.0', '{"a":[1.0}', '[1e400]', '["\\u12"]', '',
         '{"a":-0.0,"b":{"c":[[-1E-2]]}}', '"a\\/b"', '[1.0,"' + "\\\\" * 3 + '"]']


def test_the_spelling_reader_reads_what_json_parse_reads(tmp_path: Path) -> None:
    build_to(REGISTRY, tmp_path / "out", "typescript")
    (tmp_path / "texts.json").write_text(json.dumps(TEXTS), encoding="utf-8")
    (tmp_path / "differential.js").write_text(DIFFERENTIAL, encoding="utf-8")
    wire = tmp_path / "out" / "typescript" / "dist" / "cjs" / "wire.js"
    done = subprocess.run(["node", str(tmp_path / "differential.js"), str(wire), str(tmp_path / "texts.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
