"""errgen build writes and deletes only inside its output folder, trusts no manifest or
interrupted commit it did not check, and never overwrites a file it did not write unless forced."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT, build_to, run_errgen
from errgen.emit import commit as write


_PRISTINE: list[Path] = []


@pytest.fixture(scope="module", autouse=True)
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One `errgen build` of the default registry for the file: each test that starts from a
    built project copies it (a build is half a second, a copy a few milliseconds)."""
    project = tmp_path_factory.mktemp("pristine")
    (project / "registry").mkdir()
    shutil.copy(REGISTRY, project / "registry" / "errors.yaml")
    done = run_errgen("build", cwd=project)
    assert done.returncode == 0, done.stderr
    _PRISTINE[:] = [project / "generated"]
    return project / "generated"


def built(workdir: Path) -> Path:
    """workdir as `errgen build` leaves it (the registry there is the default one, as built)."""
    assert (workdir / "registry" / "errors.yaml").read_bytes() == REGISTRY.read_bytes()
    shutil.copytree(_PRISTINE[0], workdir / "generated", symlinks=True)
    return workdir / "generated"


def edit_manifest(out: Path, change: object) -> None:
    path = out / write.MANIFEST
    manifest = json.loads(path.read_text())
    change(manifest)  # type: ignore[operator]
    path.write_text(json.dumps(manifest))


def refused(done: object, *needles: str) -> None:
    """Exit 2, a clear message naming what is wrong, no traceback."""
    assert done.returncode == 2, (done.returncode, done.stderr)  # type: ignore[attr-defined]
    assert "Traceback" not in done.stderr, done.stderr  # type: ignore[attr-defined]
    for needle in needles:
        assert needle in done.stderr, done.stderr  # type: ignore[attr-defined]


@pytest.mark.parametrize("entry", ["../victim.txt", "{victim}", "python/../../victim.txt", "./../victim.txt"])
def test_a_manifest_entry_outside_the_folder_is_refused_and_nothing_is_deleted(workdir: Path, entry: str) -> None:
    out = built(workdir)
    victim = workdir / "victim.txt"
    victim.write_text("precious\n")
    rel = entry.format(victim=victim)
    edit_manifest(out, lambda m: m["targets"]["schema"]["files"].__setitem__(rel, "0" * 64))
    before = sorted(p for p in out.rglob("*"))
    done = run_errgen("build", cwd=workdir)
    refused(done, write.MANIFEST, "not a relative path inside the output folder", "Nothing was changed")
    assert victim.read_text() == "precious\n"
    assert sorted(p for p in out.rglob("*")) == before
    refused(run_errgen("build", "--check", cwd=workdir), write.MANIFEST)


def test_a_manifest_entry_through_a_symlinked_folder_is_refused(workdir: Path) -> None:
    out = built(workdir)
    elsewhere = workdir / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "victim.txt").write_text("precious\n")
    (out / "link").symlink_to(elsewhere)
    edit_manifest(out, lambda m: m["targets"]["schema"]["files"].__setitem__("link/victim.txt", "0" * 64))
    refused(run_errgen("build", cwd=workdir), "link/victim.txt", "leads outside")
    assert (elsewhere / "victim.txt").read_text() == "precious\n"


@pytest.mark.parametrize("text, needle", [
    ('{"targets":{"python":{"files":"abc"}}}', "targets.python"),
    ('{"targets":{"python":{"files":{"a.py":"abc"}}}}', "sha256"),
    ('{"targets":{"python":{"files":{"a.py":7}}}}', "got a number"),
    ('{"targets":[]}', "expected an object"),
    ('[]', "expected an object"),
    ('{"targets":{}, "extra": 1}', "unknown key"),
    ('{"targets":{"a":{"files":{}}, "a":{"files":{}}}}', "duplicate key"),
    ('{"targets":{"a":{"files":{"x\\u0000y":"' + "0" * 64 + '"}}}}', "not a relative path"),
    ('{"targets":{"a":{"files":{"C:\\\\x":"' + "0" * 64 + '"}}}}', "not a relative path"),
    ('{"targets":{"a":{"files":{".errgen-commit/x":"' + "0" * 64 + '"}}}}', "not a relative path"),
    ("<<<<<<< HEAD\n{}", "not valid JSON"),
    ("[" * 100_000, "not valid JSON"),
    ('{"targets": ' + "1" * 5000 + "}", "not valid JSON"),
])
def test_a_corrupt_manifest_is_exit_2_with_its_reason_and_nothing_changes(workdir: Path, text: str, needle: str) -> None:
    out = built(workdir)
    (out / write.MANIFEST).write_text(text)
    (workdir / "registry" / "errors.yaml").write_text(REGISTRY.read_text().replace("name: acme", "name: acme_two"))
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    refused(run_errgen("build", cwd=workdir), write.MANIFEST, needle)
    refused(run_errgen("build", "--check", cwd=workdir), write.MANIFEST, needle)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_manifest_that_is_not_a_file_is_refused(workdir: Path) -> None:
    out = built(workdir)
    (out / write.MANIFEST).unlink()
    (out / write.MANIFEST).mkdir()
    refused(run_errgen("build", cwd=workdir), write.MANIFEST, "not a regular file")


