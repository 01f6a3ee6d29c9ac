"""errgen build --watch: a bounded run that saves the registry three times (a change, a lint
error, the fix) and stops with Ctrl-C."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from conftest import ROOT, interruptible


def test_watch_rebuilds_on_save_shows_lint_errors_and_exits_130_on_ctrl_c(workdir: Path) -> None:
    registry = workdir / "registry" / "errors.yaml"
    original = registry.read_text()
    proc = subprocess.Popen([sys.executable, "-m", "errgen", "build", "--watch"], cwd=workdir, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                            preexec_fn=interruptible)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stderr], daemon=True).start()  # type: ignore[union-attr]

    def wait_for(*needles: str) -> str:
        deadline = time.monotonic() + 60
        seen = []
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=1)
            except queue.Empty:
                continue
            seen.append(line)
            if all(n in "".join(seen) for n in needles):
                return "".join(seen)
        raise AssertionError(f"waited for {needles}; saw {seen}")

    try:
        assert re.search(r"generated: \d+ written, 0 deleted, 0 unchanged", wait_for("watching", "written"))
        registry.write_text(original.replace("retry_after_ms: 2000", "retry_after_ms: 3000"))
        assert re.search(r"generated: [1-9]\d* written, 0 deleted, [1-9]\d* unchanged", wait_for("unchanged"))
        registry.write_text(original.replace("http_status: 429", "http_status: 200"))
        assert "http-status-range" in wait_for("left as it was")
        assert proc.poll() is None  # a lint error does not end the loop
        registry.write_text(original)
        wait_for("written")
        assert '"retry_after_ms": 2000' in (workdir / "generated" / "recovery.json").read_text()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130  # as --help says: 130 interrupted
        assert "stopped" in wait_for("stopped")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_watch_does_not_combine_with_check(workdir: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "errgen", "build", "--watch", "--check"], cwd=workdir, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, timeout=60)
    assert done.returncode == 2 and "--watch" in done.stderr


def test_watch_rebuilds_on_a_fragment_edit_and_on_a_fragment_added_while_watching(tmp_path: Path) -> None:
    """A folder registry reads its header and every fragment the include patterns match; the
    watch sees each of them, and re-globs so a new team file counts (issue 29, item 2)."""
    import shutil

    shutil.copytree(ROOT / "examples" / "multi-team", tmp_path / "registry")
    fragment = tmp_path / "registry" / "teams" / "20-operations.yaml"
    proc = subprocess.Popen([sys.executable, "-m", "errgen", "build", "--watch", "--registry", "registry/errors.yaml",
                             "--target", "recovery"], cwd=tmp_path, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, preexec_fn=interruptible)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stderr], daemon=True).start()  # type: ignore[union-attr]

    def wait_for(needle: str) -> str:
        deadline, seen = time.monotonic() + 60, []
        while time.monotonic() < deadline:
            try:
                seen.append(lines.get(timeout=1))
            except queue.Empty:
                continue
            if needle in seen[-1]:
                return "".join(seen)
        raise AssertionError(f"waited for {needle!r}; saw {seen}")

    recovery = tmp_path / "generated" / "recovery.json"
    try:
        wait_for("written")
        fragment.write_text(fragment.read_text().replace("Report the correlation id.", "Report the correlation id now."))
        wait_for("unchanged")
        assert "Report the correlation id now." in recovery.read_text()
        (tmp_path / "registry" / "teams" / "30-search.yaml").write_text(
            'owner: "@acme/search"\ncodes:\n  SEARCH_TIMEOUT:\n    category: upstream\n    scope: request\n'
            "    http_status: 504\n    description: The search backend timed out. Retry shortly.\n    since: 1.0.0\n")
        wait_for("unchanged")
        assert "SEARCH_TIMEOUT" in recovery.read_text()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130  # as --help says: 130 interrupted
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
