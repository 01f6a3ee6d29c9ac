"""The TypeScript runtime as JavaScript (CommonJS and ES modules) and declarations, compiled once
here so that a generated package installs from a plain path with no build and no TypeScript: the
runtime is the same for every registry (its data comes from contract.ts and recovery.ts, which the
templates write as JavaScript themselves). The target reads them through stored.py, never through
this module. tests/test_ts_packaging.py checks that these files are what the pinned tsc makes of
runtime/ today; refresh them after editing runtime/ with

    python -m errgen.languages.typescript.compiled tests/ts/node_modules/.bin/tsc [registry/errors.yaml]
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from errgen.languages.typescript.stored import HERE, stems
from errgen.languages.typescript.target import data_sources
from errgen.registry.lint import lint_path
from errgen.resources import runtime_sources

FORMS = ("cjs", "esm")
# Only what changes between the two module forms; the rest is the SDK's own tsconfig.
MODULE = {"cjs": {"module": "commonjs"}, "esm": {"module": "es2020", "moduleResolution": "bundler"}}
OPTIONS = {"target": "ES2020", "lib": ["ES2020"], "strict": True, "types": [], "skipLibCheck": True, "declaration": True,
           "removeComments": False, "newLine": "lf"}


def compile_runtime(tsc: Path, registry_sources: dict[str, str]) -> dict[str, str]:
    """Compile the runtime with `registry_sources` (name -> TypeScript of the data files); the
    runtime's output, keyed as stored.compiled_files() keys it."""
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name, text in {**registry_sources, **runtime_sources("typescript")}.items():
            (src / name).write_text(text, encoding="utf-8")
        for form in FORMS:
            project = Path(tmp) / f"tsconfig.{form}.json"
            options = {**OPTIONS, **MODULE[form], "outDir": str(Path(tmp) / form), "rootDir": str(src)}
            project.write_text(json.dumps({"compilerOptions": options, "include": [str(src)]}), encoding="utf-8")
            done = subprocess.run([str(tsc), "-p", str(project)], capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                raise RuntimeError(done.stdout + done.stderr)
            for stem in stems(form):
                out[f"{form}/{stem}.js"] = (Path(tmp) / form / f"{stem}.js").read_text(encoding="utf-8")
                out[f"types/{stem}.d.ts"] = (Path(tmp) / form / f"{stem}.d.ts").read_text(encoding="utf-8")
    return out


def registry_sources(registry_path: Path) -> dict[str, str]:
    """The TypeScript data files of a registry: the runtime compiles the same against any."""
    registry = lint_path(registry_path).registry
    if registry is None:
        raise RuntimeError(f"{registry_path} does not lint")
    return data_sources(registry)


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    files = compile_runtime(Path(argv[0]), registry_sources(Path(argv[1] if len(argv) == 2 else "registry/errors.yaml")))
    shutil.rmtree(HERE, ignore_errors=True)
    for key, text in files.items():
        (HERE / key).parent.mkdir(parents=True, exist_ok=True)
        (HERE / key).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
