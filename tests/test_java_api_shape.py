"""Issue 25 item 2 in the Java SDK: `Errors.toHttp` writes the API's own shape (docs/conformance.md,
"Writing in the API's own shape") byte for byte as the Python SDK (the reference) does: for every
code of every examples/apis registry, `toHttp(newError(code, "req-7", message=<hostile text>,
resourceId="res/1"))` has the same status, the same headers in the same order and the same body.
One probe class per registry; all the registries' SDKs compiled by one javac run and probed in one
JVM."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import API_SAMPLE, toolchain
from errgen.emit.build import build
from errgen.languages.java import naming
from errgen.registry.lint import lint_path

# A sample of examples/apis (conftest.API_SAMPLE): the writer is the same code for every registry.
APIS = list(API_SAMPLE)
# Quotes, XML's specials, a tab, a control character and a CDATA end: text a writer must escape.
MESSAGE = 'Quota <exceeded> & "more"\t\x01 ]]>'
MISSING = next((t for t in ("javac", "java", "mvn") if shutil.which(t) is None), None)

PYTHON_PROBE = r'''
import importlib, json, sys
m = importlib.import_module(sys.argv[1])
rows = []
for code in m.Code:
    http = m.to_http(m.new_error(code, "req-7", message=sys.argv[2], resource_id="res/1"))
    rows.append([code.value, http.status, [list(h) for h in http.headers.items()], http.body])
print(json.dumps(rows))
'''

JAVA_PROBE = """package {package};

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public final class ShapeProbe {{
  public static String run() {{
    List<Object> rows = new ArrayList<>();
    for (Code code : Code.values()) {{
      if (code == Code.UNKNOWN_TO_SDK_VERSION) {{
        continue;
      }}
      HttpMessage http =
          Errors.toHttp(Errors.newError(code, "req-7", b -> b.message({message}).resourceId("res/1")));
      List<Object> headers = new ArrayList<>();
      for (Map.Entry<String, String> h : http.headers()) {{
        headers.add(List.of(h.getKey(), h.getValue()));
      }}
      rows.add(List.of(code.wire(), http.status(), headers, http.body()));
    }}
    return Json.write(rows);
  }}
}}
"""

# Runs each named probe, one JSON line each, in the order given.
LAUNCHER = """public final class ShapeProbes {
  public static void main(String[] args) throws Exception {
    for (String name : args) {
      System.out.println(Class.forName(name).getMethod("run").invoke(null));
    }
  }
}
"""


def _package(java: Path) -> str:
    [runner] = java.glob("src/main/java/**/Errors.java")
    line = next(l for l in runner.read_text(encoding="utf-8").splitlines() if l.startswith("package "))
    return line.removeprefix("package ").rstrip(";").strip()


def _python_rows(sdk: Path) -> list[Any]:
    [package] = [p for p in sdk.iterdir() if p.is_dir()]
    done = subprocess.run([sys.executable, "-c", PYTHON_PROBE, package.name, MESSAGE], capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(sdk)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _jackson_classpath(java: Path, out: Path) -> str:
    """The SDK's dependencies (Jackson) from the local Maven repository, offline."""
    listing = out / "classpath.txt"
    done = subprocess.run(["mvn", "-o", "-q", "-B", "dependency:build-classpath", f"-Dmdep.outputFile={listing}"],
                          cwd=java, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "MAVEN_OPTS": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return listing.read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[list[Any], list[Any]]]:
    """Per registry: (Java rows, Python rows), each row [code, status, headers, body]."""
    root = tmp_path_factory.mktemp("java-shape")
    packages, sources, resources, python = [], [], [], {}
    for path in APIS:
        registry = lint_path(path).registry
        assert registry is not None
        build(registry, root / path.stem, ["java", "python"])
        java = root / path.stem / "java"
        package = _package(java)
        probe = java / "src" / "main" / "java" / Path(*package.split(".")) / "ShapeProbe.java"
        probe.write_text(JAVA_PROBE.format(package=package, message=naming.string_literal(MESSAGE)), encoding="utf-8")
        packages.append(f"{package}.ShapeProbe")
        sources += sorted(str(p) for p in (java / "src" / "main" / "java").rglob("*.java"))
        resources.append(str(java / "src" / "main" / "resources"))
        python[path.stem] = _python_rows(root / path.stem / "python")
    assert len(set(packages)) == len(APIS), "each registry's SDK has its own package"
    (root / "ShapeProbes.java").write_text(LAUNCHER, encoding="utf-8")
    jars = _jackson_classpath(root / APIS[0].stem / "java", root)
    classes = root / "classes"
    done = subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(classes), "-cp", jars,
                           str(root / "ShapeProbes.java"), *sources], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    done = subprocess.run(["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                           os.pathsep.join([str(classes), *resources, jars]), "ShapeProbes", *packages],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert len(lines) == len(APIS)
    return {path.stem: (json.loads(line), python[path.stem]) for path, line in zip(APIS, lines)}


@toolchain(MISSING is not None, f"needs {MISSING}")
@pytest.mark.parametrize("api", [p.stem for p in APIS])
def test_to_http_writes_the_bytes_the_python_sdk_writes(written: dict[str, Any], api: str) -> None:
    java, python = written[api]
    assert [row[0] for row in java] == [row[0] for row in python]
    for ours, reference in zip(java, python):
        assert ours == reference, (api, ours[0])


@toolchain(MISSING is not None, f"needs {MISSING}")
def test_an_xml_api_gets_xml_with_its_own_elements(written: dict[str, Any]) -> None:
    java, _ = written["s3"]
    [_, status, headers, body] = next(row for row in java if row[0] == "NoSuchKey")
    assert (status, ["Content-Type", "application/xml"] in headers) == (404, True)
    assert body == ('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code>'
                    "<Message>Quota &lt;exceeded&gt; &amp; \"more\"&#9;&#1; ]]&gt;</Message>"
                    "<RequestId>req-7</RequestId><Key>res/1</Key></Error>")


@toolchain(MISSING is not None, f"needs {MISSING}")
def test_slack_says_ok_false_in_the_body(written: dict[str, Any]) -> None:
    java, _ = written["slack"]
    body = json.loads(next(row for row in java if row[0] == "channel_not_found")[3])
    assert (body["ok"], body["error"]) == (False, "channel_not_found")
