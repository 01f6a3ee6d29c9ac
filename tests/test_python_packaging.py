"""The Python package as a package index receives it (issue 26, items 5-6; /work/wt/PACKAGING.md):
metadata from the registry's `about` (licence as a PEP 639 expression, urls, keywords, readme), a
README whose example runs, a LICENSE notice, the version in pyproject.toml only (REGISTRY_VERSION
reads it), and, slow, `python -m build` + `twine check --strict` for the default registry, a
5,000-code one and one that declares no licence."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from bench import synth
from conftest import REGISTRY, default_version, load_registry
from errgen import contract
from errgen.languages.python import naming
from errgen.languages.python import target as python_target
from errgen.registry.lint import lint_text


def released(text: str, version: str = "2.2.0") -> str:
    """The registry text of a release that changes only the version and adds its history entry."""
    old = re.search(r"^version: (\S+)$", text, re.M)
    assert old is not None
    return (text.replace(old.group(0), f"version: {version}", 1)
            + f'  - version: {version}\n    date: 2026-12-01\n    changes: ["A release."]\n')


def unlicensed_text() -> str:
    return synth.registry_text(12)


def render_text(text: str) -> dict[str, str]:
    result = lint_text(text)
    assert result.registry is not None, [d.text() for d in result.diagnostics]
    return python_target.render(result.registry)


def pyproject(files: dict[str, str]) -> dict[str, object]:
    return tomllib.loads(files["python/pyproject.toml"])["project"]


# ---- metadata, fast ---------------------------------------------------------------------------


def test_metadata_comes_from_the_registrys_about_exactly() -> None:
    registry = load_registry()
    about = contract.view(registry).about
    assert about.license and about.repository  # the default registry declares both
    files = python_target.render(registry)
    project = pyproject(files)
    assert project["name"] == "acme-errors" and project["readme"] == "README.md"
    assert project["description"] == " ".join(about.description.split())
    assert project["license"] == about.license and project["license-files"] == ["LICENSE"]
    assert project["keywords"] == list(about.keywords)
    urls = {"Repository": about.repository, **({"Homepage": about.homepage} if about.homepage else {})}
    assert project["urls"] == urls
    assert not any(c.startswith("License ::") for c in project["classifiers"])  # PEP 639: the expression says it
    build = tomllib.loads(files["python/pyproject.toml"])["build-system"]
    assert build["requires"] == ["setuptools>=77"]  # the first setuptools that reads a PEP 639 expression
    assert f"\nSPDX-License-Identifier: {about.license}\n" in files["python/LICENSE"]
    readme = files["python/README.md"]
    assert "python -m pip install acme-errors" in readme and "Code.RATE_LIMITED" in readme
    assert about.license in readme and about.repository in readme


def test_a_registry_without_a_licence_says_so_and_ships_no_licence_file() -> None:
    text = unlicensed_text()
    assert contract.view(lint_text(text).registry).about.license is None
    files = render_text(text)
    project = pyproject(files)
    assert "license" not in project and "license-files" not in project
    assert "python/LICENSE" not in files
    assert "No licence is declared" in files["python/README.md"]


@pytest.mark.parametrize(("spdx", "page"), [
    ("MIT", "; the licence text: https://spdx.org/licenses/MIT.html"),
    ("MIT OR Apache-2.0", "; the SPDX licence texts: https://spdx.org/licenses/MIT.html, https://spdx.org/licenses/Apache-2.0.html"),
    ("LicenseRef-Acme", "under LicenseRef-Acme.")])
def test_a_licence_expression_is_written_as_declared(spdx: str, page: str) -> None:
    text = REGISTRY.read_text(encoding="utf-8").replace("\nlicense: Apache-2.0\n", f"\nlicense: {spdx}\n", 1)
    files = render_text(text)
    assert pyproject(files)["license"] == spdx
    assert f"\nSPDX-License-Identifier: {spdx}\n" in files["python/LICENSE"] and files["python/LICENSE"].endswith(f"{page}\n")


def test_metadata_text_is_data_in_toml() -> None:
    hostile = 'a "quoted" \\ back\tslash\x7f del\nand a line ' + "\u2028 日本"
    assert tomllib.loads(f"x = {naming.toml_string(hostile)}")["x"] == hostile
    assert naming.summary("one\n two\tthree ") == "one two three"


def test_the_readme_example_runs_with_a_real_code(tmp_path: Path) -> None:
    files = python_target.render(load_registry())
    python_target_dir = tmp_path / "sdk"
    for name, text in files.items():
        (python_target_dir / name).parent.mkdir(parents=True, exist_ok=True)
        (python_target_dir / name).write_text(text, encoding="utf-8")
    example = re.findall(r"^```python\n(.*?)^```", files["python/README.md"], re.S | re.M)
    assert len(example) == 1 and len(example[0].splitlines()) <= 16
    program = tmp_path / "example.py"
    program.write_text(example[0], encoding="utf-8")
    done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(python_target_dir / "python")})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:3] == ["RATE_LIMITED", "pause", "2000"]


@pytest.mark.slow
def test_the_readme_example_type_checks_strictly(tmp_path: Path) -> None:
    files = python_target.render(load_registry())
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    example = re.findall(r"^```python\n(.*?)^```", files["python/README.md"], re.S | re.M)[0]
    (tmp_path / "example.py").write_text(example, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "example.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "MYPYPATH": str(tmp_path / "python")})
    assert done.returncode == 0, done.stdout + done.stderr


# ---- the version lives in pyproject.toml only ---------------------------------------------------


def test_a_release_changes_pyproject_toml_only() -> None:
    text = REGISTRY.read_text(encoding="utf-8")
    before, after = render_text(text), render_text(released(text))
    assert set(before) == set(after)
    changed = sorted(name for name in before if before[name] != after[name])
    assert changed == ["python/pyproject.toml"]
    assert 'version = "2.2.0"' in after["python/pyproject.toml"]


def _version_of(folder: Path, cwd: Path, package: str = "acme_errors") -> str:
    done = subprocess.run([sys.executable, "-c", f"import {package}; print({package}.REGISTRY_VERSION)"], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(folder)})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_registry_version_reads_the_pyproject_beside_the_package(tmp_path: Path) -> None:
    for name, text in python_target.render(load_registry()).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    folder = tmp_path / "python"
    version = default_version()
    assert _version_of(folder, tmp_path) == version
    project = folder / "pyproject.toml"
    project.write_text(project.read_text(encoding="utf-8").replace(f'version = "{version}"', 'version = "9.9.1rc1"'), encoding="utf-8")
    assert _version_of(folder, tmp_path) == "9.9.1rc1"
    # A pyproject.toml of another project (the package vendored into it) is not this package's.
    project.write_text(project.read_text(encoding="utf-8").replace('name = "acme-errors"', 'name = "someone-else"'), encoding="utf-8")
    assert _version_of(folder, tmp_path) == "0+unknown"


# ---- the packaging check, slow ---------------------------------------------------------------


def _tool(module: str) -> None:
    try:
        __import__(module)
    except ImportError:
        pytest.skip(f"needs {module} (pip install -e '.[test]')")


def build_and_check(registry_text: str, tmp: Path) -> tuple[Path, Path]:
    """`python -m build` (isolated, as a publisher runs it) and `twine check --strict` on both
    artifacts; the wheel and the sdist."""
    result = lint_text(registry_text)
    assert result.registry is not None
    from errgen.emit.build import build

    build(result.registry, tmp / "out", ["python"])
    dist = tmp / "dist"
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(tmp / "out" / "python")],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    artifacts = sorted(dist.iterdir(), key=lambda p: p.suffix)
    assert [p.suffix for p in artifacts] == [".gz", ".whl"], artifacts
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, artifacts)],
                             capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2, checked.stdout
    return artifacts[1], artifacts[0]


def wheel_metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return archive.read(name).decode("utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["default", "5000-codes", "unlicensed"])
def test_build_and_twine_check_strict(kind: str, tmp_path: Path) -> None:
    _tool("build")
    _tool("twine")
    text = {"default": lambda: REGISTRY.read_text(encoding="utf-8"), "5000-codes": lambda: synth.registry_text(5000),
            "unlicensed": unlicensed_text}[kind]()
    about = contract.view(lint_text(text).registry).about
    wheel, sdist = build_and_check(text, tmp_path)
    metadata = wheel_metadata(wheel)
    assert "Description-Content-Type: text/markdown" in metadata
    if about.license:
        assert f"License-Expression: {about.license}" in metadata and "License-File: LICENSE" in metadata
    else:
        # The packaging check says so: no licence expression, no licence file, the README says why.
        assert "License-Expression:" not in metadata and "License-File:" not in metadata
        assert "No licence is declared" in metadata
    for keyword in about.keywords:
        assert keyword in metadata
    if kind == "default":
        # Installed from the wheel, REGISTRY_VERSION is the distribution's metadata (no pyproject beside).
        site = tmp_path / "site"
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target", str(site), str(wheel)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        version = default_version()
        assert _version_of(site, tmp_path) == version
        assert not (site / "pyproject.toml").exists()
        # It is the metadata that is read: what the METADATA file says, REGISTRY_VERSION says.
        installed = next(site.glob("acme_errors-*.dist-info")) / "METADATA"
        installed.write_text(installed.read_text(encoding="utf-8").replace(f"\nVersion: {version}\n", f"\nVersion: {version}.post7\n"),
                             encoding="utf-8")
        assert _version_of(site, tmp_path) == f"{version}.post7"
    shutil.rmtree(tmp_path / "out")
