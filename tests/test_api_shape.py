"""Issue 25 item 2: a service using the SDK of a registry for an existing API writes that API's own
shape (docs/conformance.md, "Writing in the API's own shape"): Slack's `{"ok": false, "error": ...}`,
GraphQL's `errors[0]...`, S3's and Azure's XML `<Error><Code>`, OpenAI's `type: tokens` variant.
Checked on every code of every examples/apis registry through the generated Python SDK (the
reference the writing vectors are made from; the other SDKs are held to it by the vectors)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from errgen.contract import view
from errgen.registry.lint import lint_path

APIS = sorted((ROOT / "examples" / "apis").glob("*.yaml"))

# For every code: to_http(new_error(code)), the reading of it, and the checks below, in the SDK's process.
PROBE = r'''
import importlib, json, sys
m = importlib.import_module(sys.argv[1])
out = []
for code in m.Code:
    sent = m.new_error(code, "req-7", message="Quota <exceeded> & \"more\"\t\x01 ]]>", resource_id="res/1")
    http = m.to_http(sent)
    read = m.read_http(http.status, http.headers, http.body)
    out.append({"code": code.value, "status": http.status, "headers": dict(http.headers), "body": http.body,
                "read_code": read.payload.get("code") if isinstance(read.payload, dict) else None,
                "read_message": read.payload.get("message") if isinstance(read.payload, dict) else None,
                "read_correlation": read.correlation_id, "document": read.document,
                "reason": m.decide(read.payload).reason.value})
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def sdks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every examples/apis registry's Python SDK, built once: root / <api> / python."""
    from errgen.emit.build import build

    root = tmp_path_factory.mktemp("shape")
    for path in APIS:
        registry = lint_path(path).registry
        assert registry is not None
        build(registry, root / path.stem, ["python"])
    return root


def _run(sdks: Path, api: str, script: str) -> Any:
    """`script` run with the api's SDK importable, its module name as argv[1]; its JSON output."""
    [package] = [p for p in (sdks / api / "python").iterdir() if p.is_dir()]
    done = subprocess.run([sys.executable, "-c", script, package.name], capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(sdks / api / "python")})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def written(sdks: Path) -> dict[str, tuple[Any, list[dict[str, Any]]]]:
    found = {}
    for path in APIS:
        registry = lint_path(path).registry
        assert registry is not None
        found[path.stem] = (view(registry).response, _run(sdks, path.stem, PROBE))
    return found


def _at(document: Any, path: list[Any]) -> list[Any]:
    here = [document]
    for step in path:
        if isinstance(step, str):
            here = [h[step] for h in here if isinstance(h, dict) and step in h]
        elif step == -1:
            here = [item for h in here if isinstance(h, list) for item in h]
        else:
            here = [h[step] for h in here if isinstance(h, list) and step < len(h)]
    return here


def _first(sources: list[dict[str, Any]], kind: str) -> dict[str, Any] | None:
    return next((s for s in sources if s["in"] == kind), None)


@pytest.mark.parametrize("api", [p.stem for p in APIS])
def test_every_fact_sits_where_the_api_puts_it(written: dict[str, Any], api: str) -> None:
    spec, rows = written[api]
    for row in rows:
        document = row["document"]
        headers = {k.lower(): v for k, v in row["headers"].items()}
        wire_code = next((sent for sent, entries in spec["variants"].items() if any(e[0] == row["code"] for e in entries)), row["code"])
        for fact, value in (("code", wire_code), ("message", "Quota <exceeded> & \"more\"\t\x01 ]]>"), ("correlation_id", "req-7")):
            body, header = _first(spec[fact], "body"), _first(spec[fact], "header")
            if body is not None:
                assert value in _at(document, body["path"]), (api, row["code"], fact, row["body"])
            if header is not None:
                assert headers[header["name"]] == value, (api, row["code"], fact)
        for condition in spec["error_when"]:
            if "equals" in condition and condition["at"]["in"] == "body":
                assert condition["equals"] in _at(document, condition["at"]["path"]), (api, row["code"])


