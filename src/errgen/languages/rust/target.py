"""Rust SDK: a crate with open enums, `ErrorPayload` (serde, wire names), the recovery table and
the shared runtime (parse, validate, decide, HTTP, MCP, did_you_mean, new_error).

The runtime is real Rust source (errgen/languages/rust/runtime/), copied verbatim; its templates/ render
only the registry's data from the contract view. Everything is written already formatted as
rustfmt formats it, so building the crate never needs a Rust toolchain.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path
from typing import Any, Callable

from errgen import contract
from errgen.emit.errors import BuildError
from errgen.registry.model import Registry
from errgen.languages.packaging import example_code, license_notice, readme_licence
from errgen.languages.rust import naming
from errgen.emit.render import render as render_template

NAME = "rust"
LABEL = "Rust"
SUMMARY = "rust/: crate <name>-errors (open enums, ErrorPayload, RECOVERY_TABLE, runtime), serde only"
RUNTIME = Path(__file__).resolve().parent / "runtime"
RUST_VERSION = "1.74"
# The runner checks conformance/responses.json: the crate reads real responses (`read_http`).
READS_RESPONSES = True

# Rust types of the policy constants, by the value's Python type; a few are counts or indices.
_POLICY_TYPES = {"default_max_attempts": "u32", "backoff_max_exponent": "u32", "max_suggestions": "usize",
                 "did_you_mean_limit": "usize", "max_json_depth": "usize"}
_FIELD_KINDS = {"string": "String", "boolean": "Boolean", "integer": "Integer", "enum": "Enum",
                "string_list": "StringList", "scalar_map": "ScalarMap"}


def render(registry: Registry) -> dict[str, str]:
    try:
        return _render(contract.view(registry))
    except naming.NamingError as exc:
        raise BuildError(f"target rust: {exc} (set it with targets: {{rust: {{crate: ...}}}})") from None


def _render(view: contract.ContractView) -> dict[str, str]:
    crate = naming.crate_name(view.packages[NAME]["crate"])
    context = {
        "header": view.header,
        "crate": crate,
        "lib": naming.lib_name(crate),
        "version": naming.version(view.version),
        "rust_version": RUST_VERSION,
        "registry_name": naming.string(view.name),
        **package_context(view),
        **data_context(view),
    }
    files = {f"rust/src/{name}": f"// {view.header}\n{text}" for name, text in runtime_sources().items()}
    files["rust/src/data.rs"] = render_template(NAME, "data.rs.jinja", **context)
    files["rust/src/payload.rs"] = render_template(NAME, "payload.rs.jinja", **context)
    files["rust/examples/conformance.rs"] = render_template(NAME, "conformance.rs.jinja", **context)
    files["rust/Cargo.toml"] = render_template(NAME, "Cargo.toml.jinja", **context)
    files["rust/README.md"] = render_template(NAME, "README.md.jinja", **context)
    # The crate's front page ends with the README's example, which `cargo test` runs as a doctest
    # (the registry's `about` prose stays out of the crate's front page; its codes' and
    # categories' descriptions document their variants, escaped: naming.doc_text).
    # An HTML comment names the generator: rustdoc passes it through unseen.
    files["rust/src/example.md"] = f"<!-- {view.header} -->\n" + render_template(NAME, "example.md.jinja", **context) + "\n"
    if (notice := license_notice(view)) is not None:
        files["rust/LICENSE"] = notice
    return files


def package_context(view: contract.ContractView) -> dict[str, Any]:
    """What crates.io shows, from the registry's `about` (lint has checked each value against
    crates.io's rules: SPDX licence, URLs, at most five keywords)."""
    about = view.about
    optional = {key: naming.toml_string(value) if value else None
                for key, value in (("license", about.license), ("repository", about.repository),
                                   ("homepage", about.homepage))}
    return {
        "description": naming.toml_string(about.description),
        **optional,
        "keywords": ", ".join(naming.toml_string(k) for k in about.keywords),
        # The README is Markdown: the registry's words as written, on one line.
        "about_description": " ".join(about.description.split()),
        "licence": readme_licence(view, "crate"),
        "registry_name_text": view.name,
        "example_variant": code_variants(view)[shown.code] if (shown := example_code(view)) else None,
    }


