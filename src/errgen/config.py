"""Project settings: `errgen.toml`, or `[tool.errgen]` in `pyproject.toml`.

The nearest folder holding an `errgen.toml` or a `pyproject.toml` with a `[tool.errgen]` table
supplies the defaults every command uses; a flag on the command line wins. Paths are relative to
the file that sets them, as in ruff and mypy.

The search starts in the current folder and climbs only inside its repository: it stops at the
repository root (the first folder up with a `.git`, file or folder). Outside a repository only
the current folder is read. A settings file in a shared folder above a checkout (it can set `out`
to a folder whose runner `errgen conformance` runs, or allow every leak) is never obeyed. With
-v every command says which file it used, or where it looked.

`registry` and `out` must resolve inside the repository root once links are followed (outside a
repository, inside the current folder): the settings come with the checkout, so a pull request
could otherwise point errgen at ~/.netrc or write outside. Anything else is a ConfigError that
names the file, the key and the value as written (errgen.paths). A settings file that is itself
a link leading out of the repository is not read.

    registry = "contract/errors.yaml"
    out = "sdk"
    targets = ["python", "typescript"]
    docs-url = "https://docs.example.com/errgen/"   # your copy of errgen's docs/: output links to it

    [validate]                         # [tool.errgen.validate] in pyproject.toml
    allow-hosts = ["status.example.com"]
    allow-patterns = ["^req_[0-9a-f]{16}$"]
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import click

from errgen.paths import search_path

FILE_NAMES = ("errgen.toml", "pyproject.toml")


class ConfigError(Exception):
    """A settings file errgen cannot use; the message names the file and the key."""


def _path(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _strings(value: Any) -> list[str] | None:
    return value if isinstance(value, list) and all(isinstance(v, str) for v in value) else None


# key -> (what it must be, converter returning None when the value is not that, is it a path)
def _url(value: Any) -> str | None:
    """An http(s) base URL, made to end in '/' (pages are joined to it)."""
    if not isinstance(value, str) or not re.fullmatch(r"https?://[^\s\x00-\x1f\x7f<>\"`]+", value):
        return None
    return value if value.endswith("/") else value + "/"


_TOP: dict[str, tuple[str, Callable[[Any], Any], bool]] = {
    "registry": ("a path (a non-empty string)", _path, True),
    "docs-url": ("an http(s) URL, where errgen's docs/ pages are published", _url, False),
    "out": ("a path (a non-empty string)", _path, True),
    "targets": ("a list of target names (strings)", _strings, False),
}
_VALIDATE: dict[str, tuple[str, Callable[[Any], Any], bool]] = {
    "allow-hosts": ("a list of hostnames (strings)", _strings, False),
    "allow-patterns": ("a list of regular expressions (strings)", _strings, False),
}
# setting -> the command parameter it is the default of, in every command that has one
PARAMETERS = {
    "registry": ("registry_path",),
    "out": ("out_dir",),
    "targets": ("targets",),
    "docs-url": (),  # not a command's default: the base of the links errgen prints (errgen.manual)
    "validate.allow-hosts": ("allow_hosts",),
    "validate.allow-patterns": ("allow_patterns",),
}


@dataclass(frozen=True)
class Config:
    source: Path | None = None  # the file the settings came from; None when there is none
    table: str = ""  # "[tool.errgen]" or "" for errgen.toml
    values: dict[str, Any] = field(default_factory=dict)  # dotted setting -> value
    searched: str = ""  # where the lookup went, for -v when no file was found

    def described(self) -> str:
        if self.source is not None:
            return f"settings from {self.origin('').strip()}"
        return f"no settings file (errgen.toml, or [tool.errgen] in pyproject.toml) {self.searched}"

    def origin(self, setting: str) -> str:
        """Where a setting came from, for messages: 'pyproject.toml [tool.errgen] registry'."""
        key = setting if not self.table else f"{self.table} {setting}"
        return f"{_display(self.source)} {key}" if self.source else setting

    def label(self, setting: str) -> str:
        """How a message names a setting: 'errgen.toml: registry', 'pyproject.toml: [tool.errgen] out'."""
        return f"{_display(self.source)}: {self.table + ' ' if self.table else ''}{setting}"

    def defaults(self, parameter_names: dict[str, set[str]]) -> dict[str, dict[str, Any]]:
        """click's default_map: for each command (by its parameter names), the values it takes."""
        out: dict[str, dict[str, Any]] = {}
        for command, names in parameter_names.items():
            chosen = {param: value for setting, value in self.values.items()
                      for param in PARAMETERS[setting] if param in names}
            if command == "init" and "registry" in self.values:  # `errgen init [PATH]` writes the registry
                chosen["path"] = self.values["registry"]
            if chosen:
                out[command] = chosen
        return out


def _display(path: Path | None) -> str:
    if path is None:
        return ""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


