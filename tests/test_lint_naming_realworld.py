"""Issue 25 item 5: lint and naming defects found while modelling real APIs. Each test fails on the
main branch the issue was filed against."""

from __future__ import annotations

import json

import pytest

from errgen import identifiers as naming
from errgen.registry.lint import lint_text
from errgen.registry.lint.names import IDENTIFIER
from errgen.languages.go import naming as go
from errgen.languages.java import naming as java
from errgen.languages.python import naming as python
from errgen.languages.rust import naming as rust

HEAD = """errgen: 1
name: demo
version: {version}
categories:
  transient: {{retryable: true, description: Try again later.}}
  validation: {{retryable: false, action: fix, http_status: 422, description: {category_text}}}
codes:
{codes}history:
{history}"""


def registry(codes: str, version: str = "1.0.0", history: str = "  - {version: 1.0.0, date: 2026-01-10, changes: [Initial.]}\n",
             category_text: str = "Fix it.") -> str:
    return HEAD.format(codes=codes, version=version, history=history, category_text=category_text)


def code(name: str, more: str = "", since: str = "1.0.0", description: str = "A code.") -> str:
    return (f"  {name}:\n    category: validation\n    scope: request\n    description: {description}\n"
            f"    since: {since}\n{more}")


def collisions(text: str) -> list[str]:
    return [d.message for d in lint_text(text, "r.yaml").diagnostics if d.rule == "identifier-collision"]


def test_names_every_language_spells_apart_do_not_collide() -> None:
    # RATE_LIMITED/RATELIMITED in Python and Java, RateLimited/Ratelimited in Go and Rust.
    assert collisions(registry(code("rate_limited") + code("ratelimited"))) == []


def test_a_collision_names_the_language_and_the_identifier() -> None:
    [message] = collisions(registry(code("card-declined") + code("card_declined")))
    assert "Python CARD_DECLINED" in message and "Go CodeCardDeclined" in message and "Rust CardDeclined" in message


@pytest.mark.parametrize("pair", [("32700", "32700."), ("card-declined", "card_declined"), ("Foo", "FOO")])
def test_the_suggested_identifier_passes_lint_and_resolves_the_collision(pair: tuple[str, str]) -> None:
    [message] = collisions(registry(code(f'"{pair[0]}"') + code(f'"{pair[1]}"')))
    suggested = message.rsplit("identifier: ", 1)[1].rstrip(")")
    assert IDENTIFIER.fullmatch(suggested), suggested
    fixed = lint_text(registry(code(f'"{pair[0]}"') + code(f'"{pair[1]}"', more=f"    identifier: {suggested}\n")), "r.yaml")
    assert fixed.ok, [d.text() for d in fixed.diagnostics]


def test_the_suggestion_skips_an_identifier_another_code_already_has() -> None:
    text = registry(code("card_declined", more="    identifier: CARD_DECLINED_2\n") + code("card-declined") + code("CardDeclined"))
    messages = collisions(text)
    assert messages and all("identifier: CARD_DECLINED_2)" not in m for m in messages)


def test_a_negative_code_keeps_its_sign_in_every_language() -> None:
    assert naming.words("-32601") == ("NEG", "32601") and naming.words("32601") == ("32601",)
    assert naming.words("out-of-credit") == ("out", "of", "credit") and naming.words("v2-3") == ("v2", "3")
    negative, positive = ("_".join(naming.words(c)) for c in ("-32601", "32601"))
    assert (python.constant(negative), python.constant(positive)) == ("NEG_32601", "N_32601")
    assert (java.constant_name("-32601"), java.constant_name("32601")) == ("NEG_32601", "N_32601")
    assert (go.ident("Code", "-32601", naming.words("-32601")), go.ident("Code", "32601", naming.words("32601"))) == ("CodeNeg32601", "Code32601")
    assert rust.variants([negative, positive], "Code") == ["Neg32601", "Code32601"]
    assert collisions(registry(code('"-32601"') + code('"32601"'))) == []


