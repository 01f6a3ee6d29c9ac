"""Streaming renderings of validate findings: text, json (one array, written item by item) and
github (workflow annotations). Streaming keeps memory flat however many payloads are checked."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Callable, Iterable

from errgen.validate import PayloadFinding


def stream(findings: Iterable[PayloadFinding], fmt: str, emit: Callable[[str], None]) -> dict[str, int]:
    """Emit each finding as it comes; return the count per severity."""
    counts = {"error": 0, "warning": 0}
    first = True
    if fmt == "json":
        emit("[")
    try:
        for finding in findings:
            counts[finding.severity] += 1
            if fmt == "json":
                emit(("  " if first else ", ") + json.dumps(asdict(finding), ensure_ascii=False))
                first = False
            elif fmt == "github":
                kind = "error" if finding.severity == "error" else "warning"
                emit(f"::{kind} file={finding.path},line={finding.line},title={finding.rule}::payload {finding.index}: {finding.message}")
            else:
                emit(finding.text())
    finally:
        if fmt == "json":
            emit("]")
    return counts
