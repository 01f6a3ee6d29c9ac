"""Makes runtime_compiled/ (committed) from runtime/ (the source) with the pinned tsc; why the
output is committed beside its source is in runtime_compiled/README.md. After editing runtime/:

    python -m errgen.languages.typescript.compile_runtime tests/ts/node_modules/.bin/tsc [registry/errors.yaml]

tests/test_ts_packaging.py checks that runtime_compiled/ is what this makes of runtime/ today,
against two registries. The target only reads runtime_compiled/ (target.compiled_runtime) and
never imports this module: building an SDK needs nothing of the compiler.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from errgen.languages.typescript.target import JS_FORMS, RUNTIME_COMPILED, TYPESCRIPT, compiled_names, data_sources, tsconfig
from errgen.registry.lint import lint_path
from errgen.resources import runtime_sources

# What changes between the two module forms; everything else is the package's own tsconfig.json,
# which each form's project extends. (tsc 5 writes LF on every platform: pinned for the golden.)
MODULE = {"cjs": {"module": "commonjs"}, "esm": {"module": "es2020", "moduleResolution": "bundler"}}


def compile_runtime(tsc: Path, registry_sources: dict[str, str]) -> dict[str, str]:
    """runtime/ compiled beside `registry_sources` (file name -> TypeScript of the data modules),
    keyed as compiled_names() names runtime_compiled/'s files."""
    check_version(tsc)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "src").mkdir()
        for name, text in {**registry_sources, **runtime_sources("typescript")}.items():
            (root / "src" / name).write_text(text, encoding="utf-8")
        (root / "tsconfig.json").write_text(tsconfig("compile_runtime"), encoding="utf-8")
        for form in JS_FORMS:
            project = root / f"tsconfig.{form}.json"
            options = {**MODULE[form], "outDir": form, "newLine": "lf", "removeComments": False}
            project.write_text(json.dumps({"extends": "./tsconfig.json", "compilerOptions": options}), encoding="utf-8")
            done = subprocess.run([str(tsc), "-p", str(project)], capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                raise RuntimeError(done.stdout + done.stderr)
        # The declarations of both forms are the same: types/ holds the CommonJS build's.
        return {name: (root / name.replace("types/", "cjs/", 1)).read_text(encoding="utf-8") for name in compiled_names()}


def check_version(tsc: Path) -> None:
    """Another tsc would write other bytes: only the version the package pins may refresh the golden."""
    done = subprocess.run([str(tsc), "--version"], capture_output=True, text=True, timeout=120)
    if done.stdout.strip() != f"Version {TYPESCRIPT}":
        raise RuntimeError(f"{tsc} is {done.stdout.strip() or done.stderr.strip()!r}, not the pinned TypeScript {TYPESCRIPT}")


def registry_sources(registry_path: Path) -> dict[str, str]:
    """The TypeScript data modules of a registry: the runtime compiles the same against any."""
    registry = lint_path(registry_path).registry
    if registry is None:
        raise RuntimeError(f"{registry_path} does not lint")
    return data_sources(registry)


def write(files: dict[str, str]) -> None:
    """Replace the compiled folders; README.md stays."""
    for folder in {name.split("/", 1)[0] for name in files}:
        shutil.rmtree(RUNTIME_COMPILED / folder, ignore_errors=True)
    for name, text in files.items():
        (RUNTIME_COMPILED / name).parent.mkdir(parents=True, exist_ok=True)
        (RUNTIME_COMPILED / name).write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        files = compile_runtime(Path(argv[0]), registry_sources(Path(argv[1] if len(argv) == 2 else "registry/errors.yaml")))
    except (OSError, RuntimeError) as error:
        print(f"compile_runtime: {error}", file=sys.stderr)
        return 1
    write(files)
    print(f"wrote {len(files)} files to {RUNTIME_COMPILED}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
