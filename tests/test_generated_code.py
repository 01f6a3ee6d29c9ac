"""The generated SDKs checked by their real consumers: mypy --strict, tsc --strict, python, node."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GENERATED, ROOT, build_to, default_version, load_registry, node_json, tsc
from test_ts_packaging import declared_consumer, same_exports

PY = GENERATED / "python"
TS = GENERATED / "typescript"


def test_python_sdk_imports_and_carries_the_registry() -> None:
    registry = load_registry()
    script = (
        "import json, acme_errors as a\n"
        "print(json.dumps({'codes': [c.value for c in a.Code], 'cats': [c.value for c in a.Category],"
        " 'actions': {c.value: {s.value: x.value for s, x in e.actions.items()} for c, e in a.RECOVERY_TABLE.items()},"
        " 'desc': {c.value: e.description for c, e in a.RECOVERY_TABLE.items()}, 'version': a.REGISTRY_VERSION}))"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=PY, capture_output=True, text=True, check=True)
    got = json.loads(done.stdout)
    assert got["codes"] == [c.name for c in registry.codes]
    assert got["cats"] == [c.name for c in registry.categories]
    assert got["actions"] == {c.name: c.actions for c in registry.codes}
    assert got["desc"] == {c.name: c.description for c in registry.codes}
    assert got["version"] == registry.version
    # Article 000's examples come out as the article says.
    assert got["actions"]["VALIDATION_FAILED"]["resource"] == "skip"
    assert got["actions"]["RATE_LIMITED"]["service"] == "pause"


def test_python_package_installs_with_pip_and_works_from_anywhere(tmp_path: Path) -> None:
    text = (PY / "pyproject.toml").read_text()
    assert 'name = "acme-errors"' in text and f'version = "{default_version()}"' in text
    target, source = tmp_path / "site", tmp_path / "source"
    shutil.copytree(PY, source, ignore=shutil.ignore_patterns("__pycache__"))  # setuptools builds in the source tree
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(source)],
                   check=True, capture_output=True)
    assert (target / "acme_errors" / "py.typed").exists() and (target / "acme_errors" / "_table.json").exists()
    script = "import acme_errors as a; print(a.decide(a.new_error('RATE_LIMITED', 'c')).action.value)"
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env={"PYTHONPATH": str(target)}, capture_output=True, text=True)
    assert done.stdout.strip() == "pause", done.stderr


@pytest.fixture(scope="module")
def compiled(node_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """generated/typescript compiled once with its own tsconfig (strict and more): the JavaScript is in the folder returned."""
    js = tmp_path_factory.mktemp("js")
    return tsc(node_bin, TS, js), js


def test_typescript_sdk_compiles_strict_and_runs_under_node(compiled: tuple[subprocess.CompletedProcess[str], Path], tmp_path: Path) -> None:
    """Compiled with the package's own tsconfig: strict and the stricter options users turn on."""
    options = json.loads("\n".join((TS / "tsconfig.json").read_text().splitlines()[1:]))["compilerOptions"]
    for flag in ("strict", "noUncheckedIndexedAccess", "noUnusedLocals", "noUnusedParameters", "exactOptionalPropertyTypes",
                 "noPropertyAccessFromIndexSignature"):
        assert options[flag] is True, flag
    done, js = compiled
    assert done.returncode == 0, done.stdout
    registry = load_registry()
    script = (
        f"const m = require({json.dumps(str(js / 'index.js'))});"
        "console.log(JSON.stringify({codes: m.CODES, cats: m.CATEGORIES,"
        " actions: Object.fromEntries([...m.RECOVERY_TABLE.entries()].map(([k, e]) => [k, e.actions]))}));"
    )
    got = node_json(script, tmp_path)
    assert got == {
        "codes": [c.name for c in registry.codes],
        "cats": [c.name for c in registry.categories],
        "actions": {c.name: c.actions for c in registry.codes},
    }


