"""The Rust SDK: names and literals from any registry text, layout exactly as rustfmt's, and the
generated crate checked by the real toolchain (cargo fmt, clippy -D warnings, cargo test) and run
against the conformance vectors for the default, example, hostile-text and minimal registries.

Every crate builds into one shared target directory, so dependencies compile once per machine.
"""

from __future__ import annotations

import dataclasses
import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from conftest import FIXTURES, GENERATED, ROOT, load_registry, run_errgen, shared_build, toolchain
from errgen import contract
from errgen.registry.lint import lint_path, lint_text
from errgen.registry.model import Registry
from errgen.languages.rust import naming
from errgen.emit.targets import conformance as vectors_target
from errgen.languages.rust import target as rust_target
from strategies import registries

CARGO = shutil.which("cargo")
RUSTFMT = shutil.which("rustfmt")
# One shared target directory (CARGO_TARGET_DIR when set), so dependencies compile once.
TARGET_DIR = Path(os.environ.get("CARGO_TARGET_DIR") or Path.home() / ".cache" / "errgen-tests" / "cargo-target")
needs_cargo = toolchain(CARGO is None, "needs cargo (the Rust toolchain)")
needs_rustfmt = toolchain(RUSTFMT is None, "needs rustfmt (the Rust toolchain)")

# Codes as real services spell them, and names that collide or are reserved once made Rust.
ODD_CODES = {
    "RATE_LIMITED": "RateLimited", "rate-limited": "RateLimited2", "card_declined": "CardDeclined",
    "NoSuchBucket": "NoSuchBucket", "20003": "Code20003", "23505": "Code23505", "out-of-credit": "OutOfCredit",
    "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException": "ComAmazonawsDynamodbV20120810ResourceNotFoundException",
    "Unknown": "CodeUnknown", "エラー": "CodeU30A8U30E9U30FC",
}
HOSTILE = ("quote \" apostrophe ' triple \"\"\" backtick ` comment */ /* template ${x} {} \\ \\u0001 r#\"raw\"# "
           "bidi \u202e reversed \u202c sep \u2028 para \u2029 ctl \x01\x1b\x7f tab\there 日本語の説明 العربية 😀")


