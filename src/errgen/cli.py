"""The errgen command line: parse arguments, call the pipeline, turn its result into an exit code.

Exit codes everywhere: 0 success, 1 the input has problems (lint errors, stale outputs, an
unannounced break), 2 errgen could not run (unreadable file, bad arguments).
"""

from __future__ import annotations

import datetime
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from errgen import __version__
from errgen import config, console
from errgen.diagnostics import Fatal
from errgen import INTERRUPTED
from errgen.languages.base import LanguageError

if TYPE_CHECKING:
    from errgen.registry.load import Document
    from errgen.registry.lint import LintResult
    from errgen.diff.git import Snapshot
    from errgen.bump import Filled

DEFAULT_REGISTRY = Path("registry/errors.yaml")
FORMATS = click.Choice(["text", "json"])

registry_option = click.option(
    "--registry", "registry_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
    help="Registry file. Default: `registry` in errgen.toml or [tool.errgen], else registry/errors.yaml.",
)


def _fail(message: str, code: int = 2) -> NoReturn:
    console.current().error(_masked(message))
    sys.exit(code)


def _masked(message: str) -> str:
    """Every message errgen prints may quote input (a setting, a file's first line, git's
    words): a secret in it is masked, as lint and validate mask their findings."""
    from errgen.leaks import LeakScanner

    return LeakScanner().redact(message)


def _confined(path: Path, param: str, setting: str, flag: str) -> Path:
    """The project's registry or output folder (`param`): set by the settings or left at the
    default, it resolves inside the repository root once links are followed; typed as `flag` on
    the command line it is the caller's choice, but may not leave the repository through a link
    when it is inside it as typed (errgen.paths). Exit 2 otherwise."""
    from errgen.paths import Outside, confine

    source = click.get_current_context().get_parameter_source(param)
    if source is click.core.ParameterSource.COMMANDLINE:
        return _named(path, flag)
    default = source in (None, click.core.ParameterSource.DEFAULT)
    try:
        what = "the default output folder" if setting == "out" else f"the default {setting}"
        return confine(path, what if default else config.label(param, setting, flag))
    except Outside as exc:
        _fail(str(exc))


def _named(path: Path, what: str) -> Path:
    """A file named on the command line only (OLD, NEW, --from): anywhere, but not out of the
    repository through a link inside it (errgen.paths); exit 2 otherwise."""
    from errgen.paths import Outside, no_link_out

    try:
        return no_link_out(path, what)
    except Outside as exc:
        _fail(str(exc))


def _registry_path(path: Path | None, named: str | None = None) -> Path:
    """The registry to read: `path` when named (the registry, or with `named` a file named on
    the command line such as diff's OLD), else the default."""
    if path is not None and named is not None:
        return _named(path, named)
    if path is not None:
        _confined(path, "registry_path", "registry", "--registry")
        if not path.exists() and (origin := config.set_by("registry_path", "registry", path)):
            _fail(f"no registry at {path}{origin}")
        return path
    _confined(DEFAULT_REGISTRY, "registry_path", "registry", "--registry")
    if not DEFAULT_REGISTRY.exists():
        _fail(f"no registry at {DEFAULT_REGISTRY} (run from your project root, pass --registry PATH, "
              "or create one with `errgen init`)")
    return DEFAULT_REGISTRY


