"""The Go module as the go command receives it (issue 26, items 5-6; /work/wt/PACKAGING.md): a
README whose example runs, a LICENSE notice when the registry declares a licence, package docs in
doc.go, no version in any file (a release is a git tag; ModuleVersion reads the build's), and,
slow, for the default registry and a 5,000-code one: gofmt, `go mod verify`, and the module served
from a module proxy (a GOPROXY folder holding its zip, as a real release is served) fetched by a
consumer's `go get MODULE@vX.Y.Z`, vetted as fetched (every package, tests included), built and run."""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from bench import synth
from conftest import REGISTRY, ROOT, default_version, load_registry, toolchain
from errgen import contract
from errgen.languages.go import target as go_target
from errgen.registry.lint import lint_text
from test_python_packaging import released, unlicensed_text

GO = shutil.which("go")
needs_go = toolchain(GO is None, "needs the Go toolchain (go)")
# The default module's path: its major version from 2 on (read from the registry, not pinned).
MAJOR = int(default_version().split(".")[0])
MODULE = "acmeerrors" if MAJOR < 2 else f"acmeerrors/v{MAJOR}"


def render_text(text: str) -> dict[str, str]:
    result = lint_text(text)
    assert result.registry is not None, [d.text() for d in result.diagnostics]
    return go_target.render(result.registry)


def module_path(files: dict[str, str]) -> str:
    return next(line.split()[1] for line in files["go/go.mod"].splitlines() if line.startswith("module "))


# ---- metadata, fast ---------------------------------------------------------------------------


def test_readme_licence_and_package_docs_come_from_the_registry() -> None:
    registry = load_registry()
    about = contract.view(registry).about
    files = go_target.render(registry)
    assert module_path(files) == MODULE
    readme = files["go/README.md"]
    assert "acmeerrors.CodeRateLimited" in readme
    assert about.license in readme and about.repository in readme
    # The default path cannot be fetched: the README shows no `go get` that fails, but the
    # commands that work (tests/test_go_docs.py runs them in a consumer), and so does doc.go.
    assert "names no host" in readme and "go get " not in readme
    install = f"go mod edit -require={MODULE}@v{MAJOR if MAJOR >= 2 else 0}.0.0 -replace={MODULE}=../errors/generated/go\ngo mod tidy\n"
    assert f"```sh\n{install}```" in readme
    assert "".join(f"//\t{line}\n" for line in install.splitlines()) in files["go/doc.go"]
    assert f"\nSPDX-License-Identifier: {about.license}\n" in files["go/LICENSE"]
    doc = files["go/doc.go"]
    assert "\n// Package acmeerrors is the error contract of registry acme:" in doc
    assert "acmeerrors.NewError(acmeerrors.CodeRateLimited" in doc and "\n// # Versions\n" in doc


def test_pkg_go_dev_shows_an_example_for_each_helper_of_the_error_hierarchy_and_the_hooks() -> None:
    """Issue 40: Example functions (pkg.go.dev shows each under its identifier; `go test` in
    tests/test_go_sdk.py checks their output, `go vet` that each names a real identifier) for the
    errors a caller catches (APIError as smithy.APIError included), the retry helpers and hooks."""
    for text in (REGISTRY.read_text(encoding="utf-8"), (ROOT / "examples" / "apis" / "stripe.yaml").read_text(encoding="utf-8")):
        example = render_text(text)["go/example_test.go"]
        names = set(re.findall(r"^func Example(\w*)\(\) \{$", example, re.M))
        assert {"NewError", "ResponseError", "APIError", "RetryValue", "RetryResponse", "OnAttempt", "WithLogger",
                "DecideFailure"} <= names, names
        assert "var apiErr smithy.APIError\n" in example and "// Output:" in example.split("func ExampleAPIError")[1]


def test_a_module_whose_path_names_a_host_is_fetchable_as_it_says() -> None:
    text = REGISTRY.read_text(encoding="utf-8") + "targets:\n  go: {module: github.com/acme/errors}\n"
    readme = render_text(text)["go/README.md"]
    path = "github.com/acme/errors" + MODULE.removeprefix("acmeerrors")
    assert f"go get {path}\n" in readme and "names no host" not in readme and "go mod edit" not in readme
    # The package (acmeerrors) is not the path's last element: the import names it.
    assert f'\n\tacmeerrors "{path}"\n' in readme


def test_a_registry_without_a_licence_says_so_and_ships_no_licence_file() -> None:
    files = render_text(unlicensed_text())
    assert "go/LICENSE" not in files
    assert "No licence is declared" in files["go/README.md"]


def test_a_release_changes_no_file_of_the_module() -> None:
    """The version is the git tag: a minor release renders the very same module, and a major one
    changes only what names the module path (go.mod, the imports of its own commands, the docs)."""
    text = REGISTRY.read_text(encoding="utf-8")
    before = render_text(text)
    assert render_text(released(text)) == before
    major = render_text(released(text, "3.0.0"))
    changed = sorted(name for name in before if before[name] != major[name])
    assert changed == ["go/README.md", "go/cmd/conformance/main.go", "go/conformance_hook.go", "go/contract.go", "go/doc.go",
                       "go/example_test.go", "go/go.mod"]
    assert all("acmeerrors/v3" in major[name] for name in changed)


def test_no_version_constant_and_messages_name_the_registry_only() -> None:
    files = go_target.render(load_registry())
    assert not [name for name, text in files.items() if "RegistryVersion" in text]
    assert "func ModuleVersion() (version string, ok bool)" in files["go/version.go"]
    # "code X is not in registry acme", without "2.1.0" (checked at run time in errors_test.go).
    assert all('is not in registry %s",' in files[name] for name in ("go/check.go", "go/newerror.go"))


