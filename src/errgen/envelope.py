"""Where the payload sits in an HTTP body (`wire.envelope`), read from the contract view: the one
place the vectors, `errgen validate` and the schema put it or take it (docs/conformance.md,
"Reading an HTTP response"). Every SDK's runtime does the same from its rendered `envelope` and
`envelope_array` constants.

JSON bodies only (an XML API's body is read by its sources).
- no envelope: the body is the payload;
- `error`: the payload is the value under the key;
- `errors[*]`: the key holds an array; the payload is its first entry that is an object holding
  every required field, else the value under the key as it is (then read by the registry's
  sources, like any API's errors). Written as a one-entry array.
"""

from __future__ import annotations

import json
from typing import Any

from errgen.contract import ContractView


def enveloped(contract: ContractView, payload: Any) -> Any:
    """The JSON body errgen writes for `payload`: under the envelope if the registry has one (a value
    that is not an object is left as it is: a vector's body that is no payload)."""
    env = contract.envelope
    if env is None or not isinstance(payload, dict):
        return payload
    return {env: [payload] if contract.envelope_array else payload}


def enveloped_text(contract: ContractView, payload_text: str) -> str:
    """`enveloped` on a payload given as raw JSON text (a vector's number or member no parser
    would write back the same)."""
    env = contract.envelope
    if env is None:
        return payload_text
    inner = f"[{payload_text}]" if contract.envelope_array else payload_text
    return "{" + json.dumps(env, ensure_ascii=False) + ":" + inner + "}"


def envelope_depth(contract: ContractView) -> int:
    """How many JSON levels the envelope adds above the payload object."""
    if contract.envelope is None:
        return 0
    return 2 if contract.envelope_array else 1


def holds_required(contract: ContractView, value: Any) -> bool:
    return isinstance(value, dict) and all(f.wire in value for f in contract.fields if f.required)


def unenveloped(contract: ContractView, document: Any) -> Any:
    """The payload a parsed JSON body carries, as every SDK's read_http takes it (see the module)."""
    env = contract.envelope
    if env is None or not isinstance(document, dict) or env not in document:
        return document
    value = document[env]
    if contract.envelope_array and isinstance(value, list):
        return next((entry for entry in value if holds_required(contract, entry)), value)
    return value


def inner(contract: ContractView, body: dict[str, Any]) -> dict[str, Any]:
    """The payload object inside a body `enveloped` made (its API-shape edits go there)."""
    env = contract.envelope
    if env is None:
        return body
    return body[env][0] if contract.envelope_array else body[env]