def _lint(path: Path | None, fmt: str = "text", source: "Snapshot | Filled | None" = None, report: bool = False,
          named: str | None = None) -> "LintResult":
    """Lint the registry (a file, or as it was at a git ref); print its problems (warnings
    only when `report`, for `errgen lint`); exit 2 if unreadable, 1 on errors; return the result.
    `named`: `path` is a file named on the command line (diff's OLD), not the project's registry."""
    from errgen.formats import diagnostics as render
    from errgen.registry.lint import lint_document, lint_path, masked

    console.announce_settings()
    try:
        if source is not None:
            result = lint_document(source.document())
        else:
            result = lint_path(_registry_path(path, named))
    except Fatal as exc:  # a file that does not load: its first line may be quoted, a secret in it masked
        console.current().diagnostics(render([masked(exc.diagnostic)], fmt), err=fmt == "text")
        sys.exit(2)
    if fmt != "text":
        if report or not result.ok:  # other commands say nothing of mere warnings
            click.echo(render(result.diagnostics, fmt))
    elif result.diagnostics and (report or not result.ok):
        console.current().diagnostics(render(result.diagnostics, fmt))
    elif result.diagnostics:
        console.current().detail(f"{result.registry.path}: {len(result.diagnostics)} warning(s); `errgen lint` lists them")
    if not result.ok:
        sys.exit(1)
    return result


def _complete_targets(incomplete: str, sdks: bool = False) -> list[str]:
    """Shell completion for --target: the build targets (or the SDKs, which have runners)."""
    from errgen.emit.targets import all_targets

    return [t.NAME for t in all_targets() if t.NAME.startswith(incomplete) and (not sdks or hasattr(t, "conformance_command"))]


def _registry_format(fmt: str) -> str:
    """How diff and validate report the registry's own problems: as workflow annotations with
    `--format github` (escaped, like every annotation), else as text on standard error, so that
    standard output holds one json or sarif document."""
    return "github" if fmt == "github" else "text"


@click.group(cls=console.Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             params=console.output_options())
@click.version_option(__version__, "-V", "--version", prog_name="errgen")
@click.pass_context
def main(ctx: click.Context) -> None:
    """errgen compiles one YAML registry of error codes into the error contract that services,
    SDKs and AI agents import: a JSON Schema, Python, TypeScript, Go, Rust and Java SDKs, a
    recovery table and docs.

    \b
    Typical loop:
      errgen lint            check registry/errors.yaml, report every problem
      errgen build           regenerate generated/ (only if the registry is clean)
      errgen build --check   in CI: fail if generated/ is stale
      errgen diff --against origin/main   in CI: fail on an unannounced breaking change
      errgen bump            set the version and history entry the changes need
      errgen validate FILE   check recorded payloads against the registry, catch leaks

    Settings: errgen.toml, or [tool.errgen] in pyproject.toml (registry, out, targets,
    validate allow-lists), in this folder or a parent up to the repository root; flags win.
    Shell completion: errgen completion bash|zsh|fish. Exit codes: 0 ok, 1 problems found, 2 errgen could not run, 130 interrupted.
    """
    try:
        config.install(ctx, Path.cwd())
    except config.ConfigError as exc:
        _fail(str(exc))


@main.command()
@registry_option
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif"]), default="text", show_default=True,
              help="text for terminals, json for programs, github for workflow annotations, sarif for code scanning.")
def lint(registry_path: Path | None, fmt: str) -> None:
    """Check the registry and report every problem in one run.

    Each problem is printed as `path:line:col: severity[rule-id]: message`. Exits 0 when there are
    no errors (warnings allowed), 1 when there are errors, 2 when the file cannot be read or parsed.
    """
    result = _lint(registry_path, fmt, report=True)
    if fmt == "text":
        console.current().status(f"{result.registry.path}: ok ({len(result.registry.codes)} codes)")


@main.command()
@registry_option
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("generated"),
              show_default=True, help="Output directory.")
@click.option("--target", "targets", multiple=True, metavar="NAME", shell_complete=lambda _ctx, _param, typed: _complete_targets(typed),
              help="Build only this target (repeatable). Default: all. See `errgen targets`.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 listing every stale, missing or extra file.")
