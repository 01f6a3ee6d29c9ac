"""The Java target: names from any wire string, and for the default, example and hostile-text
registries a generated Maven project that google-java-format 1.28.0 leaves unchanged, that
compiles with `javac -Xlint:all -Werror`, whose JUnit tests pass (API tests and every conformance
vector) and whose conformance runner passes the vectors in check mode. One Maven run for the three
registries (an aggregator pom); the Maven repository (~/.m2) is shared, so only the first run ever
downloads. The real APIs' SDKs: tests/test_java_api_shape.py.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import FIXTURES, REGISTRY, ROOT
from test_java_api_sdks import AGGREGATOR  # one pom whose modules Maven builds in one run
from errgen.contract import ContractView, FieldSpec, view
from errgen.emit.build import build
from errgen.emit.errors import BuildError
from errgen.registry.lint import lint_text
from errgen.registry.model import Category, Registry
from errgen.languages.java import naming
from errgen.languages.java import target

GJF = "com.google.googlejavaformat:google-java-format:1.28.0:jar:all-deps"
GJF_JAR = Path.home() / ".m2/repository/com/google/googlejavaformat/google-java-format/1.28.0/google-java-format-1.28.0-all-deps.jar"
# google-java-format reads javac's internals; Java 17 opens them only on request.
# Short JVM runs: the quick compiler alone starts and finishes them sooner.
QUICK_JVM = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
# And for javac's own JVM: compiling the 15 API SDKs takes 12 s with it, 27 s without (2 busy cores).
QUICK_JAVAC = [f"-J{flag}" for flag in QUICK_JVM]
# The same for the JVMs Maven starts: surefire's test JVM (argLine: the pom sets none) and javadoc's
# (one option only); each module's tests and javadoc then take about half as long.
QUICK_FORKS = [f"-DargLine={' '.join(QUICK_JVM)}", f"-DadditionalJOption=-J{QUICK_JVM[0]}"]
GJF_OPENS = [f"--add-exports=jdk.compiler/com.sun.tools.javac.{p}=ALL-UNNAMED" for p in ("api", "code", "file", "parser", "tree", "util")]
# Wire spellings the registry format does not allow yet (lint wants UPPER_SNAKE); the Java target
# must handle them, so the hostile registry's codes are renamed to them after loading.
ODD_CODES = {
    "CARD_DECLINED_LOWER": "card_declined",
    "NO_SUCH_BUCKET": "NoSuchBucket",
    "TWILIO_20003": "20003",
    "POSTGRES_23505": "23505",
    "OUT_OF_CREDIT": "out-of-credit",
    "DYNAMODB_RESOURCE_NOT_FOUND": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
    "CYRILLIC_LONG": "ошибка доступа с очень длинным именем, которое не помещается в одну строку \u2028 \"q\" \\u0022",
}


# Names and literals -------------------------------------------------------------------------------

@pytest.mark.parametrize(("wire", "name"), [
    ("RATE_LIMITED", "RATE_LIMITED"),
    ("card_declined", "CARD_DECLINED"),
    ("NoSuchBucket", "NO_SUCH_BUCKET"),
    ("HTTPError", "HTTP_ERROR"),
    ("20003", "N_20003"),
    ("out-of-credit", "OUT_OF_CREDIT"),
    ("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "COM_AMAZONAWS_DYNAMODB_V20120810_RESOURCE_NOT_FOUND_EXCEPTION"),
    ("ОШИБКА", "U041E_U0428_U0418_U0411_U041A_U0410"),
    ("", "EMPTY"),
])
def test_constant_names_keep_word_boundaries(wire: str, name: str) -> None:
    assert naming.constant_name(wire) == name


def test_constant_names_follow_the_words_given() -> None:
    assert naming.constant_names(["e404"], {"e404": ("not", "found")}) == {"e404": "NOT_FOUND"}


def test_constant_names_are_unique_and_never_the_unknown_constant() -> None:
    names = naming.constant_names(["CARD_DECLINED", "card-declined", "cardDeclined", "UNKNOWN_TO_SDK_VERSION"])
    assert list(names.values()) == ["CARD_DECLINED", "CARD_DECLINED_2", "CARD_DECLINED_3", "UNKNOWN_TO_SDK_VERSION_2"]


def test_string_literals_are_ascii_and_never_form_a_unicode_escape() -> None:
    literal = naming.string_literal('a"b\\u0022c\n\u2028日😀\x7f */')
    assert literal == '"a\\"b\\\\u0022c\\012\\u2028\\u65e5\\ud83d\\ude00\\177 */"'
    assert literal.isascii()
    assert naming.string_literal("a b", unbreakable=True) == '"a\\sb"'


def test_category_exceptions_are_named_without_a_doubled_suffix() -> None:
    """Issue 40: Stripe's `rate_limit_error` is a RateLimitException, not a RateLimitErrorException."""
    categories = [(name, None) for name in ("rate_limit_error", "api_error", "error", "card_exception", "rate_limit")]
    assert naming.exception_names(categories, {"ServiceException"}) == {
        "rate_limit_error": "RateLimitException", "api_error": "ApiException", "error": "ErrorException",
        "card_exception": "CardException", "rate_limit": "RateLimit2Exception",
    }


