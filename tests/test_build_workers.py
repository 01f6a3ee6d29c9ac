"""Issue 24 item 8: a large build's forked workers end with the build, however it ends (SIGKILL
included), and a second build into the same output folder while one runs fails at once with a
clear message (exit 2) instead of racing it."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.synth import registry_text
from conftest import ROOT, run_errgen

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
CODES = 1_500  # inside build.PARALLEL_CODES: the targets render in forked workers


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its exit status is left for its new parent


def start_build(tmp_path: Path, out: Path) -> subprocess.Popen[str]:
    registry = tmp_path / "large.yaml"
    if not registry.exists():
        registry.write_text(registry_text(CODES))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "ERRGEN_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.Popen([sys.executable, "-m", "errgen", "build", "--registry", str(registry), "--out", str(out)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def workers_of(build: subprocess.Popen[str], timeout: float = 120) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and build.poll() is None:
        found = children(build.pid)
        if found:
            return found
        time.sleep(0.01)
    pytest.fail(f"the build started no worker (exit {build.poll()}): {build.stderr.read() if build.poll() is not None else ''}")


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one CPU: the build renders in one process")
def test_workers_end_when_the_build_is_killed(tmp_path: Path) -> None:
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one CPU: the build renders in one process")
    build = start_build(tmp_path, tmp_path / "out")
    workers = workers_of(build)
    build.send_signal(signal.SIGKILL)
    build.wait()
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    orphans = [w for w in workers if alive(w)]
    for w in orphans:  # leave nothing behind whatever the outcome
        os.kill(w, signal.SIGKILL)
    assert not orphans, f"workers outlived their build: {orphans}"


def test_a_second_build_into_the_same_folder_fails_fast(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    fd = os.open(out, os.O_RDONLY)  # what a running build holds
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        (out / ".errgen-staging").mkdir()  # the running build's staging: must survive
        done = run_errgen("build", "--target", "schema", "--out", str(out))
        assert done.returncode == 2, done.stderr
        assert f"another errgen build is writing {out} right now" in done.stderr
        assert sorted(p.name for p in out.iterdir()) == [".errgen-staging"]
    finally:
        os.close(fd)
    done = run_errgen("build", "--target", "schema", "--out", str(out))
    assert done.returncode == 0, done.stderr  # released with its holder


def test_two_concurrent_large_builds_one_gets_the_lock_message(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    first = start_build(tmp_path, out)
    if len(os.sched_getaffinity(0)) >= 2:
        workers_of(first)  # rendering: it holds the lock from its start
    else:
        time.sleep(1.0)
    second = start_build(tmp_path, out)
    _, second_err = second.communicate(timeout=120)
    _, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    assert second.returncode == 2 and "another errgen build is writing" in second_err, second_err
