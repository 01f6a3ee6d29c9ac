"""The generated Python SDK reading hostile HTTP error responses beside clean ones of the same
size (read_http, in this process, best of 5): a body whose code is a number of 1,000,000 digits
must cost about what a body of the same bytes with a long message does (big-number parsing is
quadratic in the digits; the SDK never converts a number longer than MAX_NUMBER_CHARS), and a body
past MAX_BODY_BYTES (1 MiB of spaces before the JSON) must cost no more than reading a body just
under the limit (it is refused by its length, before it is decoded). tests/test_wire_reading.py
checks what is read; a clock there failed on a loaded machine.

Run: python -m bench.wire_bench   (target: each hostile body within 1.5x its clean one)
"""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from bench.common import OUT, ROOT, table, time_call
from errgen.emit.build import build
from errgen.registry.lint import lint_path

REGISTRY = ROOT / "tests" / "fixtures" / "wire" / "real-api.yaml"
DIGITS = 1_000_000
STRIPE_DECLINED = json.dumps({"error": {"code": "card_declined", "message": "Your card was declined.", "type": "card_error"}})


def sdk() -> Any:
    out = OUT / "wire"
    shutil.rmtree(out, ignore_errors=True)
    build(lint_path(REGISTRY).registry, out, ["python"])
    sys.path.insert(0, str(out / "python"))
    return importlib.import_module("realapi_errors")


def cases(limit: int) -> list[tuple[str, tuple[int, dict[str, str], str], tuple[int, dict[str, str], str]]]:
    """(label, hostile read_http arguments, clean arguments of about the same size)."""
    number = '{"error": {"code": ' + "9" * DIGITS + "}}"
    message = '{"error": {"code": "card_declined", "message": "' + "x" * (DIGITS - 32) + '"}}'
    header = {"x-ms-error-code": "card_declined"}
    over = " " * (1 << 20) + STRIPE_DECLINED
    under = STRIPE_DECLINED.replace("Your card was declined.", "x" * (limit - len(STRIPE_DECLINED) - 8))
    return [
        (f"code: a number of {DIGITS:,} digits", (400, {}, number), (400, {}, message)),
        ("body: 1 MiB of spaces, past the limit", (402, header, over), (402, header, under)),
    ]


def main() -> None:
    module = sdk()
    limit = importlib.import_module("realapi_errors._contract").MAX_BODY_BYTES
    rows = []
    for label, hostile, clean in cases(limit):
        bad = time_call(lambda: module.read_http(*hostile))
        good = time_call(lambda: module.read_http(*clean))
        rows.append([label, f"{bad:.4f}", f"{good:.4f}", f"{bad / good:.2f}x", "<= 1.5x"])
    print(table(["case", "hostile s", "clean s", "ratio", "target"], rows), flush=True)


if __name__ == "__main__":
    main()
