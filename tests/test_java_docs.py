"""docs/sdk-java.md as a user reads it (issue 26, Done when): every ```java block of the page is a
file of one program, compiled as it stands against the default registry's Java SDK with
`javac -Xlint:all -Werror` (no @SuppressWarnings), then run: a service builds, throws and maps an
error to HTTP, and a client gets its 429, reads Retry-After, decides, waits and retries, by hand
and with Retrier, then a load balancer's HTML 502, retried by its status and seen by the observer.
The program is compiled and run in test_java_sdk.py (test_the_java_page_compiles_strictly_and_runs),
against the classes of the default registry's project that its one `mvn verify` compiled."""

from __future__ import annotations

import re

from conftest import ROOT

DOC = ROOT / "docs" / "sdk-java.md"


def _blocks() -> dict[str, str]:
    """Each ```java block under the name of the class it declares."""
    blocks = re.findall(r"^```java\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)
    named = {}
    for block in blocks:
        found = re.search(r"^(?:public )?(?:final )?class (\w+)", block, re.M)
        assert found, block[:200]
        named[found.group(1)] = block
    assert len(named) == len(blocks)
    return named


def test_the_page_shows_the_client_and_the_service_with_the_sdk_alone() -> None:
    blocks = _blocks()
    program = "\n".join(blocks.values())
    assert {"Refunds", "Invoices", "Demo", "Catching", "Observed", "AnyClient"} <= set(blocks)
    for needed in ("Errors.newError(", "throw ErrorPayloadException.of(", ".toHttp()", "Errors.throwIfError(response)",
                   "HttpResponse<String>", "e.decide(attempt)", "Thread.sleep(d.delay()", "Retrier.retry(",
                   # Issue 40: the error hierarchy, the hooks and the client helpers, compiled.
                   "catch (NoPayloadException e)", "catch (RateLimitException e)", "e.headers().firstValue(", "e.status()",
                   "TransportFailure.of(e)", "Errors.decideFailure(", ".onAttempt(", "a.errorType()", "retrier.send(",
                   "Errors.errorOf(status, headers, body)"):
        assert needed in program, needed
    assert "@SuppressWarnings" not in program and "(Object)" not in program
    doc = DOC.read_text(encoding="utf-8")
    assert "mvn -q install" in doc and "<artifactId>acme-errors</artifactId>" in doc
