"""The java language: its package settings, leftovers, template filters and conformance runner."""

from __future__ import annotations

import shlex
from pathlib import Path

from errgen.languages.java import naming
from errgen.languages.base import Language, RunnerCommand, SettingCheck, raising


def runner(sdk_dir: Path, vectors: Path, mode: str) -> RunnerCommand:
    from errgen.languages.java import target  # loaded only to run: it imports the renderer

    return target.conformance_command(sdk_dir, vectors, mode)


def strict(sdk_dir: Path) -> list[list[str]]:
    """javac -Xlint:all -Werror (the pom's settings) over the sources and the tests; offline first.
    It is the conformance runner's build, in the runner's build folder."""
    from errgen.languages.java import target

    compile_ = target.runner_build(shlex.quote(str(target.build_directory(sdk_dir))))
    return [["sh", "-c", f"{compile_} -o || {compile_}"]]


def identifier(kind: str, name: str, words: tuple[str, ...]) -> str:
    return naming.constant_name(name, words or None)


LANGUAGE = Language(
    name="java",
    settings={"group": lambda n: "com.example", "artifact": lambda n: f"{n.kebab}-errors",
              "package": lambda n: f"com.example.{n.flat}errors"},
    runner=runner,
    leftovers={"pom.xml": ("target/",)},
    strict=strict,
    checks={"group": SettingCheck(raising(lambda v: naming.coordinate("group", v)), naming.COORDINATE),
            "artifact": SettingCheck(raising(lambda v: naming.coordinate("artifact", v)), naming.COORDINATE),
            "package": SettingCheck(raising(naming.package_name), naming.PACKAGE_NAME)},
    identifier=identifier,
)
