"""The errgen command line: parse arguments, call the pipeline, turn its result into an exit code.

Exit codes everywhere: 0 success, 1 the input has problems (lint errors, stale outputs, an
unannounced break), 2 errgen could not run (unreadable file, bad arguments).
"""

from __future__ import annotations

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


def _lint(path: Path | None, fmt: str = "text") -> "LintResult":
    """Lint the registry; print problems; exit 2 if unreadable, 1 on errors; return the result."""
    from errgen.diagnostics import render
    from errgen.lint import lint_path

    try:
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
