"""Leak scanner benchmark: recall and false-positive rate per class on each labelled corpus
(tests/fixtures/leaks/corpus.jsonl, and the broader broad.jsonl written by make_broad.py), and
throughput in MB/s, beside detect-secrets' plugins on the same corpus when it is installed
(`python -m pip install detect-secrets`, from PyPI; it covers secrets only, so its other classes
read 0%).

Then the adversarial table: each of ADVERSARIAL (a start of a pattern, repeated so every position
might begin a match) as 100 KB and 400 KB of text, scanned and masked, beside 400 KB of the corpus's
clean messages: four times the text must cost about four times the time (linear; quadratic would
be 16x), and adversarial text about what clean text of its size does.

Run: python -m bench.leak_bench [--adversarial-only]
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable

from bench.common import table
from errgen.leaks import LeakScanner

LEAKS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "leaks"
CORPORA = (LEAKS / "corpus.jsonl", LEAKS / "broad.jsonl")
CLASSES = {"secret": "leak-secret", "stack-trace": "leak-stack-trace", "internal-host": "leak-internal-host", "file-path": "leak-file-path"}
ADVERSARIAL = ["a.", "at ", "a", "a-", "a:", "a/", "/home/a,", "password=x", 'File "', "at a.", "at a.b(", "at a.b.c(", "10.", "1.",
               "fd00:", "a@", "x://a:", "a://b:c@", "eyJ", "Bearer ", "-----BEGIN ", "#0 ", "** (A", "a.rb:1:", "a\\", "C:\\a",
               "\\\\a\\", "goroutine 1 [", "thread '", "sig=", "a.internal.", "0", "a" * 70 + ".", "db:", "~/", "a.php(",
               "at x.js:1:", "a.go:1 +0x", "localhost", "x-" * 40 + ".", "at async a (index ", "sku:3306 ", "v10.2.3.4 ",
               "password=**** ", "/home/a/", "api_key: ", "X-Api-Key: a1",
               # the widened detectors' own starts and runs
               "MIIE", "MIIEpAIBAAK", "b3BlbnNzaC1rZXktdjE", "-----BEGIN A PRIVATE KEY-----", "eyA", "eyAa.eyAa", "ya29.", "xapp-", "whsec_",
               "hooks.slack.com/services/", "AC" + "0" * 32 + ":", "twilio ", "sessionid=", "Authorization: ", "C:/", "C:/a/", "C:\\\\a",
               "%APPDATA%\\", "file:/", "$HOME/", "0:0:0:0:0:0:0:", "::1:", "a.internal.b", "ip-10-1-", "java.a.", "java.a.BException",
               "... 1 more ", "panic: ", "0: a::b::", "@http://a.js:1:", "at new ", "#1  0x0000000 in ", "key-", "a" * 31 + "-us1",
               "1234567:AA", ":APA91b", "SSWS ", "PGPASSWORD=", "next_page_token=ey", "Basic aB", "password '", "password a1",
               "internal-a.b.", "a.corp.", "webpack-internal:///a.js:1:", "a.cs:line ", "#0 [internal function", "During handling of"]
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
    import sys

    if rows is not None:
        compare("given rows", list(rows))
        return
    if "--adversarial-only" not in sys.argv[1:]:
        for corpus in CORPORA:
            compare(corpus.name, [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()])
    adversarial()


def scan_and_mask(text: str) -> float:
    """Best of three: every leak of the text scanned, then the text masked (which looks at every
    secret candidate, not only the first MAX_LEAKS leaks)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in SCANNER._scan(text):
            pass
        SCANNER.redact(text)
        best = min(best, time.perf_counter() - start)
    return best


def adversarial(size: int = 400_000) -> None:
    rows = [json.loads(line) for line in CORPORA[0].read_text(encoding="utf-8").splitlines()]
    prose = " ".join(row["text"] for row in rows if row["class"] is None)
    clean = scan_and_mask((prose * (size // len(prose) + 1))[:size])
    table_rows = []
    for unit in ADVERSARIAL + ["".join(ADVERSARIAL)]:
        text = (unit * (size // len(unit) + 1))[:size]
        large, small = scan_and_mask(text), scan_and_mask(text[:size // 4])
        label = unit if len(unit) <= 24 else unit[:21] + "..."
        table_rows.append([repr(label), f"{small:.4f}", f"{large:.4f}", f"{large / max(small, 1e-4):.1f}x", f"{clean:.4f}",
                           f"{large / clean:.1f}x"])
    print(f"adversarial text: {len(table_rows)} patterns, scanned and masked, best of 3 (target: 400 KB within 10x of 100 KB; quadratic is 16x)")
    print(table(["unit", "100 KB s", "400 KB s", "400/100", "clean 400 KB s", "vs clean"], table_rows))


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