@pytest.mark.parametrize("api", [p.stem for p in APIS])
def test_what_a_service_writes_its_clients_read_back(written: dict[str, Any], api: str) -> None:
    _, rows = written[api]
    for row in rows:
        assert (row["read_code"], row["read_correlation"], row["reason"]) == (row["code"], "req-7", "registry"), (api, row)
        assert row["read_message"] == "Quota <exceeded> & \"more\"\t\x01 ]]>", (api, row["code"])


def test_an_xml_api_gets_xml_with_its_own_elements(written: dict[str, Any]) -> None:
    _, rows = written["s3"]
    row = next(r for r in rows if r["code"] == "NoSuchKey")
    assert row["headers"]["Content-Type"] == "application/xml"
    assert row["body"] == ('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code>'
                           "<Message>Quota &lt;exceeded&gt; &amp; \"more\"&#9;&#1; ]]&gt;</Message>"
                           "<RequestId>req-7</RequestId><Key>res/1</Key></Error>")


def test_slack_says_ok_false_and_openai_says_which_limit(written: dict[str, Any]) -> None:
    slack = json.loads(next(r for r in written["slack"][1] if r["code"] == "channel_not_found")["body"])
    assert (slack["ok"], slack["error"]) == (False, "channel_not_found")
    tokens = json.loads(next(r for r in written["openai"][1] if r["code"] == "rate_limit_exceeded-tokens")["body"])
    assert (tokens["error"]["code"], tokens["error"]["type"]) == ("rate_limit_exceeded", "tokens")


def test_graphql_errors_carry_the_code_in_the_first_error(written: dict[str, Any]) -> None:
    body = json.loads(next(r for r in written["shopify-graphql"][1] if r["code"] == "THROTTLED")["body"])
    assert body["errors"][0]["extensions"]["code"] == "THROTTLED"
    assert body["errors"][0]["message"].startswith("Quota")


def test_an_index_past_64_is_refused_so_writing_never_pads_a_huge_array() -> None:
    from errgen.registry.lint import lint_text

    text = (ROOT / "examples" / "apis" / "github-graphql.yaml").read_text(encoding="utf-8")
    text = text.replace('"body:errors[0].type"', '"body:errors[65].type"', 1)
    assert "body:errors[65].type" in text
    assert "wire-source" in {d.rule for d in lint_text(text).diagnostics}


# SPEC E: OCI's `{"errors": [...]}`, read as the registry says and written as a one-entry array.
OCI = r'''
import importlib, json, sys
m = importlib.import_module(sys.argv[1])
sent = m.to_http(m.new_error(m.Code.BLOB_UNKNOWN, "req-7", resource_id="sha256:ab"))
payload = json.loads(sent.body)["errors"][0]
theirs = {"code": "MANIFEST_BLOB_UNKNOWN", "message": "blob unknown to registry", "detail": "sha256:cd"}
out = {"body": json.loads(sent.body)}
for label, body in (("second-entry", {"errors": [theirs, payload]}), ("two-of-theirs", {"errors": [theirs, {**theirs, "detail": "sha256:ef"}]})):
    read = m.read_http(404, {"Content-Type": "application/json"}, json.dumps(body))
    decision = m.decide(read.payload)
    out[label] = [read.code, decision.action.value, decision.correlation_id, decision.resource_id]
print(json.dumps(out))
'''


def test_an_oci_registry_writes_one_entry_and_reads_the_entry_holding_the_payload(sdks: Path) -> None:
    got = _run(sdks, "oci-distribution", OCI)
    [entry] = got["body"]["errors"]  # the payload itself, alone in the array
    assert (entry["code"], entry["correlation_id"], entry["resource_id"]) == ("BLOB_UNKNOWN", "req-7", "sha256:ab")
    assert set(got["body"]) == {"errors"}
    # errgen's payload after an entry of the API's own: the payload is read (its correlation id, its resource).
    assert got["second-entry"][1:] == ["skip", "req-7", "sha256:ab"]
    # The API's own entries only: read by the sources, the code of the first (MANIFEST_BLOB_UNKNOWN: fix).
    assert got["two-of-theirs"] == ["MANIFEST_BLOB_UNKNOWN", "fix", "", None]