def test_rust_names_a_reserved_variant_after_its_enum_never_unknown2() -> None:
    # gRPC's UNKNOWN would be Code::Unknown, which is the open enum's Unknown(String) catch-all.
    assert rust.variants(["OK", "UNKNOWN", "Self"], "Code") == ["Ok", "CodeUnknown", "CodeSelf"]
    assert rust.variants(["unchanged", "changed", "unknown"], "State") == ["Unchanged", "Changed", "StateUnknown"]
    assert rust.variants(["unknown"], "Reason", open_enum=False) == ["Unknown"]  # a closed enum has no catch-all
    [message] = collisions(registry(code("UNKNOWN") + code("CODE_UNKNOWN")))
    assert "Rust CodeUnknown" in message


@pytest.mark.parametrize(("wire", "name"), [("MalformedXML", "CodeMalformedXML"), ("malformed_xml", "CodeMalformedXML"),
                                            ("InvalidURI", "CodeInvalidURI"), ("invalid_uri", "CodeInvalidURI"),
                                            ("HttpError", "CodeHTTPError"), ("bad_csv", "CodeBadCSV"), ("NotEnoughRam", "CodeNotEnoughRAM"),
                                            ("InvalidApiKey", "CodeInvalidAPIKey"), ("SqlError", "CodeSQLError"), ("tls_failed", "CodeTLSFailed")])
def test_go_initialisms_are_written_in_one_case(wire: str, name: str) -> None:
    assert go.ident("Code", wire, naming.words(wire)) == name


@pytest.mark.parametrize("text", ["The card's issuer declined the customer's payment.", "The customers' cards and the bank's answer.",
                                  "Don't retry: the bucket's owner can't be reached and the object isn't there."])
def test_apostrophes_are_not_interpolation(text: str) -> None:
    result = lint_text(registry(code("c", description=json.dumps(text)), category_text=json.dumps(text)), "r.yaml")
    assert [d.message for d in result.diagnostics if d.rule == "description-interpolates"] == []


@pytest.mark.parametrize("text", ["No contact named 'acme'.", "The field \"name\" is missing.", "It's 'acme' again."])
def test_quoted_names_still_look_interpolated(text: str) -> None:
    result = lint_text(registry(code("c", description=json.dumps(text))), "r.yaml")
    assert [d.rule for d in result.diagnostics if d.rule == "description-interpolates"] == ["description-interpolates"]


def test_a_since_older_than_the_first_history_entry_is_accepted() -> None:
    # Kubernetes' NotFound has existed since 1.0; a contract adopting errgen at 1.31 keeps it.
    history = "  - {version: 1.31.0, date: 2026-01-10, changes: [First errgen contract.]}\n"
    result = lint_text(registry(code("NotFound", since="1.0.0"), version="1.31.0", history=history), "r.yaml")
    assert result.ok, [d.text() for d in result.diagnostics]


def test_a_since_between_history_entries_without_one_is_still_refused() -> None:
    history = ("  - {version: 1.0.0, date: 2026-01-10, changes: [First.]}\n"
               "  - {version: 1.2.0, date: 2026-02-10, changes: [Second.]}\n")
    result = lint_text(registry(code("c", since="1.1.0"), version="1.2.0", history=history), "r.yaml")
    assert [d.rule for d in result.diagnostics if d.severity == "error"] == ["since-not-in-history"]


@pytest.mark.parametrize("pair", [("20003", "N_20003"), ("UNKNOWN", "CODE_UNKNOWN"), ("-32601", "NEG32601"), ("Foo", "FOO"),
                                  ("card-declined", "CardDeclined")])
def test_names_only_a_language_prefix_makes_alike_still_collide(pair: tuple[str, str]) -> None:
    # Python names 20003 N_20003, like the code N_20003; Rust names UNKNOWN CodeUnknown, like CODE_UNKNOWN.
    assert len(collisions(registry(code(f'"{pair[0]}"') + code(f'"{pair[1]}"')))) == 1
