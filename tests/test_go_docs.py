"""docs/sdk-go.md as a program (issue 26, Done when): the page's ```go blocks are the files of one
`package main`, written only from the page. They are built against the default registry's module,
pass `go vet` (and staticcheck where it is installed), and run: the client side meets a 429 with
Retry-After from a loopback server through *http.Response, decides, waits and retries with a
context; the server side builds the error, returns it as an error and maps it to HTTP."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import REGISTRY, ROOT, build_to, toolchain

DOCS = ROOT / "docs" / "sdk-go.md"
GO = shutil.which("go")
STATICCHECK = shutil.which("staticcheck") or shutil.which("staticcheck", path=str(Path.home() / "go" / "bin"))
needs_go = toolchain(GO is None, "needs the Go toolchain (go)")


SMITHY = "github.com/aws/smithy-go"
SMITHY_VERSION = "v1.28.9"
# go.sum lines of SMITHY_VERSION, so the build checks what it downloads against them.
SMITHY_SUM = ("github.com/aws/smithy-go v1.28.9 h1:zkZ058OpNX0iGTK24b+ZUEQSMc11CBA6oO7xtKZfzkY=\n"
              "github.com/aws/smithy-go v1.28.9/go.mod h1:YE2RhdIuDbA5E5bTdciG9KrW3+TiEONeUWCqxX9i1Fc=\n")


def all_blocks() -> list[str]:
    return re.findall(r"^```go\n(.*?)^```", DOCS.read_text(encoding="utf-8"), re.S | re.M)


def doc_blocks() -> list[str]:
    """The blocks of the page's program (the smithy-go adapter is a program of its own)."""
    return [b for b in all_blocks() if SMITHY not in b]


def smithy_block() -> str:
    [block] = [b for b in all_blocks() if SMITHY in b]
    return block


# The block's caller, written by the test: a payload wrapped twice, an HTML 502 response, another error.
SMITHY_MAIN = """package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"acmeerrors/v2"
)

func main() {
	p, err := acmeerrors.NewError(acmeerrors.CodeRateLimited, "req-1", acmeerrors.WithMessage("slow down"))
	if err != nil {
		panic(err)
	}
	proxy := &http.Response{StatusCode: 502, Header: http.Header{"Content-Type": {"text/html"}},
		Body: io.NopCloser(strings.NewReader("<html>502</html>"))}
	for _, err := range []error{fmt.Errorf("charge: %w", p), acmeerrors.ResponseError(proxy), errors.New("other")} {
		fmt.Println(describe(err))
	}
}
"""