# ---- the module as the go command receives it, slow --------------------------------------------


def _go(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    assert GO is not None
    return subprocess.run([GO, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def serve_from_a_proxy(module: Path, path: str, version: str, proxy: Path) -> None:
    """The module as a module proxy serves a release (the GOPROXY protocol): its .info, .mod and
    .zip, the zip's files under `path@version/`."""
    folder = proxy / path.lower() / "@v"
    folder.mkdir(parents=True)
    (folder / "list").write_text(version + "\n", encoding="utf-8")
    (folder / f"{version}.info").write_text(json.dumps({"Version": version, "Time": "2026-12-01T00:00:00Z"}), encoding="utf-8")
    shutil.copy(module / "go.mod", folder / f"{version}.mod")
    with zipfile.ZipFile(folder / f"{version}.zip", "w") as archive:
        for file in sorted(p for p in module.rglob("*") if p.is_file()):
            archive.write(file, f"{path}@{version}/{file.relative_to(module).as_posix()}")


def consumer_main(files: dict[str, str]) -> str:
    """The README's example, plus ModuleVersion: what a user of the release writes first."""
    example = re.findall(r"^```go\n(.*?)^```", files["go/README.md"], re.S | re.M)
    assert len(example) == 1
    package = re.search(r"^package (\w+)$", files["go/doc.go"], re.M).group(1)  # type: ignore[union-attr]
    return example[0].replace("func main() {\n", f"func main() {{\n\tfmt.Println({package}.ModuleVersion())\n", 1)


@needs_go
@pytest.mark.parametrize("kind", ["default", "5000-codes"])
def test_vet_verify_and_get_from_a_proxy(kind: str, tmp_path: Path) -> None:
    """The module is vetted as the consumer receives it (from the module cache, its tests
    included): one compile of it, not one for its own folder and another for the consumer's. The
    default registry's module at its own path (no host) is vetted by tests/test_go_sdk.py."""
    text = REGISTRY.read_text(encoding="utf-8") if kind == "default" else synth.registry_text(5000)
    # A release as a proxy serves it, fetched by `go get` with the checks the go command applies to
    # any module zip (paths, sizes, go.mod agreeing with the path). The go command fetches only a
    # path that names a host, as a published module's does (targets.go.module).
    published = tmp_path / "published"
    registry = lint_text(text + "targets:\n  go: {module: example.com/acme/errors}\n").registry
    assert registry is not None
    files = go_target.render(registry)
    for name, content in files.items():
        (published / name).parent.mkdir(parents=True, exist_ok=True)
        (published / name).write_text(content, encoding="utf-8")
    module = published / "go"
    cache = {"GOMODCACHE": str(tmp_path / "modcache"), "GOFLAGS": "-modcacherw"}
    formatted = subprocess.run(["gofmt", "-l", "."], cwd=module, capture_output=True, text=True, timeout=120)
    assert formatted.returncode == 0 and formatted.stdout == "", formatted.stdout + formatted.stderr
    done = _go("mod", "verify", cwd=module, env=cache)
    assert done.returncode == 0, "mod verify: " + done.stdout + done.stderr
    path = module_path(files)
    version = "v" + registry.version
    proxy = tmp_path / "proxy"
    serve_from_a_proxy(module, path, version, proxy)
    consumer = tmp_path / "consumer"
    consumer.mkdir()
    (consumer / "go.mod").write_text("module example.com/consumer\n\ngo 1.21\n", encoding="utf-8")
    (consumer / "main.go").write_text(consumer_main(files), encoding="utf-8")
    # smithy-go, the module's one dependency, from this machine's module cache served as a proxy (or
    # the public proxy where the cache lacks it); the release from the test's own proxy first.
    machine_cache = Path(_go("env", "GOMODCACHE", cwd=consumer).stdout.strip()) / "cache" / "download"
    chain = f"{proxy.as_uri()},{machine_cache.as_uri()},https://proxy.golang.org"
    env = {**cache, "GOPROXY": chain, "GONOSUMDB": path, "GONOSUMCHECK": "1", "GOSUMDB": "off",
           "GOWORK": "off", "GOTOOLCHAIN": "local"}
    try:
        done = _go("get", f"{path}@{version}", cwd=consumer, env=env)
        assert done.returncode == 0, "get: " + done.stdout + done.stderr
        # The vet below covers every package of the fetched module (with its tests) and the consumer's program.
        listed = _go("list", f"{path}/...", cwd=consumer, env=env)
        folders = {posixpath.dirname(name.removeprefix("go/")) for name in files if name.endswith(".go")}
        assert listed.returncode == 0, listed.stderr
        assert sorted(listed.stdout.split()) == sorted(f"{path}/{f}" if f else path for f in folders)
        for args in (("vet", ".", f"{path}/..."), ("build", "-o", "consumer", ".")):
            done = _go(*args, cwd=consumer, env=env)
            assert done.returncode == 0, " ".join(args) + ": " + done.stdout + done.stderr
        ran = subprocess.run([str(consumer / "consumer")], capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stderr
        lines = ran.stdout.splitlines()
        assert lines[0] == f"{version} true"  # ModuleVersion: the release's tag, from the build
        assert len(lines) == 2 and lines[1].split()[0] in {c.name for c in registry.codes}
    finally:
        _go("clean", "-modcache", cwd=consumer, env=cache)
