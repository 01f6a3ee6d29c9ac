"""What errgen prints besides its results: how much (-q, -v) and in colour or not.

Colour: `--color always|never` wins; otherwise NO_COLOR (set and not empty) turns it off,
FORCE_COLOR (set, not empty and not 0) turns it on, and else a terminal gets colour and a pipe or
file does not. Results (diagnostics, reports) are printed at every verbosity; -q drops the status
lines; -v adds where settings came from and what was left unsaid (registry warnings).
"""

from __future__ import annotations

import functools
import os
import re
import sys
from dataclasses import dataclass
from typing import IO, Any, Callable, Mapping, Sequence

import click

QUIET, NORMAL, VERBOSE = -1, 0, 1
# path:line:col: severity[rule]: message
_DIAGNOSTIC = re.compile(r"^(?P<where>.+?:\d+:\d+:) (?P<severity>error|warning)(?P<rule>\[[a-z0-9-]+\]):")
_SEVERITY_COLOUR = {"error": "red", "warning": "yellow"}


def wants_colour(choice: str, stream: IO[str], environ: Mapping[str, str] = os.environ) -> bool:
    if choice != "auto":
        return choice == "always"
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    return stream.isatty()


@dataclass
class Console:
    level: int = NORMAL
    colour: bool = False

    def status(self, message: str, ok: bool = True) -> None:
        """A line about what happened ('generated: up to date.'), on stderr; -q drops it."""
        if self.level > QUIET:
            click.echo(self._paint(message, "green" if ok else "red", bold=not ok), err=True, color=self.colour)

    def detail(self, message: str) -> None:
        """A line only -v shows."""
        if self.level >= VERBOSE:
            click.echo(self._paint(message, "bright_black"), err=True, color=self.colour)

    def error(self, message: str) -> None:
        """'errgen: ...' on stderr, at every verbosity."""
        click.echo(self._paint("errgen:", "red", bold=True) + " " + message, err=True, color=self.colour)

    def diagnostics(self, text: str, err: bool = True) -> None:
        """Rendered text diagnostics, the severity coloured; printed at every verbosity."""
        if self.colour and err:  # machine formats go to stdout, untouched
            text = "\n".join(self._diagnostic_line(line) for line in text.split("\n"))
        click.echo(text, err=err, color=self.colour)

    def _diagnostic_line(self, line: str) -> str:
        match = _DIAGNOSTIC.match(line)
        if match is None:
            return click.style(line, bold=True) if line.startswith("Found ") else line
        severity = match["severity"]
        head = f"{click.style(match['where'], bold=True)} {click.style(severity, fg=_SEVERITY_COLOUR[severity], bold=True)}{match['rule']}:"
        return head + line[match.end():]

    def _paint(self, text: str, colour: str, bold: bool = False) -> str:
        return click.style(text, fg=colour, bold=bold) if self.colour else text


def current() -> Console:
    """The console of the running command, made on first use; -q, -v and --color adjust it."""
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root() if ctx else None
    if root is not None and isinstance(root.obj, Console):
        return root.obj
    console = Console(colour=wants_colour("auto", sys.stderr))
    if root is not None:
        root.obj = console
    return console


def _choose_level(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value:
        return
    console = current()
    wanted = QUIET if param.name == "quiet" else VERBOSE
    if console.level not in (NORMAL, wanted):
        raise click.UsageError("pass -q or -v, not both", ctx)
    console.level = wanted


def _choose_colour(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        current().colour = wants_colour(value, sys.stderr)


def output_options() -> list[click.Parameter]:
    """-q, -v and --color, accepted before the command (errgen -q build) and after it (errgen build -q)."""
    return [
        click.Option(["-q", "--quiet"], is_flag=True, expose_value=False, callback=_choose_level,
                     help="Print only results and errors, no status lines."),
        click.Option(["-v", "--verbose"], is_flag=True, expose_value=False, callback=_choose_level,
                     help="Also say where settings came from and what was left out (registry warnings)."),
        click.Option(["--color", "colour"], type=click.Choice(["auto", "always", "never"]), default=None,
                     expose_value=False, callback=_choose_colour,
                     help="Colour the output: auto (a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always or never."),
    ]


_HYPHEN = "\u2011"  # a non-breaking hyphen: as wide as "-", and no place to wrap


class HelpFormatter(click.HelpFormatter):
    """Help lines break at spaces only: click's wrapper also breaks after a hyphen, which split
    a rule id or an option across lines (`errgen docs diff-` / `rules`), which then cannot be
    copied. Hyphens are swapped for non-breaking ones while wrapping, then put back."""

    def write_text(self, text: str) -> None:
        start = len(self.buffer)
        super().write_text(text.replace("-", _HYPHEN))
        self._restore(start)

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        start = len(self.buffer)
        super().write_dl([(term, text.replace("-", _HYPHEN)) for term, text in rows], col_max, col_spacing)
        self._restore(start)

    def _restore(self, start: int) -> None:
        self.buffer[start:] = [part.replace(_HYPHEN, "-") for part in self.buffer[start:]]


class Context(click.Context):
    formatter_class = HelpFormatter


class Group(click.Group):
    """A click group whose every command also takes the output options."""

    context_class = Context

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        cmd.context_class = Context
        cmd.params.extend(output_options())
        if cmd.callback is not None:
            cmd.callback = _announcing(cmd.callback)
        super().add_command(cmd, name)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any) -> click.Context:
        """Ctrl-C while the command line is parsed: the same one line and 130 (click itself
        would print "Aborted!" and exit 1)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            click.echo("errgen: interrupted", err=True)
            raise click.exceptions.Exit(130) from None

    def invoke(self, ctx: click.Context) -> object:
        """Ctrl-C ends any command with the shell's convention, exit 130, and one line (a build
        interrupted while staging leaves the output as it was; while moving files in, the next
        build finishes it)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("errgen: interrupted", err=True)
            ctx.exit(130)


def _announcing(callback: Callable[..., Any]) -> Callable[..., Any]:
    """The command, first saying with -v where its settings came from (after the command's own
    -v is parsed, which the group's callback runs too early to see)."""
    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        announce_settings()
        return callback(*args, **kwargs)
    return run


def announce_settings() -> None:
    """With -v, say once where the command's settings came from."""
    from errgen import config

    said = config.unsaid()
    if said is not None:
        current().detail(said)
