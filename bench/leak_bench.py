"""Leak scanner benchmark: recall and false-positive rate per class on each labelled corpus
(tests/fixtures/leaks/corpus.jsonl, and the broader broad.jsonl written by make_broad.py), and
throughput in MB/s, beside detect-secrets' plugins on the same corpus when it is installed
(`python -m pip install detect-secrets`, from PyPI; it covers secrets only, so its other classes
read 0%).

Run: python -m bench.leak_bench
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable

from errgen.leaks import LeakScanner

LEAKS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "leaks"
CORPORA = (LEAKS / "corpus.jsonl", LEAKS / "broad.jsonl")
CLASSES = {"secret": "leak-secret", "stack-trace": "leak-stack-trace", "internal-host": "leak-internal-host", "file-path": "leak-file-path"}
# Throughput: every message scanned on its own (as validate scans each string), REPEAT times.
REPEAT = 20


def errgen_rules(text: str) -> set[str]:
    # Past the scanner's cache of short strings' answers: a repeated corpus must not count as speed.
    return {leak.rule for leak in SCANNER._scan(text)}


def detect_secrets_rules(text: str) -> set[str]:
    """Every default plugin on each line, as `detect-secrets scan` runs them on a file (with
    their entropy limits; its ad-hoc `scan_line` reports every word as a candidate)."""
    from detect_secrets.core.scan import get_plugins

    for line in text.splitlines():
        for plugin in get_plugins():
            if plugin.analyze_line(filename="payload.txt", line=line, line_number=1):
                return {"leak-secret"}
    return set()


def measure(name: str, rules: Callable[[str], set[str]], rows: list[dict[str, str]]) -> None:
    hits: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    false = 0
    for row in rows:
        found = rules(row["text"])
        if row["class"] is None:
            false += bool(found)
        else:
            totals[row["class"]] += 1
            hits[row["class"]] += CLASSES[row["class"]] in found
    clean = sum(row["class"] is None for row in rows)
    start = time.perf_counter()
    for _ in range(REPEAT):
        for row in rows:
            rules(row["text"])
    seconds = time.perf_counter() - start
    megabytes = sum(len(row["text"].encode()) for row in rows) * REPEAT / 1e6
    recall = "  ".join(f"{cls} {hits[cls] / totals[cls]:6.1%}" for cls in CLASSES)
    print(f"{name:15} {recall}  false positives {false / clean:5.1%}  {megabytes / seconds:6.2f} MB/s")


def main(rows: Iterable[dict[str, str]] | None = None) -> None:
    if rows is not None:
        compare("given rows", list(rows))
        return
    for corpus in CORPORA:
        compare(corpus.name, [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()])


def compare(name: str, data: list[dict[str, str]]) -> None:
    print(f"{name}: {len(data)} labelled messages, {sum(r['class'] is None for r in data)} clean (recall per class, a leak found in its class)")
    measure("errgen", errgen_rules, data)
    try:
        from detect_secrets.settings import default_settings
    except ImportError:
        print("detect-secrets  not installed (python -m pip install detect-secrets) to compare")
        return
    with default_settings():  # every plugin enabled
        measure("detect-secrets", detect_secrets_rules, data)


SCANNER = LeakScanner()

if __name__ == "__main__":
    main()