def plant_commit(out: Path, journal: object, manifest: str | None = None) -> Path:
    commit = out / write.COMMIT
    (commit / "files").mkdir(parents=True)
    (commit / "journal.json").write_text(json.dumps(journal))
    (commit / "manifest.json").write_text(manifest if manifest is not None else (out / write.MANIFEST).read_text())
    return commit


@pytest.mark.parametrize("doomed", ["../victim2.txt", "{victim}", "NOTES.md"])
def test_a_planted_commit_cannot_delete_what_errgen_does_not_own(workdir: Path, doomed: str) -> None:
    out = built(workdir)
    victim = workdir / "victim2.txt"
    victim.write_text("precious\n")
    (out / "NOTES.md").write_text("mine\n")
    plant_commit(out, {"write": [], "delete": [doomed.format(victim=victim)]})
    done = run_errgen("build", cwd=workdir)
    refused(done, write.COMMIT)
    assert victim.read_text() == "precious\n" and (out / "NOTES.md").read_text() == "mine\n"
    assert run_errgen("build", "--check", cwd=workdir).returncode == 1  # the leftover is reported


def test_the_old_style_planted_delete_list_is_refused(workdir: Path) -> None:
    out = built(workdir)
    victim = workdir / "victim2.txt"
    victim.write_text("precious\n")
    commit = out / write.COMMIT
    commit.mkdir()
    (commit / ".delete").write_text("../victim2.txt\n")
    (commit / write.MANIFEST).write_text((out / write.MANIFEST).read_text())
    done = run_errgen("build", cwd=workdir)  # no journal and manifest of errgen's: only cleaned up
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert victim.read_text() == "precious\n" and not commit.exists()


def test_a_planted_commit_with_a_symlink_cannot_pull_files_from_outside(workdir: Path) -> None:
    out = built(workdir)
    elsewhere = workdir / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secret.txt").write_text("precious\n")
    manifest = json.loads((out / write.MANIFEST).read_text())
    manifest["targets"]["schema"]["files"]["schema/secret.txt"] = "0" * 64
    commit = plant_commit(out, {"write": ["schema/secret.txt"], "delete": []}, json.dumps(manifest))
    (commit / "files" / "schema").symlink_to(elsewhere)
    refused(run_errgen("build", cwd=workdir), write.COMMIT, "not a regular file")
    assert (elsewhere / "secret.txt").read_text() == "precious\n"
    assert not (out / "schema" / "secret.txt").exists()


def test_a_planted_commit_folder_that_is_a_symlink_is_refused(workdir: Path) -> None:
    out = built(workdir)
    elsewhere = workdir / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "journal.json").write_text('{"write": [], "delete": []}')
    (out / write.COMMIT).symlink_to(elsewhere)
    refused(run_errgen("build", cwd=workdir), write.COMMIT)
    assert (elsewhere / "journal.json").exists()


def test_a_symlinked_folder_leading_outside_is_never_written_through(workdir: Path) -> None:
    out = workdir / "generated"
    out.mkdir()
    elsewhere = workdir / "elsewhere"
    elsewhere.mkdir()
    (out / "docs").symlink_to(elsewhere)
    refused(run_errgen("build", cwd=workdir), "docs/errors.md", "leads outside")
    refused(run_errgen("build", "--force", cwd=workdir), "leads outside")
    assert list(elsewhere.iterdir()) == []
    assert sorted(p.name for p in out.iterdir()) == ["docs"]  # nothing written at all


