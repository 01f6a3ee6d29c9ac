"""The installed wheel works on its own: templates, schemas and the example registry ship inside."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT


def fresh_venv_with_our_dependencies(env_dir: Path) -> Path:
    """A new virtual environment that sees the packages of the environment running the tests.

    `system_site_packages=True` would link to the *base* interpreter, which is not where a virtual
    environment's dependencies live. Instead the new environment keeps its own site-packages first
    (so the wheel's errgen wins over an editable install) and lists ours after it in a .pth file:
    plain path lines, so the editable install's own .pth hooks are not run. No network needed.
    """
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (Path(site) / "running_environment.pth").write_text("".join(f"{p}\n" for p in ours), encoding="utf-8")
    return python


@pytest.mark.slow  # one of the four longest of the fast set (1.5-2.5 min on a busy 2-core machine)
def test_wheel_installs_and_runs_outside_the_checkout(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(ROOT)], check=True, capture_output=True)
    [wheel] = wheels.glob("errgen-*.whl")
    env_dir = tmp_path / "venv"
    python = fresh_venv_with_our_dependencies(env_dir)
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--force-reinstall", "--quiet", str(wheel)], check=True, capture_output=True)
    errgen = env_dir / "bin" / "errgen"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    lint = subprocess.run([str(errgen), "lint", "--registry", str(REGISTRY)], cwd=elsewhere, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stderr
    built = subprocess.run([str(errgen), "build", "--registry", str(REGISTRY), "--out", "out"], cwd=elsewhere, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    assert (elsewhere / "out" / "typescript" / "src" / "payload.ts").exists()
    init = subprocess.run([str(errgen), "init", "new.yaml"], cwd=elsewhere, capture_output=True, text=True)
    assert init.returncode == 0 and "errgen: 1" in (elsewhere / "new.yaml").read_text()
    imported = subprocess.run([str(python), "-c", "import errgen.resources as r; print(r.templates_dir('python'))"], cwd=elsewhere, capture_output=True, text=True)
    assert str(env_dir) in imported.stdout
    # the docs errgen's output links to ship with it: `errgen docs` reads the installed copy
    docs = subprocess.run([str(errgen), "docs", "code-removed"], cwd=elsewhere, capture_output=True, text=True)
    assert docs.returncode == 0 and docs.stdout.startswith("### code-removed\n"), docs.stderr
    shipped = subprocess.run([str(python), "-c", "import errgen.manual as m; print(m.folder())"], cwd=elsewhere, capture_output=True, text=True)
    assert str(env_dir) in shipped.stdout and (Path(shipped.stdout.strip()) / "conformance.md").is_file()
