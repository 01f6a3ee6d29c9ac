"""Streaming renderings of validate findings: text, json (one array, written item by item),
github (workflow annotations) and sarif, the last two written by errgen.formats. Streaming keeps
memory flat however many payloads are checked."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Callable, Iterable

from errgen import formats
from errgen.validate import PayloadFinding


def stream(findings: Iterable[PayloadFinding], fmt: str, emit: Callable[[str], None]) -> dict[str, int]:
    """Emit each finding as it comes; return the count per severity."""
    counts = {"error": 0, "warning": 0}
    first = True
    sarif = formats.SarifStream() if fmt == "sarif" else None
    if fmt == "json":
        emit("[")
    elif sarif is not None:
        emit(sarif.head)
    try:
        for finding in findings:
            counts[finding.severity] += 1
            message = f"payload {finding.number}: {finding.message}"
            if fmt == "json":
                emit(("  " if first else ", ") + json.dumps(asdict(finding), ensure_ascii=False))
                first = False
            elif fmt == "github":
                emit(formats.github_annotation(finding.severity, message, file=finding.path, line=finding.line, title=finding.rule))
            elif sarif is not None:
                emit(sarif.result(formats.sarif_result(finding.rule, finding.severity, message, path=finding.path, line=finding.line,
                                                       properties={"payload": finding.number})))
            else:
                emit(finding.text())
    finally:
        if fmt == "json":
            emit("]")
        elif sarif is not None:
            emit(sarif.tail())
    return counts
