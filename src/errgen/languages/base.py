"""What a language declares, so that the shared code can ask instead of naming languages.

Each folder languages/<name>/ holds a `language.py` whose `LANGUAGE` is a `Language`; the registry
(errgen.languages) finds them. A declaration is cheap to import (lint reads the package settings),
so it names its target module instead of importing it: the target, with its templates and
formatters, is loaded only to render.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping

# (argv, working folder, the tool it needs): how `errgen conformance` runs a built SDK's runner.
RunnerCommand = tuple[list[str], Path, str]


# (kind, wire value, its words) -> the identifier a language gives a code ("code") or category.
Identifier = Callable[[str, str, tuple[str, ...]], str]


@dataclass(frozen=True)
class SettingCheck:
    """How lint's `target-package` judges one package setting, and what the registry's JSON Schema
    can say of it for editors."""

    problem: Callable[[str], "str | None"]  # what is wrong with a value; None when it is fine
    pattern: "re.Pattern[str]"


def raising(check: Callable[[str], object]) -> Callable[[str], "str | None"]:
    """A naming function that raises ValueError on a bad value, as one that returns the problem."""
    def problem(value: str) -> str | None:
        try:
            check(value)
        except ValueError as exc:
            return str(exc)
        return None

    return problem
# sdk_dir -> the commands that check a built SDK as strictly as its language's tools can (strict
# compiler, formatter, linter), each run in sdk_dir and each to exit 0 (tests/test_language_harness.py).
StrictChecks = Callable[[Path], list[list[str]]]


class LanguageError(Exception):
    """A language folder whose declaration is incomplete or wrong (errgen cannot run: exit 2)."""


@dataclass(frozen=True)
class RegistryName:
    """The registry `name` in the spellings package defaults are made of."""

    snake: str  # acme_billing
    kebab: str  # acme-billing
    flat: str  # acmebilling

    @classmethod
    def of(cls, name: str) -> "RegistryName":
        snake = name.replace("-", "_")
        return cls(snake, snake.replace("_", "-"), snake.replace("_", ""))


@dataclass(frozen=True)
class Language:
    """One language: everything the shared code needs to know about it.

    name:      the target's name and the SDK's folder in OUT; equal to the language's folder name
    settings:  `targets: {<name>: {key: value}}` keys, each with its default from the registry name;
               they feed the registry's structure check, its JSON Schema and `view.packages[name]`
    checks:    setting key -> how lint checks a value of it (a valid name for the language's tools, not one
               the SDK would shadow); a setting without one accepts any string
    identifier: (kind, wire value, its words) -> the name the SDK gives a code or category
               ("code"/"category"), for lint's identifier-collision; None for a language that
               keeps them as string literals
    runner:    (sdk_dir, vectors, mode) -> (argv, cwd, tool): the SDK's conformance runner
    leftovers: manifest file name -> what building that package leaves beside it (OUT/.gitignore)
    filters:   jinja filters its templates use, beside the shared ones (errgen.emit.render)
    strict:    the strict checks of a built SDK (the test harness fails a language without them)
    """

    name: str
    settings: Mapping[str, Callable[[RegistryName], str]]
    runner: Callable[[Path, Path, str], RunnerCommand]
    leftovers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    filters: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    strict: StrictChecks | None = None
    checks: Mapping[str, SettingCheck] = field(default_factory=dict)
    identifier: Identifier | None = None

    def target(self) -> ModuleType:
        """The target module (NAME, SUMMARY, render(registry) -> files): languages/<name>/target.py."""
        module = importlib.import_module(f"errgen.languages.{self.name}.target")
        if getattr(module, "NAME", None) != self.name:
            raise LanguageError(f"languages/{self.name}/target.py must set NAME = {self.name!r}")
        return module

    def packages(self, registry_name: str, given: Mapping[str, str]) -> dict[str, str]:
        """Each setting as written in `targets:`, else its default."""
        names = RegistryName.of(registry_name)
        return {key: given.get(key, default(names)) for key, default in self.settings.items()}

    def check(self, folder: str) -> None:
        if self.name != folder:
            raise LanguageError(f"language folder {folder!r} declares the name {self.name!r}; they must be equal")
        if not callable(self.runner):
            raise LanguageError(f"language {self.name}: no conformance runner (every SDK must run the vectors: docs/conformance.md)")
        if not all(callable(default) for default in self.settings.values()):
            raise LanguageError(f"language {self.name}: each package setting needs a default (a function of the registry name)")
        if not set(self.checks) <= set(self.settings):
            unknown = ", ".join(sorted(set(self.checks) - set(self.settings)))
            raise LanguageError(f"language {self.name}: checks name settings it does not declare: {unknown}")