@click.option("--diff", "show_diff", is_flag=True, help="With --check: also print a unified diff of every stale file.")
@click.option("--force", is_flag=True, help="Overwrite files in the output directory that errgen did not write.")
@click.option("--watch", is_flag=True, help="Build, then rebuild each time the registry or one of its fragments is saved (or a fragment added), until Ctrl-C.")
def build(registry_path: Path | None, out_dir: Path, targets: tuple[str, ...], check: bool, show_diff: bool,
          force: bool, watch: bool) -> None:
    """Lint the registry, then generate every artifact into the output directory.

    Nothing is written when the registry has a lint error. The outputs are replaced as a whole: a
    crash or kill mid-build leaves the previous outputs, or a state the next build completes (and
    --check reports). errgen writes only inside the output directory, deletes only files it wrote
    (listed in OUT/.errgen-manifest.json), and does not overwrite your own files there unless
    --force. With --watch, lint errors are shown and the loop goes on.
    """
    if watch and check:
        _fail("--watch rebuilds on every save; it does not combine with --check")
    if show_diff and not check:
        _fail("--diff shows what --check finds; pass both")
    _confined(out_dir, "out_dir", "out", "--out")
    # Targets named on the command line are a partial build (the others' files stay); the
    # `targets` setting, or no target at all, is everything OUT holds (a dropped target's files go).
    complete = click.get_current_context().get_parameter_source("targets") is not click.core.ParameterSource.COMMANDLINE
    if watch:
        _watch(registry_path, out_dir, targets, force, complete=complete)
    sys.exit(_build_once(registry_path, out_dir, targets, check, show_diff, force, complete=complete))


def _build_once(registry_path: Path | None, out_dir: Path, targets: tuple[str, ...], check: bool, show_diff: bool,
                force: bool, prefix: str = "", complete: bool = False) -> int:
    """One build or check; its exit code (lint's own exits included)."""
    import gc

    from errgen.emit import build as pipeline
    from errgen.emit.targets import UnknownTarget
    from errgen.emit.errors import BuildError
    from errgen.emit.commit import WriteError

    # A build makes hundreds of thousands of objects that live until it ends and almost no
    # cycles; the collector's passes over them were a tenth of a large build.
    gc.disable()
    try:
        result = _lint(registry_path)
        if check:
            report = pipeline.check(result.registry, out_dir, targets, diffs=show_diff, complete=complete)
            if report:
                click.echo(report.render(diffs=show_diff), err=True)
                hint = "" if show_diff else " (--diff shows the changes)"
                console.current().status(f"{out_dir} is stale: run `errgen build` and commit the result{hint}.", ok=False)
                return 1
            console.current().status(f"{out_dir}: up to date.")
            return 0
        changed = pipeline.build(result.registry, out_dir, targets, force, complete)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    except UnknownTarget as exc:
        click.echo(f"{prefix}errgen: {_masked(str(exc))}{config.set_by('targets', 'targets', targets)}", err=True)
        return 2
    except (BuildError, WriteError) as exc:
        click.echo(f"{prefix}errgen: {_masked(str(exc))}", err=True)
        return 2
    finally:
        gc.enable()
    console.current().status(f"{prefix}{out_dir}: {changed.summary()}")
    return 0


def _watch(registry_path: Path | None, out_dir: Path, targets: tuple[str, ...], force: bool, interval: float = 0.3,
           complete: bool = False) -> NoReturn:
    """Rebuild whenever a file the registry reads changes: the registry, or for a folder registry
    its header and every fragment its `include` patterns match, re-globbed on every poll so a
    fragment added or removed while watching counts. Polled: no dependency, works on every file
    system and with editors that save by renaming. Ctrl-C exits 130, as --help says."""
    import time

    path = _registry_path(registry_path)
    files = _Watched(path)
    extra = len(files.paths()) - 1
    click.echo(f"watching {path}{f' and {extra} fragment(s)' if extra else ''}; Ctrl-C stops", err=True)
    seen: object = ()
    try:
        while True:
            now = files.state()
            if now != seen:
                seen = now
                stamp = f"[{time.strftime('%H:%M:%S')}] "
                code = _build_once(path, out_dir, targets, False, False, force, stamp, complete)
                if code:
                    click.echo(f"{stamp}{out_dir} left as it was; waiting for the next save", err=True)
            time.sleep(interval)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
        sys.exit(INTERRUPTED)


