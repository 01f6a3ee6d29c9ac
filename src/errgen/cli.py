"""The errgen command line: parse arguments, call the pipeline, turn its result into an exit code.

Exit codes everywhere: 0 success, 1 the input has problems (lint errors, stale outputs, an
unannounced break), 2 errgen could not run (unreadable file, bad arguments).
"""

from __future__ import annotations

import datetime
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from errgen import __version__
from errgen.diagnostics import Fatal

if TYPE_CHECKING:
    from errgen.lint import LintResult

DEFAULT_REGISTRY = Path("registry/errors.yaml")
FORMATS = click.Choice(["text", "json"])

registry_option = click.option(
    "--registry", "registry_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
    help="Registry file. Default: registry/errors.yaml in the current directory.",
)


def _fail(message: str, code: int = 2) -> NoReturn:
    click.echo(f"errgen: {message}", err=True)
    sys.exit(code)


def _registry_path(path: Path | None) -> Path:
    if path is not None:
        return path
    if not DEFAULT_REGISTRY.exists():
        _fail(f"no registry at {DEFAULT_REGISTRY} (run from your project root, pass --registry PATH, "
              "or create one with `errgen init`)")
    return DEFAULT_REGISTRY


def _lint(path: Path | None, fmt: str = "text", source: tuple[bytes, str] | None = None) -> "LintResult":
    """Lint the registry (a file, or bytes with a display name); print problems; exit 2 if
    unreadable, 1 on errors; return the result."""
    from errgen.diagnostics import render
    from errgen.lint import lint_document, lint_path
    from errgen.load import decode, load_text

    try:
        if source is not None:
            result = lint_document(load_text(decode(source[0], source[1]), source[1]))
        else:
            result = lint_path(_registry_path(path))
    except Fatal as exc:
        click.echo(render([exc.diagnostic], fmt), err=fmt == "text")
        sys.exit(2)
    if result.diagnostics or fmt == "json":
        click.echo(render(result.diagnostics, fmt), err=fmt == "text")
    if not result.ok:
        sys.exit(1)
    return result


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="errgen")
def main() -> None:
    """errgen compiles one YAML registry of error codes into the error contract that services,
    SDKs and AI agents import: a JSON Schema, Python and TypeScript SDKs, a recovery table and docs.

    \b
    Typical loop:
      errgen lint            check registry/errors.yaml, report every problem
      errgen build           regenerate generated/ (only if the registry is clean)
      errgen build --check   in CI: fail if generated/ is stale
      errgen diff --against origin/main   in CI: fail on an unannounced breaking change
      errgen bump            set the version and history entry the changes need
      errgen validate FILE   check recorded payloads against the registry, catch leaks

    Exit codes: 0 ok, 1 problems found, 2 errgen could not run.
    """


@main.command()
@registry_option
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True, help="Output format.")
def lint(registry_path: Path | None, fmt: str) -> None:
    """Check the registry and report every problem in one run.

    Each problem is printed as `path:line:col: severity[rule-id]: message`. Exits 0 when there are
    no errors (warnings allowed), 1 when there are errors, 2 when the file cannot be read or parsed.
    """
    result = _lint(registry_path, fmt)
    if fmt == "text":
        click.echo(f"{result.registry.path}: ok ({len(result.registry.codes)} codes)", err=True)


@main.command()
@registry_option
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("generated"),
              show_default=True, help="Output directory.")
@click.option("--target", "targets", multiple=True, metavar="NAME",
              help="Build only this target (repeatable). Default: all. See `errgen targets`.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 listing every stale, missing or extra file.")
def build(registry_path: Path | None, out_dir: Path, targets: tuple[str, ...], check: bool) -> None:
    """Lint the registry, then generate every artifact into the output directory.

    Nothing is written when the registry has a lint error. The outputs are replaced as a whole: a
    crash or kill mid-build leaves the previous outputs intact. errgen only touches files it wrote
    (listed in OUT/.errgen-manifest.json); your own files in OUT are never deleted.
    """
    from errgen import build as pipeline
    from errgen.targets import UnknownTarget

    result = _lint(registry_path)
    try:
        if check:
            report = pipeline.check(result.registry, out_dir, targets)
            if report:
                click.echo(report.render(), err=True)
                click.echo(f"{out_dir} is stale: run `errgen build` and commit the result.", err=True)
                sys.exit(1)
            click.echo(f"{out_dir}: up to date.", err=True)
            return
        changed = pipeline.build(result.registry, out_dir, targets)
    except UnknownTarget as exc:
        _fail(str(exc))
    except pipeline.BuildError as exc:
        _fail(str(exc))
    click.echo(f"{out_dir}: {changed.summary()}", err=True)


