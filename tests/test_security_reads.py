"""Issue 38 points 6 and 7: what errgen reads is bounded by what it needs. At a git ref only the
blobs the include patterns match are read, none past the loader's limit; a JSON Lines line past
the payload limit is reported and skipped, never held whole."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, run_errgen
from errgen.registry import compose
from errgen.registry.load import load_text

EXAMPLE = ROOT / "examples" / "multi-team"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
LIMIT = 100_000  # the loader's limit, made small so that the test's blobs can pass it


def _repo(tmp_path: Path, include: str) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE, repo / "reg")
    header = repo / "reg" / "errors.yaml"
    header.write_text(header.read_text().replace("include: [teams/*.yaml]", f"include: [{include!r}]"))
    (repo / "reg" / "teams" / "zz-big.yaml").write_text("# " + "x" * (3 * LIMIT) + "\n")  # beside the fragments
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*GIT, "commit", "-qm", "one"], cwd=repo, check=True)
    return repo


@pytest.fixture()
def requested(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The blob names every `git cat-file --batch` request asked for."""
    asked: list[str] = []
    original = compose._Blobs._fetch

    def fetch(self: compose._Blobs, names: list[str]) -> None:
        asked.extend(names)
        original(self, names)

    monkeypatch.setattr(compose._Blobs, "_fetch", fetch)
    monkeypatch.setattr(compose, "MAX_BYTES", LIMIT, raising=False)
    compose._LAST.clear()  # nothing remembered from another composition: every fragment is read from git
    compose._THIS.clear()
    return asked


def _at_head(repo: Path) -> compose.Document:
    header = load_text((repo / "reg" / "errors.yaml").read_text(), "HEAD:reg/errors.yaml")
    tree = compose.GitTree("HEAD", "reg", repo)
    try:
        return compose.compose(header, tree)
    finally:
        tree.close()


def test_a_blob_no_pattern_matches_is_never_read_at_a_ref(tmp_path: Path, requested: list[str]) -> None:
    repo = _repo(tmp_path, "teams/[0-2]*.yaml")
    doc = _at_head(repo)
    assert [f.path for f in doc.fragments] == [f"HEAD:reg/teams/{n}" for n in ("00-platform.yaml", "10-payments.yaml", "20-operations.yaml")]
    assert sorted(requested) == ["teams/00-platform.yaml", "teams/10-payments.yaml", "teams/20-operations.yaml"]


def test_a_matched_blob_past_the_limit_is_refused_unread_at_a_ref(tmp_path: Path, requested: list[str]) -> None:
    repo = _repo(tmp_path, "teams/*.yaml")
    doc = _at_head(repo)
    too_large = [d for d in doc.diagnostics if d.rule == "file-too-large"]
    assert [d.path for d in too_large] == ["HEAD:reg/teams/zz-big.yaml"], doc.diagnostics
    assert "teams/zz-big.yaml" not in requested
    assert len(doc.fragments) == 3


def test_a_huge_committed_link_is_never_read(tmp_path: Path, requested: list[str]) -> None:
    """A blob of mode 120000 holds a link's target: none is longer than PATH_MAX."""
    repo = _repo(tmp_path, "teams/*.yaml")
    blob = subprocess.run([*GIT, "hash-object", "-w", "--stdin"], cwd=repo, input=b"a/" * 5000, capture_output=True, check=True).stdout.decode().strip()
    subprocess.run([*GIT, "update-index", "--add", "--cacheinfo", f"120000,{blob},reg/teams/link.yaml"], cwd=repo, check=True)
    subprocess.run([*GIT, "commit", "-qm", "link"], cwd=repo, check=True)
    calls: list[list[str]] = []
    tree = compose.GitTree("HEAD", "reg", repo)
    original = tree._git
    tree._git = lambda *args: calls.append(list(args)) or original(*args)  # type: ignore[method-assign]
    assert tree.resolve("teams/link.yaml") is None
    assert not [c for c in calls if c[0] == "cat-file"]


# --- point 7: one long JSON Lines line ------------------------------------------------------------

GOOD = '{"code": "RATE_LIMITED", "message": "slow down"}\n'


def _long_line(size: int) -> str:
    return '{"code": "RATE_LIMITED", "message": "' + "x" * size + '"}\n'


@pytest.mark.parametrize("suffix", [".jsonl", ".txt"])  # by name, and sniffed
def test_a_line_past_the_payload_limit_is_reported_and_streaming_goes_on(tmp_path: Path, suffix: str) -> None:
    from errgen.contract import Policy

    path = tmp_path / f"log{suffix}"
    long = _long_line(Policy().max_body_bytes)
    path.write_text(GOOD + long + GOOD)
    done = run_errgen("validate", str(path))
    assert done.returncode == 1
    size = len(long) - 1  # its newline is not part of it
    assert f"{path}:2: error[payload-too-large]: payload 2: line is {size:,} bytes, past the payload limit of 1,048,576" in done.stdout
    assert f"{path}:3: error[missing-field]: payload 3" in done.stdout  # the line after it is read


def test_a_long_line_on_a_pipe_is_reported_too() -> None:
    done = run_errgen("validate", "-", input=GOOD + _long_line(2_000_000) + GOOD)
    assert "-:2: error[payload-too-large]" in done.stdout and "-:3: error[missing-field]" in done.stdout


def test_a_line_at_the_limit_is_read(tmp_path: Path) -> None:
    from errgen.contract import Policy

    line = _long_line(0)
    path = tmp_path / "log.jsonl"
    path.write_text(GOOD + line.replace('"message": ""', '"message": "' + "x" * (Policy().max_body_bytes - len(line) + 1) + '"'))
    done = run_errgen("validate", str(path))
    assert "payload-too-large" not in done.stdout and f"{path}:2: error[missing-field]" in done.stdout


def test_memory_stays_at_one_line_limit_however_long_the_line(tmp_path: Path) -> None:
    import tracemalloc

    from errgen.validate.inputs import records

    path = tmp_path / "log.jsonl"
    path.write_text(GOOD + _long_line(24_000_000) + GOOD)
    tracemalloc.start()
    try:
        found = [(r.line, r.error_rule if r.error else "") for r in records(str(path))]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == [(1, ""), (2, "payload-too-large"), (3, "")]
    assert peak < 6_000_000, peak  # a 24 MB line: under 6 MB at its peak (main held it whole, about 4.5x)
