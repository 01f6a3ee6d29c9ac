"""Issue 25 item 2 in the Rust SDK: `to_http` and `to_http_problem` write the API's own shape byte
for byte as the Python SDK (the reference, tests/test_api_shape.py) does, for every code of every
examples/apis registry: the same status, the same headers in the same order, and the same body
bytes (JSON members in insertion order, which serde_json's sorted `Map` alone would not give; XML
elements and escapes the same).

The SDKs are built without serde_json's `preserve_order` (as a user's build has them), so the
order comes from the SDK's own writer. Every registry gets its own program (a binary of one
driver package that depends on all the SDKs); one `cargo build` compiles all of them."""

from __future__ import annotations

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
CARGO = shutil.which("cargo")
needs_cargo = toolchain(CARGO is None, "needs the Rust toolchain (cargo)")

# Quotes, <&>, a tab, U+0001 and "]]>": what a JSON writer and an XML writer each must escape.
MESSAGE = 'Quota <exceeded> & "more"\t\x01 ]]>'
CORRELATION_ID = "req-7"
RESOURCE_ID = "res/1"

PYTHON_PROBE = r'''
import importlib, json, sys
m = importlib.import_module(sys.argv[1])
message, correlation, resource = json.loads(sys.argv[2])
out = {}
for code in m.Code:
    try:
        sent = m.new_error(code, correlation, message=message, resource_id=resource)
    except m.PayloadError:
        out[code.value] = {"refused": True}
        continue
    out[code.value] = {kind: {"status": r.status, "headers": [[k, v] for k, v in r.headers.items()], "body": r.body}
                       for kind, r in (("http", m.to_http(sent)), ("http_problem", m.to_http(sent, problem=True)))}
print(json.dumps(out))
'''

RUST_PROBE = '''use serde_json::{json, Map, Value};

use %(lib)s as sdk;

fn written(parts: &sdk::HttpParts) -> Value {
    let body = String::from_utf8(parts.body.clone()).expect("a UTF-8 body");
    json!({"status": parts.status, "headers": parts.headers, "body": body})
}

fn main() {
    let given: Vec<String> = serde_json::from_str(&std::env::args().nth(1).expect("the texts")).expect("JSON");
    let mut out = Map::new();
    for entry in sdk::RECOVERY_TABLE {
        let made = sdk::new_error_with(entry.code.clone(), given[1].clone(), |p| {
            p.message = Some(given[0].clone());
            p.resource_id = Some(given[2].clone());
        });
        let value = match made {
            Ok(p) => json!({"http": written(&sdk::to_http(&p)), "http_problem": written(&sdk::to_http_problem(&p))}),
            Err(_) => json!({"refused": true}),
        };
        out.insert(entry.code.as_str().to_owned(), value);
    }
    println!("{}", Value::Object(out));
}
'''


def _crate(rust_dir: Path) -> str:
    match = re.search(r'^name = "([^"]+)"', (rust_dir / "Cargo.toml").read_text(encoding="utf-8"), re.M)
    assert match, rust_dir
    return match.group(1)


def _python_written(out: Path) -> dict[str, Any]:
    [package] = [p for p in (out / "python").iterdir() if p.is_dir()]
    args = json.dumps([MESSAGE, CORRELATION_ID, RESOURCE_ID])
    done = subprocess.run([sys.executable, "-c", PYTHON_PROBE, package.name, args], capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(out / "python")})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _rust_written(root: Path, stems: list[str]) -> dict[str, dict[str, Any]]:
    """Each registry's program: a binary of one driver package, all built by one `cargo build`."""
    assert CARGO is not None
    driver = root / "driver"
    (driver / "src" / "bin").mkdir(parents=True)
    (driver / "src" / "lib.rs").write_text("", encoding="utf-8")
    deps = ['serde_json = "1"']
    for stem in stems:
        crate = _crate(root / stem / "rust")
        lib = f"sdk_{stem.replace('-', '_')}"
        deps.append(f'{lib} = {{ package = "{crate}", path = {json.dumps(str(root / stem / "rust"))} }}')
        (driver / "src" / "bin" / f"{stem}.rs").write_text(RUST_PROBE % {"lib": lib}, encoding="utf-8")
    (driver / "Cargo.toml").write_text(
        '[package]\nname = "shape-driver"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[workspace]\n\n'
        "[dependencies]\n" + "\n".join(deps) + "\n", encoding="utf-8")
    target = os.environ.get("CARGO_TARGET_DIR") or str(root / "target")
    done = subprocess.run([CARGO, "build", "--quiet", "--bins", "--target-dir", target], cwd=driver,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    args = json.dumps([MESSAGE, CORRELATION_ID, RESOURCE_ID])
    found = {}
    for stem in stems:
        run = subprocess.run([str(Path(target) / "debug" / stem), args], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        found[stem] = json.loads(run.stdout)
    return found


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """(Python's, Rust's) writings of every code, by registry."""
    from errgen.emit.build import build

    root = tmp_path_factory.mktemp("rust-shape")
    stems = [path.stem for path in APIS]
    python = {}
    for path in APIS:
        registry = lint_path(path).registry
        assert registry is not None
        build(registry, root / path.stem, ["python", "rust"])
        python[path.stem] = _python_written(root / path.stem)
    rust = _rust_written(root, stems)
    return {stem: (python[stem], rust[stem]) for stem in stems}


@needs_cargo
@pytest.mark.parametrize("api", [p.stem for p in APIS])
def test_rust_writes_what_python_writes_byte_for_byte(both: dict[str, Any], api: str) -> None:
    python, rust = both[api]
    assert list(rust) and sorted(rust) == sorted(python)
    for code, expected in python.items():
        got = rust[code]
        assert "refused" not in expected and "refused" not in got, (api, code)
        for kind in ("http", "http_problem"):
            assert got[kind]["status"] == expected[kind]["status"], (api, code, kind)
            assert got[kind]["headers"] == expected[kind]["headers"], (api, code, kind)
            assert got[kind]["body"].encode("utf-8") == expected[kind]["body"].encode("utf-8"), (
                api, code, kind, got[kind]["body"], expected[kind]["body"])


@needs_cargo
def test_the_shapes_compared_include_xml_nested_writes_and_member_order(both: dict[str, Any]) -> None:
    """The comparison above is no comparison of empty bodies: S3 gets XML with the hostile text
    escaped, Slack its `ok: false` after the payload, GraphQL `errors[0]`, and a problem+json body
    starts with `type` (a sorted map would start with `category`)."""
    s3 = both["s3"][1]["NoSuchKey"]["http"]["body"]
    assert s3.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code>')
    assert "&lt;exceeded&gt; &amp; \"more\"&#9;&#1; ]]&gt;" in s3
    slack = json.loads(both["slack"][1]["channel_not_found"]["http"]["body"])
    assert (slack["ok"], slack["error"]) == (False, "channel_not_found")
    graphql = json.loads(both["shopify-graphql"][1]["THROTTLED"]["http"]["body"])
    assert graphql["errors"][0]["extensions"]["code"] == "THROTTLED"
    problem = both["stripe"][1]["card_declined"]["http_problem"]["body"]
    assert problem.startswith('{"type":')