def find(start: Path) -> Config:
    """The settings that apply in `start`, or an empty Config saying where it looked."""
    folders, root = search_path(start)
    for folder in folders:
        own = folder / "errgen.toml"
        if own.is_file():
            return parse(own, _read(_inside(own, root or start)), "")
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            table = _read(_inside(pyproject, root or start)).get("tool", {}).get("errgen")
            if table is not None:
                return parse(pyproject, table, "[tool.errgen]")
    if root is None:
        return Config(searched=f"in {_display(start) or '.'} (not in a git repository: parent folders are not read)")
    if root == start.absolute():
        return Config(searched=f"in {_display(start)} (the repository root)")
    return Config(searched=f"in {_display(start)} or a parent up to the repository root {_display(root)}")


def _inside(path: Path, root: Path) -> Path:
    """A settings file is the repository's own: one that is a link leading out of it (to a
    TOML file of someone else's, whose keys and values an error would quote) is refused."""
    real, top = os.path.realpath(path), os.path.realpath(root)
    if real != top and not real.startswith(top.rstrip(os.sep) + os.sep):
        raise ConfigError(f"{_display(path)}: leads outside the repository ({top}) through a symbolic link; "
                          "errgen does not read it")
    return path


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{_display(path)}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{_display(path)}: cannot read: {exc.strerror}") from None


def parse(path: Path, table: Any, name: str) -> Config:
    where = f"{_display(path)}: {name + ' ' if name else ''}"
    if not isinstance(table, dict):
        raise ConfigError(f"{where}must be a table of settings")
    values: dict[str, Any] = {}
    for key, raw in table.items():
        if key == "validate":
            if not isinstance(raw, dict):
                raise ConfigError(f"{where}validate must be a table ([{name[1:-1] + '.' if name else ''}validate])")
            values.update(_settings(raw, _VALIDATE, where, path.parent, "validate."))
        else:
            values.update(_settings({key: raw}, _TOP, where, path.parent, ""))
    return Config(path, name, values)


def _settings(table: dict[str, Any], spec: dict[str, tuple[str, Callable[[Any], Any], bool]],
              where: str, base: Path, prefix: str) -> dict[str, Any]:
    out = {}
    known = [*spec, *(["validate"] if not prefix else [])]
    for key, raw in table.items():
        if key not in spec:
            near = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean {near[0]!r}?" if near else f"expected one of: {', '.join(known)}"
            raise ConfigError(f"{where}unknown key {prefix + key!r}; {hint}")
        expected, convert, is_path = spec[key]
        value = convert(raw)
        if value is None:
            raise ConfigError(f"{where}{prefix + key} must be {expected}, found {raw!r}")
        if is_path:
            _confine(base / value, f"{where}{prefix + key}", value, base)
        out[prefix + key] = _display(base / value) if is_path else value
    return out


def _confine(path: Path, label: str, written: str, base: Path) -> None:
    """A path setting resolves inside the repository root, links followed (errgen.paths): a
    pull request's settings never point errgen at a file, or an output folder, outside it."""
    from errgen.paths import Outside, confine

    try:
        confine(path, label, written, start=base)
    except Outside as exc:
        raise ConfigError(str(exc)) from None


# Wiring into the command line: the group reads the settings once; commands ask where a value came from.
_META = "errgen.settings"


def install(ctx: click.Context, start: Path) -> None:
    """Make the settings that apply in `start` the defaults of every command of ctx's group."""
    from errgen import manual

    settings = find(start)
    ctx.meta[_META] = settings
    manual.use(settings.values.get("docs-url"))
    if settings.source is None:
        return
    assert isinstance(ctx.command, click.Group)
    ctx.default_map = settings.defaults({name: {p.name for p in cmd.params if p.name}
                                         for name, cmd in ctx.command.commands.items()})


def unsaid() -> str | None:
    """Where the settings came from, the first time a command asks (errgen.console says it with
    -v; not in `install`: a subcommand's own -v is parsed after it runs); else None."""
    meta = click.get_current_context().meta
    if _META in meta and not meta.get(f"{_META}.said"):
        meta[f"{_META}.said"] = True
        return str(meta[_META].described())
    return None


def label(param: str, setting: str, flag: str) -> str:
    """How a message names where the current command's `param` came from: the setting that set
    it ('errgen.toml: registry'), else the flag ('--registry')."""
    ctx = click.get_current_context()
    settings = ctx.meta.get(_META)
    if ctx.get_parameter_source(param) is click.core.ParameterSource.DEFAULT_MAP and settings is not None \
            and settings.source is not None:
        return str(settings.label(setting))
    return flag


def set_by(param: str, setting: str, value: object) -> str:
    """' (set by pyproject.toml [tool.errgen] registry)' when `value` is the current command's
    `param` and came from the settings, for messages about it; else ''."""
    ctx = click.get_current_context()
    if ctx.params.get(param) == value and ctx.get_parameter_source(param) is click.core.ParameterSource.DEFAULT_MAP \
            and _META in ctx.meta and ctx.meta[_META].source is not None:
        return f" (set by {ctx.meta[_META].origin(setting)})"
    return ""
