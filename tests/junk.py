"""The one generator of junk inputs in the vectors format (no expected values), for comparing an
SDK's `emit` lines with Python's: inputs no vector pins. Every language's tests use it
(tests/test_language_harness.py for all of them at once).

`junk_vectors(registry)`: payloads, HTTP responses and MCP results near the contract, as JSON
text so numbers keep their spelling (`2.0`, `1E3`, `-0`, 4,500 digits): mutated and repeated
fields under their wire names, unknown codes and categories, prototype keys, odd Retry-After
values, truncated, trailing, deep, enveloped and problem+json bodies, every MCP result shape.
`junk_responses(vectors)`: mutations of a registry's real-response vectors (cut, spliced and
wrapped bodies, inside-out XML, odd statuses and delay headers, BOMs and entities).
"""

from __future__ import annotations

import json
import random
from typing import Any

from errgen.contract import view

NUMBERS = ["0", "-0", "-0.0", "2", "2.0", "1E3", "1e400", "-1e400", "1e-400", "9007199254740991", "9007199254740992",
           "123456789012345678901234567890", "0.1", "1.5e300", "5e-324", "1e16", "1e15", "100000.0", "7" * 4500, "2.5", "-1"]
TEXTS = ['"x"', '""', '"\\u2028\\u0001\\t"', '"日本😀"', "null", "true", "[]", "{}", '["a",1]', '{"a":{"b":1}}', '"é\u2028"']
RETRY_AFTER = ["2", " 3 ", "\t4", "+5", "-1", "1.5", "", "  ", "0", "00012", "007", "9" * 30, "99999999999999999999999", "1e3",
               "٣", "²", "３", "5s", "3,4", "2099-01-01",
               "Thu, 01 Jan 2026 00:00:03 GMT", "Thu, 01 Jan 2026 00:00:60 GMT", "Wed, 31 Dec 2025 23:59:59 GMT",
               "thu, 01 Jan 2026 00:00:03 GMT", "Thu, 01 jan 2026 00:00:03 GMT", "Thu, 1 Jan 2026 00:00:03 GMT",
               "Thu, 30 Feb 2026 00:00:03 GMT", "Mon, 01 Jan 0000 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT",
               "Fri, 31 Dec 9999 23:59:60 GMT", "Mon, 29 Feb 2100 00:00:00 GMT", "Tue, 29 Feb 2000 00:00:00 GMT",
               "Sun, 06 Nov 1994 08:49:37 gmt", "Thursday, 01-Jan-26 00:00:03 GMT", "Thu Jan  1 00:00:03 2026",
               "2026-01-01T00:00:03Z", "Thu, 01 Jan 2026 00:00:03 UTC", "Thu,  01 Jan 2026 00:00:03 GMT"]
DELAY_HEADERS = ["Retry-After", "retry-after", "RETRY-AFTER", "RETRY-AFTER-MS", "retry-after-ms", "X-Other", "Content-Type"]
# Canonical payload fields (sent under the registry's wire names), then keys no payload has.
FIELDS = ["code", "category", "retryable", "scope", "resource_id", "correlation_id", "retry_after_ms", "message",
          "searched", "did_you_mean", "accepted", "state", "safe_to_replay"]
STRANGERS = ["extra", "type", "detail", "status", "title", "__proto__", "constructor", "toString", "hasOwnProperty"]


