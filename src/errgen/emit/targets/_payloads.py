"""The payloads the vectors are made of (vectors.json's reading cases and writing.json's inputs
alike): a code's payload in a scope, an unknown code's, and the hint values they carry."""

from __future__ import annotations

from typing import Any

from errgen.contract import CodeRow, ContractView

HINT_VALUES: dict[str, Any] = {
    "searched": {"tenant": "wwww", "limit": 10, "exact": True}, "did_you_mean": ["www"], "accepted": ["eq", "ne"],
    "state": "unchanged", "safe_to_replay": True,
}


def payload_for(contract: ContractView, row: CodeRow, scope: str, hints: bool = True) -> dict[str, Any]:
    """A payload of `row` in `scope`, keyed by wire names, with the code's hints when asked."""
    w = {f.name: f.wire for f in contract.fields}
    p: dict[str, Any] = {w["code"]: row.code, w["category"]: row.category, w["retryable"]: row.retryable, w["scope"]: scope,
                         w["correlation_id"]: f"c-{row.code}-{scope}"}
    if scope == "resource":
        p[w["resource_id"]] = "item_4127"
    if hints:
        p.update({w[h]: HINT_VALUES[h] for h in row.hints})
    return p


def newer_code(contract: ContractView) -> str:
    """A code this registry does not have: what a newer server may send."""
    name = "CODE_FROM_A_NEWER_SERVER"
    while name in contract.code_map:
        name += "_X"
    return name


def unknown_payload(contract: ContractView, retryable: bool, scope: str, **more: Any) -> dict[str, Any]:
    w = {f.name: f.wire for f in contract.fields}
    p: dict[str, Any] = {w["code"]: newer_code(contract), w["category"]: contract.categories[0].name, w["retryable"]: retryable,
                         w["scope"]: scope, w["correlation_id"]: "c-new"}
    if scope == "resource":
        p[w["resource_id"]] = "item_9"
    p.update({w[k]: v for k, v in more.items()})
    return p