def test_category_exceptions_never_take_a_java_lang_exceptions_name() -> None:
    """A category `runtime_error` made a `RuntimeException` in the package, hiding java.lang's (the
    SDK did not compile); the hostile registry's SDK has such categories and is built by `projects`."""
    registry = REGISTRIES["hostile"]()
    names = naming.exception_names([(name, None) for name in CLASHING_CATEGORIES], target.JAVA_LANG_EXCEPTIONS)
    assert names == {"runtime_error": "Runtime2Exception", "illegal_state": "IllegalState2Exception", "security": "Security2Exception"}
    files = target.category_exception_sources(view(registry), "p", "src")
    assert {f"src/{name}.java" for name in names.values()} <= set(files)
    assert not {f"src/{name}.java" for name in target.JAVA_LANG_EXCEPTIONS} & set(files)


def test_long_enum_constants_are_laid_out_as_google_java_format_does() -> None:
    assert naming.enum_constant_lines("A", "a", last=False) == ['  A("a"),']
    long = "x" * 90
    assert naming.enum_constant_lines("LONG", long, last=True) == ["  LONG(", f'      "{long}");']


def _with_field(spec: FieldSpec) -> ContractView:
    registry = lint_text(REGISTRY.read_text(encoding="utf-8")).registry
    assert registry is not None
    v = view(registry)
    return dataclasses.replace(v, fields=(*v.fields, spec))


def test_a_new_optional_payload_field_reaches_every_member_of_the_payload() -> None:
    """Issue 43: ErrorPayload.java is rendered from the view's fields, so a field the contract adds
    is read (of), written (value), built (setter, set, build) and exposed (optionalX) with no edit."""
    source = target.payload_source(_with_field(FieldSpec("docs_url", "docsUrl", "string", False, "Where the docs are.")), "p")
    for line in ["    String docsUrl) {", " * @param docsUrl Where the docs are.", "  public Optional<String> optionalDocsUrl() {",
                 "        text(values[13]));", '      case "docs_url" -> docsUrl;', "    public Builder docsUrl(String value) {",
                 '        case "docs_url" -> docsUrl = text(value);', "              docsUrl);"]:
        assert line + "\n" in source, line


def test_a_required_field_the_builder_cannot_fill_stops_the_build() -> None:
    with pytest.raises(BuildError, match="required payload field 'tenant'"):
        target.payload_source(_with_field(FieldSpec("tenant", "tenant", "string", True, "The tenant.")), "p")


def test_javadoc_is_filled_as_google_java_format_fills_it() -> None:
    assert naming.javadoc_lines("Short.", 2) == ["  /** Short. */"]
    words = " ".join(["word"] * 30)
    lines = naming.javadoc_lines(words, 2)
    assert lines[0] == "  /**" and lines[-1] == "   */" and all(len(line) <= 100 for line in lines)
    assert " ".join(line.removeprefix("   * ") for line in lines[1:-1]) == words
    assert naming.filled("@param x " + words, " * ", " *     ")[1].startswith(" *     word")
    assert naming.javadoc_text("a <b> & \\u000a */") == "a &lt;b&gt; &amp; &#92;u000a *&#47;"
    assert naming.member_name("did_you_mean") == "didYouMean" and naming.member_name("default") == "defaultValue"


@pytest.mark.parametrize(("key", "value"), [("package", "com.example.class"), ("package", "com..x"), ("package", "1x.y")])
def test_bad_java_packages_are_refused(key: str, value: str) -> None:
    with pytest.raises(naming.JavaNameError, match=f"targets.java.{key}"):
        naming.package_name(value)


def test_bad_maven_coordinates_are_refused() -> None:
    with pytest.raises(naming.JavaNameError, match="targets.java.group"):
        naming.coordinate("group", "com.example/evil")


# The generated project ----------------------------------------------------------------------------

def _load(path: Path) -> Registry:
    result = lint_text(path.read_text(encoding="utf-8"))
    assert result.ok and result.registry is not None, [d.text() for d in result.diagnostics]
    return result.registry


