"""Where the console script and `python -m errgen` start: Ctrl-C, wherever it lands, ends errgen
with one line and exit code 130, never a traceback.

This module imports nothing of errgen's, so the handler is in place before the imports that take
most of start-up (click, then a command's own). Click turns a KeyboardInterrupt inside a command
into "Aborted!" and exit 1; `Interrupted` is not one, so it reaches `main` instead."""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

INTERRUPTED = 130  # 128 + SIGINT, what shells report for a process Ctrl-C ended


class Interrupted(BaseException):
    """Ctrl-C: a BaseException, so no `except Exception` on the way swallows it."""


def _raise(_signum: int, _frame: Any) -> None:
    raise Interrupted


def main() -> NoReturn:
    try:
        import _signal  # the C module: `signal` first imports enum, a window of its own

        _signal.signal(_signal.SIGINT, _raise)
        from errgen.cli import run

        run()
    except (Interrupted, KeyboardInterrupt):  # KeyboardInterrupt: Ctrl-C before the handler was set
        interrupted()


def interrupted() -> NoReturn:
    try:
        print("errgen: interrupted", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # a closed pipe: nothing more can be said
        pass
    os._exit(INTERRUPTED)
