"""Issue 25 item 2 in the Go SDK: `ToHTTP` writes the API's own shape byte for byte as the Python
SDK (the reference, tests/test_api_shape.py) does, for every code of every examples/apis registry:
the same status, the same headers, and the same body bytes (JSON keys in the same insertion order,
XML elements and escapes the same), plain and as problem+json.

Headers: a Go http.Header is a map with canonical names, and net/http writes it sorted by name,
so the order compared is that one: each SDK's (lower-case name, value) pairs sorted by name. The
Python headers must then hold each name once, case aside, or a Go map could not say the same.

One Go program over every registry's module (one `go build` in a Go workspace), and one Python
process over every registry's package."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import API_SAMPLE, toolchain
from errgen.registry.lint import lint_path

# A sample of examples/apis (conftest.API_SAMPLE): the writer is the same code for every registry.
APIS = list(API_SAMPLE)
GO = shutil.which("go")
needs_go = toolchain(GO is None, "needs the Go toolchain (go)")

# Quotes, <&>, a tab, U+0001 and "]]>": what a JSON writer and an XML writer each must escape.
MESSAGE = 'Quota <exceeded> & "more"\t\x01 ]]>'
CORRELATION_ID = "req-7"
RESOURCE_ID = "res/1"

PYTHON_PROBE = r'''
import base64, importlib, json, sys
packages = json.loads(sys.argv[1])
message, correlation, resource = json.loads(sys.argv[2])
found = {}
for stem, package in packages.items():
    m = importlib.import_module(package)
    out = found[stem] = {}
    for code in m.Code:
        try:
            sent = m.new_error(code, correlation, message=message, resource_id=resource)
        except m.PayloadError as e:
            out[code.value] = {"refused": True}
            continue
        out[code.value] = {kind: {"status": r.status, "headers": [[k, v] for k, v in r.headers.items()],
                                  "body": base64.b64encode(r.body.encode("utf-8")).decode("ascii")}
                           for kind, r in (("http", m.to_http(sent)), ("http_problem", m.to_http(sent, problem=True)))}
print(json.dumps(found))
'''

GO_PROBE = '''package main

import (
	"encoding/json"
	"net/http"
	"os"
	"sort"
	"strings"

%(imports)s
)

type written struct {
	Status  int         `json:"status"`
	Headers [][2]string `json:"headers"`
	Body    []byte      `json:"body"`
}

func response(status int, header http.Header, body []byte) written {
	names := make([]string, 0, len(header))
	for name := range header {
		names = append(names, name)
	}
	sort.Strings(names)
	w := written{Status: status, Headers: [][2]string{}, Body: body}
	for _, name := range names {
		for _, value := range header[name] {
			w.Headers = append(w.Headers, [2]string{strings.ToLower(name), value})
		}
	}
	return w
}

func main() {
	var given [3]string
	if err := json.Unmarshal([]byte(os.Args[1]), &given); err != nil {
		panic(err)
	}
	found := map[string]any{}
%(calls)s
	if err := json.NewEncoder(os.Stdout).Encode(found); err != nil {
		panic(err)
	}
}
'''
# Each registry's SDK as GO_PROBE's `sdk`: every code written plain and as problem+json.
GO_WRITE = '''
func write_%(alias)s(given [3]string) map[string]any {
	out := map[string]any{}
	for _, code := range %(alias)s.Codes() {
		p, err := %(alias)s.NewError(code, given[1], %(alias)s.WithMessage(given[0]), %(alias)s.WithResourceID(given[2]))
		if err != nil {
			out[string(code)] = map[string]bool{"refused": true}
			continue
		}
		out[string(code)] = map[string]written{
			"http":         response(%(alias)s.ToHTTP(p)),
			"http_problem": response(%(alias)s.ToHTTP(p, %(alias)s.AsProblem())),
		}
	}
	return out
}
'''


def _module(go_dir: Path) -> str:
    for line in (go_dir / "go.mod").read_text(encoding="utf-8").splitlines():
        if line.startswith("module "):
            return line.split()[1]
    raise AssertionError(f"no module line in {go_dir / 'go.mod'}")


def _python_written(root: Path, stems: list[str]) -> dict[str, Any]:
    """Each registry's package, all in one Python process."""
    packages = {}
    for stem in stems:
        [package] = [p for p in (root / stem / "python").iterdir() if p.is_dir()]
        packages[stem] = package.name
    assert len(set(packages.values())) == len(stems), packages  # one import name each, on one path
    args = json.dumps([MESSAGE, CORRELATION_ID, RESOURCE_ID])
    done = subprocess.run([sys.executable, "-c", PYTHON_PROBE, json.dumps(packages), args], capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": os.pathsep.join(str(root / stem / "python") for stem in stems)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _go_written(root: Path, stems: list[str]) -> dict[str, dict[str, Any]]:
    """Each registry's SDK, all in one program, built by one `go build` in a workspace of the SDKs."""
    assert GO is not None
    driver = root / "driver"
    driver.mkdir()
    aliases = {stem: "sdk_" + re.sub(r"\W", "_", stem) for stem in stems}
    program = GO_PROBE % {"imports": "\n".join(f"\t{aliases[s]} {json.dumps(_module(root / s / 'go'))}" for s in stems),
                          "calls": "\n".join(f"\tfound[{json.dumps(s)}] = write_{aliases[s]}(given)" for s in stems)}
    program += "".join(GO_WRITE % {"alias": aliases[s]} for s in stems)
    (driver / "main.go").write_text(program, encoding="utf-8")
    (driver / "go.mod").write_text("module shapedriver\n\ngo 1.21\n", encoding="utf-8")
    uses = "".join(f"\t./{stem}/go\n" for stem in stems)
    (root / "go.work").write_text(f"go 1.21\n\nuse (\n\t./driver\n{uses})\n", encoding="utf-8")
    env = {**os.environ, "GOWORK": str(root / "go.work"), "GOTOOLCHAIN": "local", "GOFLAGS": ""}
    done = subprocess.run([GO, "build", "-o", str(root / "shapedriver"), "."], cwd=driver, capture_output=True,
                          text=True, timeout=900, env=env)
    assert done.returncode == 0, done.stderr
    run = subprocess.run([str(root / "shapedriver"), json.dumps([MESSAGE, CORRELATION_ID, RESOURCE_ID])],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """(Python's, Go's) writings of every code, by registry."""
    from errgen.emit.build import build

    root = tmp_path_factory.mktemp("go-shape")
    stems = [path.stem for path in APIS]
    for path in APIS:
        registry = lint_path(path).registry
        assert registry is not None
        build(registry, root / path.stem, ["python", "go"])
    python = _python_written(root, stems)
    go = _go_written(root, stems)
    return {stem: (python[stem], go[stem]) for stem in stems}


def _python_in_go_order(written: dict[str, Any]) -> dict[str, Any]:
    """Python's response with its headers as a Go map holds them: names folded, sorted."""
    names = [name.lower() for name, _ in written["headers"]]
    assert len(names) == len(set(names)), written["headers"]
    return {**written, "headers": sorted([name.lower(), value] for name, value in written["headers"])}


@needs_go
@pytest.mark.parametrize("api", [p.stem for p in APIS])
def test_go_writes_what_python_writes_byte_for_byte(both: dict[str, Any], api: str) -> None:
    python, go = both[api]
    assert list(go) and sorted(go) == sorted(python)
    for code, expected in python.items():
        got = go[code]
        assert "refused" not in expected, (api, code)
        for kind in ("http", "http_problem"):
            want = _python_in_go_order(expected[kind])
            have = {**got[kind], "headers": [list(pair) for pair in got[kind]["headers"]]}
            assert have["status"] == want["status"], (api, code, kind)
            assert have["headers"] == want["headers"], (api, code, kind)
            assert base64.b64decode(have["body"]) == base64.b64decode(want["body"]), (
                api, code, kind, base64.b64decode(have["body"]).decode("utf-8"), base64.b64decode(want["body"]).decode("utf-8"))


@needs_go
def test_the_shapes_compared_include_xml_and_nested_writes(both: dict[str, Any]) -> None:
    """The comparison above is no comparison of empty bodies: S3 gets XML with the hostile text
    escaped, Slack its `ok: false`, GraphQL `errors[0]`."""
    s3 = base64.b64decode(both["s3"][1]["NoSuchKey"]["http"]["body"]).decode("utf-8")
    assert s3.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code>')
    assert "&lt;exceeded&gt; &amp; \"more\"&#9;&#1; ]]&gt;" in s3
    slack = json.loads(base64.b64decode(both["slack"][1]["channel_not_found"]["http"]["body"]))
    assert (slack["ok"], slack["error"]) == (False, "channel_not_found")
    graphql = json.loads(base64.b64decode(both["shopify-graphql"][1]["THROTTLED"]["http"]["body"]))
    assert graphql["errors"][0]["extensions"]["code"] == "THROTTLED"