def test_the_page_is_one_program_of_client_and_server() -> None:
    """Without a toolchain: the blocks are files of one package main and use what the issue names."""
    blocks = doc_blocks()
    assert len(blocks) == 4 and all(b.startswith("package main\n") for b in blocks)
    program = "\n".join(blocks)
    # Issue 40: the error hierarchy, the hooks and the client helper, as the page shows them.
    for used in ("acmeerrors.NewError(", "acmeerrors.WriteHTTP(", "errors.As(", "acmeerrors.ResponseError(resp)",
                 ".Decide(attempt", "acmeerrors.RetryValue(ctx", "http.NewRequestWithContext(ctx", "ctx.Done()",
                 "*acmeerrors.APIError", "acmeerrors.FailureOf(", "acmeerrors.RetryResponse(ctx", "acmeerrors.OnAttempt(",
                 "acmeerrors.WithLogger(", "a.ErrorType", "ErrorFault()"):
        assert used in program, used
    # No escape hatches a strict reader would refuse.
    assert not re.search(r"\binterface\{\}|\bany\b|nolint|//lint:ignore|unsafe", program)


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default registry's module with the page's blocks as cmd/docexample/blockN.go."""
    if GO is None:
        pytest.skip("needs the Go toolchain (go)")
    out = tmp_path_factory.mktemp("go-docs")
    build_to(REGISTRY, out, "go")
    folder = out / "go" / "cmd" / "docexample"
    folder.mkdir(parents=True)
    for i, block in enumerate(doc_blocks()):
        (folder / f"block{i}.go").write_text(block, encoding="utf-8")
    return out / "go"


def _run(argv: list[str], cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)


@needs_go
def test_the_page_builds_and_is_vet_and_staticcheck_clean(program: Path) -> None:
    assert GO is not None
    formatted = _run(["gofmt", "-l", "cmd/docexample"], program)
    assert formatted.returncode == 0 and formatted.stdout == "", formatted.stdout + formatted.stderr
    vet = _run([GO, "vet", "./cmd/docexample"], program)
    assert vet.returncode == 0, vet.stderr
    if STATICCHECK:
        checked = _run([STATICCHECK, "./cmd/docexample"], program, timeout=600)
        assert checked.returncode == 0, checked.stdout + checked.stderr


@needs_go
def test_errors_as_finds_a_smithy_api_error_with_the_newer_smithy_an_aws_application_has(program: Path) -> None:
    """Issue 40: the page's `errors.As(err, &apiErr)` with a smithy.APIError finds the SDK's errors,
    in an application of its own that requires the AWS SDK's newer smithy-go (v1.28.9, where the
    module asks for v1.22.2: minimal version selection builds both with the newer one)."""
    assert GO is not None
    folder = program / "cmd" / "smithyexample"
    folder.mkdir()
    (folder / "describe.go").write_text(smithy_block(), encoding="utf-8")
    (folder / "main.go").write_text(SMITHY_MAIN, encoding="utf-8")
    # The application's go.mod as the module's README says to make it (its `go mod edit`, the
    # folder two levels up), plus the newer smithy-go an AWS application requires.
    made = _run([GO, "mod", "init", "smithyexample"], folder)
    assert made.returncode == 0, made.stderr
    [edit] = re.findall(r"^go mod edit .*$", (program / "README.md").read_text(encoding="utf-8"), re.M)
    argv = [GO, *edit.replace("=../errors/generated/go", "=../..").split()[1:], "-go=1.24", f"-require={SMITHY}@{SMITHY_VERSION}"]
    edited = _run(argv, folder)
    assert edited.returncode == 0, edited.stderr
    (folder / "go.sum").write_text(SMITHY_SUM + (program / "go.sum").read_text(encoding="utf-8"), encoding="utf-8")
    formatted = _run(["gofmt", "-l", "describe.go"], folder)
    assert formatted.returncode == 0 and formatted.stdout == "", formatted.stdout + formatted.stderr
    vet = _run([GO, "vet", "."], folder)
    if vet.returncode != 0 and re.search(r"dial tcp|proxy|lookup .*: no such host|i/o timeout", vet.stderr):
        pytest.skip(f"{SMITHY}@{SMITHY_VERSION} is neither in the module cache nor reachable")
    assert vet.returncode == 0, vet.stderr
    listed = _run([GO, "list", "-m", SMITHY], folder)
    assert listed.stdout.split() == [SMITHY, SMITHY_VERSION], listed.stdout + listed.stderr
    done = _run([GO, "run", "."], folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ['RATE_LIMITED "slow down", client fault, status 0',
                                        ' "", server fault, status 502', "not an API error"]


@needs_go
def test_the_page_runs_against_a_loopback_server(program: Path) -> None:
    assert GO is not None
    built = _run([GO, "build", "-o", str(program / "docexample"), "./cmd/docexample"], program)
    assert built.returncode == 0, built.stderr
    started = time.monotonic()
    done = _run([str(program / "docexample")], program, timeout=120)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stdout + done.stderr
    # One decision printed by hand (pause on the service-wide 429, for its Retry-After of 1 s),
    # then both invoices after one 429 each: four calls reached the service. Then the proxy's
    # HTML 502, retried by its status, seen by the OnAttempt hook and logged by slog.
    assert done.stdout.splitlines() == ["1 pause registry 1s req-in_1", '{"id":"in_1"} {"id":"in_2"} 4',
                                        "1 HTTP 502 without a payload (server fault) retry status-fallback 502",
                                        '{"report":"ready"}']
    assert "reason=status-fallback" in done.stderr and "error.type=502" in done.stderr
    assert 'msg="acmeerrors: attempt failed"' in done.stderr  # the SDK's name, not the generator's
    # Both loops waited what Retry-After asked for, not less. A lower bound only: load makes the
    # run longer, never shorter, so this holds on a busy machine (how fast is no claim here).
    assert elapsed >= 2.0, elapsed
