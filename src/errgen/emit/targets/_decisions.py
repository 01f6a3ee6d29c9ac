"""The documented verdicts and decisions (docs/conformance.md), computed from the contract view
for the conformance files: what every SDK must make of a raw payload (`expected`), of a response
without a payload (`status_decision`) and of a transport failure (`transport_decision`). Never by
running generated code."""

from __future__ import annotations

from typing import Any

from errgen.contract import ContractView
from errgen.payload_checks import envelope_problems, problem_ids


def expected(contract: ContractView, raw: Any, attempt: int, max_attempts: int, max_delay_ms: int) -> dict[str, Any]:
    found = envelope_problems(contract, raw)  # judged once: the problems, parsed and decision all start from it
    problems = problem_ids(contract, raw, found)
    return {"valid": not problems, "problems": problems, "parsed": parsed(contract, raw, bool(found)),
            "decision": decision(contract, raw, attempt, max_attempts, max_delay_ms, bool(found), problems)}


def _w(contract: ContractView, name: str) -> str:
    return contract.field_map[name].wire


def _delay_on_final(contract: ContractView, raw: dict[str, Any]) -> bool:
    return raw[_w(contract, "retryable")] is False and _w(contract, "retry_after_ms") in raw


def _unknown(contract: ContractView, raw: dict[str, Any]) -> bool:
    return raw[_w(contract, "code")] not in contract.code_map or raw[_w(contract, "category")] not in contract.category_names


def parsed(contract: ContractView, raw: Any, envelope: bool) -> str:
    if envelope or _delay_on_final(contract, raw):
        return "invalid"
    return "unknown" if _unknown(contract, raw) else "known"


def backoff(contract: ContractView, attempt: int) -> int:
    p = contract.policy
    exponent = min(max(attempt - 1, 0), p.backoff_max_exponent)
    return int(min(p.backoff_base_ms * 2**exponent, p.backoff_max_ms))


def decision(contract: ContractView, raw: Any, attempt: int, max_attempts: int, max_delay_ms: int,
             envelope: bool, problems: list[str]) -> dict[str, Any]:
    """`envelope`: the payload has envelope problems; `problems`: its problem ids (past a clean
    envelope, the registry's)."""
    if envelope:
        correlation = raw.get(_w(contract, "correlation_id")) if isinstance(raw, dict) else None
        return empty_decision("escalate", "invalid-payload", None, correlation if isinstance(correlation, str) else None)
    if _delay_on_final(contract, raw):
        return filled(contract, raw, "escalate", "invalid-payload")
    scope, retryable = raw[_w(contract, "scope")], raw[_w(contract, "retryable")]
    default: int | None = None
    if _unknown(contract, raw):
        action, reason = contract.fallback_actions[scope][retryable], "unknown-code"
    elif problems:
        return filled(contract, raw, "escalate", "contradicts-registry")
    else:
        row = contract.code_map[raw[_w(contract, "code")]]
        action, reason, default = row.actions[scope], "registry", row.retry_after_ms
    if action not in contract.exhausted:
        return filled(contract, raw, action, reason)
    if attempt >= max_attempts:
        return filled(contract, raw, contract.exhausted[action], "attempts-exhausted")
    given = raw.get(_w(contract, "retry_after_ms"))
    delay = int(given) if given is not None else default if default is not None else backoff(contract, attempt)
    if delay > max_delay_ms:
        return filled(contract, raw, "escalate", "delay-exceeds-max")
    return filled(contract, raw, action, reason, delay)


def timed(contract: ContractView, action: str, reason: str, attempt: int, max_attempts: int, max_delay_ms: int,
          named: int | None) -> tuple[str, str, int | None]:
    """The timing rule of a timed action: attempts, the delay (named, else the backoff), its bound."""
    if action not in contract.exhausted:
        return action, reason, None
    if attempt >= max_attempts:
        return contract.exhausted[action], "attempts-exhausted", None
    delay = named if named is not None else backoff(contract, attempt)
    if delay > max_delay_ms:
        return "escalate", "delay-exceeds-max", None
    return action, reason, delay


def empty_decision(action: str, reason: str, delay: int | None = None, correlation: str | None = None) -> dict[str, Any]:
    return {"action": action, "reason": reason, "code": None, "wire_code": None, "delay_ms": delay, "correlation_id": correlation,
            "resource_id": None, "did_you_mean": [], "accepted": [], "searched": {}}


def status_action(contract: ContractView, status: int) -> str:
    actions = contract.response["status_actions"]
    found = actions.get(str(status)) or actions.get(f"{status // 100}xx")
    return found if found and 100 <= status <= 599 else "escalate"


def status_decision(contract: ContractView, status: int, correlation: str | None, delay: int | None, attempt: int,
                    max_attempts: int, max_delay_ms: int) -> dict[str, Any]:
    """A response without a payload, decided by its status (docs/conformance.md, "Deciding a response")."""
    action = status_action(contract, status)
    if action not in contract.exhausted and delay is not None and status in contract.response["paused_with_delay"]:
        action = "pause"
    action, reason, waited = timed(contract, action, "status-fallback", attempt, max_attempts, max_delay_ms, delay)
    return empty_decision(action, reason, waited, correlation)


def transport_decision(contract: ContractView, failure: str, idempotent: bool, attempt: int, max_attempts: int,
                       max_delay_ms: int) -> dict[str, Any]:
    """No response at all (docs/conformance.md, "Transport failures")."""
    if failure not in ("refused", "tls") and not idempotent:
        return empty_decision("escalate", "outcome-unknown")
    action, reason, delay = timed(contract, "retry", "transport-failure", attempt, max_attempts, max_delay_ms, None)
    return empty_decision(action, reason, delay)


def filled(contract: ContractView, raw: dict[str, Any], action: str, reason: str, delay: int | None = None) -> dict[str, Any]:
    def get(name: str, empty: Any) -> Any:
        return raw.get(_w(contract, name), empty)

    code = get("code", None)
    row = contract.code_map.get(code)
    return {"action": action, "reason": reason, "code": code, "wire_code": row.wire_code if row else code, "delay_ms": delay,
            "correlation_id": get("correlation_id", None), "resource_id": get("resource_id", None),
            "did_you_mean": get("did_you_mean", []), "accepted": get("accepted", []), "searched": get("searched", {})}


