"""Folder registries: fragments with owners compose into exactly the single-file contract."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT, load_registry, run_errgen
from errgen.registry.compose import GitTree, compose
from errgen.registry.lint import lint_path
from errgen.registry.load import load_path

EXAMPLE = ROOT / "examples" / "multi-team" / "errors.yaml"

HEADER = """errgen: 1
name: demo
version: 1.0.0
categories:
  transient: {{retryable: true, description: Try again later.}}
  validation: {{retryable: false, action: fix, description: Fix it.}}
include: [{include}]
history:
  - {{version: 1.0.0, date: 2026-01-10, changes: [Initial.]}}
"""


def code(name: str, category: str = "validation") -> str:
    return f"  {name}:\n    category: {category}\n    scope: request\n    description: A code.\n    since: 1.0.0\n"


def folder(tmp_path: Path, fragments: dict[str, str], include: str = "teams/*.yaml", header: str = HEADER) -> Path:
    (tmp_path / "teams").mkdir(exist_ok=True)
    for name, text in fragments.items():
        (tmp_path / "teams" / name).write_text(text, encoding="utf-8")
    path = tmp_path / "errors.yaml"
    path.write_text(header.format(include=include), encoding="utf-8")
    return path


def test_the_example_builds_byte_identical_to_its_single_file_equivalent(tmp_path: Path) -> None:
    for registry, out in ((EXAMPLE, "folder"), (REGISTRY, "single")):
        done = run_errgen("build", "--registry", str(registry), "--out", str(tmp_path / out))
        assert done.returncode == 0, done.stderr
    # The build cache (gitignored, keyed by the registry's bytes) is local state, not output.

    def outputs(root: Path) -> list[Path]:
        return sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file() and p.name != ".errgen-cache.json")

    files = outputs(tmp_path / "single")
    assert len(files) > 10
    owners = 0
    for rel in files:
        folder, single = (tmp_path / "folder" / rel).read_bytes(), (tmp_path / "single" / rel).read_bytes()
        if rel.parts[0] == "site" and rel.name == "index.html" and len(rel.parts) > 2:
            # The site is the one output that says who owns each code: only that line differs.
            owner = re.compile(rb"<dt>Owner</dt><dd>@acme/[a-z]+</dd>\n")
            owners += len(owner.findall(folder))
            folder = owner.sub(b"", folder)
        elif rel.name == ".errgen-manifest.json":  # the same files; the owned pages' digests differ
            folder, single = (json.dumps({t: sorted(v["files"]) for t, v in json.loads(m)["targets"].items()}).encode() for m in (folder, single))
        assert folder == single, rel
    assert owners == len(load_registry(EXAMPLE).codes)
    assert outputs(tmp_path / "folder") == files


def test_owners_are_known_per_code_and_positions_name_the_fragment() -> None:
    result = lint_path(EXAMPLE)
    assert result.ok
    assert result.registry.owners["PAYMENT_TIMEOUT"] == "@acme/payments"
    assert result.registry.code_map["ITEM_MISSING"].loc.path.endswith("teams/20-operations.yaml")


def test_the_same_code_in_two_fragments_names_both_places(tmp_path: Path) -> None:
    path = folder(tmp_path, {"a.yaml": "owner: '@a'\ncodes:\n" + code("BAD_THING"), "b.yaml": "owner: '@b'\ncodes:\n" + code("BAD_THING")})
    found = [d for d in lint_path(path).diagnostics if d.rule == "duplicate-code"]
    assert len(found) == 1
    assert found[0].path.endswith("teams/b.yaml") and found[0].line == 3
    assert "teams/a.yaml:3" in found[0].message


@pytest.mark.parametrize("other", ["bad_thing", "Bad-Thing", "badThing"])
def test_case_and_separator_variants_across_fragments_collide(tmp_path: Path, other: str) -> None:
    path = folder(tmp_path, {"a.yaml": "owner: '@a'\ncodes:\n" + code("BAD_THING"), "b.yaml": "owner: '@b'\ncodes:\n" + code(other)})
    found = [d for d in lint_path(path).diagnostics if d.rule == "identifier-collision"]
    assert len(found) == 1
    assert found[0].path.endswith("teams/b.yaml") and "teams/a.yaml:3" in found[0].message


def test_a_code_outside_its_fragments_prefix_is_an_error(tmp_path: Path) -> None:
    path = folder(tmp_path, {"pay.yaml": "owner: '@acme/payments'\nprefix: PAYMENT_\ncodes:\n" + code("PAYMENT_TIMEOUT") + code("REFUND_LATE")})
    found = [d for d in lint_path(path).diagnostics if d.rule == "code-prefix"]
    assert [(Path(d.path).name, d.line) for d in found] == [("pay.yaml", 9)]
    assert "pay.yaml:2" in found[0].message


def test_fragment_shape_problems_point_into_the_fragment(tmp_path: Path) -> None:
    path = folder(tmp_path, {"a.yaml": "codes:\n" + code("X"), "b.yaml": "owner: '@b'\ncolour: blue\ncategories:\n  extra: {retryable: true, description: x}\ncodes: {}\n"})
    found = {(d.rule, Path(d.path).name, d.line) for d in lint_path(path).diagnostics}
    assert {("fragment-owner", "a.yaml", 1), ("unknown-key", "b.yaml", 2), ("fragment-categories", "b.yaml", 3)} <= found


@pytest.mark.parametrize("include", ["../outside/*.yaml", "/etc/*.yaml"])
def test_includes_stay_inside_the_registry_folder(tmp_path: Path, include: str) -> None:
    path = folder(tmp_path, {}, include=f"'{include}'")
    assert "include-pattern" in {d.rule for d in lint_path(path).diagnostics}


def test_a_pattern_that_matches_nothing_is_a_warning(tmp_path: Path) -> None:
    path = folder(tmp_path, {"a.yaml": "owner: '@a'\ncodes:\n" + code("X")}, include="teams/*.yaml, nothing/*.yaml")
    found = [d for d in lint_path(path).diagnostics if d.rule == "include-pattern"]
    assert [d.severity for d in found] == ["warning"]


def test_owners_prints_a_codeowners_section() -> None:
    done = run_errgen("owners", "--registry", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == [
        "/examples/multi-team/teams/00-platform.yaml @acme/platform",
        "/examples/multi-team/teams/10-payments.yaml @acme/payments",
        "/examples/multi-team/teams/20-operations.yaml @acme/sre",
    ]
    assert run_errgen("owners").returncode == 1


def test_composing_at_a_git_revision_reads_every_fragment_there(tmp_path: Path) -> None:
    path = folder(tmp_path, {"a.yaml": "owner: '@a'\ncodes:\n" + code("OLD")})
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(git + ["init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(git + ["add", "-A"], cwd=tmp_path, check=True)
    subprocess.run(git + ["commit", "-qm", "one"], cwd=tmp_path, check=True)
    (tmp_path / "teams" / "a.yaml").write_text("owner: '@a'\ncodes:\n" + code("NEW"), encoding="utf-8")
    (tmp_path / "teams" / "b.yaml").write_text("owner: '@b'\ncodes:\n" + code("ADDED"), encoding="utf-8")
    from errgen.registry.lint import lint_document

    at_head = lint_document(compose(load_path(path, "errors.yaml"), GitTree("HEAD", "", tmp_path)))
    assert [c.name for c in at_head.registry.codes] == ["OLD"]
    assert [c.name for c in lint_path(path).registry.codes] == ["NEW", "ADDED"]
