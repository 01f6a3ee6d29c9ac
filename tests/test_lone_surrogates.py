"""Issue 38 (SPEC U): a JSON escape that leaves half a surrogate pair is read as U+FFFD by
`errgen validate` as by every SDK (whose reading the vectors pin), so no report raises on it."""

from __future__ import annotations

import json

from conftest import load_registry

from errgen.contract import view
from errgen.emit.targets import conformance as vectors
from errgen.validate.inputs import loads


def test_validate_reads_a_lone_surrogate_escape_as_replacement() -> None:
    value = loads('{"a\\udc00": ["\\ud800", {"k": "x\\udc00y"}], "pair": "\\ud83d\\ude00"}')
    assert value == {"a\ufffd": ["\ufffd", {"k": "x\ufffdy"}], "pair": "\U0001f600"}
    json.dumps(value, ensure_ascii=False).encode("utf-8")


def test_the_vectors_pin_a_message_and_a_correlation_id_with_lone_surrogates() -> None:
    contract = view(load_registry())
    by_name = {case.name: vectors.vector(contract, case) for case in vectors.cases(contract)}
    for kind in ("http", "mcp"):
        case = by_name[f"{kind}/lone-surrogate/low-then-text"]
        assert "\\udc00x" in json.dumps(case["input"], ensure_ascii=False)
        assert case["expected"]["decision"]["correlation_id"] == "c-\ufffdx"
    assert by_name["http/lone-surrogate/pair"]["expected"]["decision"]["correlation_id"] == "c-\U0001f600"
