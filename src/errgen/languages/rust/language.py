"""The rust language: its package settings, leftovers, template filters and conformance runner."""

from __future__ import annotations

from pathlib import Path

from errgen.languages.rust import naming
from errgen.languages.base import Language, RunnerCommand, SettingCheck, raising


def runner(sdk_dir: Path, vectors: Path, mode: str) -> RunnerCommand:
    from errgen.languages.rust import target  # loaded only to run: it imports the renderer

    return target.conformance_command(sdk_dir, vectors, mode)


def strict(sdk_dir: Path) -> list[list[str]]:
    """cargo fmt --check; clippy with warnings as errors under the whole pedantic group (issue 40)."""
    return [["cargo", "fmt", "--check"],
            ["cargo", "clippy", "--quiet", "--all-targets", "--all-features", "--", "-D", "warnings",
             "-W", "clippy::pedantic"]]


def identifier(kind: str, name: str, words: tuple[str, ...]) -> str:
    return naming.variant("_".join(words) or name, "Code" if kind == "code" else "Category")


LANGUAGE = Language(
    name="rust",
    settings={"crate": lambda n: f"{n.kebab}-errors"},
    runner=runner,
    leftovers={"Cargo.toml": ("target/", "Cargo.lock")},
    strict=strict,
    checks={"crate": SettingCheck(raising(naming.crate_name), naming.CRATE_NAME)},
    identifier=identifier,
)