class _Watched:
    """The files a registry reads and their stat; the header's include patterns are read again
    only when the header changes."""

    def __init__(self, header: Path) -> None:
        self.header = header
        self.header_stat: tuple[int, ...] | None = ()
        self.patterns: list[str] = []

    def paths(self) -> list[Path]:
        from errgen.registry.compose import include_patterns, registry_files

        stat = _stat(self.header)
        if stat != self.header_stat:
            self.header_stat, self.patterns = stat, include_patterns(self.header)
        return registry_files(self.header, self.patterns)

    def state(self) -> tuple[tuple[str, tuple[int, ...] | None], ...]:
        return tuple((str(p), _stat(p)) for p in self.paths())


def _stat(path: Path) -> tuple[int, ...] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


@main.command()
@registry_option
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), default=Path("."), show_default=True,
              help="The repository root the CODEOWNERS paths are relative to.")
def owners(registry_path: Path | None, root: Path) -> None:
    """Print a CODEOWNERS section for a folder registry: each fragment file and its `owner`.

    Paste it into .github/CODEOWNERS (or docs/CODEOWNERS, GitLab) so that a change to a team's
    error codes asks that team to review it."""
    from errgen.codeowners import CodeownersError, owners_section

    result = _lint(registry_path)
    if not result.registry.fragments:
        _fail(f"{result.registry.path} includes no fragments (add `include: [teams/*.yaml]`); nothing to own", 1)
    try:
        section = owners_section(((f.path, f.owner) for f in result.registry.fragments), root)
    except CodeownersError as exc:
        from errgen.formats import visible

        _fail("cannot write a CODEOWNERS section:\n" + "\n".join(visible(line) for line in str(exc).split("\n")), 1)
    click.echo(section, nl=False)


@main.command("targets")
def list_targets() -> None:
    """List the build targets and the files each one writes."""
    from errgen.emit.targets import all_targets

    for target in all_targets():
        click.echo(f"{target.NAME:<12} {target.SUMMARY}")


@main.command()
@click.argument("path", type=click.Path(path_type=Path, dir_okay=False), default=DEFAULT_REGISTRY)
@click.option("--force", is_flag=True, help="Overwrite existing files.")
def init(path: Path, force: bool) -> None:
    """Start a registry at PATH (default registry/errors.yaml): four codes, version 0.1.0, named
    after the current folder; beside it, the registry-format schema for editor completion."""
    import datetime

    from errgen.starter import project_name, starter

    _confined(path, "path", "registry", "PATH")  # written: never outside the repository
    files = starter(path, project_name(Path.cwd()), datetime.date.today())
    existing = files.existing()
    if existing and not force:
        _fail(f"{', '.join(map(str, existing))} already exist(s); pass --force to overwrite")
    files.write()
    console.current().status(f"wrote {' and '.join(map(str, files.files))}; next: edit the registry, then run "
                             "`errgen lint` and `errgen build`")


