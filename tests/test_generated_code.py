"""The generated SDKs checked by their real consumers: mypy --strict, tsc --strict, python, node."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GENERATED, default_version, load_registry, node_json, tsc

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


def test_typescript_sdk_compiles_strict_and_runs_under_node(node_bin: Path, tmp_path: Path) -> None:
    """Compiled with the package's own tsconfig: strict and the stricter options users turn on."""
    options = json.loads("\n".join((TS / "tsconfig.json").read_text().splitlines()[1:]))["compilerOptions"]
    for flag in ("strict", "noUncheckedIndexedAccess", "noUnusedLocals", "noUnusedParameters", "exactOptionalPropertyTypes",
                 "noPropertyAccessFromIndexSignature"):
        assert options[flag] is True, flag
    done = tsc(node_bin, TS, tmp_path / "js")
    assert done.returncode == 0, done.stdout
    registry = load_registry()
    script = (
        f"const m = require({json.dumps(str(tmp_path / 'js' / 'index.js'))});"
        "console.log(JSON.stringify({codes: m.CODES, cats: m.CATEGORIES,"
        " actions: Object.fromEntries([...m.RECOVERY_TABLE.entries()].map(([k, e]) => [k, e.actions]))}));"
    )
    got = node_json(script, tmp_path)
    assert got == {
        "codes": [c.name for c in registry.codes],
        "cats": [c.name for c in registry.categories],
        "actions": {c.name: c.actions for c in registry.codes},
    }


def test_typescript_package_has_no_runtime_dependencies() -> None:
    package = json.loads((TS / "package.json").read_text())
    assert package["name"] == "acme-errors" and "dependencies" not in package


@pytest.mark.slow  # one of the four longest of the fast set (1.5-2.5 min on a busy 2-core machine)
def test_typescript_union_rejects_contradictions_at_compile_time(node_bin: Path, tmp_path: Path) -> None:
    """`ErrorPayload` is a discriminated union: a literal that contradicts the registry is a type error."""
    src = TS / "src"
    good = 'const ok: ErrorPayload = {code: "RATE_LIMITED", category: "rate_limit", retryable: true, scope: "service", correlation_id: "c", retry_after_ms: 5};\n'
    good += 'function narrow(p: ErrorPayload): string { return p.code === "TENANT_UNKNOWN" ? (p.did_you_mean ?? []).join() : ""; }\nnarrow(ok);\n'
    bad = {
        "category": '{code: "RATE_LIMITED", category: "auth", retryable: true, scope: "service", correlation_id: "c"}',
        "retryable": '{code: "AUTH_EXPIRED", category: "auth", retryable: true, scope: "request", correlation_id: "c"}',
        "scope": '{code: "AUTH_EXPIRED", category: "auth", retryable: false, scope: "service", correlation_id: "c"}',
        "hint": '{code: "AUTH_EXPIRED", category: "auth", retryable: false, scope: "request", correlation_id: "c", did_you_mean: ["x"]}',
        "unknown-code": '{code: "NOPE", category: "auth", retryable: false, scope: "request", correlation_id: "c"}',
    }
    for name, literal in [("good", None), *bad.items()]:
        project = tmp_path / name
        project.mkdir()
        body = good if literal is None else f"const bad: ErrorPayload = {literal};\nvoid bad;\n"
        (project / "check.ts").write_text(f'import type {{ ErrorPayload }} from {json.dumps(str(src / "index"))};\n{body}')
        (project / "tsconfig.json").write_text(json.dumps({"compilerOptions": {"strict": True, "noEmit": True, "target": "ES2020", "module": "commonjs"}, "files": ["check.ts"]}))
        done = tsc(node_bin, project)
        assert (done.returncode == 0) == (literal is None), f"{name}: {done.stdout}"


def test_npm_package_installs_from_a_plain_path_and_imports(node_bin: Path, tmp_path: Path) -> None:
    """`npm install <sdk>` in another project, with nothing installed in the SDK folder (no build, no
    TypeScript): `require`, `import` and the typed `exports` work; `npm pack` ships dist/ (the
    packaging in detail: test_ts_packaging.py)."""
    sdk = tmp_path / "sdk"
    shutil.copytree(TS, sdk)
    consumer = tmp_path / "consumer"
    consumer.mkdir()
    (consumer / "package.json").write_text(json.dumps({"name": "consumer", "version": "1.0.0", "private": True}))
    npm = ["npm", "--offline", "--no-audit", "--no-fund", "--loglevel=error"]
    done = subprocess.run([*npm, "install", str(sdk)], cwd=consumer, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    got = node_json('const m = require("acme-errors");'
                    'console.log(JSON.stringify(m.decide({code: "RATE_LIMITED", category: "rate_limit", retryable: true,'
                    ' scope: "service", correlation_id: "c"})));', consumer)
    assert got["action"] == "pause" and got["delayMs"] == 2000  # type: ignore[index]
    imported = subprocess.run(["node", "--input-type=module", "-e", 'import { decide } from "acme-errors"; console.log(decide(null).action);'],
                              cwd=consumer, capture_output=True, text=True, timeout=120)
    assert imported.stdout == "escalate\n", imported.stderr
    (consumer / "use.ts").write_text('import { decide, type Decision } from "acme-errors";\nconst d: Decision = decide(null);\nvoid d;\n')
    (consumer / "tsconfig.json").write_text(json.dumps({"compilerOptions": {"strict": True, "noEmit": True, "module": "node16",
                                                                            "moduleResolution": "node16", "types": []}, "files": ["use.ts"]}))
    typed = subprocess.run([str(node_bin / "tsc"), "-p", str(consumer)], capture_output=True, text=True, timeout=300)
    assert typed.returncode == 0, typed.stdout
    packed = subprocess.run([*npm, "pack", "--dry-run", "--json"], cwd=sdk, capture_output=True, text=True, timeout=300)
    assert packed.returncode == 0, packed.stderr
    shipped = {f["path"] for f in json.loads(packed.stdout)[0]["files"]}
    assert {"dist/cjs/index.js", "dist/cjs/index.d.ts", "dist/esm/index.js", "package.json"} <= shipped


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
