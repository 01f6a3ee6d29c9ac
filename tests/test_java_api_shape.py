"""Issue 25, the Java SDKs of the registries of real APIs (examples/apis), all compiled by one
`javac -Xlint:all -Werror` run (each SDK is its own package) and driven in one JVM:

- every registry's SDK passes its vectors, its real-response vectors and its writing vectors;
- it decides each real response (tests/fixtures/responses) as a careful client would;
- it reads responses (and 150 mutations of them) byte for byte as the Python SDK does;
- item 2: `Errors.toHttp` writes the API's own shape (docs/conformance.md, "Writing in the API's own
  shape") byte for byte as the Python SDK (the reference) does: for every code of a sample of the
  registries (conftest.API_SAMPLE: the writer is the same code for every registry),
  `toHttp(newError(code, "req-7", message=<hostile text>, resourceId="res/1"))` has the same status,
  the same headers in the same order and the same body. A probe class is added to each sampled SDK
  before the one javac run, so the probes compile with -Xlint:all -Werror too.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import API_SAMPLE, FIXTURES, ROOT, toolchain
from errgen.emit.build import build
from errgen.languages.java import naming, target
from junk import junk_responses
from test_java_sdk import QUICK_JAVAC, QUICK_JVM, _emit, _lines, _mvn, _need

MISSING = next((t for t in ("javac", "java", "mvn") if shutil.which(t) is None), None)

# Quotes, XML's specials, a tab, a control character and a CDATA end: text a writer must escape.
MESSAGE = 'Quota <exceeded> & "more"\t\x01 ]]>'

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

def _python_rows(sdk: Path) -> list[Any]:
    [package] = [p for p in sdk.iterdir() if p.is_dir()]
    done = subprocess.run([sys.executable, "-c", PYTHON_PROBE, package.name, MESSAGE], capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(sdk)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


APIS = sorted((ROOT / "examples" / "apis").glob("*.yaml"))
SAMPLE = [p.stem for p in API_SAMPLE]
RESPONSES = FIXTURES / "responses"
DRIVER = """
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Drives the runners (check, emit) or the shape probes (shape) of several SDKs in one JVM: MODE PACKAGE FILE, repeated. */
public class Driver {
  public static void main(String[] args) throws Exception {
    for (int i = 0; i < args.length; i += 3) {
      String mode = args[i];
      System.out.println("== " + args[i + 1] + " " + mode);
      if (mode.equals("shape")) {
        System.out.println(Class.forName(args[i + 1] + ".ShapeProbe").getMethod("run").invoke(null));
        continue;
      }
      Class<?> runner = Class.forName(args[i + 1] + ".ConformanceRunner");
      Class<?> json = Class.forName(args[i + 1] + ".Json");
      Class<?> node = Class.forName("com.fasterxml.jackson.databind.JsonNode");
      Method write = json.getMethod("write", Object.class);
      @SuppressWarnings("unchecked")
      List<Object> vectors = (List<Object>) runner.getMethod("vectors", Path.class).invoke(null, Path.of(args[i + 2]));
      int failed = 0;
      for (Object vector : vectors) {
        if (mode.equals("emit")) {
          System.out.println(write.invoke(null, runner.getMethod("emitted", node).invoke(null, vector)));
        } else {
          @SuppressWarnings("unchecked")
          List<String> failures = (List<String>) runner.getMethod("failures", node).invoke(null, vector);
          failures.forEach(System.out::println);
          failed += failures.isEmpty() ? 0 : 1;
        }
      }
      if (mode.equals("check")) {
        System.out.println((vectors.size() - failed) + " passed, " + failed + " failed");
      }
    }
  }
}
"""


DECIDE_JAVA = """
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** For each fixture (package, status, headers, body, now): the decision on fromHttp's payload. */
public class Decide {
  public static void main(String[] args) throws Exception {
    JsonNode rows = new ObjectMapper().readTree(new java.io.File(args[0]));
    for (JsonNode row : rows) {
      Class<?> errors = Class.forName(row.get("package").asText() + ".Errors");
      List<Map.Entry<String, String>> headers = new ArrayList<>();
      row.get("headers").properties().forEach(e -> headers.add(new SimpleImmutableEntry<>(e.getKey(), e.getValue().asText())));
      Object raw = errors.getMethod("fromHttp", int.class, List.class, String.class, long.class)
          .invoke(null, row.get("status").asInt(), headers, row.get("body").asText(), row.get("now").asLong());
      Object decision = errors.getMethod("decide", JsonNode.class, long.class).invoke(null, raw, 1L);
      Object map = decision.getClass().getMethod("toMap").invoke(decision);
      System.out.println(Class.forName(row.get("package").asText() + ".Json").getMethod("write", Object.class).invoke(null, map));
    }
  }
}
"""


@pytest.fixture(scope="module")
def apis(tmp_path_factory: Any) -> dict[str, Any]:
    """The 15 registries built for java, python and the vectors; all 15 Java SDKs (the sample's with
    their ShapeProbe) compiled by one `javac -Xlint:all -Werror` run (each SDK is its own package),
    with a driver that runs their runners and probes in one JVM and the Decide program."""
    from errgen.registry.lint import lint_path

    javac = _need("javac")
    root = tmp_path_factory.mktemp("java-apis")
    outs: dict[str, Path] = {}
    for path in APIS:
        result = lint_path(path)
        assert result.registry is not None, [d.text() for d in result.diagnostics]
        build(result.registry, root / path.stem, ["java", "python", "conformance"])
        outs[path.stem] = root / path.stem
        if path.stem in SAMPLE:
            java = root / path.stem / "java"
            package = target._package_of(java)
            probe = java / "src" / "main" / "java" / Path(*package.split(".")) / "ShapeProbe.java"
            probe.write_text(JAVA_PROBE.format(package=package, message=naming.string_literal(MESSAGE)), encoding="utf-8")
    first = next(iter(outs.values())) / "java"
    done = _mvn(first, "dependency:build-classpath", f"-Dmdep.outputFile={root / 'classpath.txt'}",
                "-Dmdep.includeScope=compile")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    classes = root / "classes"
    classes.mkdir()
    (root / "Driver.java").write_text(DRIVER, encoding="utf-8")
    (root / "Decide.java").write_text(DECIDE_JAVA, encoding="utf-8")
    sources = [str(p) for out in outs.values() for p in sorted((out / "java" / "src" / "main").rglob("*.java"))]
    classpath = (root / "classpath.txt").read_text().strip()
    done = subprocess.run([javac, *QUICK_JAVAC, "--release", "17", "-Xlint:all", "-Werror", "-cp", classpath, "-d", str(classes),
                           *sources, str(root / "Driver.java"), str(root / "Decide.java")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-6000:]
    for out in outs.values():
        resources = out / "java" / "src" / "main" / "resources"
        shutil.copytree(resources, classes, dirs_exist_ok=True)
    packages = {api: target._package_of(out / "java") for api, out in outs.items()}
    return {"outs": outs, "packages": packages, "classpath": f"{classes}:{classpath}"}


def _drive(apis: dict[str, Any], jobs: list[tuple[str, str, Path | str]]) -> list[list[str]]:
    """Each job's output lines (mode, package, file), in the jobs' order, from one JVM run."""
    argv = [_need("java"), *QUICK_JVM, "-cp", apis["classpath"], "Driver"]
    for mode, package, file in jobs:
        argv += [mode, package, str(file)]
    done = subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    sections: list[list[str]] = []
    for line in _lines(done.stdout):
        if line.startswith("== "):
            sections.append([])
            assert line == f"== {jobs[len(sections) - 1][1]} {jobs[len(sections) - 1][0]}", line
        else:
            sections[-1].append(line)
    assert len(sections) == len(jobs)
    return sections


@pytest.mark.slow  # javac and the JVM
def test_every_api_sdk_passes_its_vectors_and_responses(apis: dict[str, Any]) -> None:
    jobs = [("check", apis["packages"][api], out / "conformance" / f"{name}.json")
            for name in ("vectors", "responses", "writing") for api, out in apis["outs"].items()]
    assert len(jobs) == 3 * len(APIS)
    for job, lines in zip(jobs, _drive(apis, jobs)):
        assert lines[-1].endswith(" passed, 0 failed") and not lines[-1].startswith("0 "), (job, lines[-20:])




@pytest.mark.slow  # javac and the JVM
def test_the_java_sdk_decides_each_real_response_as_a_careful_client_would(apis: dict[str, Any], tmp_path: Path) -> None:
    """As the Python test in test_api_catalog.py: the code is known, the action is the registry's, a
    rate limit waits at least what the response says, and the request id is the API's own."""
    import email.utils

    rows, fixtures = [], []
    for api in apis["outs"]:
        for path in sorted((RESPONSES / api).glob("*.json")):
            row = json.loads(path.read_text(encoding="utf-8"))
            date = row["headers"].get("date")  # an epoch reset is read against the response's own clock
            now = int(email.utils.parsedate_to_datetime(date).timestamp() * 1000) if date else 0
            rows.append({"package": apis["packages"][api], "status": row["status"], "headers": row["headers"],
                         "body": row["body"], "now": now})
            fixtures.append((f"{api}/{path.stem}", row))
    (tmp_path / "rows.json").write_text(json.dumps(rows), encoding="utf-8")
    # Decide was compiled with the SDKs (the `apis` javac run).
    done = subprocess.run([_need("java"), *QUICK_JVM, "-cp", apis["classpath"], "Decide", str(tmp_path / "rows.json")],
                          capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    decisions = [json.loads(line) for line in _lines(done.stdout)]
    assert len(decisions) == len(fixtures) > 15 * 4
    failures = []
    for (name, row), d in zip(fixtures, decisions):
        wanted = [row["code"], row["action"], row["correlation_id"]]
        got = [d["code"], d["action"], d["correlation_id"] or None]
        if got != wanted or (row["min_delay_ms"] is not None and (d["delay_ms"] or 0) < row["min_delay_ms"]):
            failures.append(f"{name}: got {got} delay {d['delay_ms']}, want {wanted} delay >= {row['min_delay_ms']}")
    assert failures == []


@pytest.mark.slow  # javac and the JVM
def test_java_reads_responses_exactly_as_python_does(apis: dict[str, Any]) -> None:
    """Byte for byte with Python's runner, on every API's response vectors and 150 mutations of them."""
    from errgen.languages.python import target as python

    jobs, expected = [], {}
    for api, out in apis["outs"].items():
        vectors = json.loads((out / "conformance" / "responses.json").read_text(encoding="utf-8"))["vectors"]
        inputs = out / "junk-responses.json"
        inputs.write_text(json.dumps({"vectors": vectors + junk_responses(vectors, 150)}, ensure_ascii=False), encoding="utf-8")
        jobs.append(("emit", apis["packages"][api], inputs))
        expected[apis["packages"][api]] = _emit(python, out / "python", inputs)
    for (_, package, _), lines in zip(jobs, _drive(apis, jobs)):
        assert len(lines) == len(expected[package]) > 150
        assert [json.loads(x) for x in lines] == [json.loads(x) for x in expected[package]], package
        assert lines == expected[package], package



@pytest.fixture(scope="module")
def written(apis: dict[str, Any]) -> dict[str, tuple[list[Any], list[Any]]]:
    """Per sampled registry: (Java rows, Python rows), each row [code, status, headers, body]."""
    packages = [apis["packages"][api] for api in SAMPLE]
    assert len(set(packages)) == len(SAMPLE), "each registry's SDK has its own package"
    lines = _drive(apis, [("shape", package, "-") for package in packages])
    return {api: (json.loads(line), _python_rows(apis["outs"][api] / "python")) for api, [line] in zip(SAMPLE, lines)}


@toolchain(MISSING is not None, f"needs {MISSING}")
@pytest.mark.parametrize("api", SAMPLE)
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