def test_the_shipped_data_modules_are_what_tsc_makes_of_the_sources(compiled: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    """contract.js, recovery.js and index.js written by errgen's templates export exactly what tsc
    compiles from the same package's src/ (values, tables, function names); the same check of
    examples/apis' packages is in test_api_catalog.py."""
    done, js = compiled
    assert done.returncode == 0, done.stdout
    assert same_exports([(TS / "dist" / "cjs", js)]) == []


def test_typescript_package_has_no_runtime_dependencies() -> None:
    package = json.loads((TS / "package.json").read_text())
    assert package["name"] == "acme-errors" and "dependencies" not in package


GOOD = 'const ok: ErrorPayload = {code: "RATE_LIMITED", category: "rate_limit", retryable: true, scope: "service", correlation_id: "c", retry_after_ms: 5};\n'
GOOD += 'function narrow(p: ErrorPayload): string { return p.code === "TENANT_UNKNOWN" ? (p.did_you_mean ?? []).join() : ""; }\nnarrow(ok);\n'
# Each contradicts the registry in one field.
BAD = {
    "category": '{code: "RATE_LIMITED", category: "auth", retryable: true, scope: "service", correlation_id: "c"}',
    "retryable": '{code: "AUTH_EXPIRED", category: "auth", retryable: true, scope: "request", correlation_id: "c"}',
    "scope": '{code: "AUTH_EXPIRED", category: "auth", retryable: false, scope: "service", correlation_id: "c"}',
    "hint": '{code: "AUTH_EXPIRED", category: "auth", retryable: false, scope: "request", correlation_id: "c", did_you_mean: ["x"]}',
    "unknown-code": '{code: "NOPE", category: "auth", retryable: false, scope: "request", correlation_id: "c"}',
}


# The packages whose declarations alone a consumer compiles against: the golden one, a JSON envelope
# API and an XML API (examples/apis).
DECLARED = {"default": None, "stripe": ROOT / "examples" / "apis" / "stripe.yaml", "s3": ROOT / "examples" / "apis" / "s3.yaml"}


@pytest.fixture(scope="module")
def consumers(node_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """One strict tsc run over several consumers, each its own module: good.ts and bad-<field>.ts
    use the sources' `ErrorPayload`; declared-<package>.ts uses a copy of a package without src/
    (its declarations only). The errors tsc reports, by file (a file without errors is absent)."""
    project = tmp_path_factory.mktemp("consumers")
    index = json.dumps(str(TS / "src" / "index"))
    bodies = {"good": GOOD, **{f"bad-{name}": f"const bad: ErrorPayload = {literal};\nvoid bad;\n" for name, literal in BAD.items()}}
    for name, body in bodies.items():
        (project / f"{name}.ts").write_text(f"import type {{ ErrorPayload }} from {index};\n{body}")
    for name, registry in DECLARED.items():
        package = TS
        if registry is not None:
            build_to(registry, project / "built" / name, "typescript")
            package = project / "built" / name / "typescript"
        (project / f"declared-{name}.ts").write_text(declared_consumer(package, project / "copies" / name))
    files = [*(f"{name}.ts" for name in bodies), *(f"declared-{name}.ts" for name in DECLARED)]
    (project / "tsconfig.json").write_text(json.dumps({"compilerOptions": {"strict": True, "noEmit": True, "types": [], "target": "ES2020",
                                                                           "module": "commonjs"}, "files": files}))
    done = subprocess.run([str(node_bin / "tsc"), "-p", str(project), "--pretty", "false"], cwd=project, capture_output=True, text=True,
                          timeout=300)
    errors: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        if ": error TS" in line:
            errors.setdefault(line.split("(", 1)[0], []).append(line)
    assert (done.returncode == 0) == (errors == {}), done.stdout
    return errors


def test_typescript_union_rejects_contradictions_at_compile_time(consumers: dict[str, list[str]]) -> None:
    """`ErrorPayload` is a discriminated union: a literal that contradicts the registry is a type error."""
    assert "good.ts" not in consumers, consumers["good.ts"]
    for name in BAD:
        assert f"bad-{name}.ts" in consumers, f"{name}: a contradicting literal compiled"
    # Nothing else fails to compile (the sources included); the declared consumers are the test below's.
    others = {name for name in consumers if not name.startswith(("declared-", "copies/"))}
    assert others == {f"bad-{name}.ts" for name in BAD}, consumers


@pytest.mark.parametrize("package", DECLARED)
def test_the_shipped_declarations_type_check_a_consumer_without_the_sources(consumers: dict[str, list[str]], package: str) -> None:
    """The package's declarations, with no src/ beside them, type-check and type a strict consumer."""
    mine = {name: lines for name, lines in consumers.items() if name == f"declared-{package}.ts" or name.startswith(f"copies/{package}/")}
    assert mine == {}


def test_runtime_sources_are_copied_verbatim_and_black_clean() -> None:
    """The runtimes are errgen's own source: each generated copy is the header line plus the file."""
    import black

    from errgen.resources import runtime_sources

    header = "Generated by errgen from registry acme. Do not edit."
    for name, source in runtime_sources("python").items():
        assert (PY / "acme_errors" / name).read_text() == f"# {header}\n{source}", name
        mode = black.Mode(line_length=100, target_versions={black.TargetVersion.PY310})
        assert black.format_str(source, mode=mode) == source, f"{name} is not black-formatted"
    for name, source in runtime_sources("typescript").items():
        assert (TS / "src" / name).read_text() == f"// {header}\n{source}", name
    from errgen.languages.typescript.target import compiled_runtime

    for key, text in compiled_runtime().items():
        form, name = key.split("/")
        for folder in (("cjs", "esm") if form == "types" else (form,)):
            shipped = TS / "dist" / folder / name
            assert form == "types" and folder == "esm" and name == "conformance.d.ts" or shipped.read_text() == f"// {header}\n{text}", key
