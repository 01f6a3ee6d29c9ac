"""Issue 24 item 2: a conformance runner errgen builds and then runs is never at a path another
user can predict or write: Go's binary goes to a fresh private folder that is removed after the
run; Rust's and Java's builds go to errgen's verified cache (or the SDK's own folder)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from errgen.emit import toolcache
from errgen.languages.go import target as go_target
from errgen.languages.java import target as java_target
from errgen.languages.rust import target as rust_target

# A stand-in for `go build -o BIN ./cmd/conformance`: records where and in what folder it was
# asked to build, and "builds" a runner that prints a summary.
FAKE_GO = """#!/bin/sh
out="$3"
stat -c '%a %U' "$(dirname "$out")" > "$LOG"
echo "$out" >> "$LOG"
printf '#!/bin/sh\\necho "1 passed, 0 failed"\\n' > "$out"
chmod +x "$out"
"""


def test_go_runner_is_built_in_a_fresh_private_folder_and_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir, tmp, log = tmp_path / "bin", tmp_path / "tmp", tmp_path / "log"
    bin_dir.mkdir()
    tmp.mkdir(mode=0o1777)
    (bin_dir / "go").write_text(FAKE_GO)
    (bin_dir / "go").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    # what another user could plant at the old predictable path: must never run
    import hashlib
    sdk = tmp_path / "go"
    sdk.mkdir()
    digest = hashlib.sha256(str(sdk.resolve()).encode()).hexdigest()[:16]
    planted = tmp / f"errgen-go-conformance-{digest}"
    planted.write_text(f"#!/bin/sh\ntouch {tmp_path / 'pwned'}\n")
    planted.chmod(0o755)

    argv, cwd, tool = go_target.conformance_command(sdk, tmp_path / "v.json", "check")
    env = {**os.environ, "TMPDIR": str(tmp), "LOG": str(log)}
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "1 passed, 0 failed", done.stderr
    mode, owner = log.read_text().splitlines()[0].split()
    built = Path(log.read_text().splitlines()[1])
    assert mode == "700" and built.parent.parent == tmp and built.parent.name != planted.name
    assert not (tmp_path / "pwned").exists()
    assert sorted(tmp.iterdir()) == [planted]  # the private folder is gone after the run


def test_go_runner_keeps_the_runners_exit_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "go").write_text(FAKE_GO.replace('echo "1 passed, 0 failed"', "exit 2").replace('> "$LOG"', "> /dev/null").replace('>> "$LOG"', "> /dev/null"))
    (bin_dir / "go").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    argv, cwd, _ = go_target.conformance_command(tmp_path, tmp_path / "v.json", "check")
    assert subprocess.run(argv, cwd=cwd, capture_output=True, timeout=60).returncode == 2


def test_rust_and_java_build_in_the_verified_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    monkeypatch.setenv("ERRGEN_CACHE_DIR", str(tmp_path / "cache"))
    argv, _, _ = rust_target.conformance_command(tmp_path / "out" / "rust", tmp_path / "v.json", "check")
    target = Path(argv[argv.index("--target-dir") + 1])
    build = tmp_path / "cache" / "cargo-target"
    assert target.parent == build / "runners" and stat.S_IMODE(build.stat().st_mode) == 0o700
    assert f"build.build-dir={json.dumps(str(build))}" in argv
    java = java_target.build_directory(tmp_path / "out" / "java")
    assert java.parent == tmp_path / "cache" / "java" and stat.S_IMODE(java.parent.stat().st_mode) == 0o700


def test_a_shared_cache_folder_is_not_used_for_runner_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)  # another user could put a cargo-target/ or java/ build there
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    monkeypatch.setenv("ERRGEN_CACHE_DIR", str(shared))
    toolcache._secret.cache_clear()
    sdk = tmp_path / "out" / "rust"
    argv, _, _ = rust_target.conformance_command(sdk, tmp_path / "v.json", "check")
    assert Path(argv[argv.index("--target-dir") + 1]) == sdk / "target"
    assert java_target.build_directory(tmp_path / "out" / "java") == tmp_path / "out" / "java" / "target"


def test_a_runner_that_times_out_ends_with_its_children_and_its_private_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from errgen import runners as conformance

    bin_dir, tmp, pids = tmp_path / "bin", tmp_path / "tmp", tmp_path / "pids"
    bin_dir.mkdir()
    tmp.mkdir()
    hanging = FAKE_GO.replace('echo "1 passed, 0 failed"', f'echo $$ >> {pids}; exec sleep 300').replace('> "$LOG"', "> /dev/null").replace('>> "$LOG"', "> /dev/null")
    (bin_dir / "go").write_text(hanging)
    (bin_dir / "go").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(conformance, "TIMEOUT_S", 2)
    argv, cwd, tool = go_target.conformance_command(tmp_path, tmp_path / "v.json", "check")
    done = conformance._run(conformance.Runner("go", argv, cwd, tool))
    assert done.returncode == 124
    runner = int(pids.read_text().split()[0])
    assert not Path(f"/proc/{runner}").exists() or "Z" in Path(f"/proc/{runner}/stat").read_text().rsplit(")", 1)[1].split()[0]
    assert list(tmp.iterdir()) == []  # the private build folder went with it
