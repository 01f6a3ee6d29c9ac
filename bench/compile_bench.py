"""Compile time and artefact size of each generated SDK as the registry grows (issue 31 item 5).

For the synthetic registry at 100, 5,000 and 20,000 codes (bench/synth.py), every SDK is built
with its own toolchain, one after the other (never two builds at once), and measured as one
whole process (wall, CPU = user + system with children, largest RSS):
- Python: byte-compiling the package (compileall -f), then `import <package>` in a fresh
  interpreter (best of 3, less a bare interpreter's start); size: the package zipped (what a
  wheel holds), and the .pyc files; then rendering the Python target alone (in this process,
  the first render) and `mypy --strict` (cold cache) of a two-line program calling the typed
  new_error, which tests/test_python_new_error.py checks at 300 codes (measured before: render
  about 3 s, mypy 27 s at 5,000 codes);
- TypeScript: `tsc -p` of the package into a scratch folder; size: the emitted CommonJS .js;
- Go: `go build` of the package (a throwaway file makes its content new, so the package itself is
  always compiled and the standard library comes from the cache) and of its conformance command;
  size: the package archive and that binary;
- Rust: `cargo build --release --lib` (serde and serde_json built once, untimed, before); size: the
  crate's .rlib;
- Java: `javac --release 17` of every source against Jackson; size: the jar of the classes and
  resources.

    python -m bench.compile_bench                  # 100, 5,000 and 20,000 codes, every language
    python -m bench.compile_bench --quick          # 100 codes (make bench)
    python -m bench.compile_bench --codes 5000 --langs java --json PATH

A toolchain that is missing, or a build that fails or times out, prints what happened instead
of a figure. The load average at each build is printed beside it: on a shared machine the wall
column moves with everyone else's work, the CPU column much less.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

from bench.common import OUT, Measure, measure, table
from bench.runtime_bench import java_classpath, prepare
from errgen.contract import view

LANGS = ("python", "typescript", "go", "rust", "java")
TIMEOUT = 3600.0


def _size(paths: list[Path]) -> int:
    return sum(p.stat().st_size for p in paths if p.is_file())


def _kb(n: int) -> str:
    return f"{n / 1024:,.0f} KB"


def _failed(m: Measure) -> str | None:
    return None if m.note == "ok" else m.note


def python_row(out: Path, registry: Any) -> list[dict[str, Any]]:
    package = view(registry).packages["python"]["package"]
    folder = out / "python" / package
    for cache in folder.rglob("__pycache__"):
        shutil.rmtree(cache)
    compiled = measure([sys.executable, "-m", "compileall", "-q", "-f", str(folder)], TIMEOUT)
    pyc = _size(list(folder.rglob("*.pyc")))
    path = f"import sys; sys.path.insert(0, {str(out / 'python')!r})"
    bare = min((measure([sys.executable, "-c", path], TIMEOUT) for _ in range(3)), key=lambda m: m.cpu_seconds)
    imported = min((measure([sys.executable, "-c", f"{path}; import {package}"], TIMEOUT) for _ in range(3)), key=lambda m: m.cpu_seconds)
    archive = out / "compile-python.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                z.write(path, path.relative_to(folder.parent))
    return [
        {"step": "byte-compile (compileall)", "measure": compiled, "size": f"{_kb(pyc)} .pyc"},
        {"step": "import (fresh interpreter, less bare start; best CPU of 3)", "seconds": imported.seconds - bare.seconds,
         "cpu": imported.cpu_seconds - bare.cpu_seconds, "size": f"{_kb(archive.stat().st_size)} zipped package"},
        python_render(registry), python_type_check(out, package, registry),
    ]


def python_render(registry: Any) -> dict[str, Any]:
    """The Python target rendered in this process, once, its contract view derived on the way
    (later renders of the same registry reuse the view): the build's own share of a Python SDK,
    without writing or formatting."""
    from errgen.languages.python import target

    start = time.perf_counter()
    rendered = target.render(registry)
    seconds = time.perf_counter() - start
    module = next((text for name, text in rendered.items() if name.endswith("/_new_error.py")), "")
    return {"step": "render the python target (in process, first render)", "seconds": seconds, "cpu": None,
            "size": f"{module.count('@overload')} new_error overloads"}


def python_type_check(out: Path, package: str, registry: Any) -> dict[str, Any]:
    """mypy --strict, cold cache, of a program calling new_error twice: the cost a user's type
    checker pays for the typed overloads."""
    first, second = (code.name for code in registry.codes[:2])  # synthetic codes: CODE_000000 is an identifier
    program = out / "compile-python-program.py"
    program.write_text(f"from {package} import Code, new_error\n\n"
                       f'new_error(Code.{first}, "c")\nnew_error(Code.{second}, "c")\n', encoding="utf-8")
    cache = out / "compile-python-mypy-cache"
    shutil.rmtree(cache, ignore_errors=True)
    if importlib.util.find_spec("mypy") is None:
        return {"step": "mypy --strict (cold cache)", "measure": Measure(0, float("nan"), float("nan"), "mypy not installed"), "size": ""}
    checked = measure([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "--python-executable", sys.executable,
                       str(program)], TIMEOUT, cwd=out / "python")
    if checked.note.startswith("exit 1"):  # type errors found: the check ran, which is what is timed
        checked.note = "ok"
    return {"step": "mypy --strict of a program calling new_error (cold cache)", "measure": checked, "size": ""}


def typescript_row(out: Path, registry: Any) -> list[dict[str, Any]]:
    from bench.common import NODE_BIN

    scratch = out / "compile-ts"
    shutil.rmtree(scratch, ignore_errors=True)
    m = measure([str(NODE_BIN / "tsc"), "-p", str(out / "typescript"), "--outDir", str(scratch)], TIMEOUT)
    return [{"step": "tsc -p (strict, declarations)", "measure": m, "size": f"{_kb(_size(list(scratch.rglob('*.js'))))} .js"}]


def go_row(out: Path, registry: Any) -> list[dict[str, Any]]:
    folder = out / "go"
    (folder / "zz_compile_bench.go").write_text(f"package {view(registry).packages['go']['package']}\n\n// {time.time_ns()}\n")
    try:
        lib = measure(["go", "build", "-o", str(out / "compile-go.a"), "."], TIMEOUT, cwd=folder)
        cmd = measure(["go", "build", "-o", str(out / "compile-go-conformance"), "./cmd/conformance"], TIMEOUT, cwd=folder)
    finally:
        (folder / "zz_compile_bench.go").unlink()
    return [
        {"step": "go build (the package)", "measure": lib, "size": _file_kb(out / "compile-go.a", "archive")},
        {"step": "go build ./cmd/conformance (a program using it, linked)", "measure": cmd,
         "size": _file_kb(out / "compile-go-conformance", "binary")},
    ]


def _file_kb(path: Path, what: str) -> str:
    return f"{_kb(path.stat().st_size)} {what}" if path.exists() else "-"


def rust_row(out: Path, registry: Any) -> list[dict[str, Any]]:
    folder = out / "rust"
    target = OUT / "cargo-compile"
    env_target = {"CARGO_TARGET_DIR": str(target)}
    os.environ.update(env_target)
    try:
        warm = measure(["cargo", "build", "--release", "--lib", "--quiet"], TIMEOUT, cwd=folder)  # serde, serde_json
        if _failed(warm):
            return [{"step": "cargo build --release --lib", "measure": warm, "size": "-"}]
        (folder / "src" / "lib.rs").touch()
        m = measure(["cargo", "build", "--release", "--lib", "--quiet"], TIMEOUT, cwd=folder)
    finally:
        os.environ.pop("CARGO_TARGET_DIR")
    crate = view(registry).packages["rust"]["crate"].replace("-", "_")
    return [{"step": "cargo build --release --lib (the crate; deps built before)", "measure": m,
             "size": _file_kb(target / "release" / f"lib{crate}.rlib", "rlib")}]


def java_row(out: Path, registry: Any) -> list[dict[str, Any]]:
    cp = java_classpath()
    classes = out / "compile-java"
    shutil.rmtree(classes, ignore_errors=True)
    classes.mkdir()
    sources = [str(p) for p in sorted((out / "java" / "src" / "main" / "java").rglob("*.java"))]
    args = out / "compile-java.args"
    args.write_text("\n".join(sources) + "\n")
    m = measure(["javac", "--release", "17", "-nowarn", "-d", str(classes), "-cp", cp, f"@{args}"], TIMEOUT)
    if _failed(m):
        return [{"step": "javac --release 17 (every source)", "measure": m, "size": "-"}]
    shutil.copytree(out / "java" / "src" / "main" / "resources", classes, dirs_exist_ok=True)
    jar = out / "compile-java.jar"
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(classes.rglob("*")):
            if path.is_file():
                z.write(path, path.relative_to(classes))
    n_classes = len(list(classes.rglob("*.class")))
    return [{"step": "javac --release 17 (every source)", "measure": m, "size": f"{_kb(jar.stat().st_size)} jar ({n_classes} classes)"}]


HEADERS = ["lang", "codes", "step", "wall (s)", "CPU (s)", "max RSS (MB)", "artefact", "load avg"]
ROWS = {"python": python_row, "typescript": typescript_row, "go": go_row, "rust": rust_row, "java": java_row}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.compile_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="100 codes only")
    parser.add_argument("--codes", type=lambda s: [int(x) for x in s.split(",")], help="registry sizes (default 100,5000,20000)")
    parser.add_argument("--langs", type=lambda s: s.split(","), default=list(LANGS))
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    rows, figures = [], []
    for n_codes in args.codes or ([100] if args.quick else [100, 5_000, 20_000]):
        registry, out = prepare(n_codes, "compile")  # its own folders: the runtime bench may be running
        for lang in args.langs:
            load = os.getloadavg()[0]
            if shutil.which({"python": sys.executable, "typescript": "node", "go": "go", "rust": "cargo", "java": "javac"}[lang]) is None:
                rows.append([lang, n_codes, "-", "toolchain not found", "", "", "", f"{load:.1f}"])
                continue
            for step in ROWS[lang](out, registry):
                m: Measure | None = step.get("measure")
                seconds = m.seconds if m else step["seconds"]
                note = _failed(m) if m else None
                cpu = m.cpu_seconds if m else step.get("cpu")
                rows.append([lang, n_codes, step["step"], note or f"{seconds:.2f}", "-" if cpu is None else f"{cpu:.2f}",
                             f"{m.max_rss_mb:.0f}" if m else "-", step["size"], f"{load:.1f}"])
                figures.append({"lang": lang, "codes": n_codes, "step": step["step"], "seconds": None if note else round(seconds, 3),
                                "cpu_seconds": None if note or cpu is None else round(cpu, 3), "size": step["size"], "failed": note,
                                "load": round(load, 1)})
            print(table(HEADERS, [r for r in rows if r[:2] == [lang, n_codes]]), file=sys.stderr, flush=True)
            if args.json:  # after every language, so an interrupted run keeps what it measured
                args.json.parent.mkdir(parents=True, exist_ok=True)
                args.json.write_text(json.dumps(figures, indent=2) + "\n")
    print(table(HEADERS, rows))


if __name__ == "__main__":
    main()