def _with_odd_codes(registry: Registry) -> Registry:
    codes = tuple(dataclasses.replace(c, name=ODD_CODES.get(c.name, c.name)) for c in registry.codes)
    return dataclasses.replace(registry, codes=codes)


# Categories whose exception would take a java.lang exception's name (RuntimeException made
# `ServiceException extends RuntimeException` a cycle: the SDK did not compile); the first code of
# the hostile registry moves to the first, so a vector throws its exception.
CLASHING_CATEGORIES = ("runtime_error", "illegal_state", "security")


def _with_clashing_categories(registry: Registry) -> Registry:
    added = tuple(Category(name=name, retryable=False, description=f"A category named {name}.") for name in CLASHING_CATEGORIES)
    codes = (dataclasses.replace(registry.codes[0], category=CLASHING_CATEGORIES[0]), *registry.codes[1:])
    return dataclasses.replace(registry, categories=(*registry.categories, *added), codes=codes)


REGISTRIES = {
    "default": lambda: _load(REGISTRY),
    "example": lambda: _load(ROOT / "examples" / "refund-tool.yaml"),
    "hostile": lambda: _with_clashing_categories(_with_odd_codes(_load(FIXTURES / "java" / "hostile.yaml"))),
}


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"needs {tool}")
    return path


def _mvn(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Offline first; online only when a dependency is not in ~/.m2 yet."""
    command = [_need("mvn"), "-q", "-B", *args]
    env = {**os.environ, "MAVEN_OPTS": " ".join(QUICK_JVM)}
    done = subprocess.run([*command, "-o"], cwd=project, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0 and "offline" in done.stdout + done.stderr:
        done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=600)
    return done


@pytest.fixture(scope="module")
def projects(tmp_path_factory: Any) -> Iterator[dict[str, tuple[Registry, Path]]]:
    """Each registry's Java and Python SDKs and vectors; the three Java projects verified by ONE
    `mvn verify` over an aggregator pom (Maven starts and resolves its plugins once): javac
    -Xlint:all -Werror, JUnit (the API tests and every vector), the jar, sources and javadoc jars.
    Each project builds outside itself (errgen.build.directory, relative to the project) and its
    build folder is then moved to the one the conformance command uses, which then only runs the JVM."""
    _need("java")
    root = tmp_path_factory.mktemp("java-sdks")
    built: dict[str, tuple[Registry, Path]] = {}
    for name, load in sorted(REGISTRIES.items()):
        registry = load()
        build(registry, root / name, ["java", "python", "conformance"])
        built[name] = (registry, root / name)
    modules = "\n".join(f"    <module>{name}/java</module>" for name in built)
    (root / "pom.xml").write_text(AGGREGATOR.format(modules=modules), encoding="utf-8")
    # Relative paths: Maven resolves each against the module's folder (the test JVM's working folder).
    done = _mvn(root, *QUICK_FORKS, "-Derrgen.build.directory=../build", "verify", "dependency:build-classpath",
                "-Dmdep.outputFile=../build/classpath.txt", "-Dmdep.includeScope=compile",
                "-Dvectors=../conformance/vectors.json")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    for name, (_, out) in built.items():
        reports = {p.stem.rsplit(".", 1)[-1]: p.read_text() for p in (out / "build" / "surefire-reports").glob("*.txt")}
        assert {"ConformanceTest", "SdkTest"} <= set(reports), (name, sorted(reports))
        assert all("Failures: 0, Errors: 0, Skipped: 0" in text for text in reports.values()), (name, reports)
        # -Dvectors, relative to each module: every vector of its own registry ran.
        count = len(json.loads((out / "conformance" / "vectors.json").read_text(encoding="utf-8"))["vectors"])
        assert f"Tests run: {count}, Failures: 0" in reports["ConformanceTest"], (name, count, reports["ConformanceTest"])
        assert not (out / "java" / "target").exists()
        classes = target.build_directory(out / "java")
        shutil.rmtree(classes, ignore_errors=True)
        shutil.move(str(out / "build"), str(classes))
    yield built
    for _, out in built.values():
        shutil.rmtree(target.build_directory(out / "java"), ignore_errors=True)


@pytest.fixture(scope="module", params=sorted(REGISTRIES))
def built(request: Any, projects: dict[str, tuple[Registry, Path]]) -> tuple[Registry, Path]:
    return projects[request.param]


@pytest.fixture(scope="module")
def unformatted(projects: dict[str, tuple[Registry, Path]]) -> list[str]:
    """The files google-java-format would change, of the three projects, from one JVM run."""
    if not GJF_JAR.exists():
        assert _mvn(projects["default"][1] / "java", "dependency:get", f"-Dartifact={GJF}").returncode == 0
    sources = sorted(str(p) for _, out in projects.values() for p in (out / "java").rglob("*.java"))
    done = subprocess.run([_need("java"), *QUICK_JVM, *GJF_OPENS, "-jar", str(GJF_JAR), "--dry-run", "--set-exit-if-changed", *sources],
                          capture_output=True, text=True, timeout=300)
    # Exit 1 with the changed files' names: "changed"; any other failure (a parse error) is no answer.
    assert done.returncode in (0, 1) and done.stderr == "", done.stderr
    assert (done.returncode == 1) == (done.stdout != "")
    return done.stdout.splitlines()


@pytest.mark.slow  # Maven and the JVM
def test_project_is_formatted_as_google_java_format_formats_it(built: tuple[Registry, Path], unformatted: list[str]) -> None:
    _, out = built
    assert [path for path in unformatted if path.startswith(f"{out / 'java'}/")] == []
    assert list((out / "java").rglob("*.java"))  # it read some of this project's files


@pytest.mark.parametrize("built", ["default"], indirect=True)
@pytest.mark.slow  # Maven and the JVM
def test_verify_makes_the_jar_sources_and_javadoc(built: tuple[Registry, Path]) -> None:
    from test_java_packaging import assert_artifacts

    registry, out = built
    assert_artifacts(out / "java", target.build_directory(out / "java"), registry)


@pytest.mark.parametrize("built", sorted(set(REGISTRIES) - {"default"}), indirect=True)  # default: test_language_harness.py
@pytest.mark.slow  # Maven and the JVM
def test_runner_passes_the_vectors(built: tuple[Registry, Path]) -> None:
    _, out = built
    vectors = out / "conformance" / "vectors.json"
    argv, cwd, tool = target.conformance_command(out / "java", vectors, "check")
    assert tool == "mvn"
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300)
    count = len(json.loads(vectors.read_text(encoding="utf-8"))["vectors"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"{count} passed, 0 failed"


@pytest.mark.slow  # Maven and the JVM
def test_emit_prints_one_line_per_vector_matching_the_expectations(built: tuple[Registry, Path]) -> None:
    _, out = built
    vectors = json.loads((out / "conformance" / "vectors.json").read_text(encoding="utf-8"))["vectors"]
    argv, cwd, _ = target.conformance_command(out / "java", out / "conformance" / "vectors.json", "emit")
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in _lines(done.stdout)]
    assert [line["name"] for line in lines] == [v["name"] for v in vectors]
    for line, vector in zip(lines, vectors):
        transport = "transport" in vector["input"]  # no payload: the decision alone
        assert list(line) == (["name", "decision"] if transport else ["name", "valid", "problems", "parsed", "decision"])
        assert {k: line[k] for k in vector["expected"]} == vector["expected"], vector["name"]


def _lines(stdout: str) -> list[str]:
    # One line per vector: split at newlines only (a string may hold U+2028, which splitlines() splits at).
    return [line for line in stdout.split("\n") if line]


def _emit(target_module: Any, sdk: Path, inputs: Path) -> list[str]:
    argv, cwd, _ = target_module.conformance_command(sdk, inputs, "emit")
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return _lines(done.stdout)


@pytest.mark.slow  # Maven and the JVM
def test_runner_reports_a_wrong_expectation(built: tuple[Registry, Path]) -> None:
    _, out = built
    vector = json.loads((out / "conformance" / "vectors.json").read_text(encoding="utf-8"))["vectors"][0]
    wrong = {**vector, "expected": {**vector["expected"], "decision": {**vector["expected"]["decision"], "action": "dance"}}}
    path = out / "wrong.json"
    path.write_text(json.dumps({"vectors": [vector, wrong]}), encoding="utf-8")
    argv, cwd, _ = target.conformance_command(out / "java", path, "check")
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"FAIL {vector['name']}: decision: expected {json.dumps(wrong['expected']['decision'], separators=(',', ':'), ensure_ascii=False)}, "
        f"got {json.dumps(vector['expected']['decision'], separators=(',', ':'), ensure_ascii=False)}",
        "1 passed, 1 failed",
    ]


PROBE = """import {package}.*;
import java.util.ArrayList;
import java.util.List;

public final class {name} {{
  public static String run() {{
    List<String> codes = new ArrayList<>();
    for (Code c : Code.values()) {{
      if (c != Code.UNKNOWN_TO_SDK_VERSION) {{
        codes.add(c.wire());
      }}
    }}
    List<String> descriptions = new ArrayList<>();
    for (RecoveryEntry e : RecoveryTable.entries()) {{
      descriptions.add(e.description());
    }}
    List<String> categories = new ArrayList<>();
    for (Category c : Category.values()) {{
      if (c != Category.UNKNOWN_TO_SDK_VERSION) {{
        categories.add(c.wire());
      }}
    }}
    return Json.write(List.of(codes, descriptions, categories));
  }}
}}
"""
# Runs each named probe, one line each, in the order given.
PROBES = """public final class Probes {
  public static void main(String[] args) throws Exception {
    for (String name : args) {
      System.out.println(Class.forName(name).getMethod("run").invoke(null));
    }
  }
}
"""


def _probe_name(registry: str) -> str:
    return f"Probe{registry.capitalize()}"


@pytest.mark.slow  # Maven and the JVM
def test_the_sdk_carries_every_wire_string_and_description_exactly(built: tuple[Registry, Path], probed: dict[str, Any]) -> None:
    registry, out = built
    [name] = [name for name, (_, o) in probed["projects"].items() if o == out]
    codes, descriptions, categories = json.loads(probed["carried"][name])
    assert codes == [c.name for c in registry.codes]
    assert descriptions == [c.description for c in registry.codes]
    assert categories == [c.name for c in registry.categories]


FAKE_SPAN = """package io.opentelemetry.api.trace;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A stand-in for OpenTelemetry's Span (same package, same two methods): records what is set. */
public interface Span {
  List<String> SEEN = new CopyOnWriteArrayList<>();

  static Span current() {
    return new Span() {};
  }

  default Span setAttribute(String key, String value) {
    SEEN.add(key + "=" + value);
    return this;
  }
}
"""
TRACED = """import {package}.*;
import io.opentelemetry.api.trace.Span;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

public class Traced {{
  public static void main(String[] args) throws Exception {{
    AtomicInteger calls = new AtomicInteger();
    List<String> observed = new ArrayList<>();
    String ok =
        Retrier.withDefaults()
            .sleeper(d -> {{}})
            .onAttempt(a -> observed.add(a.attempt() + " " + a.errorType() + " " + a.willRetry()))
            .call(
                () -> {{
                  if (calls.incrementAndGet() == 1) {{
                    throw new ConnectException("refused");
                  }}
                  return "ok";
                }});
    String recovered = ok + " " + observed + " " + Span.SEEN;
    observed.clear();
    try {{
      Retrier.withDefaults()
          .sleeper(d -> {{}})
          .maxAttempts(2)
          .onAttempt(a -> observed.add(a.attempt() + " " + a.errorType() + " " + a.willRetry()))
          .call(
              () -> {{
                throw new ConnectException("refused");
              }});
    }} catch (ConnectException e) {{
      System.out.print(recovered + "; failed " + observed + " " + Span.SEEN);
    }}
  }}
}}
"""


# Issue 40, the client helpers: HttpURLConnection through Errors.throwIfError(connection) (docs'
# AnyClient.get: an empty 503 used to need c.getErrorStream(), null for it), and headers as the
# entries Spring Framework 7's HttpHeaders.headerSet() gives (no Map there any more).
CLIENTS = """import {package}.*;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

public class Clients {{
  public static void main(String[] args) throws Exception {{
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    Object[][] routes = {{
      {{"/ok", 200, "fine"}}, {{"/empty", 503, ""}}, {{"/html", 502, "<html><h1>502 Bad Gateway</h1></html>"}},
      {{"/limited", 429, "{{\\"code\\":\\"RATE_LIMITED\\",\\"category\\":\\"rate_limit\\",\\"retryable\\":true,"
          + "\\"scope\\":\\"service\\",\\"correlation_id\\":\\"req-1\\"}}"}},
      {{"/bare", 429, ""}}, {{"/shared", 422, ""}},
      {{"/newer", 429, "{{\\"code\\":\\"NOPE\\",\\"category\\":\\"newer\\",\\"retryable\\":true,"
          + "\\"scope\\":\\"service\\",\\"correlation_id\\":\\"req-2\\"}}"}}}};
    for (Object[] route : routes) {{
      server.createContext(
          (String) route[0],
          exchange -> {{
            byte[] body = ((String) route[2]).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Retry-After", "2");
            exchange.sendResponseHeaders((Integer) route[1], body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {{
              out.write(body);
            }}
          }});
    }}
    server.start();
    StringBuilder seen = new StringBuilder();
    try {{
      for (Object[] route : routes) {{
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + route[0];
        try {{
          seen.append(AnyClient.get(URI.create(url).toURL()));
        }} catch (ServiceException e) {{
          seen.append(e.getClass().getSimpleName()).append(' ').append(e.status()).append(' ')
              .append(e.errorType()).append(' ').append(e.decide(1).action().wire()).append(' ')
              .append(e.requestId().orElse("-")).append(": ").append(e.getMessage());
          if (e instanceof ErrorPayloadException p) {{
            seen.append(" [").append(p.category().name()).append(' ')
                .append(p.optionalPayload().isPresent()).append(']');
          }}
        }}
        seen.append('\\n');
      }}
      // docs' Example.handle, the caller deciding by hand: the HTML 502 by its status.
      java.net.http.HttpResponse<String> page =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/html"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
      Decision handled = Example.handle(page, 1);
      seen.append(handled.action().wire()).append(' ').append(handled.reason().wire()).append('\\n');
    }} finally {{
      server.stop(0);
    }}
    ServiceException bare =
        AnyClient.errorOf(429, List.of(Map.entry("Retry-After", List.of("3"))), new byte[0]).orElseThrow();
    seen.append(bare.getClass().getSimpleName()).append(' ')
        .append(bare.headers().firstValue("retry-after").orElse("?")).append(' ')
        .append(bare.decide(1).optionalDelayMs().orElse(-1L)).append(' ')
        .append(AnyClient.errorOf(204, List.of(), new byte[0]).isPresent()).append('\\n');
    byte[] unknown = "{{\\"code\\":\\"NOPE\\",\\"category\\":\\"x\\"}}".getBytes(StandardCharsets.UTF_8);
    for (int status : new int[] {{400, 422, 429}}) {{
      seen.append(AnyClient.errorOf(status, Map.of(), unknown).orElseThrow().getClass().getSimpleName())
          .append(' ');
    }}
    seen.append(AnyClient.errorOf(400, Map.of(), unknown).orElseThrow().getMessage());
    System.out.print(seen);
  }}
}}
"""

@pytest.fixture(scope="module")
def probed(projects: dict[str, tuple[Registry, Path]], tmp_path_factory: Any) -> dict[str, Any]:
    """The programs that use the three SDKs as a user would, compiled by ONE `javac --release 17
    -Xlint:all -Werror` run against the projects' classes (compiled by the pom's javac -Xlint:all
    -Werror) and Jackson alone (the compile scope): a probe per registry, the tracing program with
    its stand-in Span, and docs/sdk-java.md's blocks (see test_java_docs.py) as they stand. The
    stand-in is then moved to a folder of its own, so only the tracing program runs with it. The
    probes run in one JVM here."""
    from test_java_docs import _blocks

    root = tmp_path_factory.mktemp("java-probes")
    span = root / "src" / "io" / "opentelemetry" / "api" / "trace" / "Span.java"
    span.parent.mkdir(parents=True)
    span.write_text(FAKE_SPAN, encoding="utf-8")
    sources = [span]
    for name, block in {**_blocks(), "Probes": PROBES,
                        "Traced": TRACED.format(package=target._package_of(projects["default"][1] / "java")),
                        "Clients": CLIENTS.format(package=target._package_of(projects["default"][1] / "java"))}.items():
        sources.append(root / "src" / f"{name}.java")
        sources[-1].write_text(block, encoding="utf-8")
    for name, (_, out) in projects.items():
        sources.append(root / "src" / f"{_probe_name(name)}.java")
        sources[-1].write_text(PROBE.format(package=target._package_of(out / "java"), name=_probe_name(name)), encoding="utf-8")
    jackson = {(target.build_directory(out / "java") / "classpath.txt").read_text().strip() for _, out in projects.values()}
    assert len(jackson) == 1, jackson  # one pom: the same dependencies
    sdks = [str(target.build_directory(out / "java") / "classes") for _, out in projects.values()]
    classpath = ":".join([*sdks, *jackson])
    classes = root / "classes"
    done = subprocess.run([_need("javac"), *QUICK_JAVAC, "--release", "17", "-Xlint:all", "-Werror", "-cp", classpath, "-d", str(classes),
                           *map(str, sources)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-6000:]
    (root / "span").mkdir()
    shutil.move(str(classes / "io"), str(root / "span" / "io"))
    names = sorted(projects)
    done = subprocess.run([_need("java"), *QUICK_JVM, "-cp", f"{classes}:{classpath}", "Probes", *map(_probe_name, names)],
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    carried = done.stdout.decode("utf-8").split("\n")
    assert len(carried) == len(names) + 1 and carried[-1] == ""
    return {"projects": projects, "classpath": f"{classes}:{classpath}", "span": str(root / "span"),
            "carried": dict(zip(names, carried))}


@pytest.mark.slow  # javac and the JVM
def test_each_attempt_reaches_the_observer_and_the_current_span(probed: dict[str, Any]) -> None:
    """Issue 40: the retrier's hooks. The observer sees each decided attempt; with the OpenTelemetry
    API on the class path (a stand-in here: the SDK depends on nothing) the current span gets
    `error.type` when the call ends with the error, and not for an error a retry recovered from (the
    semantic conventions: no `error.type` on an operation that succeeded)."""
    done = subprocess.run([_need("java"), *QUICK_JVM, "-cp", f"{probed['span']}:{probed['classpath']}", "Traced"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok [1 refused true] []; failed [1 refused true, 2 refused false] [error.type=refused]"


@pytest.mark.slow  # the JVM
def test_httpurlconnection_and_spring_7_headers_read_as_the_docs_say(probed: dict[str, Any]) -> None:
    """Issue 40, the client helpers, through docs/sdk-java.md's AnyClient: `Errors.throwIfError(connection)`
    leaves a success's body to the caller and turns an empty 503, an HTML 502 and a 429 payload into
    the SDK's exceptions, decided; headers given as Spring 7's `headerSet()` entries are read. The
    page's caller deciding by hand (Example.handle) retries the HTML 502 by its status."""
    done = subprocess.run([_need("java"), *QUICK_JVM, "-cp", probed["classpath"], "Clients"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    # requestId() and the message name the id to quote (none sent: none quoted), the message the status.
    # A response without a payload of a category the SDK knows takes the class of the category the
    # registry gives its status (registry/errors.yaml: 429 rate_limit, 503 internal, 400
    # validation; 502 none, 422 two: business and validation), its accessors unchanged: no
    # payload, the category unknown, decided by the status.
    assert done.stdout.splitlines() == [
        "fine", "InternalException 503 503 pause -: HTTP 503 without an error payload [UNKNOWN_TO_SDK_VERSION false]",
        "NoPayloadException 502 502 retry -: HTTP 502 without an error payload",
        "RateLimitException 429 RATE_LIMITED pause req-1: RATE_LIMITED (HTTP 429, request id req-1) [RATE_LIMIT true]",
        "RateLimitException 429 429 pause -: HTTP 429 without an error payload [UNKNOWN_TO_SDK_VERSION false]",
        "NoPayloadException 422 422 fix -: HTTP 422 without an error payload",
        "RateLimitException 429 NOPE pause req-2: NOPE (HTTP 429, request id req-2) [UNKNOWN_TO_SDK_VERSION true]",
        "retry status-fallback", "RateLimitException 3 3000 false",
        "ValidationException ErrorPayloadException RateLimitException NOPE (HTTP 400)"]


@pytest.mark.slow  # javac and the JVM
def test_the_java_page_compiles_strictly_and_runs(probed: dict[str, Any]) -> None:
    """docs/sdk-java.md (see test_java_docs.py): its blocks, one program, compiled as they stand (in
    the `probed` javac run) against the default SDK, then run without the stand-in Span."""
    done = subprocess.run([_need("java"), *QUICK_JVM, "-cp", probed["classpath"], "Demo"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith('429 1 {"code":"RATE_LIMITED","category":"rate_limit","retryable":true,"retry_after_ms":1000,')
    # The gateway's HTML 502 is decided by its status, retried after the backoff, and observed.
    assert lines[1:] == ["{} {} [429, 200, 429, 200]", "attempt 1: 502 -> retry (status-fallback)", "{}"]


def test_hostile_registry_uses_its_java_coordinates() -> None:
    files = target.render(_with_odd_codes(_load(FIXTURES / "java" / "hostile.yaml")))
    pom = files["java/pom.xml"]
    assert "<groupId>org.hostile</groupId>" in pom and "<artifactId>hostile-errors</artifactId>" in pom
    code = files["java/src/main/java/org/hostile/errors/Code.java"]
    assert "  CARD_DECLINED_2(\"CARD_DECLINED\")," in code and "  UNKNOWN_TO_SDK_VERSION_2(" in code
    assert all(text.isascii() for path, text in files.items() if path.endswith(".java"))


def test_a_bad_java_package_stops_the_build_with_a_message(tmp_path: Path) -> None:
    from conftest import run_errgen

    registry = tmp_path / "errors.yaml"
    text = (FIXTURES / "java" / "hostile.yaml").read_text(encoding="utf-8")
    registry.write_text(text.replace("package: org.hostile.errors", "package: org.class.errors"), encoding="utf-8")
    done = run_errgen("build", "--registry", str(registry), "--out", str(tmp_path / "out"), "--target", "java")
    assert done.returncode == 1  # lint stops it first (target-package), so nothing is built
    assert "error[target-package]: targets.java.package 'org.class.errors': 'class' is not a Java identifier" in done.stderr
    assert not (tmp_path / "out" / "java").exists()


PROBE_LARGE = """
import {package}.*;

public class ProbeLarge {{
  public static void main(String[] args) {{
    Code last = Code.{last};
    if (Code.values().length != {count} + 1 || Code.fromWire("{last_wire}") != last
        || Code.valueOf("{last}") != last || last.ordinal() != {count} - 1 || !last.name().equals("{last}")
        || Code.fromWire("nope") != Code.UNKNOWN_TO_SDK_VERSION || Code.values()[{count}] != Code.UNKNOWN_TO_SDK_VERSION
        || RecoveryTable.entry(last).isEmpty() || Code.values()[0].compareTo(last) >= 0) {{
      throw new AssertionError("wrong Code table");
    }}
    System.out.print("ok");
  }}
}}
"""


@pytest.mark.slow  # javac on 20,000 constants
def test_a_registry_of_20000_codes_compiles_and_keeps_codes_surface(tmp_path: Path) -> None:
    """Issue 26 item 7: past ENUM_LIMIT codes `Code` is a class with an enum's surface (a Java enum
    stops compiling at about 3,400 constants), laid out as google-java-format lays it out."""
    import sys

    sys.path.insert(0, str(ROOT))
    try:
        from bench.synth import registry_text
    finally:
        sys.path.remove(str(ROOT))
    count = 20_000
    registry = lint_text(registry_text(count)).registry
    assert registry is not None
    build(registry, tmp_path, ["java"])
    src = next((tmp_path / "java" / "src" / "main" / "java").rglob("Code.java")).parent
    assert len(list(src.glob("CodePart*.java"))) == -(-count // target.PART_SIZE)
    if GJF_JAR.exists():
        sources = [str(src / "Code.java"), str(src / "CodePart0.java")]
        done = subprocess.run([_need("java"), *QUICK_JVM, *GJF_OPENS, "-jar", str(GJF_JAR), "--dry-run", "--set-exit-if-changed", *sources],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr
    package = target._package_of(tmp_path / "java")
    jackson = [str(p) for p in sorted((Path.home() / ".m2/repository/com/fasterxml/jackson/core").rglob("*.jar"))
               if "-sources" not in p.name and "-javadoc" not in p.name]
    if not jackson:
        pytest.skip("needs Jackson in ~/.m2 (any other Java test downloads it)")
    classes = tmp_path / "classes"
    probe = tmp_path / "ProbeLarge.java"
    probe.write_text(PROBE_LARGE.format(package=package, count=count, last=f"CODE_{count - 1:06d}", last_wire=f"CODE_{count - 1:06d}"),
                     encoding="utf-8")
    classpath = ":".join(jackson)
    done = subprocess.run([_need("javac"), *QUICK_JAVAC, "--release", "17", "-Xlint:all", "-Werror", "-cp", classpath, "-d", str(classes),
                           *map(str, sorted(src.glob("*.java"))), str(probe)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    shutil.copytree(tmp_path / "java" / "src" / "main" / "resources", classes, dirs_exist_ok=True)
    done = subprocess.run([_need("java"), *QUICK_JVM, "-cp", f"{classes}:{classpath}", "ProbeLarge"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == "ok", done.stdout + done.stderr


@pytest.mark.slow  # the JVM
def test_the_jar_on_the_module_path_tells_its_version(projects: dict[str, tuple[Registry, Path]], tmp_path: Path) -> None:
    """The jar as an automatic module (a modular application's module path): RecoveryTable.version()
    was empty there (a named module's packages carry no manifest values), as if not from the jar."""
    registry, out = projects["default"]
    built = target.build_directory(out / "java")
    package = target._package_of(out / "java")
    [jar] = [p for p in built.glob("*.jar") if not p.stem.endswith(("-sources", "-javadoc"))]
    jackson = (built / "classpath.txt").read_text().strip()
    probe = tmp_path / "Version.java"
    probe.write_text(f"""public class Version {{
  public static void main(String[] args) {{
    Module module = {package}.RecoveryTable.class.getModule();
    System.out.print(module.getName() + " " + {package}.RecoveryTable.version().orElse("none"));
  }}
}}
""", encoding="utf-8")
    done = subprocess.run([_need("java"), *QUICK_JVM, "--module-path", f"{jar}:{jackson}", "--add-modules", package, str(probe)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{package} {view(registry).version}"


def test_the_jar_is_a_library_with_a_module_name() -> None:
    """Issue 26: the jar's Main-Class was the conformance runner, and it had no JPMS name."""
    files = target.render(_load(REGISTRY))
    pom = files["java/pom.xml"]
    assert "<mainClass>" not in pom and "Main-Class" not in pom
    [runner] = [text for path, text in files.items() if path.endswith("/ConformanceRunner.java")]
    package = runner.split("package ", 1)[1].split(";", 1)[0]
    assert f"<Automatic-Module-Name>{package}</Automatic-Module-Name>" in pom