@main.command("targets")
def list_targets() -> None:
    """List the build targets and the files each one writes."""
    from errgen.targets import all_targets

    for target in all_targets():
        click.echo(f"{target.NAME:<12} {target.SUMMARY}")


@main.command()
@click.argument("path", type=click.Path(path_type=Path, dir_okay=False), default=DEFAULT_REGISTRY)
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def init(path: Path, force: bool) -> None:
    """Create a starter registry at PATH (default registry/errors.yaml), a copy of errgen's example."""
    from errgen.resources import default_registry_text

    if path.exists() and not force:
        _fail(f"{path} already exists; pass --force to overwrite it")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(default_registry_text(), encoding="utf-8")
    click.echo(f"wrote {path}; next: edit it, then run `errgen lint` and `errgen build`", err=True)


@main.command()
@click.argument("old", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.argument("new", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.option("--against", "ref", metavar="GITREF", help="Compare the registry at this git ref (OLD) with the working copy (NEW).")
@registry_option
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif", "markdown"]), default="text", show_default=True,
              help="text for terminals, json for programs, github for workflow annotations, sarif for code scanning, markdown for PR comments.")
def diff(old: Path | None, new: Path | None, ref: str | None, registry_path: Path | None, fmt: str) -> None:
    """Classify every change from OLD to NEW and check NEW's version against it.

    \b
      errgen diff OLD.yaml NEW.yaml
      errgen diff --against origin/main          # registry/errors.yaml at that ref vs now

    Additions are minor; wording and default delays are patch; removals, renames and changed
    recovery semantics are major. The declared version must cover the largest change (on 0.y.z a
    break needs y bumped), and NEW's history entry must name every code a break concerns; breaks
    shipped on purpose are listed in that entry's accepted_breaks. Exit 0 when the version covers
    every change, 1 when it does not, 2 when the diff could not run.
    """
    from errgen.diff import diff as run_diff
    from errgen.diff.formats import FORMATS
    from errgen.diff.git import read_at

    if ref is not None and (old or new):
        _fail("pass either OLD and NEW files or --against GITREF, not both")
    if ref is None and not (old and new):
        _fail("pass OLD and NEW registry files, or --against GITREF (see errgen diff --help)")
    if ref is not None:
        current = _registry_path(registry_path)
        try:
            before = _lint(None, source=read_at(ref, current))
        except Fatal as exc:
            _fail(exc.diagnostic.text())
        after = _lint(current)
    else:
        before, after = _lint(old), _lint(new)
    report = run_diff(before.registry, after.registry)
    click.echo(FORMATS[fmt](report))
    sys.exit(0 if report.ok else 1)


@main.command()
@click.option("--against", "ref", metavar="GITREF", default=None, help="Compare with the registry at this git ref. Default: HEAD.")
@click.option("--from", "old", type=click.Path(path_type=Path, dir_okay=False), default=None, help="Compare with this registry file instead of git.")
@registry_option
@click.option("--date", "day", type=click.DateTime(formats=["%Y-%m-%d"]), default=None, help="Date of the history entry. Default: today.")
@click.option("--dry-run", is_flag=True, help="Print the change to the registry instead of writing it.")
def bump(ref: str | None, old: Path | None, registry_path: Path | None, day: "datetime.datetime | None", dry_run: bool) -> None:
    """Set the version the changes require and append its history entry.

    Compares the registry with a previous one (git HEAD by default), computes the smallest
    semver bump that covers every change, sets `version`, and appends a history entry with one
    line per change, keeping the file's comments, key order and formatting. Running it again
    changes nothing. Review and edit the entry's wording before you commit.
    """
    import datetime
    import difflib

    from errgen import bump as bumping
    from errgen.diff.git import read_at

    if ref is not None and old is not None:
        _fail("pass either --against GITREF or --from OLD, not both")
    current = _registry_path(registry_path)
    if old is not None:
        before = _lint(old)
    else:
        try:
            before = _lint(None, source=read_at(ref or "HEAD", current))
        except Fatal as exc:
            _fail(exc.diagnostic.text())
    after = _lint(current)
    plan = bumping.plan(before.registry, after.registry, current, (day.date() if day else datetime.date.today()))
    if plan.text is not None and dry_run:
        original = current.read_text(encoding="utf-8").splitlines(keepends=True)
        click.echo("".join(difflib.unified_diff(original, plan.text.splitlines(keepends=True), str(current), f"{current} (bumped)")), nl=False)
    elif plan.text is not None:
        bumping.write(current, plan.text)
    click.echo(plan.summary(before.registry.version) + (" (dry run)" if dry_run and plan.text else ""), err=True)


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@registry_option
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", show_default=True, help="Output format.")
@click.option("--strict", is_flag=True, help="Fail on warnings too (deprecated codes, prose carrying hints).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST", help="A hostname (and its subdomains) that may appear in payloads. Repeatable.")
@click.option("--allow-pattern", "allow_patterns", multiple=True, metavar="REGEX", help="A regular expression for known-safe values that look like leaks. Repeatable.")
def validate(files: tuple[str, ...], registry_path: Path | None, fmt: str, strict: bool,
             allow_hosts: tuple[str, ...], allow_patterns: tuple[str, ...]) -> None:
    """Check real error payloads against the registry, and catch leaks.

    Each FILE is a JSON document (one payload or an array), JSON Lines (.jsonl, or sniffed;
    streamed, so any size works), or - for standard input. MCP tools/call results and recorded
    HTTP responses ({status, headers, body}) are unwrapped. Reports contract problems (unknown
    codes, contradictions, extra fields, HTTP status and Retry-After mismatches) and what must never
    cross the boundary: stack traces, secrets (masked in the output), internal hosts, file paths.

    Exit 0 when there are no errors (warnings allowed unless --strict), 1 findings, 2 unreadable input.
    """
    import re

    from errgen.validate import Validator
    from errgen.validate.inputs import Unreadable
    from errgen.validate.leaks import LeakScanner
    from errgen.validate.report import stream

    for pattern in allow_patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            _fail(f"--allow-pattern {pattern!r} is not a valid regular expression: {exc}")
    result = _lint(registry_path)
    validator = Validator(result.registry, LeakScanner(allow_hosts, allow_patterns))
    try:
        counts = stream((f for name in files for f in validator.file(name)), fmt, click.echo)
    except Unreadable as exc:
        _fail(str(exc))
    click.echo(f"{counts['error']} error(s), {counts['warning']} warning(s) in {len(files)} file(s).", err=True)
    sys.exit(1 if counts["error"] or (strict and counts["warning"]) else 0)


@main.command()
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("generated"),
              show_default=True, help="The folder `errgen build` wrote the SDKs to.")
@click.option("--target", "targets", multiple=True, metavar="NAME", help="Run only this SDK's runner (repeatable). Default: every SDK.")
@click.option("--vectors", "vectors", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="A vectors file (docs/conformance.md). Default: OUT/conformance/vectors.json.")
@click.option("--emit", "inputs", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="INPUTS.json",
              help="Print what one SDK (--target) makes of each input, one JSON line each; no expected values needed.")
def conformance(out_dir: Path, targets: tuple[str, ...], vectors: Path | None, inputs: Path | None) -> None:
    """Run each built SDK's conformance runner against the vectors.

    Prints, per language, `N passed, N failed`, or `skipped (needs TOOL)` when its toolchain is
    not installed. Builds nothing. Exit 0 when nothing failed, 1 when something failed, 2 when
    errgen could not run.
    """
    from errgen import conformance as runners

    try:
        if inputs is not None:
            if vectors is not None:
                _fail("pass either --vectors or --emit, not both")
            sys.exit(runners.emit(out_dir, targets, inputs, click.echo))
        sys.exit(runners.check(out_dir, targets, vectors, click.echo))
    except runners.CannotRun as exc:
        _fail(str(exc))
