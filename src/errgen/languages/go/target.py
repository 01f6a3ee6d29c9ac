"""Go SDK: a module of typed string constants, the ErrorPayload error type, the recovery table
and the runtime (src/errgen/languages/go/runtime), the standard library and smithy-go's error types only,
already gofmt-formatted.

Everything registry-specific is rendered from the contract view through errgen.languages.go.naming; the
runtime files are copied as they are, with only their package clause set.
"""

from __future__ import annotations

import json
import re
import shutil
from functools import cache
from pathlib import Path
from typing import Any

from errgen import contract, resources
from errgen.emit.errors import BuildError
from errgen.contract import ContractView, FieldSpec
from errgen.registry.model import Registry
from errgen.languages.go import naming
from errgen.languages.packaging import EXAMPLE_RESOURCE_ID, example_code, license_notice, readme_licence
from errgen.emit.render import render as render_template

NAME = "go"
LABEL = "Go"
SUMMARY = "go/: Go module <name>errors (typed codes, ErrorPayload error, Decide, net/http and MCP helpers), stdlib and smithy-go's error types only"
GO_VERSION = "1.21"
# The one dependency: smithy-go, for its ErrorFault type, so the errors are smithy.APIError values
# (its error types only; smithy-go requires nothing). The oldest release at GO_VERSION that the AWS
# SDK's own go.mod files exceed, so an application's newer smithy-go wins. go.sum's lines are `go
# mod download -json`'s Sum and GoModSum for it: building the SDK needs no Go.
SMITHY = {"module": "github.com/aws/smithy-go", "version": "v1.22.2",
          "sum": "h1:6D9hW43xKFrRx/tXXfAlIZc4JI+yQe6snnWcQyxSyLQ=",
          "mod_sum": "h1:irrKGvNn1InZwb2d7fkIRNucdfwR8R+Ts3wxYa/cJHg="}
# The runner checks conformance/responses.json (docs/conformance.md, "Reading a real response").
READS_RESPONSES = True
RUNTIME_PACKAGE = "package errgenruntime\n"
DATA_FILES = ("doc.go", "vocabulary.go", "contract.go", "payload.go", "options.go", "table.go")
# encoding/json ignores a tag name outside this alphabet (and falls back to the Go field name).
_TAG_NAME = re.compile(r"[A-Za-z0-9!#$%&()*+\-./:;<=>?@\[\]^_{|}~ ]+")


def render(registry: Registry) -> dict[str, str]:
    view = contract.view(registry)
    try:
        context = data_context(view)
    except naming.NamingError as exc:
        raise BuildError(f"target go: {exc}") from exc
    files = {f"go/{name}": render_template(NAME, f"{name}.jinja", **context) for name in DATA_FILES}
    files["go/go.mod"] = render_template(NAME, "go.mod.jinja", **context)
    files["go/go.sum"] = go_sum()
    files["go/README.md"] = render_template(NAME, "README.md.jinja", **context)
    notice = license_notice(view)
    if notice is not None:
        files["go/LICENSE"] = notice
    files["go/cmd/conformance/main.go"] = render_template(NAME, "conformance_main.go.jinja", **context)
    files["go/conformance_hook.go"] = render_template(NAME, "conformance_hook.go.jinja", **context)
    files["go/example_test.go"] = render_template(NAME, "example_test.go.jinja", **context)
    files["go/internal/conformance/conformance.go"] = render_template(NAME, "internal_conformance.go.jinja", **context)
    for name, text in runtime_sources().items():
        files[f"go/{name}"] = f"// {context['header']}\n\npackage {context['package']}\n" + text
    return files


def go_sum() -> str:
    m, v = SMITHY["module"], SMITHY["version"]
    return f"{m} {v} {SMITHY['sum']}\n{m} {v}/go.mod {SMITHY['mod_sum']}\n"


