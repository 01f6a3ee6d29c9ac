"""The java language: its package settings, leftovers, template filters and conformance runner."""

from __future__ import annotations

import shlex
from pathlib import Path

from errgen.languages.base import Language, RunnerCommand


def runner(sdk_dir: Path, vectors: Path, mode: str) -> RunnerCommand:
    from errgen.languages.java import target  # loaded only to run: it imports the renderer

    return target.conformance_command(sdk_dir, vectors, mode)


def strict(sdk_dir: Path) -> list[list[str]]:
    """javac -Xlint:all -Werror (the pom's settings) over the sources and the tests; offline first."""
    from errgen.languages.java import target

    build = shlex.quote(f"-Derrgen.build.directory={target.build_directory(sdk_dir)}")
    compile_ = f"mvn -q -B {build} test-compile"
    return [["sh", "-c", f"{compile_} -o || {compile_}"]]


LANGUAGE = Language(
    name="java",
    settings={"group": lambda n: "com.example", "artifact": lambda n: f"{n.kebab}-errors",
              "package": lambda n: f"com.example.{n.flat}errors"},
    runner=runner,
    leftovers={"pom.xml": ("target/",)},
    strict=strict,
)