def cargo(crate: Path, *args: str, timeout: int = 600, **extra_env: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARGO_TARGET_DIR": str(TARGET_DIR), "CARGO_TERM_COLOR": "never", **extra_env}
    return subprocess.run([CARGO or "cargo", *args], cwd=crate, env=env, capture_output=True, text=True, timeout=timeout)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def registry_of(path: Path) -> Registry:
    result = lint_path(path)
    assert result.ok, [d.text() for d in result.diagnostics]
    assert result.registry is not None
    return result.registry


def hostile_registry() -> Registry:
    """Hostile text everywhere, then the codes renamed to real-world wire forms (which the
    linter's house style would refuse, but a registry describing another service must carry)."""
    categories = {
        "self": {"retryable": True, "description": HOSTILE},
        "unknown": {"retryable": False, "description": "x" * 150},
        "type": {"retryable": False, "action": "fix",
                 "description": "A description exactly as long as it takes to move onto the next line."},
    }
    hints = [["searched", "did_you_mean", "accepted", "state", "safe_to_replay"], ["state"], []]
    codes = {
        f"C_{i}": {"category": ["self", "unknown", "type"][i % 3], "scope": "request", "scopes": ["request", "resource"],
                   "http_status": 400 + i, "description": f"{HOSTILE} {i}", "since": "1.0.0-rc.1+build.5", "hints": list(hints[i % 3])}
        for i in range(len(ODD_CODES))
    }
    codes["C_0"]["retry_after_ms"] = 1500
    text = yaml.safe_dump({
        "errgen": 1, "name": "demo", "version": "1.0.0-rc.1+build.5", "categories": categories, "codes": codes,
        "targets": {"rust": {"crate": "demo_hostile-errors"}},
        "history": [{"version": "1.0.0-rc.1+build.5", "date": "2026-01-10", "changes": ["First."]}],
    }, allow_unicode=True, sort_keys=False, width=1_000_000)
    result = lint_text(text)
    assert result.registry is not None and not [d for d in result.diagnostics if d.severity == "error"], \
        [d.text() for d in result.diagnostics]
    renamed = tuple(dataclasses.replace(code, name=name) for code, name in zip(result.registry.codes, ODD_CODES))
    return dataclasses.replace(result.registry, codes=renamed)


def write_crate(registry: Registry, out: Path) -> Path:
    files = {**rust_target.render(registry), **vectors_target.render(registry)}
    for rel, text in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return out / "rust"


# The whole pedantic group, as an expert reviewer runs it on a public API (issues 26 and 40):
# `#[must_use]` on every pure function, an `# Errors` section on every function returning
# `Result`, no unexplained lossy cast.
PEDANTIC = ("-W", "clippy::pedantic")


def check_crate(crate: Path, vectors: Path, *features: str) -> None:
    """The toolchain's verdicts on a generated crate, then the conformance runner through the
    command the target hands to `errgen conformance`. The runtime's own unit tests are the same
    source in every crate: they run for the default crate (with every feature) and for the API
    sample (test_rust_api_crates.py); here only the docs' examples, which name the registry's codes."""
    ok(cargo(crate, "fmt", "--check"))
    ok(cargo(crate, "clippy", "--all-targets", *features, "--", "-D", "warnings", *PEDANTIC))
    # The API docs build without a warning (broken links included) and their example runs.
    ok(cargo(crate, "doc", "--quiet", "--no-deps", *features, RUSTDOCFLAGS="-D warnings"))
    ok(cargo(crate, "test", "--quiet", "--doc", *features))
    argv, cwd, tool = rust_target.conformance_command(crate, vectors, "check")
    assert tool == "cargo"
    out = ok(cargo(cwd, *argv[1:]))
    count = len(json.loads(vectors.read_text(encoding="utf-8"))["vectors"])
    assert out.splitlines()[-1] == f"{count} passed, 0 failed"


# --- names and literals --------------------------------------------------------------------------


def test_wire_codes_become_unique_variants_keeping_word_boundaries() -> None:
    assert naming.variants(list(ODD_CODES), "Code") == list(ODD_CODES.values())
    assert naming.variants(["HTTPServerError", "self", "Self", "crate"], "Category") == [
        "HttpServerError", "CategorySelf", "CategorySelf2", "Crate"]


def test_clashing_names_are_deterministic_and_never_collide() -> None:
    # Registry order decides: the first spelling keeps the plain name, later ones the next free suffix.
    names = naming.variants(["a_b", "A-B", "ab2", "a.b"], "Code")
    assert names == ["AB", "AB2", "Ab2", "AB3"]
    assert len(set(names)) == len(names)


def test_snake_and_crate_names() -> None:
    assert naming.snake("retry_after_ms") == "retry_after_ms"
    assert naming.snake("type") == "type_"
    assert naming.snake("2fa") == "f_2_fa"
    assert naming.lib_name(naming.crate_name("acme-errors")) == "acme_errors"
    for bad in ("1acme", "acme errors", "ac/me", "self", ""):
        with pytest.raises(naming.NamingError):
            naming.crate_name(bad)
    assert naming.version("1.0.0-rc.1+build.5") == "1.0.0-rc.1+build.5"
    with pytest.raises(naming.NamingError):
        naming.version("1.0")


def test_a_bad_crate_name_stops_the_build_with_a_message(tmp_path: Path) -> None:
    text = (ROOT / "registry" / "errors.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "errors.yaml"
    bad.write_text(text.replace("\nversion:", '\ntargets: {rust: {crate: "bad crate"}}\nversion:', 1), encoding="utf-8")
    done = run_errgen("build", "--registry", str(bad), "--target", "rust", "--out", str(tmp_path / "out"))
    assert done.returncode == 1  # lint stops it first (target-package), so nothing is built
    assert "error[target-package]: targets.rust.crate 'bad crate': crate name 'bad crate' is not a valid Cargo package name" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out" / "rust").exists()


def test_string_literals_escape_the_rust_way() -> None:
    assert naming.string("a\"b\\c") == '"a\\"b\\\\c"'
    assert naming.string("\x01\x1b\x7f") == '"\\u{1}\\u{1b}\\u{7f}"'
    assert naming.string("\u202e\u2028") == '"\\u{202e}\\u{2028}"'
    assert naming.string("日本語 😀 ${x} */") == '"日本語 😀 ${x} */"'
    assert "\\u0001" not in naming.string("\x01")


def _rustdoc_paragraph(line: str) -> str:
    """What a `///` line shows once rendered: its one Markdown paragraph's text (markdown-it is
    CommonMark, as rustdoc's pulldown-cmark is)."""
    rendered = MarkdownIt("commonmark").render(line)
    paragraphs = re.findall(r"<p>(.*?)</p>", rendered, flags=re.S)
    assert rendered == (f"<p>{paragraphs[0]}</p>\n" if paragraphs else ""), rendered  # one paragraph, nothing else
    return html.unescape(paragraphs[0]) if paragraphs else ""


# Any text but controls, unassigned and private-use code points (markdown-it, unlike CommonMark and
# rustdoc, reads a character reference to a control as U+FFFD; those are checked below instead).
@settings(max_examples=300, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cc", "Cs", "Cn", "Co"))))
def test_registry_text_in_a_doc_comment_renders_as_written(text: str) -> None:
    line = naming.doc_text(text)
    assert "\n" not in line and "\r" not in line
    assert _rustdoc_paragraph(line) == " ".join(text.split())


def test_a_doc_comment_spells_invisible_characters_and_escapes_markdown() -> None:
    line = naming.doc_text(HOSTILE + " [link](https://x.dev) <b> # 1. ```rust")
    # rustc denies a raw bidirectional override in a comment; controls and separators are spelled too.
    assert line.isprintable() and "&#x202E;" in line and "&#x1B;" in line
    assert "\\[link\\]" in line and "\\<b\\>" in line and "\\`\\`\\`rust" in line
    assert naming.doc_text("# heading") == "\\# heading" and naming.doc_text("1. item") == "1\\. item"
    assert naming.doc_text(" \n\t ") == ""


def test_every_enum_variant_and_constant_has_a_doc_comment() -> None:
    """`#![warn(missing_docs)]` holds for the data: each value of every vocabulary has a sentence,
    each code and category its registry description."""
    view = contract.view(load_registry())
    for vocabulary in view.vocabularies:
        if vocabulary.name not in rust_target.CONSTANTS:
            docs = rust_target.variant_docs(view, vocabulary)
            assert len(docs) == len(vocabulary.values) and all(d.startswith("    /// ") for d in docs), vocabulary.name
    assert set(contract.VALUE_MEANINGS["Problem"]) == set(view.problems)
    source = rust_target.render(load_registry())["rust/src/data.rs"]
    first_code = view.codes[0]
    assert f"    /// {naming.doc_text(first_code.description)}\n    {rust_target.code_variants(view)[first_code.code]},\n" in source
    # Every `pub` item of data.rs follows a doc comment or an attribute under one.
    lines = source.splitlines()
    for number, line in enumerate(lines):
        if re.match(r"\s*pub (const|enum|mod|static) ", line):
            above = next(l for l in reversed(lines[:number]) if not l.lstrip().startswith(("#[", "//")) or l.lstrip().startswith("///"))
            assert above.lstrip().startswith("///"), line


@needs_rustfmt
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(registry=registries(max_codes=5))
def test_rendered_sources_are_exactly_as_rustfmt_formats_them(registry: dict[str, Any], tmp_path_factory: Any) -> None:
    result = lint_text(yaml.safe_dump(registry, allow_unicode=True, sort_keys=False, width=1_000_000))
    assert result.registry is not None
    crate = write_crate(result.registry, tmp_path_factory.mktemp("fmt"))
    sources = [str(p) for p in sorted(crate.rglob("*.rs"))]
    done = subprocess.run([RUSTFMT or "rustfmt", "--check", "--edition", "2021", *sources], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


# --- the generated crates --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def golden_crate(tmp_path_factory: Any) -> Path:
    """The default registry's crate as this errgen renders it (generated/rust once the goldens are
    regenerated), outside the repository so cargo's lock file never lands in it: the suite's one
    build of the default registry, whose crate the language harness checks and runs too."""
    return shared_build(tmp_path_factory, "default", load_registry) / "rust"


@needs_cargo
def test_default_registry_crate_with_http_feature(golden_crate: Path) -> None:
    check_crate(golden_crate, GENERATED / "conformance" / "vectors.json", "--all-features")
    ok(cargo(golden_crate, "test", "--quiet", "--all-targets", "--all-features"))  # the runtime's unit tests


def crate_name(crate: Path) -> str:
    match = re.search(r'^name = "([^"]+)"', (crate / "Cargo.toml").read_text(encoding="utf-8"), re.M)
    assert match, crate
    return match.group(1)


def build_runners(root: Path, crates: dict[str, Path]) -> dict[str, Path]:
    """Each crate's conformance runner, built by ONE `cargo build`: a driver package whose binaries
    are the crates' own examples/conformance.rs, verbatim, each depending on its crate under the
    crate's library name, with serde_json's `preserve_order` as the runner command
    (`rust_target.conformance_command`, run on the default crate below) builds it. A `cargo run`
    per crate compiled one crate at a time; one build compiles them side by side."""
    (root / "src" / "bin").mkdir(parents=True)
    (root / "src" / "lib.rs").write_text("", encoding="utf-8")
    deps = ['serde_json = { version = "1", features = ["preserve_order"] }']
    for key, crate in crates.items():
        name = crate_name(crate)
        deps.append(f"{naming.lib_name(name)} = {{ package = {json.dumps(name)}, path = {json.dumps(str(crate))} }}")
        runner = (crate / "examples" / "conformance.rs").read_text(encoding="utf-8")
        (root / "src" / "bin" / f"conformance-{key}.rs").write_text(runner, encoding="utf-8")
    (root / "Cargo.toml").write_text(
        '[package]\nname = "runners"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[workspace]\n\n'
        "[dependencies]\n" + "\n".join(deps) + "\n", encoding="utf-8")
    # Dependencies compile in the shared build dir; the binaries land in this run's own folder.
    target = root / "target"
    ok(cargo(root, "build", "--quiet", "--bins", "--target-dir", str(target),
             "--config", f"build.build-dir={json.dumps(str(TARGET_DIR))}", timeout=1800))
    return {key: target / "debug" / f"conformance-{key}" for key in crates}


def run_runner(runner: Path, crate: Path, vectors: Path, mode: str) -> str:
    """A crate's runner (built by build_runners) on one vectors file."""
    done = subprocess.run([str(runner), mode, str(vectors)], cwd=crate, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (crate, vectors.name, done.stdout[-3000:], done.stderr[-3000:])
    return done.stdout


def check_runs(runner: Path, crate: Path, *files: str) -> None:
    """The runner passes every vector of each of the crate's vectors files."""
    for name in files:
        vectors = crate.parent / "conformance" / name
        count = len(json.loads(vectors.read_text(encoding="utf-8"))["vectors"])
        assert run_runner(runner, crate, vectors, "check").splitlines()[-1] == f"{count} passed, 0 failed", (crate, name)


@pytest.fixture(scope="module")
def small_crates(tmp_path_factory: Any) -> dict[str, Path]:
    """The example, minimal and hostile-text registries' crates in one cargo workspace, so that each
    tool checks all three in one run (side by side on two cores) instead of one run per crate."""
    root = tmp_path_factory.mktemp("crates")
    registries = {"example": registry_of(ROOT / "examples" / "refund-tool.yaml"),
                  "minimal": registry_of(FIXTURES / "valid-minimal.yaml"), "hostile": hostile_registry()}
    crates = {name: write_crate(registry, root / name) for name, registry in registries.items()}
    members = ", ".join(json.dumps(f"{name}/rust") for name in crates)
    (root / "Cargo.toml").write_text(f'[workspace]\nresolver = "2"\nmembers = [{members}]\n', encoding="utf-8")
    return crates


@needs_cargo
def test_example_minimal_and_hostile_registry_crates(small_crates: dict[str, Path]) -> None:
    """check_crate's verdicts, each tool run once over the three crates' workspace."""
    root = next(iter(small_crates.values())).parent.parent
    ok(cargo(root, "fmt", "--all", "--check"))
    ok(cargo(root, "clippy", "--workspace", "--all-targets", "--", "-D", "warnings", *PEDANTIC))
    ok(cargo(root, "doc", "--quiet", "--no-deps", "--workspace", RUSTDOCFLAGS="-D warnings"))
    doctests = ok(cargo(root, "test", "--doc", "--workspace"))
    # Each crate's docs ran examples (an empty doctest run would pass too).
    assert len(re.findall(r"test result: ok\. [1-9]\d* passed", doctests)) == len(small_crates), doctests
    runners = build_runners(root / "runners", small_crates)
    for name, crate in small_crates.items():
        check_runs(runners[name], crate, "vectors.json")


@needs_cargo
def test_hostile_registry_crate_carries_text_exactly(small_crates: dict[str, Path]) -> None:
    registry = hostile_registry()
    crate = small_crates["hostile"]
    assert 'name = "demo_hostile-errors"' in (crate / "Cargo.toml").read_text(encoding="utf-8")
    (crate / "examples" / "dump.rs").write_text(
        "use demo_hostile_errors::{CATEGORIES, RECOVERY_TABLE};\n\n"
        "fn main() {\n"
        "    let codes: Vec<_> = RECOVERY_TABLE\n"
        "        .iter()\n"
        "        .map(|e| (e.wire, format!(\"{:?}\", e.code), e.description))\n"
        "        .collect();\n"
        "    let categories: Vec<_> = CATEGORIES.iter().map(|e| (e.wire, e.description)).collect();\n"
        "    println!(\"{}\", serde_json::json!({\"codes\": codes, \"categories\": categories}));\n"
        "}\n",
        encoding="utf-8",
    )
    dumped = json.loads(ok(cargo(crate, "run", "--quiet", "--example", "dump")))
    assert dumped["codes"] == [[c.name, ODD_CODES[c.name], c.description] for c in registry.codes]
    assert dumped["categories"] == [[c.name, c.description] for c in registry.categories]


# --- behaviour on junk, odd headers and unknown codes, from docs/conformance.md ---------------------


def decision(action: str, reason: str, payload: dict[str, Any] | None = None, delay: int | None = None) -> dict[str, Any]:
    p = payload or {}
    # The default registry shares no wire code between codes: each code is sent as itself.
    return {"action": action, "reason": reason, "code": p.get("code"), "wire_code": p.get("code"), "delay_ms": delay,
            "correlation_id": p.get("correlation_id"), "resource_id": p.get("resource_id"),
            "did_you_mean": p.get("did_you_mean", []), "accepted": p.get("accepted", []), "searched": p.get("searched", {})}


def documented_vectors() -> list[dict[str, Any]]:
    """Hand-derived from docs/conformance.md against the default registry (acme's codes, whatever its version)."""
    rate = {"code": "RATE_LIMITED", "category": "rate_limit", "retryable": True, "scope": "request", "correlation_id": "c-r"}
    not_json = {"valid": False, "problems": ["not-an-object"], "parsed": "invalid", "decision": decision("escalate", "invalid-payload")}
    # A 429 whose body is no payload (HTML, not JSON, too deep, JSON not of the API's shape) is
    # decided by its status (SPEC C): pause, the backoff for the first attempt.
    no_payload = {**not_json, "decision": decision("pause", "status-fallback", delay=500)}

    def http(body: Any, headers: list[list[str]] | None = None, **extra: Any) -> dict[str, Any]:
        text = body if isinstance(body, str) else json.dumps(body)
        return {"input": {"http": {"status": 429, "headers": headers or [], "body": text}}, **extra}

    def waits(name: str, headers: list[list[str]], delay: int | None, **extra: Any) -> dict[str, Any]:
        expected = decision("retry", "registry", rate, delay) if delay is not None and delay <= 3_600_000 else \
            decision("escalate", "delay-exceeds-max", rate)
        return {"name": name, **http(rate, headers, **extra), "expected": {"valid": True, "decision": expected}}

    nested = {**rate, "extra": json.loads("[" * 63 + "]" * 63)}
    deeper = {**rate, "extra": json.loads("[" * 64 + "]" * 64)}
    date = "Thu, 01 Jan 2026 00:00:05 GMT"
    return [
        {"name": "http/html", **http("<html>Bad Gateway</html>"), "expected": no_payload},
        {"name": "http/two-values", **http("[1 2]"), "expected": no_payload},
        {"name": "http/trailing-garbage", **http(json.dumps(rate) + "x"), "expected": no_payload},
        # Still JSON at depth 64; the API's own member `extra` stays in the reading's document only.
        {"name": "http/depth-64", **http(nested),
         "expected": {"valid": True, "problems": [], "decision": decision("retry", "registry", rate, 2000)}},
        {"name": "http/depth-65", **http(deeper), "expected": no_payload},
        {"name": "http/huge-number", **http({**rate, "retry_after_ms": 1e300}),
         "expected": {"problems": ["wrong-type"], "parsed": "invalid"}},
        {"name": "http/overflowing-number", **http(json.dumps(rate)[:-1] + ', "retry_after_ms": 1e400}'),
         "expected": {"problems": ["wrong-type"], "parsed": "invalid"}},
        waits("retry-after/seconds", [["Retry-After", "3"]], 3000),
        waits("retry-after/spaces", [["retry-after", "  7 "]], 7000),
        waits("retry-after/first-wins", [["Retry-After", "4"], ["RETRY-AFTER", "9"]], 4000),
        waits("retry-after/ms-header-first", [["Retry-After", "3"], ["retry-after-ms", "250"]], 250),
        waits("retry-after/bad-ms-header", [["Retry-After", "3"], ["retry-after-ms", "25 0"]], 3000),
        waits("retry-after/negative", [["Retry-After", "-1"]], 2000),
        waits("retry-after/fraction", [["Retry-After", "1.5"]], 1500),
        waits("retry-after/fraction-rounded-up", [["Retry-After", "2.1281"]], 2129),
        waits("retry-after/fraction-too-fine", [["Retry-After", "1.0000000001"]], 2000),
        waits("retry-after/plus", [["Retry-After", "+3"]], 2000),
        waits("retry-after/date", [["Retry-After", date]], 5000, now_ms=1_767_225_600_000),
        waits("retry-after/past-date", [["Retry-After", date]], 0, now_ms=1_767_225_700_000),
        waits("retry-after/rfc850", [["Retry-After", "Thursday, 01-Jan-26 00:00:05 GMT"]], 2000, now_ms=1_767_225_600_000),
        waits("retry-after/asctime", [["Retry-After", "Thu Jan  1 00:00:05 2026"]], 2000, now_ms=1_767_225_600_000),
        waits("retry-after/iso", [["Retry-After", "2026-01-01T00:00:05Z"]], 2000, now_ms=1_767_225_600_000),
        waits("retry-after/saturates", [["Retry-After", "9" * 40]], 9_007_199_254_740_991),
        {"name": "http/final-ignores-header",
         **http({**rate, "code": "AUTH_EXPIRED", "category": "auth", "retryable": False}, [["Retry-After", "3"]]),
         "expected": {"valid": True, "decision": decision("escalate", "registry", {**rate, "code": "AUTH_EXPIRED"})}},
        {"name": "http/problem-json",
         **http({"type": "https://errors.acme.dev/RATE_LIMITED", "title": "t", "status": 429, "detail": "slow down",
                 "instance": "/x", **rate}),
         "expected": {"valid": True, "problems": [], "decision": decision("retry", "registry", rate, 2000)}},
        {"name": "http/detail-without-code", **http({"detail": "d", "title": "t"}),
         "expected": {"problems": ["missing-field"], "decision": decision("pause", "status-fallback", delay=500)}},
        # A body at the code's key claims the API's shape: breaking the contract, it stays invalid.
        {"name": "http/claimed-but-broken", **http({"code": ["RATE_LIMITED"]}),
         "expected": {"valid": False, "decision": decision("escalate", "invalid-payload")}},
        # No response came (SPEC E): retried only when the request never left or may be sent twice.
        {"name": "transport/refused", "input": {"transport": {"failure": "refused", "idempotent": False}},
         "expected": {"decision": decision("retry", "transport-failure", delay=500)}},
        {"name": "transport/reset", "input": {"transport": {"failure": "reset", "idempotent": False}},
         "expected": {"decision": decision("escalate", "outcome-unknown")}},
        {"name": "transport/timeout-idempotent", "attempt": 3, "input": {"transport": {"failure": "timeout", "idempotent": True}},
         "expected": {"decision": decision("retry", "transport-failure", delay=2000)}},
        {"name": "transport/other-is-reset", "input": {"transport": {"failure": "eof"}},
         "expected": {"decision": decision("escalate", "outcome-unknown")}},
        {"name": "mcp/structured", "input": {"mcp": {"structuredContent": rate, "content": []}},
         "expected": {"valid": True, "decision": decision("retry", "registry", rate, 2000)}},
        {"name": "mcp/text", "input": {"mcp": {"content": [{"type": "image"}, {"type": "text", "text": json.dumps(rate)}]}},
         "expected": {"valid": True, "parsed": "known"}},
        {"name": "mcp/text-not-json", "input": {"mcp": {"content": [{"type": "text", "text": "boom"}]}}, "expected": not_json},
        {"name": "mcp/not-an-object", "input": {"mcp": [rate]}, "expected": not_json},
        {"name": "unknown-code/resource", "input": {"payload": {**rate, "code": "NEW", "scope": "resource", "retryable": False,
                                                               "resource_id": "r-1"}},
         "expected": {"valid": False, "problems": ["unknown-code"], "parsed": "unknown",
                      "decision": decision("skip", "unknown-code", {**rate, "code": "NEW", "resource_id": "r-1"})}},
        {"name": "unknown-code/delay-too-long", "attempt": 2, "max_delay_ms": 1000,
         "input": {"payload": {**rate, "code": "NEW", "retry_after_ms": 1001.0}},
         "expected": {"parsed": "unknown", "decision": decision("escalate", "delay-exceeds-max", {**rate, "code": "NEW"})}},
        {"name": "unknown-code/backoff", "attempt": 40, "max_attempts": 50, "input": {"payload": {**rate, "code": "NEW"}},
         "expected": {"decision": decision("retry", "unknown-code", {**rate, "code": "NEW"}, 30_000)}},
    ]


@needs_cargo
def test_junk_inputs_odd_headers_and_unknown_codes_behave_as_documented(golden_crate: Path, tmp_path: Path) -> None:
    vectors = tmp_path / "junk.json"
    vectors.write_text(json.dumps({"vectors": documented_vectors()}), encoding="utf-8")
    argv, cwd, _ = rust_target.conformance_command(golden_crate, vectors, "check")
    done = cargo(cwd, *argv[1:])
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"{len(documented_vectors())} passed, 0 failed"


@needs_cargo
def test_check_reports_each_failure(golden_crate: Path, tmp_path: Path) -> None:
    wrong = documented_vectors()[:2]
    wrong[0]["expected"] = {"parsed": "known"}
    wrong[1]["expected"] = {"problems": ["not-an-object", "not-an-object"]}  # compared as a set
    vectors = tmp_path / "wrong.json"
    vectors.write_text(json.dumps({"vectors": wrong}), encoding="utf-8")
    argv, cwd, _ = rust_target.conformance_command(golden_crate, vectors, "check")
    done = cargo(cwd, *argv[1:])
    assert done.returncode == 1
    assert done.stdout.splitlines() == ['FAIL http/html: parsed: expected "known", got "invalid"', "1 passed, 1 failed"]
    missing = cargo(cwd, *argv[1:-1], str(tmp_path / "absent.json"))
    assert missing.returncode == 2


@needs_cargo
def test_a_vector_without_input_is_reported_on_its_line(golden_crate: Path, tmp_path: Path) -> None:
    """(Emit equal to Python's on junk: tests/test_language_harness.py.)"""
    malformed = tmp_path / "malformed.json"
    malformed.write_text(json.dumps({"vectors": [{"name": "no-input"}, documented_vectors()[0]]}), encoding="utf-8")
    argv, cwd, _ = rust_target.conformance_command(golden_crate, malformed, "emit")
    first, second = ok(cargo(cwd, *argv[1:])).splitlines()
    assert json.loads(first) == {"name": "no-input", "error": "input holds none of payload, http, mcp, response, transport"}
    assert json.loads(second)["parsed"] == "invalid"


def test_conformance_command_builds_outside_the_sdk_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARGO_TARGET_DIR", raising=False)
    monkeypatch.setenv("ERRGEN_CACHE_DIR", str(tmp_path / "cache"))
    argv, cwd, _ = rust_target.conformance_command(tmp_path / "out" / "rust", tmp_path / "v.json", "check")
    target = Path(argv[argv.index("--target-dir") + 1])
    assert target.parent == tmp_path / "cache" / "cargo-target" / "runners" and not target.is_relative_to(cwd)


# --- real APIs (examples/apis) and their real responses (tests/fixtures/responses) ------------------

APIS = sorted((ROOT / "examples" / "apis").glob("*.yaml"))
# Clippy pedantic over a sample: the crates differ only in data, so one of each distinct feature
# stands for all 15 (status-coded github-rest, array-envelope oci-distribution, XML s3,
# stripe). Every registry's vectors still run below.
STRICT_SAMPLE = ("github-rest", "oci-distribution", "s3", "stripe")


@pytest.fixture(scope="module")
def api_crates(tmp_path_factory: Any) -> dict[str, Path]:
    """Every examples/apis registry's crate with its vectors, rendered once, in one cargo workspace
    so that the toolchain checks and builds all of them in one run."""
    root = tmp_path_factory.mktemp("apis")
    crates = {path.stem: write_crate(registry_of(path), root / path.stem) for path in APIS}
    members = ", ".join(json.dumps(f"{api}/rust") for api in crates)
    (root / "Cargo.toml").write_text(f'[workspace]\nresolver = "2"\nmembers = [{members}]\n', encoding="utf-8")
    return crates


@pytest.fixture(scope="module")
def api_runners(api_crates: dict[str, Path]) -> dict[str, Path]:
    return build_runners(next(iter(api_crates.values())).parent.parent / "runners", api_crates)


@needs_cargo
def test_every_api_crate_is_formatted_and_the_sample_passes_clippy(api_crates: dict[str, Path]) -> None:
    root = next(iter(api_crates.values())).parent.parent
    ok(cargo(root, "fmt", "--all", "--check"))  # cheap, and line widths depend on the data
    packages = [arg for api in STRICT_SAMPLE for arg in ("-p", crate_name(api_crates[api]))]
    ok(cargo(root, "clippy", *packages, "--all-targets", "--", "-D", "warnings", *PEDANTIC, timeout=1800))


@needs_cargo
def test_every_api_crate_passes_its_vectors(api_crates: dict[str, Path], api_runners: dict[str, Path]) -> None:
    assert len(api_crates) == 15 and set(STRICT_SAMPLE) <= set(api_crates)
    for api, crate in api_crates.items():
        check_runs(api_runners[api], crate, "vectors.json", "responses.json", "writing.json")


def fixture_vectors(api: str, now_ms: int) -> tuple[list[Path], list[dict[str, Any]]]:
    """Each real response of an API as a `response` input; an epoch reset is read against the
    response's own clock (its `date` header), as tests/test_api_catalog.py reads it in Python."""
    import email.utils

    files = sorted((FIXTURES / "responses" / api).glob("*.json"))
    vectors = []
    for path in files:
        row = json.loads(path.read_text(encoding="utf-8"))
        date = row["headers"].get("date")
        now = int(email.utils.parsedate_to_datetime(date).timestamp() * 1000) if date else now_ms
        response = {"status": row["status"], "headers": [[k, v] for k, v in row["headers"].items()], "body": row["body"]}
        vectors.append({"name": path.stem, "input": {"response": response}, "now_ms": now})
    return files, vectors


@needs_cargo
def test_every_api_crate_decides_each_real_response_as_a_careful_client_would(
    api_crates: dict[str, Path], api_runners: dict[str, Path], tmp_path: Path
) -> None:
    """The same expectations as the Python SDK's (test_api_catalog.py): the code is the
    registry's, the action the one its row decides, a rate limit waits at least what the response
    says, and the request id is the API's own."""
    import time

    failures = []
    for api, crate in api_crates.items():
        files, vectors = fixture_vectors(api, int(time.time() * 1000))
        inputs = tmp_path / f"{api}.json"
        inputs.write_text(json.dumps({"vectors": vectors}, ensure_ascii=False), encoding="utf-8")
        lines = run_runner(api_runners[api], crate, inputs, "emit").splitlines()
        assert len(lines) == len(files), api
        for path, line in zip(files, lines):
            row = json.loads(path.read_text(encoding="utf-8"))
            decision = json.loads(line)["decision"]
            got = [decision["code"], decision["action"], decision["correlation_id"] or None]
            wanted = [row["code"], row["action"], row["correlation_id"]]
            delay = decision["delay_ms"]
            if got != wanted or (row["min_delay_ms"] is not None and (delay or 0) < row["min_delay_ms"]):
                failures.append(f"{api}/{path.stem}: got {got} delay {delay}, want {wanted} delay >= {row['min_delay_ms']}")
    assert failures == []
