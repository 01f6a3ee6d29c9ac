"""Where the console script and `python -m errgen` start: Ctrl-C, wherever it lands, ends errgen
with one line and exit code 130, never a traceback.

This module imports nothing of errgen's, so an interrupt during the imports that take most of
start-up (click, errgen.cli) is caught here. Inside click, console.Group handles it: while the
command line is parsed (click itself would print "Aborted!" and exit 1) and while a command runs
(a build interrupted while staging discards its staging first: write.py catches KeyboardInterrupt)."""

from __future__ import annotations

import os
import sys
from typing import NoReturn

INTERRUPTED = 130  # 128 + SIGINT, what shells report for a process Ctrl-C ended


def main() -> NoReturn:
    try:
        from errgen.cli import run

        run()
    except KeyboardInterrupt:
        interrupted()


def interrupted() -> NoReturn:
    try:
        print("errgen: interrupted", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # a closed pipe: nothing more can be said
        pass
    os._exit(INTERRUPTED)
