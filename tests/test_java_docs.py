"""docs/sdk-java.md as a user reads it (issue 26, Done when): every ```java block of the page is a
file of one program, compiled as it stands against the default registry's Java SDK with
`javac -Xlint:all -Werror` (no @SuppressWarnings), then run: a service builds, throws and maps an
error to HTTP, and a client gets its 429, reads Retry-After, decides, waits and retries, by hand
and with Retrier, then a load balancer's HTML 502, retried by its status and seen by the observer. javac and the JVM only; Maven once, for Jackson's classpath (offline first)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT
from errgen.emit.build import build
from errgen.registry.lint import lint_path

DOC = ROOT / "docs" / "sdk-java.md"
QUICK_JVM = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]


def _blocks() -> dict[str, str]:
    """Each ```java block under the name of the class it declares."""
    blocks = re.findall(r"^```java\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)
    named = {}
    for block in blocks:
        found = re.search(r"^(?:public )?(?:final )?class (\w+)", block, re.M)
        assert found, block[:200]
        named[found.group(1)] = block
    assert len(named) == len(blocks)
    return named


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"needs {tool}")
    return path


def test_the_page_shows_the_client_and_the_service_with_the_sdk_alone() -> None:
    blocks = _blocks()
    program = "\n".join(blocks.values())
    assert {"Refunds", "Invoices", "Demo", "Catching", "Observed", "AnyClient"} <= set(blocks)
    for needed in ("Errors.newError(", "throw ErrorPayloadException.of(", ".toHttp()", "Errors.throwIfError(response)",
                   "HttpResponse<String>", "e.decide(attempt)", "Thread.sleep(d.delay()", "Retrier.retry(",
                   # Issue 40: the error hierarchy, the hooks and the client helpers, compiled.
                   "catch (NoPayloadException e)", "catch (RateLimitException e)", "e.headers().firstValue(", "e.status()",
                   "TransportFailure.of(e)", "Errors.decideFailure(", ".onAttempt(", "a.errorType()", "retrier.send(",
                   "Errors.errorOf(status, headers, body)"):
        assert needed in program, needed
    assert "@SuppressWarnings" not in program and "(Object)" not in program
    doc = DOC.read_text(encoding="utf-8")
    assert "mvn -q install" in doc and "<artifactId>acme-errors</artifactId>" in doc


@pytest.mark.slow  # Maven (once, offline), javac and the JVM
def test_the_page_compiles_strictly_and_runs(tmp_path: Path) -> None:
    javac, java, mvn = _need("javac"), _need("java"), _need("mvn")
    registry = lint_path(REGISTRY).registry
    assert registry is not None
    build(registry, tmp_path, ["java"])
    sdk = tmp_path / "java"
    classpath_file = tmp_path / "classpath.txt"
    command = [mvn, "-q", "-B", "dependency:build-classpath", f"-Dmdep.outputFile={classpath_file}",
               "-Dmdep.includeScope=compile", f"-Derrgen.build.directory={tmp_path / 'target'}"]
    env = {**os.environ, "MAVEN_OPTS": " ".join(QUICK_JVM)}
    done = subprocess.run([*command, "-o"], cwd=sdk, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0 and "offline" in done.stdout + done.stderr:
        done = subprocess.run(command, cwd=sdk, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    jackson = classpath_file.read_text(encoding="utf-8").strip()

    doc = tmp_path / "doc"
    doc.mkdir()
    for name, block in _blocks().items():
        (doc / f"{name}.java").write_text(block, encoding="utf-8")
    classes = tmp_path / "classes"
    sources = [*map(str, sorted((sdk / "src" / "main" / "java").rglob("*.java"))), *map(str, sorted(doc.glob("*.java")))]
    done = subprocess.run([javac, "--release", "17", "-Xlint:all", "-Werror", "-cp", jackson, "-d", str(classes), *sources],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-6000:]
    shutil.copytree(sdk / "src" / "main" / "resources", classes, dirs_exist_ok=True)

    done = subprocess.run([java, *QUICK_JVM, "-cp", f"{classes}:{jackson}", "Demo"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith('429 1 {"code":"RATE_LIMITED","category":"rate_limit","retryable":true,"retry_after_ms":1000,')
    # The gateway's HTML 502 is decided by its status, retried after the backoff, and observed.
    assert lines[1:] == ["{} {} [429, 200, 429, 200]", "attempt 1: 502 -> retry (status-fallback)", "{}"]
