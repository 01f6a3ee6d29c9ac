"""A language is one folder: copied into errgen's package (a temporary copy of it), a toy language
with a target that writes only the enums and a runner is built, listed, run by `errgen
conformance` and accepted in `targets:`, with no file outside its folder changed."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT

TOY = {
    "__init__.py": '"""A toy language: the enums and a conformance runner, nothing else."""\n',
    "language.py": '''"""The toy language's declaration."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from errgen.languages.base import Language, RunnerCommand, SettingCheck

PREFIX = re.compile(r"[a-z][a-z_]*")


def runner(sdk_dir: Path, vectors: Path, mode: str) -> RunnerCommand:
    return [sys.executable, str(sdk_dir / "run.py"), mode, str(vectors)], sdk_dir, "python3"


def prefix_problem(value: str) -> str | None:
    return None if PREFIX.fullmatch(value) else "a toy prefix is lower-case letters and underscores"


LANGUAGE = Language(name="toy", settings={"prefix": lambda n: f"{n.snake}_toy"}, runner=runner,
                    leftovers={"toy.lock": ("cache/",)}, checks={"prefix": SettingCheck(prefix_problem, PREFIX)})
''',
    "target.py": '''"""toy/: the registry's codes and categories, one a line, and the runner."""

from __future__ import annotations

from errgen.contract import view
from errgen.emit.render import render as render_template
from errgen.registry.model import Registry
from errgen.resources import runtime_sources

NAME = "toy"
SUMMARY = "toy/: the codes and categories, one a line"


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    files = {"toy/enums.txt": render_template(NAME, "enums.txt.jinja", view=contract, prefix=contract.packages[NAME]["prefix"])}
    files.update({f"toy/{name}": text for name, text in runtime_sources(NAME).items()})
    files["toy/toy.lock"] = ""
    return files
''',
    "templates/enums.txt.jinja": (
        "prefix {{ prefix }}\n{% for name in view.code_names %}code {{ name }}\n{% endfor %}"
        "{% for name in view.category_names %}category {{ name }}\n{% endfor %}"
    ),
    # The runner checks one rule: a vector the contract parses as a known code names a code in enums.txt.
    "runtime/run.py": '''import json
import sys
from pathlib import Path

mode, vectors = sys.argv[1], json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))["vectors"]
lines = (Path(__file__).parent / "enums.txt").read_text(encoding="utf-8").splitlines()
codes = {line.split(" ", 1)[1] for line in lines if line.startswith("code ")}
passed = failed = 0
for vector in vectors:
    expected = vector.get("expected", {})
    known = (expected.get("decision") or {}).get("code") in codes
    if mode == "emit":
        print(json.dumps({"name": vector.get("name"), "known": known}))
    elif expected.get("parsed") != "known" or known:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {vector['name']}: code not in enums.txt")
if mode == "check":
    print(f"{passed} passed, {failed} failed")
