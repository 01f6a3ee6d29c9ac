"""errgen validate on a large JSON Lines file beside jsonschema on the same payloads, with peak
memory (flat: the file is streamed).

Run: python -m bench.validate_bench [--payloads 1000000]   Target (issue 6): >= 5x jsonschema's
throughput, memory flat in the file size.
"""

from __future__ import annotations

import argparse
import json
import random
import os
import subprocess
import sys
import time

from bench.common import OUT, ROOT, errgen_cmd, table


def write_corpus(path: str, n: int) -> None:
    rng = random.Random(3)
    sys.path.insert(0, str(ROOT / "generated" / "python"))
    import acme_errors as sdk

    entries = [e for e in sdk.RECOVERY_TABLE.values()]
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            e = entries[i % len(entries)]
            p = sdk.new_error(e.code.value, f"c-{i}", resource_id=f"r-{i}" if e.scope.value == "resource" else None,
                              message="The record could not be processed." if i % 3 else None).to_wire()
            if rng.random() < 0.05:
                p["extra"] = True
            if rng.random() < 0.01:
                p["message"] = "upstream db-primary.internal:5432 refused"
            fh.write(json.dumps(p) + "\n")


def run_measured(cmd: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MB and exit code of one command (os.wait4 gives its own rusage)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--payloads", type=int, default=1_000_000)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in (args.payloads // 10, args.payloads):
        path = OUT / f"payloads-{n}.jsonl"
        if not path.exists():
            write_corpus(str(path), n)
        elapsed, rss, code = run_measured(errgen_cmd() + ["validate", str(path)])
        assert code in (0, 1), code
        sample = min(n, 20_000)
        script = (
            "import json, sys, time\nfrom jsonschema import Draft202012Validator\n"
            f"v = Draft202012Validator(json.load(open({str(ROOT / 'generated' / 'schema' / 'error.schema.json')!r})))\n"
            f"import itertools\nlines = list(itertools.islice(open({str(path)!r}), {sample}))\nt = time.perf_counter()\n"
            "bad = sum(0 if v.is_valid(json.loads(l)) else 1 for l in lines)\nprint(len(lines) / (time.perf_counter() - t))"
        )
        js_rate = float(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)
        size_mb = path.stat().st_size / 1e6
        rows.append([n, f"{size_mb:,.0f}", f"{n / elapsed:,.0f}", f"{js_rate:,.0f}", f"{n / elapsed / js_rate:.1f}x", f"{rss:,.0f}"])
    print(table(["payloads", "file MB", "errgen validate /s", "jsonschema /s", "ratio", "errgen peak RSS MB"], rows))


if __name__ == "__main__":
    main()