@cache
def runtime_sources() -> dict[str, str]:
    """The runtime's files without their package clause (the generated package names itself)."""
    sources = {}
    for name, text in resources.runtime_sources(NAME).items():
        if not text.startswith(RUNTIME_PACKAGE):
            raise BuildError(f"runtime file {name} must start with {RUNTIME_PACKAGE.strip()!r}")
        sources[name] = text[len(RUNTIME_PACKAGE):]
    return sources


def conformance_command(sdk_dir: Path, vectors: Path, mode: str) -> tuple[list[str], Path, str]:
    """The module's runner in `sdk_dir` (the go/ folder), built and then run: `go run` would turn
    the runner's exit status 2 (could not run) into 1. Without Go, argv[0] is the missing `go`."""
    go = shutil.which("go")
    if go is None:
        return ["go", "run", "./cmd/conformance", mode, str(vectors)], Path(sdk_dir), "go"
    # Built into a fresh private folder (mktemp -d: random name, mode 0700) that is removed after
    # the run: a predictable path in a shared $TMPDIR would run whatever another user put there.
    script = 'D=$(mktemp -d) || exit 2; trap \'rm -rf "$D"\' EXIT; trap \'exit 143\' TERM INT; "$0" build -o "$D/conformance" ./cmd/conformance && "$D/conformance" "$1" "$2"'
    return ["sh", "-c", script, go, mode, str(vectors)], Path(sdk_dir), "go"


# The runtime's `Problem` is a struct (an id and a message); the ids are untyped constants.
UNTYPED = ("Problem",)


def idents(vocabulary: contract.Vocabulary) -> dict[str, str]:
    """Each value's constant, named after the vocabulary's words where it has them."""
    words = dict(zip(vocabulary.values, vocabulary.words)) if vocabulary.words else None
    return naming.unique_idents(vocabulary.name, vocabulary.values, words)


def code_idents(view: ContractView) -> dict[str, str]:
    return idents(view.vocabulary["Code"])


@cache
def runtime_types() -> frozenset[str]:
    """The string types the runtime declares itself (with their sets and methods)."""
    return frozenset(re.findall(r"^type (\w+) string$", "".join(runtime_sources().values()), re.M))


def code_snippets(view: ContractView) -> dict[str, str]:
    """For the site's code pages: each code as a caller branches on it with this SDK."""
    package = naming.package_name(view.packages[NAME]["package"])
    return {code: f"if p.Code == {package}.{ident} {{\n\t// ...\n}}" for code, ident in code_idents(view).items()}


def data_context(view: ContractView) -> dict[str, Any]:
    package = naming.package_name(view.packages[NAME]["package"])
    module = naming.versioned_module(naming.module_path(view.packages[NAME]["module"]), view.version)
    lit = naming.string_literal
    # Rows carry their words once the view has them (a registry's `identifier:` sets them).
    names = {v.name: idents(v) for v in view.vocabularies}
    codes, categories, scopes, actions = names["Code"], names["Category"], names["Scope"], names["Action"]
    notes = {"Code": {c.code: c.description for c in view.codes}, "Category": {c.name: c.description for c in view.categories}}

    def vocabulary(v: contract.Vocabulary) -> dict[str, Any]:
        texts = notes.get(v.name, {})
        items = [{"ident": ident, "literal": lit(value),
                  "comment": naming.comment(f"{value}: {texts[value]}" if texts.get(value) else f"{value}.")}
                 for value, ident in names[v.name].items()]
        plural = {"Category": "Categories", "Parsed": "Parsed"}.get(v.name, f"{v.name}s")
        # A type the runtime does not declare (nor read) is declared here, without a set of all values.
        declared = v.name in runtime_types()
        return {"type": v.name, "doc": naming.comment(v.doc), "all": f"all{plural}" if declared else None,
                "declare": not declared, "items": items}

    return {
        # Go's marker for generated files (`^// Code generated .* DO NOT EDIT\.$`), which linters
        # and code review tools recognise, then the view's header naming registry and version.
        "header": "Code generated by errgen. DO NOT EDIT.\n// " + naming.comment(view.header),
        "package": package,
        "module": module,
        "module_literal": lit(module),
        "import_line": import_line(module, package),
        "fetchable": "." in module.split("/")[0],
        "local_require": local_require(module),
        "about": view.about,
        "example": example_arguments(view, package, codes),
        **example_facts(view, codes),
        "licence": readme_licence(view, "module"),
        "registry_name_text": view.name,
        "readme_header": view.header,
        "internal_literal": lit(f"{module}/internal/conformance"),
        "go_version": GO_VERSION,
        "smithy": SMITHY,
        # No version in any file but go.mod's path (majors only): a release is a git tag.
        "registry_comment": naming.comment(view.name),
        "registry_name": lit(view.name),
        "policy": view.policy,
        "problem_base": lit(view.policy.problem_base),
        "envelope": lit(view.envelope or ""),
        "envelope_array": "true" if view.envelope_array else "false",
        "response_spec": lit(json.dumps(view.response, separators=(",", ":"))),
        "vocabularies": [vocabulary(v) for v in view.vocabularies if v.name not in UNTYPED],
        "problems": [{"ident": ident, "literal": lit(value), "comment": naming.comment(f"{value}.")}
                     for value, ident in names["Problem"].items()],
        "exhausted": ", ".join(f"{actions[a]}: {actions[b]}" for a, b in view.exhausted.items()),
        "fields": [field_spec(f) for f in view.fields],
        "payload_fields": [payload_field(f) for f in view.fields],
        "options": [error_option(f) for f in view.fields if not f.required and f.name not in HAND_WRITTEN_OPTIONS],
        "unknown_actions": unknown_actions(view, scopes, actions),
        "rows": [table_row(row, codes, categories, scopes, actions) for row in view.codes],
    }