''',
}


def with_toy(tmp_path: Path, files: dict[str, str]) -> Path:
    """A copy of errgen's package with languages/toy/ added; returns the folder to put on PYTHONPATH."""
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src" / "errgen", src / "errgen", ignore=shutil.ignore_patterns("__pycache__"))
    for rel, text in files.items():
        path = src / "errgen" / "languages" / "toy" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return src


def errgen(src: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run([sys.executable, "-m", "errgen", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def changed_files(left: Path, right: Path) -> list[str]:
    """Paths (relative) that differ between two trees, __pycache__ aside."""
    found = []
    compared = filecmp.dircmp(left, right, ignore=["__pycache__"])
    for rel, cmp in _walk(compared, ""):
        found += [f"{rel}{name}" for name in cmp.left_only + cmp.right_only + cmp.diff_files]
    return sorted(found)


def _walk(cmp: filecmp.dircmp[str], rel: str):  # type: ignore[no-untyped-def]
    yield rel, cmp
    for name, sub in sorted(cmp.subdirs.items()):
        yield from _walk(sub, f"{rel}{name}/")


def test_a_language_folder_is_listed_built_and_run_by_conformance(tmp_path: Path) -> None:
    src = with_toy(tmp_path, TOY)
    assert changed_files(ROOT / "src" / "errgen", src / "errgen") == ["languages/toy"]

    listed = errgen(src, "targets", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "toy          toy/: the codes and categories, one a line" in listed.stdout.splitlines()

    registry = tmp_path / "errors.yaml"
    registry.write_text(REGISTRY.read_text(encoding="utf-8").replace("\nversion:", "\ntargets: {toy: {prefix: acme_custom}}\nversion:", 1))
    out = tmp_path / "out"
    built = errgen(src, "build", "--registry", str(registry), "--out", str(out), "--target", "toy", "--target", "conformance", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    enums = (out / "toy" / "enums.txt").read_text(encoding="utf-8").splitlines()
    assert enums[0] == "prefix acme_custom"  # the package setting, read from `targets:` through the view
    assert "code VALIDATION_FAILED" in enums
    assert "/toy/cache/" in (out / ".gitignore").read_text(encoding="utf-8").splitlines()  # its leftovers

    ran = errgen(src, "conformance", "--out", str(out), "--target", "toy", cwd=tmp_path)
    vectors = json.loads((out / "conformance" / "vectors.json").read_text(encoding="utf-8"))["vectors"]
    assert ran.returncode == 0, ran.stdout + ran.stderr
    writing = json.loads((out / "conformance" / "writing.json").read_text(encoding="utf-8"))["vectors"]
    assert ran.stdout.splitlines() == [f"toy: {len(vectors)} passed, 0 failed", f"toy writing: {len(writing)} passed, 0 failed"]

    # Its setting check reaches lint and the registry's JSON Schema, still with no file outside its folder.
    registry.write_text(registry.read_text(encoding="utf-8").replace("prefix: acme_custom", "prefix: Acme-Custom"))
    linted = errgen(src, "lint", "--registry", str(registry), cwd=tmp_path)
    assert linted.returncode == 1 and "error[target-package]: targets.toy.prefix 'Acme-Custom': a toy prefix" in linted.stdout + linted.stderr
    code = "from errgen.registry.registry_schema import schema; print(schema()['properties']['targets']['properties']['toy'])"
    shown = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(src)}, capture_output=True, text=True, timeout=60)
    assert "'pattern': '^[a-z][a-z_]*$'" in shown.stdout, shown.stderr


def test_the_toy_runner_fails_when_the_enums_lack_a_code(tmp_path: Path) -> None:
    """The runner is real: a target that drops a code fails conformance (exit 1)."""
    broken = {**TOY, "templates/enums.txt.jinja": TOY["templates/enums.txt.jinja"].replace(
        "{% for name in view.code_names %}", "{% for name in view.code_names if name != 'VALIDATION_FAILED' %}")}
    src = with_toy(tmp_path, broken)
    out = tmp_path / "out"
    assert errgen(src, "build", "--registry", str(REGISTRY), "--out", str(out), cwd=tmp_path).returncode == 0
    ran = errgen(src, "conformance", "--out", str(out), "--target", "toy", cwd=tmp_path)
    assert ran.returncode == 1 and "FAIL article-000/validation-failed: code not in enums.txt" in ran.stdout


@pytest.mark.parametrize(("declaration", "message"), [
    (TOY["language.py"].replace("runner=runner,", "runner=None,"), "errgen: language toy: no conformance runner"),
    (TOY["language.py"].replace('name="toy"', 'name="toy2"'), "errgen: language folder 'toy' declares the name 'toy2'"),
    ('"""Nothing declared."""\n', "errgen: languages/toy/language.py must define LANGUAGE = Language(...)"),
    (None, "errgen: languages/toy/language.py must define LANGUAGE = Language(...)"),
])
def test_a_language_without_a_runner_or_declaration_is_refused_not_skipped(tmp_path: Path, declaration: str | None, message: str) -> None:
    files = {rel: text for rel, text in TOY.items() if rel != "language.py"}
    src = with_toy(tmp_path, files if declaration is None else {**files, "language.py": declaration})
    done = errgen(src, "targets", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith(message) and "Traceback" not in done.stderr, done.stderr


def test_a_target_named_otherwise_than_its_language_is_refused(tmp_path: Path) -> None:
    src = with_toy(tmp_path, {**TOY, "target.py": TOY["target.py"].replace('NAME = "toy"', 'NAME = "toys"')})
    done = errgen(src, "targets", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr == "errgen: languages/toy/target.py must set NAME = 'toy'\n", done.stderr
