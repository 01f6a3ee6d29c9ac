"""The TypeScript runtime as errgen stores it compiled (compiled/): the JavaScript of each module
form and the declarations, which the target copies into a package's dist/. compiled.py makes these
files with tsc; this module only reads them, so the target needs nothing of the compiler."""

from __future__ import annotations

from pathlib import Path

from errgen.resources import runtime_sources

HERE = Path(__file__).resolve().parent / "compiled"
RUNNER = "conformance"  # run by node as CommonJS only: no ES module of it


def stems(form: str = "cjs") -> list[str]:
    """The runtime's modules in one form."""
    return [Path(name).stem for name in runtime_sources("typescript") if form == "cjs" or Path(name).stem != RUNNER]


def compiled_files() -> dict[str, str]:
    """`<form>/<stem>.js` and `types/<stem>.d.ts` -> text, as stored."""
    return {str(p.relative_to(HERE)): p.read_text(encoding="utf-8") for p in sorted(HERE.rglob("*")) if p.is_file()}