def local_require(module: str) -> str:
    """The `go mod edit -require` argument for a module used from its folder (a path without a
    host, which `go get` cannot fetch): any version of the path's major does, since a `replace`
    directive points it at the folder."""
    suffix = re.search(r"/v([0-9]+)$", module)
    return f"{module}@v{suffix.group(1) if suffix else 0}.0.0"


def import_line(module: str, package: str) -> str:
    """The import of the module, named when its package name is not the path's last element."""
    elements = module.split("/")
    last = elements[-2] if len(elements) > 1 and re.fullmatch(r"v[0-9]+", elements[-1]) else elements[-1]
    return naming.string_literal(module) if last == package else f"{package} {naming.string_literal(module)}"


def example_facts(view: ContractView, codes: dict[str, str]) -> dict[str, Any]:
    """The example code's constant and HTTP status, for the Example functions' output."""
    row = example_code(view)
    status = row.http_status if row else None
    # smithy-go's fault of the status (ErrorFault's String): the server's for 5xx, the client's for 4xx.
    fault = None if status is None else "server" if 500 <= status <= 599 else "client" if 400 <= status <= 499 else "unknown"
    return {"example_ident": codes[row.code] if row else None, "example_status": status, "example_fault": fault}


def example_arguments(view: ContractView, package: str, codes: dict[str, str]) -> str | None:
    """NewError's arguments in the README's and package docs' example: a real code's constant."""
    row = example_code(view)
    if row is None:
        return None
    extra = f', {package}.WithResourceID("{EXAMPLE_RESOURCE_ID}")' if row.scope == "resource" else ""
    return f'{package}.{codes[row.code]}, "req-1"{extra}'


def field_spec(f: FieldSpec) -> str:
    parts = [f"name: {naming.string_literal(f.name)}", f"wire: {naming.string_literal(f.wire)}",
             f"kind: {naming.string_literal(f.type)}"]
    if f.required:
        parts.append("required: true")
    if f.hint:
        parts.append("hint: true")
    if f.values:
        parts.append(f"values: []string{{{', '.join(naming.string_literal(v) for v in f.values)}}}")
    if f.type == "integer":
        parts.append(f"minimum: {f.minimum if f.minimum is not None else -(2**63)}")
        parts.append(f"maximum: {f.maximum if f.maximum is not None else 2**63 - 1}")
    parts.append(f"maxItems: {f.max_items if f.max_items is not None else -1}")
    return "{" + ", ".join(parts) + "}"


