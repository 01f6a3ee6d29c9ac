"""Issue 25 item 2 in the TypeScript SDK: `toHttp` writes the API's own shape byte for byte as the
Python SDK (the reference, tests/test_api_shape.py) does: for every code of every examples/apis
registry, the status, the headers in their order and the body of
to_http(new_error(code, "req-7", message=<hostile text>, resource_id="res/1")), plain and as
problem+json, and of a payload with no code at all (only the facts and `error_when` are written)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from errgen.contract import view
from errgen.registry.lint import lint_path

APIS = sorted((ROOT / "examples" / "apis").glob("*.yaml"))
# Quotes, XML's specials, a tab, a control character and a CDATA end: what each writer must escape alike.
HOSTILE = 'Quota <exceeded> & "more"\t\x01 ]]>'

PYTHON = r'''
import importlib, json, sys
case = json.loads(sys.argv[2])
m = importlib.import_module(sys.argv[1])
w = case["w"]

def shown(http):
    return [http.status, [list(h) for h in http.headers.items()], http.body]

rows = []
for code in case["codes"]:
    sent = m.new_error(code, "req-7", message=case["hostile"], resource_id="res/1")
    rows += [shown(m.to_http(sent)), shown(m.to_http(sent, problem=True))]
rows.append(shown(m.to_http({w["message"]: case["hostile"], w["correlation_id"]: "req-7"})))
print(json.dumps(rows))
'''

# One node process for every registry: the runtime ships compiled (dist/cjs), so no tsc run at all.
NODE = r'''
const cases = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const out = {};
const shown = (http) => [http.status, Object.entries(http.headers), http.body];
for (const [api, c] of Object.entries(cases)) {
  const m = require(c.dir + "/dist/cjs/index.js");
  const w = c.w;
  const rows = [];
  for (const code of c.codes) {
    const sent = m.newError(code, "req-7", { [w.message]: c.hostile, [w.resource_id]: "res/1" });
    rows.push(shown(m.toHttp(sent)), shown(m.toHttp(sent, true)));
  }
  rows.push(shown(m.toHttp({ [w.message]: c.hostile, [w.correlation_id]: "req-7" })));
  out[api] = rows;
}
process.stdout.write(JSON.stringify(out));
'''


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[list[Any], list[Any]]]:
    """api -> (Python's responses, TypeScript's responses)."""
    from errgen.emit.build import build

    root = tmp_path_factory.mktemp("ts-shape")
    cases: dict[str, dict[str, Any]] = {}
    python: dict[str, list[Any]] = {}
    for path in APIS:
        registry = lint_path(path).registry
        assert registry is not None
        build(registry, root / path.stem, ["python", "typescript"])
        contract = view(registry)
        case = {"dir": str(root / path.stem / "typescript"), "codes": list(contract.code_names), "hostile": HOSTILE,
                "w": {f.name: f.wire for f in contract.fields}}
        cases[path.stem] = case
        [package] = [p for p in (root / path.stem / "python").iterdir() if p.is_dir()]
        done = subprocess.run([sys.executable, "-c", PYTHON, package.name, json.dumps(case)], capture_output=True, text=True,
                              timeout=300, env={"PYTHONPATH": str(root / path.stem / "python")})
        assert done.returncode == 0, done.stderr
        python[path.stem] = json.loads(done.stdout)
    (root / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    (root / "probe.js").write_text(NODE, encoding="utf-8")
    done = subprocess.run(["node", str(root / "probe.js"), str(root / "cases.json")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    typescript = json.loads(done.stdout)
    return {api: (python[api], typescript[api]) for api in cases}


@pytest.mark.parametrize("api", [p.stem for p in APIS])
def test_typescript_writes_what_python_writes(both: dict[str, tuple[list[Any], list[Any]]], api: str) -> None:
    python, typescript = both[api]
    assert len(typescript) == len(python) > 1
    for mine, reference in zip(typescript, python):
        assert mine == reference, (api, reference[2])


def test_an_xml_api_without_a_code_still_gets_its_request_id_and_message(both: dict[str, Any]) -> None:
    """The last row of S3: no code, so only the message and request id are written (TypeScript
    used to send such a payload as errgen's JSON object under an XML content type)."""
    status, headers, body = both["s3"][1][-1]
    assert (status, dict(headers)["Content-Type"]) == (500, "application/xml")
    assert body == ('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Message>Quota &lt;exceeded&gt; &amp; "more"&#9;&#1; ]]&gt;'
                    "</Message><RequestId>req-7</RequestId></Error>")