@cache
def runtime_sources() -> dict[str, str]:
    src = RUNTIME / "src"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(src.glob("*.rs"))}


def conformance_command(sdk_dir: Path, vectors: Path, mode: str) -> tuple[list[str], Path, str]:
    """The crate's runner, `cargo run --example conformance -- check|emit VECTORS`, run in the
    crate (`sdk_dir` is OUT/rust). The runner's build keeps JSON objects in document order
    (serde_json's `preserve_order`), so its emit lines are Python's byte for byte; the SDK itself
    never needs that feature. Builds go where `build_folders` says."""
    build_dir, target_dir = build_folders(sdk_dir)
    argv = ["cargo", "run", "--quiet", "--target-dir", str(target_dir),
            "--config", f"build.build-dir={json.dumps(str(build_dir), ensure_ascii=False)}",
            "--features", "serde_json/preserve_order", "--example", "conformance", "--", mode, str(vectors)]
    return argv, Path(sdk_dir), "cargo"


def build_folders(sdk_dir: Path) -> tuple[Path, Path]:
    """(build dir, target dir) of a crate's runner build. The build dir, where cargo compiles
    (the dependencies, built once for every SDK), is CARGO_TARGET_DIR when set, else a folder of
    errgen's verified cache (only this user can write it), else the crate's own target/ (which
    OUT's .gitignore hides). The target dir, where the runner binary lands and runs from, is one
    per SDK folder under it (`runners/` + a hash of the folder's path): two registries' runners
    built at once, sharing a build dir, never run each other's binary."""
    import hashlib
    import os

    from errgen.emit import toolcache

    shared = os.environ.get("CARGO_TARGET_DIR") or toolcache.private_folder("cargo-target")
    if not shared:
        return Path(sdk_dir) / "target", Path(sdk_dir) / "target"
    digest = hashlib.sha256(str(Path(sdk_dir).resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return Path(shared), Path(shared) / "runners" / digest


@dataclasses.dataclass(frozen=True)
class Variant:
    """One variant of an enum, with its doc comment (`///` lines, indented)."""

    name: str
    doc: str


@dataclasses.dataclass(frozen=True)
class OpenEnum:
    """One enum of the crate: its variants, and the table its wire strings live in. `registry_text`:
    its variants' docs are the registry's own prose (codes, categories), not errgen's."""

    name: str
    doc: str
    variants: list[Variant]
    open: bool
    registry_text: bool = False


def code_variants(view: contract.ContractView) -> dict[str, str]:
    # Codes and categories are named after the view's words, which an `identifier:` may set.
    return dict(zip(view.code_names, naming.variants([c.identifier_text for c in view.codes], "Code")))


def code_snippets(view: contract.ContractView) -> dict[str, str]:
    """For the site's code pages: each code as a caller branches on it with this SDK."""
    lib = naming.lib_name(naming.crate_name(view.packages[NAME]["crate"]))
    return {code: f"if payload.code == {lib}::Code::{variant} {{\n    // ...\n}}" for code, variant in code_variants(view).items()}


# The vocabularies whose Rust name differs from the view's; the problem ids are `&str` constants
# of the `problem` module (the runtime reports them as strings), not an enum.
TYPE_NAMES = {"Parsed": "Verdict", "Problem": "problem"}
CONSTANTS = ("Problem",)


# The `policy` module's constants (docs/conformance.md).
POLICY_DOCS = {
    "default_max_attempts": "How many attempts a decision allows by default: at the last, a `retry` becomes "
                            "`escalate` and a `pause` becomes `stop`.",
    "default_max_delay_ms": "The longest delay a decision waits by default, in milliseconds: a longer one is "
                            "`escalate` (reason `delay-exceeds-max`).",
    "backoff_base_ms": "The backoff of the first attempt, in milliseconds; it doubles with each attempt.",
    "backoff_max_ms": "The longest backoff, in milliseconds.",
    "backoff_max_exponent": "The largest exponent of the backoff's doubling.",
    "jitter": "The jitter of the `_with_jitter` decisions: `full`, a backoff becomes a uniform draw below it.",
    "max_suggestions": "The most suggestions a payload's `did_you_mean` may carry.",
    "did_you_mean_limit": "How many near misses a server suggests: the `limit` to pass "
                          "[`did_you_mean`](crate::did_you_mean).",
    "max_delay_value_ms": "The largest `retry_after_ms` a payload may carry: `2^53 - 1`, JSON's largest exact "
                          "integer.",
    "max_json_depth": "How deep a JSON payload may nest: a deeper one is invalid.",
    "max_body_bytes": "The longest response body read, in bytes: a longer one is unreadable.",
    "max_number_chars": "The longest JSON number read, in characters: a longer one is out of range.",
    "max_headers": "How many response headers are read: those past it are not.",
    "max_header_chars": "The longest header value read, in characters: a longer one counts as absent.",
    "max_xml_depth": "How deep an XML body may nest (the root is depth 1): a deeper one is unreadable.",
    "problem_base": "The base of a code's problem type URI: the code follows it, unless the registry gives "
                    "the code its own.",
    "envelope": "The body key an HTTP payload is nested under, or `None`: the payload is the body.",
    "envelope_array": "Whether the envelope's value is an array (`errors[*]`): the payload is its first entry "
                      "holding every required field, and `to_http` writes a one-entry array.",
}


def variant_docs(view: contract.ContractView, vocabulary: contract.Vocabulary) -> list[str]:
    """Each value's doc comment: a code's or category's description from the registry (escaped:
    it is data), a hint's field description, errgen's own sentence for the other vocabularies."""
    if vocabulary.name in ("Code", "Category"):
        described = {c.code: c.description for c in view.codes} if vocabulary.name == "Code" else \
            {c.name: c.description for c in view.categories}
        kind = vocabulary.name.lower()
        # One line, as written: the registry's text is never filled (a line of it could start a block).
        return ["    /// " + (naming.doc_text(described.get(value, "")) or f"A {kind} of the registry, without a description.")
                for value in vocabulary.values]
    if vocabulary.name == "Hint":
        fields = {f.name: f for f in view.fields}
        texts = [f"The payload's `{value}` field: {_lower_first(_sentence(fields[value].description))}"
                 for value in vocabulary.values]
    else:
        texts = [contract.VALUE_MEANINGS[vocabulary.name][value] for value in vocabulary.values]
    return [naming.doc_comment(text, 4) for text in texts]


def data_context(view: contract.ContractView) -> dict[str, Any]:
    enums, names = [], {}
    for v in view.vocabularies:
        if v.name in CONSTANTS:
            continue
        name = TYPE_NAMES.get(v.name, v.name)
        # Codes and categories are named after the view's words, which an `identifier:` may set.
        variants = naming.variants(list(v.spelled), name, open_enum=v.open)
        docs = variant_docs(view, v)
        enums.append(OpenEnum(name, v.doc, [Variant(n, d) for n, d in zip(variants, docs)], v.open,
                              registry_text=v.name in ("Code", "Category")))
        names[name] = dict(zip(v.values, variants))
    scope = names["Scope"]
    action = names["Action"]

    def path(type_name: str, value: str) -> str:
        return f"{type_name}::{names[type_name][value]}"

    def opt(value: Any, render: Any = str) -> str:
        return "None" if value is None else f"Some({render(value)})"

    shared = SharedSlices()
    code_rows = [[
        ("code", path("Code", c.code)),
        ("wire", naming.string(c.code)),
        ("category", path("Category", c.category)),
        ("retryable", _bool(c.retryable)),
        ("scope", path("Scope", c.scope)),
        ("scopes", shared.name("SCOPES", "Scope", [scope[s] for s in c.scopes], lambda v: f"Scope::{v}")),
        ("actions", shared.name("ACTIONS", "Action", [action[c.actions[s]] for s in c.scopes], lambda v: f"Action::{v}")),
        ("retry_after_ms", opt(c.retry_after_ms, _int)),
        ("http_status", str(c.http_status)),
        ("hints", shared.name("HINTS", "&str", [view.field_map[h].wire for h in c.hints], naming.string)),
        ("description", naming.string(c.description)),
        ("since", naming.string(c.since)),
        ("deprecated_since", opt(c.deprecated_since, naming.string)),
        ("replaced_by", opt(c.replaced_by, naming.string)),
        ("type_uri", naming.string(c.type_uri)),
    ] for c in view.codes]
    category_rows = [[
        ("category", path("Category", c.name)),
        ("wire", naming.string(c.name)),
        ("retryable", _bool(c.retryable)),
        ("action", opt(c.action, lambda a: path("Action", a))),
        ("description", naming.string(c.description)),
    ] for c in view.categories]
    rule_rows = [[
        ("retryable", _bool(retryable)),
        ("scope", path("Scope", s)),
        ("action", path("Action", by_retryable[retryable])),
    ] for s, by_retryable in view.fallback_actions.items() for retryable in (True, False)]
    timed_rows = [[("action", path("Action", timed)), ("exhausted", path("Action", last))] for timed, last in view.exhausted.items()]
    field_rows = [[
        ("name", naming.string(f.name)),
        ("wire", naming.string(f.wire)),
        ("kind", f"FieldKind::{_FIELD_KINDS[f.type]}"),
        ("required", _bool(f.required)),
        ("hint", _bool(f.hint)),
        ("values", naming.list_value(naming.string(v) for v in f.values)),
        ("minimum", opt(f.minimum, _int)),
        ("maximum", opt(f.maximum, _int)),
        ("max_items", opt(f.max_items)),
    ] for f in view.fields]

    def wires(type_name: str) -> str:
        rows = [[("value", path(type_name, v)), ("wire", naming.string(v))] for v in names[type_name]]
        return naming.struct_array("Wire", rows)

    return {
        "enums": [e for e in enums if e.open],
        "closed_enums": [e for e in enums if not e.open],
        "wire_tables": {e.name: wires(e.name) for e in enums if e.name not in ("Code", "Category")},
        "timed_table": naming.struct_array("Timed", timed_rows),
        "problem_ids": [naming.doc_comment(contract.VALUE_MEANINGS["Problem"][p], 4) + "\n"
                        + naming.assignment(4, f"pub const {naming.const_name(p)}: &str =", naming.string(p), ";")
                        for p in view.problems],
        "recovery_table": naming.struct_array("CodeEntry", code_rows),
        "shared_slices": shared.constants,
        "category_table": naming.struct_array("CategoryEntry", category_rows),
        "rule_table": naming.struct_array("RuleRow", rule_rows),
        "field_table": naming.struct_array("FieldSpec", field_rows),
        "field_count": len(view.fields),
        "policy": policy_constants(view),
        # Where a real response carries each fact: the view's `response`, read once as JSON data.
        "response_spec": naming.assignment(0, "pub(crate) static RESPONSE_SPEC: &str =",
                                           naming.string(json.dumps(view.response, separators=(",", ":"),
                                                                    ensure_ascii=False)), ";"),
        "wire_names": [naming.doc_comment(f"The name on the wire of the payload's `{f.name}` field.", 4) + "\n"
                       + naming.assignment(4, f"pub const {naming.const_name(f.name)}: &str =", naming.string(f.wire), ";")
                       for f in view.fields],
        "fields": payload_fields(view),
        "constructor": constructor(payload_fields(view)),
    }


class SharedSlices:
    """The scopes, actions and hints of the recovery table's rows, one constant per distinct list,
    which the rows name. Written as a slice literal in every row, 20,000 codes' slices took most of
    rustc's time and memory (its type check of the one static grows faster than the rows:
    bench/compile_bench.py); a registry has few distinct lists, so the constants stay few."""

    MAX_NAME = 48  # a longer list is numbered, so a row's line stays short

    def __init__(self) -> None:
        self._names: dict[tuple[str, tuple[str, ...]], str] = {}
        self._constants: dict[str, list[str]] = {}

    @property
    def constants(self) -> list[str]:
        """The declarations, by kind (in the order of first use), each kind in first-use order."""
        return [line for lines in self._constants.values() for line in lines]

    def name(self, prefix: str, type_name: str, words: list[str], literal: Callable[[str], str]) -> str:
        """The constant holding `words` (each written by `literal`), declared on first use:
        named after its words (`SCOPES_RESOURCE_REQUEST`, `NO_HINTS`), or numbered when that
        name is long or already another list's (a digit after the prefix: no word name has one)."""
        key = (prefix, tuple(words))
        if key in self._names:
            return self._names[key]
        taken = set(self._names.values())
        name = "_".join([prefix, *(naming.const_name(w) for w in words)]) if words else f"NO_{prefix}"
        n = 1
        while len(name) > self.MAX_NAME or name in taken:
            name, n = f"{prefix}_{n}", n + 1
        self._names[key] = name
        items = [literal(w) for w in words]
        lead = f"const {name}: &[{type_name}] ="
        if len(", ".join(items)) <= naming.ARRAY_WIDTH:  # rustfmt keeps it on one line, after `=` if need be
            line = naming.assignment(0, lead, f"&[{', '.join(items)}]", ";")
        else:
            line = naming.array(items, 0, f"{lead} ", ";")
        self._constants.setdefault(prefix, []).append(line)
        return name


def policy_constants(view: contract.ContractView) -> list[str]:
    constants = []
    for spec in dataclasses.fields(view.policy):
        value = getattr(view.policy, spec.name)
        if isinstance(value, str):
            constants.append((spec.name.upper(), "&str", naming.string(value)))
        else:
            constants.append((spec.name.upper(), _POLICY_TYPES.get(spec.name, "u64"), _int(value)))
    envelope = "None" if view.envelope is None else f"Some({naming.string(view.envelope)})"
    constants.append(("ENVELOPE", "Option<&str>", envelope))
    # `errors[*]`: the payload is an entry of the array under ENVELOPE (SPEC E).
    constants.append(("ENVELOPE_ARRAY", "bool", "true" if view.envelope_array else "false"))
    return [naming.doc_comment(POLICY_DOCS[name.lower()], 4) + "\n" + naming.assignment(4, f"pub const {name}: {type_} =", value, ";")
            for name, type_, value in constants]


def payload_fields(view: contract.ContractView) -> list[dict[str, Any]]:
    types = {"string": "String", "boolean": "bool", "integer": "u64", "string_list": "Vec<String>",
             "scalar_map": "Map<String, Value>"}
    # The code and category travel as strings; their values are the registry's own open enums.
    registry_values = {"code": "Code", "category": "Category"}
    fields = []
    for f in view.fields:
        rust_type = naming.camel(f.name, "") if f.type == "enum" else registry_values.get(f.name, types[f.type])
        fields.append({
            "ident": naming.snake(f.name),
            "wire": naming.string(f.wire),
            "type": rust_type if f.required else f"Option<{rust_type}>",
            "required": f.required,
            "integer": f.type == "integer",
            "doc": _sentence(f.description),
        })
    return fields


def constructor(fields: list[dict[str, Any]]) -> str:
    """`ErrorPayload::new` over the required fields, every optional one absent."""
    params = [f"{f['ident']}: {f['type']}" for f in fields if f["required"]]
    one_line = f"    pub(crate) fn new({', '.join(params)}) -> Self {{"
    if len(one_line) <= naming.MAX_WIDTH:
        signature = one_line
    else:
        signature = "    pub(crate) fn new(\n" + "".join(f"        {p},\n" for p in params) + "    ) -> Self {"
    inits = "".join(f"            {f['ident']},\n" if f["required"] else f"            {f['ident']}: None,\n" for f in fields)
    return (
        "    /// A payload with the required fields, every optional one absent.\n"
        f"{signature}\n        ErrorPayload {{\n{inits}        }}\n    }}"
    )


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _int(value: int) -> str:
    return f"{value:_}" if abs(value) >= 10_000 else str(value)


def _sentence(text: str) -> str:
    return " ".join(text.split())


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