# The Go type of each kind of field; code, category, scope and state have their own string types.
_NAMED_TYPES = {"code": "Code", "category": "Category", "scope": "Scope", "state": "State"}
_REQUIRED_TYPES = {"string": "string", "boolean": "bool", "integer": "int64", "enum": "string",
                   "string_list": "[]string", "scalar_map": "ScalarMap"}
_OPTIONAL_TYPES = {**_REQUIRED_TYPES, "boolean": "*bool", "integer": "*int64"}


def payload_field(f: FieldSpec) -> dict[str, str]:
    if not _TAG_NAME.fullmatch(f.wire) or "," in f.wire:
        raise naming.NamingError(f"wire name {f.wire!r} of field {f.name} cannot be a Go JSON tag")
    kind = _NAMED_TYPES.get(f.name) or (_REQUIRED_TYPES if f.required else _OPTIONAL_TYPES)[f.type]
    tag = f"json:{naming.string_literal(f.wire if f.required else f.wire + ',omitempty')}"
    literal = f"`{tag}`" if "`" not in tag else naming.string_literal(tag)
    return {"name": naming.field_name(f.name), "type": kind, "tag": literal, "comment": naming.comment(f.description)}


# Optional fields whose NewError option the runtime writes itself, in a caller's unit:
# WithRetryAfter takes a time.Duration.
HAND_WRITTEN_OPTIONS = frozenset({"retry_after_ms"})


def error_option(f: FieldSpec) -> dict[str, str]:
    """NewError's option for an optional field: With<Field>, taking the field's value (a list as
    variadic arguments, a pointer field's value by value)."""
    field = payload_field(f)
    kind, name = field["type"], field["name"]
    param, value = f"value {kind}", "value"
    if kind.startswith("[]"):
        param, value = f"values ...{kind[2:]}", "values"
    elif kind.startswith("*"):
        param, value = f"value {kind[1:]}", "&value"
    return {"ident": f"With{name}", "field": name, "param": param, "value": value,
            "comment": naming.comment(f"{f.name}: {f.description}")}


def unknown_actions(view: ContractView, scopes: dict[str, str], actions: dict[str, str]) -> str:
    """The view's fallback rule (for codes the package does not know) as a Go map literal."""
    rows = []
    for retryable in (True, False):
        cells = ", ".join(f"{scopes[s]}: {actions[view.fallback_actions[s][retryable]]}" for s in view.scopes)
        rows.append(f"{str(retryable).lower()}: {{{cells}}}")
    return ", ".join(rows)


def table_row(row: contract.CodeRow, codes: dict[str, str], categories: dict[str, str],
              scopes: dict[str, str], actions: dict[str, str]) -> str:
    lit = naming.string_literal
    category = categories.get(row.category) or f"Category({lit(row.category)})"
    parts = [
        f"Code: {codes[row.code]}",
        f"Category: {category}",
        f"Retryable: {str(row.retryable).lower()}",
        f"Scope: {scopes[row.scope]}",
        f"Scopes: []Scope{{{', '.join(scopes[s] for s in row.scopes)}}}",
        f"Actions: map[Scope]Action{{{', '.join(f'{scopes[s]}: {actions[a]}' for s, a in row.actions.items())}}}",
    ]
    if row.retry_after_ms is not None:
        parts.append(f"RetryAfterMS: millis({row.retry_after_ms})")
    parts.append(f"HTTPStatus: {row.http_status}")
    if row.hints:
        parts.append(f"Hints: []string{{{', '.join(lit(h) for h in row.hints)}}}")
    parts += [f"Description: {lit(row.description)}", f"Since: {lit(row.since)}"]
    if row.deprecated_since:
        parts.append(f"DeprecatedSince: {lit(row.deprecated_since)}")
    if row.replaced_by:
        replaced = codes.get(row.replaced_by) or f"Code({lit(row.replaced_by)})"
        parts.append(f"ReplacedBy: {replaced}")
    parts.append(f"TypeURI: {lit(row.type_uri)}")
    return "{" + ", ".join(parts) + "}"