@main.command()
@click.argument("old", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.argument("new", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.option("--against", "ref", metavar="GITREF", help="Compare the registry at this git ref (OLD) with the working copy (NEW).")
@click.option("--merge-base", "fork", is_flag=True,
              help="With --against: compare with the commit this branch forked from GITREF (what a pull request into it changes).")
@registry_option
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif", "markdown"]), default="text", show_default=True,
              help="text for terminals, json for programs, github for workflow annotations, sarif for code scanning, markdown for PR comments.")
def diff(old: Path | None, new: Path | None, ref: str | None, fork: bool, registry_path: Path | None, fmt: str) -> None:
    """Classify every change from OLD to NEW and check NEW's version against it.

    \b
      errgen diff OLD.yaml NEW.yaml
      errgen diff --against origin/main          # registry/errors.yaml at that ref vs now
      errgen diff --against origin/main --merge-base   # vs where this branch forked (pre-commit)

    Additions are minor; wording and default delays are patch; removals, renames and changed
    recovery behaviour are major (every rule: errgen docs diff-rules). The declared version must cover
    the largest change (on 0.y.z a break needs y bumped); NEW's history entry must announce every
    break (name its codes, or the category for a category-level change), or list it under
    accepted_breaks; a new code's since is the new version. A registry absent at GITREF is new:
    everything in it is added. Exit 0 when every check passes, 1 when one fails, 2 when the diff
    could not run.
    """
    from errgen.diff import diff as run_diff
    from errgen.diff import empty_registry
    from errgen.diff.output import FORMATS

    if fork and ref is None:
        _fail("--merge-base needs --against GITREF (the branch your work merges into)")
    if ref is not None and (old or new):
        _fail("pass either OLD and NEW files or --against GITREF, not both")
    if ref is None and not (old and new):
        _fail("pass OLD and NEW registry files, or --against GITREF (see errgen diff --help)")
    fresh = False
    if ref is not None:
        current = _registry_path(registry_path)
        if fork:
            ref = _merge_base(ref, current)
        shown = _read_at(ref, current, "pass OLD and NEW registry files instead of --against if there is no git history to compare with")
        after = _lint(current, _registry_format(fmt))
        if shown is None:
            before, fresh = None, True
        else:
            before = _lint(None, _registry_format(fmt), source=shown)
    else:
        before, after = _lint(old, _registry_format(fmt), named="OLD"), _lint(new, _registry_format(fmt), named="NEW")
    old_registry = before.registry if before is not None else empty_registry(after.registry, f"{ref}:(none)")
    report = run_diff(old_registry, after.registry, new_registry=fresh, bump=_bump_command(ref, old, new, registry_path))
    click.echo(FORMATS[fmt](report))
    sys.exit(0 if report.ok else 1)


def _bump_command(ref: str | None, old: Path | None, new: Path | None, registry_path: Path | None) -> str:
    """The `errgen bump` that compares with the OLD this diff compared with. Plain `errgen bump`
    compares with HEAD, so once the change is committed it says "nothing to do"; the hint names
    the base (the merge-base's commit, not the branch, with --merge-base)."""
    if ref is not None:
        words = ["errgen", "bump", "--against", ref]
        if registry_path is not None:
            words += ["--registry", str(registry_path)]
    else:
        words = ["errgen", "bump", "--from", str(old), "--registry", str(new)]
    return " ".join(_shell_word(w) for w in words)


def _shell_word(word: str) -> str:
    """`word` as a shell reads it, quoted only when it must be (HEAD~1 and HEAD^ stay readable:
    `~` expands only at a word's start)."""
    import re
    import shlex

    return word if re.fullmatch(r"[\w@%+=:,./^-][\w@%+=:,./^~-]*", word) else shlex.quote(word)


def _merge_base(ref: str, current: Path) -> str:
    from errgen.diff.git import merge_base

    try:
        return merge_base(ref, current)
    except Fatal as exc:
        _fail(exc.diagnostic.message)


def _read_at(ref: str, current: Path, hint: str) -> "Snapshot | None":
    """The registry at a git ref, or None when it is new on this branch; exit 2 with `hint`."""
    from errgen.diff.git import read_at

    try:
        return read_at(ref, current)
    except Fatal as exc:
        d = exc.diagnostic
        _fail(f"{d.path}: {d.message}; {hint}")


@main.command()
@click.option("--against", "ref", metavar="GITREF", default=None, help="Compare with the registry at this git ref. Default: HEAD.")
@click.option("--from", "old", type=click.Path(path_type=Path, dir_okay=False), default=None, help="Compare with this registry file instead of git.")
@registry_option
@click.option("--date", "day", type=click.DateTime(formats=["%Y-%m-%d"]), default=None, help="Date of the history entry. Default: today.")
@click.option("--dry-run", is_flag=True, help="Print the change to the registry instead of writing it.")
def bump(ref: str | None, old: Path | None, registry_path: Path | None, day: "datetime.datetime | None", dry_run: bool) -> None:
    """Set the version the changes require, the new codes' since, and append its history entry.

    Compares the registry with a previous one (git HEAD by default, or --from FILE), computes the
    smallest release that covers every change (as `errgen diff` does), sets `version` and the
    `since` of codes it adds, and appends a history entry with one line per change. Only those
    lines change; every other byte of the file stays. Running it again changes nothing. Review
    and edit the entry's wording before you commit.
    """
    import datetime

    from errgen import bump as bumping
    from errgen.diff import empty_registry

    if ref is not None and old is not None:
        _fail("pass either --against GITREF or --from OLD, not both")
    current = _registry_path(registry_path)
    fresh = False
    if old is not None:
        before = _lint(old, named="--from").registry
    else:
        hint = ("bump compares with the registry at a git ref (default HEAD); commit the registry first, "
                "or pass --from FILE to compare with a copy of the previous release")
        shown = _read_at(ref or "HEAD", current, hint)
        fresh = shown is None
        before = None if shown is None else _lint(None, source=shown).registry
    source = bumping.Source.read(current)
    filled, given = bumping.with_since(source, str(current))
    # A fragment's code without since gets its placeholder in memory, while the folder composes.
    lintable = bumping.Filled(filled, str(current), current.parent)
    after = _lint(None, source=lintable).registry
    old_version = before.version if before else ""
    plan = bumping.plan(before or empty_registry(after, "(none)"), after, day.date() if day else datetime.date.today(), new_registry=fresh)
    bumping.fill_since(plan, before, after, given + lintable.names)
    del before  # the re-parse that verifies the edit then peaks no higher than diff does
    text = plan.apply(filled, after)
    if text is not None:
        try:
            bumping.verify_since(text, after, plan, given)
        except bumping.EditError as exc:
            _fail(f"cannot set since on {', '.join(given)} ({exc}); set it by hand and run bump again")
    try:  # a folder registry's new codes have their `since` in the fragment files
        edits = bumping.edits(current, source, text, after, plan, lintable.fragments)
    except bumping.EditError as exc:
        _fail(f"cannot set since or renamed_from in a fragment ({exc}); set them by hand and run bump again")
    if dry_run:
        for path, src, new_text in edits:
            click.echo(bumping.unified_diff(path, src, new_text), nl=False)
    else:
        try:  # every file or none: a failed fragment write leaves the header unbumped too
            bumping.write_files([(path, src.encoded(new_text)) for path, src, new_text in edits])
        except OSError as exc:
            _fail(f"cannot write {exc.filename or 'the registry'}: {exc.strerror}; no file was changed")
    console.current().status(plan.summary(old_version) + (" (dry run)" if dry_run and text else ""))


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@registry_option
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif"]), default="text", show_default=True, help="Output format.")
@click.option("--strict", is_flag=True, help="Fail on warnings too (deprecated codes, prose carrying hints).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST", help="A hostname (and its subdomains) that may appear in payloads. Repeatable.")
@click.option("--allow-pattern", "allow_patterns", multiple=True, metavar="REGEX", help="A regular expression for known-safe values that look like leaks. Repeatable.")
@click.option("--responses", is_flag=True,
              help="Each record is a recorded real response ({status, headers, body}, other keys ignored), read where the registry's wire.response says, as the SDKs read it.")
def validate(files: tuple[str, ...], registry_path: Path | None, fmt: str, strict: bool,
             allow_hosts: tuple[str, ...], allow_patterns: tuple[str, ...], responses: bool) -> None:
    """Check real error payloads against the registry, and catch leaks.

    Each FILE is a JSON document (one payload or an array), JSON Lines (.jsonl, or sniffed;
    streamed, so any size works), or - for standard input. MCP tools/call results (bare, or in
    their JSON-RPC response) and recorded HTTP responses ({status, headers, body}) are unwrapped.
    Reports contract problems (unknown codes, contradictions, extra fields, HTTP status and
    Retry-After mismatches) and what must never cross the boundary: stack traces, secrets (masked
    in the output), internal hosts, file paths. Payloads are numbered from 1 (`payload 1`).

    With --responses each record is a real API's response as recorded (status, headers, and the
    body as sent; other keys such as a source URL are ignored), read through the registry's
    `wire.response` exactly as the SDKs' from_http reads it: an unknown code (with the nearest
    known), a status the registry does not give that code, an error response with no code where
    the registry reads one, and leaks. A real API never sends category, retryable or scope, so
    their absence is no finding.

    Exit 0 when there are no errors (warnings allowed unless --strict), 1 findings, 2 unreadable input.
    """
    import re

    from errgen.validate import Validator
    from errgen.validate.inputs import Unreadable
    from errgen.leaks import LeakScanner
    from errgen.validate.report import stream

    for pattern in allow_patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            _fail(f"--allow-pattern {pattern!r} is not a valid regular expression: {exc}")
    for name in files:
        if name != "-":
            _named(Path(name), "FILE")
    result = _lint(registry_path, _registry_format(fmt))
    validator = Validator(result.registry, LeakScanner(allow_hosts, allow_patterns), responses=responses)
    out = _Batched()
    try:
        counts = stream((f for name in files for f in validator.file(name)), fmt, out)
    except Unreadable as exc:
        out.flush()
        _fail(str(exc))
    out.flush()
    console.current().status(f"{counts['error']} error(s), {counts['warning']} warning(s) in {len(files)} file(s).", ok=not counts["error"])
    sys.exit(1 if counts["error"] or (strict and counts["warning"]) else 0)


def _complete_docs(typed: str) -> list[str]:
    """The pages and the rule ids `errgen docs` knows (no formatter or template imported)."""
    from errgen import manual
    from errgen.rule_ids import printable

    return sorted(n for n in {*manual.topics(), *printable()} if n.startswith(typed))


@main.command("docs")
@click.argument("name", required=False, metavar="[TOPIC|RULE]", shell_complete=lambda _ctx, _param, typed: _complete_docs(typed))
def show_docs(name: str | None) -> None:
    """Print errgen's documentation, shipped with it: a page (TOPIC, e.g. ci, registry,
    diff-rules), or the entry of one rule (any rule id errgen prints: lint, load, diff or
    validate, e.g. code-removed, http-status-range, unknown-key, leak-secret). With no argument, list the pages. errgen's output names a rule's section
    by this command, and links to it too when `docs-url` in the settings says where a copy is published."""
    from errgen import manual

    if name is None:
        for topic, title in manual.topics().items():
            click.echo(f"{topic:<20} {title}")
        return
    from errgen.rule_ids import pages_of

    text = manual.lookup(name, pages_of(name))
    if text is None:
        _fail(f"no page or rule {name!r} in errgen's documentation; `errgen docs` lists the pages", 1)
    click.echo(text, nl=not text.endswith("\n"))
class _Batched:
    """Lines echoed a batch at a time: click.echo asks about the terminal on every call, which
    was most of printing 40,000 findings one by one."""

    def __init__(self, size: int = 256) -> None:
        self.lines: list[str] = []
        self.size = size

    def __call__(self, line: str) -> None:
        self.lines.append(line)
        if len(self.lines) >= self.size:
            self.flush()

    def flush(self) -> None:
        if self.lines:
            click.echo("\n".join(self.lines))
            self.lines.clear()


@main.command()
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the shell completion script for SHELL (click's).

    \b
      bash:  eval "$(errgen completion bash)"     in ~/.bashrc
      zsh:   eval "$(errgen completion zsh)"      in ~/.zshrc
      fish:  errgen completion fish > ~/.config/fish/completions/errgen.fish
    """
    from click.shell_completion import get_completion_class

    complete = get_completion_class(shell)
    if complete is None:  # the choice lists only shells click supports; this guards a click upgrade
        _fail(f"click offers no completion for {shell}")
    click.echo(complete(main, {}, "errgen", "_ERRGEN_COMPLETE").source())


@main.command()
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("generated"),
              show_default=True, help="The folder `errgen build` wrote the SDKs to.")
@click.option("--target", "targets", multiple=True, metavar="NAME", shell_complete=lambda _ctx, _param, typed: _complete_targets(typed, sdks=True),
              help="Run only this SDK's runner (repeatable). Default: every SDK.")
@click.option("--vectors", "vectors", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="A vectors file (errgen docs conformance). Default: OUT/conformance/vectors.json.")
@click.option("--emit", "inputs", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="INPUTS.json",
              help="Print what one SDK (--target) makes of each input, one JSON line each; no expected values needed.")
@click.option("--allow-skip", is_flag=True, help="Exit 0 even when a requested SDK was skipped (its toolchain is missing).")
def conformance(out_dir: Path, targets: tuple[str, ...], vectors: Path | None, inputs: Path | None, allow_skip: bool) -> None:
    """Run each built SDK's conformance runner against the vectors.

    The SDKs checked are --target (or `targets` in the settings), else every one built in OUT.
    Each runs from a private copy of the files OUT's manifest lists for it, each checked against
    the manifest's sha256 first (a file planted in OUT is never run; a changed one stops the run,
    exit 2); what a runner builds goes to errgen's cache, never to OUT (the TypeScript runner
    ships compiled in the package, so it needs only node). Prints,
    per language, `N passed, N failed`, or `skipped (needs TOOL)` when its toolchain is not
    installed. Exit 0 when every runner passed, 1 when one failed or checked no vector, 2 when one
    was skipped (--allow-skip: 0) or errgen could not run.
    """
    from errgen import runners

    _confined(out_dir, "out_dir", "out", "--out")  # its runners are built and run from there
    for named, flag in ((vectors, "--vectors"), (inputs, "--emit")):
        if named is not None:
            _named(named, flag)
    try:
        if inputs is not None:
            if vectors is not None:
                _fail("pass either --vectors or --emit, not both")
            sys.exit(runners.emit(out_dir, targets, inputs, click.echo))
        sys.exit(runners.check(out_dir, targets, vectors, click.echo, allow_skip))
    except runners.CannotRun as exc:
        _fail(str(exc))


def run() -> NoReturn:
    """The console entry point (and `python -m errgen`): the command, then the process ends
    without tearing the interpreter down. Freeing a large registry's objects one by one took a
    tenth of a build; nothing is left to clean up (mypy ends the same way).

    The cyclic collector is off for the same reason: what a command loads (both registries of a
    diff, say) lives until the process ends and makes hardly any cycles, and the collector's
    passes over it cost more than the loading (a 10,000-code diff: 2.6x a bare compose with it,
    1.6x without). A long-running command (build --watch) turns it back on after each build."""
    gc.disable()
    try:
        main(prog_name="errgen")  # also the name shell completion answers to
        code = 0
    except LanguageError as exc:  # a language folder's declaration is wrong: errgen cannot run
        print(f"errgen: {exc}", file=sys.stderr)
        code = 2
    except ModuleNotFoundError as exc:  # a dependency errgen installs with itself is missing
        print(f"errgen: the package {exc.name!r} is missing; reinstall errgen (python3 -m pip install errgen) "
              "in the environment that runs it", file=sys.stderr)
        code = 2
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (errgen ... | head): nothing more can be said
            pass
    os._exit(code)