def junk_vectors(registry: Any, count: int = 1000, seed: int = 7) -> str:
    """`count` junk vectors for `registry`, as the text of a vectors file."""
    rng = random.Random(seed)
    contract = view(registry)
    wire = {f.name: f.wire for f in contract.fields}
    codes = list(contract.code_names) + ["CODE_FROM_A_NEWER_SERVER", "", "rate_limited"]
    categories = list(contract.category_names) + ["new_category"]
    rows = list(contract.codes)

    def value(name: str, sound: bool) -> str:
        good = {"code": json.dumps(rng.choice(codes)), "category": json.dumps(rng.choice(categories)),
                "retryable": rng.choice(["true", "false"]), "scope": json.dumps(rng.choice(contract.scopes)),
                "retry_after_ms": rng.choice(NUMBERS), "state": json.dumps(rng.choice(contract.states)),
                "did_you_mean": json.dumps([f"s{i}" for i in range(rng.choice([0, 1, 10, 11]))]),
                "accepted": '["eq","ne"]', "safe_to_replay": rng.choice(["true", "false"]),
                "correlation_id": json.dumps(f"c-{rng.randint(0, 9)}"), "resource_id": '"item_1"',
                "message": '"Shown to people \\u2028 only"',
                "searched": "{" + ",".join(f'"k{i}":{rng.choice(NUMBERS[:6] + TEXTS[:4] + ["true"])}' for i in range(rng.randint(0, 3))) + "}"}
        if name in good and rng.random() < (0.97 if sound else 0.7):
            return good[name]
        return rng.choice(TEXTS + NUMBERS[:6] + ['"galaxy"', '"maybe"'])

    def payload_text() -> str:
        sound = rng.random() < 0.6  # contract fields only, all required ones: decisions beyond invalid-payload
        if sound and rows and rng.random() < 0.5:  # a registry row as its SDK would send it, maybe one field off
            row = rng.choice(rows)
            members = {"code": json.dumps(row.code), "category": json.dumps(row.category), "retryable": json.dumps(row.retryable),
                       "scope": json.dumps(rng.choice(row.scopes)), "correlation_id": '"c-r"', "resource_id": '"r-1"'}
            if rng.random() < 0.4:
                name = rng.choice(FIELDS)
                members[name] = value(name, False)
            return "{" + ",".join(f"{json.dumps(wire[n])}:{v}" for n, v in members.items()) + "}"
        optional = FIELDS[6:] + STRANGERS if not sound else FIELDS[6:]
        names = [f for f in FIELDS[:6] if sound or rng.random() < 0.9]
        names += [f for f in optional if rng.random() < (0.15 if sound else 0.25)]
        if rng.random() < 0.5 and "resource_id" not in names:
            names.append("resource_id")
        rng.shuffle(names)
        members = [f"{json.dumps(wire.get(n, n))}:{value(n, sound)}" for n in names]
        if rng.random() < 0.1 and members:
            members.append(rng.choice(members))  # a repeated key
        return "{" + ",".join(members) + "}"

    def body_text() -> str:
        payload = payload_text()
        problem = '{"type":"about:blank","title":"t","status":429,"detail":"d",' + payload[1:] if payload != "{}" else payload
        envelope = contract.envelope or "error"
        return rng.choice([payload, payload, payload, payload[: rng.randint(0, len(payload))], payload + " x", problem,
                           "[" * 65 + "]" * 65, "[" * 64 + "]" * 64, "[" * rng.randint(60, 70) + "]" * 70, "NaN", "<html>", "",
                           "[1 2]", f'{{{json.dumps(envelope)}:{payload}}}', "\ufeff" + payload])

    vectors = []
    for i in range(count):
        kind = rng.choice(["payload", "http", "http", "mcp"])
        head = f'"name":"junk-{i}","attempt":{rng.choice([-3, 0, 1, 2, 4, 5, 6, 8, 40])},"max_attempts":{rng.choice([0, 1, 3, 5, 100])}'
        head += f',"now_ms":{rng.choice([0, 784111777000, 1767225600000, rng.randint(0, 2**45)])}'
        if rng.random() < 0.3:
            head += f',"max_delay_ms":{rng.choice([0, 1000, 3600000, 2**53 - 1, 10**15])}'
        if kind == "payload":
            inp = f'{{"payload":{payload_text() if rng.random() < 0.9 else rng.choice(TEXTS + NUMBERS[:6])}}}'
        elif kind == "http":
            headers = [[rng.choice(DELAY_HEADERS), rng.choice(RETRY_AFTER)] for _ in range(rng.randint(0, 3))]
            inp = json.dumps({"http": {"status": rng.choice([200, 400, 404, 429, 500, 503]), "headers": headers, "body": body_text()}},
                             ensure_ascii=rng.random() < 0.5)
        else:
            text = json.dumps(payload_text() if rng.random() < 0.7 else rng.choice(["boom", "[1 2]", "null", "{"]))
            inp = rng.choice([f'{{"mcp":{{"structuredContent":{payload_text()},"isError":true}}}}',
                              f'{{"mcp":{{"structuredContent":{payload_text()},"content":"x"}}}}',
                              f'{{"mcp":{{"content":[{{"type":"image"}},{{"type":"text","text":{text}}}],"isError":true}}}}',
                              f'{{"mcp":{{"content":[{{"type":"text","text":"not json"}},{{"type":"text","text":{text}}}]}}}}',
                              f'{{"mcp":{{"content":[{{"type":"text","text":7}}],"structuredContent":[]}}}}',
                              f'{{"mcp":{{"content":true}}}}', '{"mcp":"oops"}', '{"mcp":[1,2]}'])
        if kind != "http":
            # The Python runner reads a vectors file with plain json.load, whose integers stop at
            # 4300 digits; inside HTTP bodies and MCP text such numbers are the SDKs' to read.
            # Nor numbers past a double's range: serde_json refuses 1e400 in the vectors file itself.
            inp = inp.replace("7" * 4500, "7" * 40).replace("1e400", "1e300")
        vectors.append("{" + head + ',"input":' + inp + "}")
    return '{"vectors":[' + ",\n".join(vectors) + "]}"


def junk_responses(vectors: list[dict[str, Any]], count: int, seed: int = 25) -> list[dict[str, Any]]:
    """Deterministic mutations of a registry's response vectors (conformance/responses.json)."""
    rng = random.Random(seed)
    pieces = ["<", ">", "</", "/>", "<!--x-->", "<?p?>", "&amp;", "&#65;", "&#x1F600;", "&#0;", "&bogus;", "<![CDATA[x]]>",
              "<!DOCTYPE a>", '"', "'", "{", "}", "[", "]", ",", ":", "1e400", "-0", "32601.0", "null", "\ufeff", " ", "\n",
              "9" * 70, '"code"', "<Code>X</Code>", "<a b='1'>", "\u2028"]
    out = []
    responses = [v for v in vectors if "response" in v["input"]]
    for i in range(count):
        base = rng.choice(responses)
        given = dict(base["input"]["response"])
        body = given["body"]
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(body))
            shape = rng.random()
            if shape < 0.4:
                body = body[:at] + rng.choice(pieces) + body[at:]
            elif shape < 0.6:
                body = body[:at]
            elif shape < 0.7:
                body = body[at:]
            elif shape < 0.8:
                body = '{"error": ' + body + "}"
        given["body"] = body
        given.pop("body_pad", None)
        headers = [list(h) for h in given.get("headers", [])]
        for _ in range(rng.randint(0, 2)):
            headers.append([rng.choice(["Retry-After", "retry-after-ms", "x-request-id", "X-Amz-Request-Id", "x-ratelimit-reset"]),
                            rng.choice(RETRY_AFTER + ["1.5s", "6m0s", "20ms", "1h", "1767225700", "abc"])])
        rng.shuffle(headers)
        given["headers"] = headers
        given["status"] = rng.choice([given["status"], 200, 400, 404, 429, 500, 503, 299, 300])
        out.append({"name": f"junk-response-{i}", "input": {"response": given}, "now_ms": rng.choice([0, 1_767_225_600_000])})
    return out