def test_a_symlinked_file_is_replaced_never_followed(workdir: Path) -> None:
    out = built(workdir)
    victim = workdir / "victim.txt"
    victim.write_text("precious\n")
    (out / "recovery.md").unlink()
    (out / "recovery.md").symlink_to(victim)
    done = run_errgen("build", cwd=workdir)  # errgen owns recovery.md: it replaces the link
    assert done.returncode == 0, done.stderr
    assert not (out / "recovery.md").is_symlink() and victim.read_text() == "precious\n"


def test_a_users_file_is_not_overwritten_unless_forced(workdir: Path) -> None:
    out = workdir / "generated"
    (out / "docs").mkdir(parents=True)
    (out / "docs" / "errors.md").write_text("my own catalogue\n")
    done = run_errgen("build", cwd=workdir)
    refused(done, "refusing to overwrite", "generated/docs/errors.md", "--force")
    assert (out / "docs" / "errors.md").read_text() == "my own catalogue\n"
    assert sorted(p.name for p in out.iterdir()) == ["docs"]
    forced = run_errgen("build", "--force", cwd=workdir)
    assert forced.returncode == 0, forced.stderr
    assert "Generated by errgen" in (out / "docs" / "errors.md").read_text()
    assert run_errgen("build", cwd=workdir).returncode == 0  # now errgen's, in the manifest


def test_a_dangling_symlink_where_errgen_writes_is_a_users_entry(workdir: Path) -> None:
    out = workdir / "generated"
    out.mkdir()
    (out / "recovery.md").symlink_to(workdir / "missing.md")
    refused(run_errgen("build", cwd=workdir), "generated/recovery.md")
    assert run_errgen("build", "--force", cwd=workdir).returncode == 0
    assert not (workdir / "missing.md").exists() and (out / "recovery.md").is_file()


def test_identical_files_without_a_manifest_are_adopted(workdir: Path) -> None:
    """A lost manifest is not a reason to refuse: files with errgen's exact bytes are its own."""
    out = built(workdir)
    (out / write.MANIFEST).unlink()
    done = run_errgen("build", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert (out / write.MANIFEST).exists()


@pytest.mark.parametrize("rel", ["", "/etc/passwd", "a/../b", "../x", "a//b", "./a", "a/./b", "a\\b", "C:x", "a\nb",
                                 ".errgen-manifest.json", ".errgen-staging/x", 7, None])
def test_relative_path_accepts_only_plain_relative_paths(rel: object) -> None:
    with pytest.raises(write.WriteError):
        write.relative_path(rel, "here")


def test_a_target_cannot_write_outside_or_over_errgens_files(tmp_path: Path) -> None:
    for bad in ("../x.txt", ".gitignore", write.MANIFEST):
        with pytest.raises(write.WriteError):
            write.commit(tmp_path / "out", {"t": {bad: "x\n"}})
    assert not (tmp_path / "x.txt").exists() and not (tmp_path / "out").exists()


def test_build_into_a_folder_holding_its_own_manifest_only_touches_its_files(tmp_path: Path) -> None:
    """The whole inventory of a build: every path written lies under OUT."""
    out = tmp_path / "nested" / "out"
    build_to(REGISTRY, out)
    outside = [p for p in tmp_path.rglob("*") if out not in p.parents and p != out and p not in out.parents]
    assert outside == []
    assert os.listdir(tmp_path) == ["nested"]


@pytest.mark.parametrize("where", ["manifest", "journal"])
def test_a_fifo_in_place_of_a_manifest_or_journal_is_refused_without_hanging(workdir: Path, where: str) -> None:
    out = built(workdir)
    if where == "manifest":
        (out / write.MANIFEST).unlink()
        os.mkfifo(out / write.MANIFEST)
    else:
        commit = plant_commit(out, {"write": [], "delete": []})
        (commit / "journal.json").unlink()
        os.mkfifo(commit / "journal.json")
    done = subprocess.run([sys.executable, "-m", "errgen", "build"], cwd=workdir, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    refused(done, "not a regular file")
