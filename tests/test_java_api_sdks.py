"""Issue 25: the generated Java SDK of registries of real APIs (conftest.UNIT_TEST_SAMPLE of
examples/apis: one that reads its code from the status line, an XML one) passes its own JUnit tests
(SdkTest, CheckTest and ConformanceTest, with -Xlint:all -Werror), in one Maven run over an
aggregator pom that lists the projects as modules (Maven resolves the plugins once and builds the
modules one after the other in one JVM; ~/.m2 is shared, offline first). Every API's SDK still compiles and passes its vectors
(tests/test_java_api_shape.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import UNIT_TEST_SAMPLE
from errgen.emit.build import build
from errgen.registry.lint import lint_path

QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
AGGREGATOR = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>errgen.test</groupId>
  <artifactId>api-sdks</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <modules>
{modules}
  </modules>
</project>
"""


def _mvn(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Offline first; online only when something is not in ~/.m2 yet."""
    mvn = shutil.which("mvn")
    if mvn is None or shutil.which("java") is None:
        pytest.skip("needs mvn and java")
    env = {**os.environ, "MAVEN_OPTS": QUICK_JVM}
    command = [mvn, "-q", "-B", *args]
    done = subprocess.run([*command, "-o"], cwd=project, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0 and "offline" in done.stdout + done.stderr:
        done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=1800)
    return done


def _reports(build_dir: Path) -> dict[str, tuple[int, int, int, int]]:
    """Surefire's counts per test class: (run, failures, errors, skipped)."""
    counts = {}
    for path in sorted((build_dir / "surefire-reports").glob("*.txt")):
        found = re.search(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)", path.read_text())
        assert found, path
        counts[path.stem.rsplit(".", 1)[-1]] = tuple(int(n) for n in found.groups())
    return counts


@pytest.mark.slow  # Maven: the sample projects compiled and tested in one run
def test_every_api_registry_java_sdk_passes_its_own_tests(tmp_path: Path) -> None:
    modules = []
    for path in UNIT_TEST_SAMPLE:
        result = lint_path(path)
        assert result.registry is not None, [d.text() for d in result.diagnostics]
        build(result.registry, tmp_path / path.stem, ["java", "conformance"])
        # Each ConformanceTest reads its own registry's vectors as a test resource: a project reads
        # nothing outside itself (issue 40: it builds when copied alone).
        sdk = tmp_path / path.stem / "java"
        [runner] = sdk.glob("src/main/java/**/ConformanceRunner.java")
        resources = sdk / "src" / "test" / "resources" / runner.parent.relative_to(sdk / "src" / "main" / "java")
        resources.mkdir(parents=True)
        shutil.copyfile(tmp_path / path.stem / "conformance" / "vectors.json", resources / "vectors.json")
        modules.append(f"    <module>{path.stem}/java</module>")
    (tmp_path / "pom.xml").write_text(AGGREGATOR.format(modules="\n".join(modules)), encoding="utf-8")
    # The test JVMs surefire starts get the quick flags too (the pom sets no argLine): short runs.
    done = _mvn(tmp_path, f"-DargLine={QUICK_JVM}", "test")
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-3000:]
    for path in UNIT_TEST_SAMPLE:
        counts = _reports(tmp_path / path.stem / "java" / "target")
        assert set(counts) == {"SdkTest", "ConformanceTest", "CheckTest"}, (path.stem, counts)
        for name, (run, failures, errors, skipped) in counts.items():
            assert run > 0 and (failures, errors, skipped) == (0, 0, 0), (path.stem, name, counts[name])
        assert counts["ConformanceTest"][0] > 100  # every vector, read from the resource
