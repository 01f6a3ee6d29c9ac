"""Python SDK: the runtime (errgen/languages/python/runtime, copied as is) plus the contract's data rendered
from the view: enums, `_contract.py` (policy, fields, the tabulated rule), the table, pydantic
field types and pyproject.toml. Black formats what is rendered.

Only the registry-independent envelope goes through datamodel-code-generator, so its cost does not
grow with the number of codes.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

from errgen.emit import toolcache
from errgen.contract import PROBLEM_MEMBERS, ContractView, view
from errgen.languages.packaging import EXAMPLE_RESOURCE_ID, example_code, license_notice, readme_licence
from errgen.registry.model import Registry
from errgen.languages.python import naming
from errgen.emit.render import render as render_template
from errgen.resources import runtime_sources, verdict_source

NAME = "python"
LABEL = "Python"
SUMMARY = "python/: installable package <name>_errors (enums, ErrorPayload, RECOVERY_TABLE, runtime, conformance runner)"
# Its runner reads conformance/responses.json too (docs/conformance.md, "Reading a real response").
READS_RESPONSES = True
FORMATTED = ("__init__.py", "_contract.py", "exceptions.py")  # rendered, then formatted by black
LINE_LENGTH = naming.LINE_LENGTH


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    package = contract.packages[NAME]["package"]
    context: dict[str, Any] = {
        "view": contract,
        "header": contract.header,
        "package": package,
        "distribution": contract.packages[NAME]["distribution"],
        "version": naming.version(contract.version),
        "enums": enums(contract),
        "exports": EXPORTS,
        "exceptions": exception_classes(contract),
        "status_categories": contract.status_categories,
        "problem_members": PROBLEM_MEMBERS,
        "about": contract.about,
        "example": example_arguments(contract),
        "licence": readme_licence(contract, "package"),
    }
    base = f"python/{package}"
    files = {f"{base}/{name}": format_python(render_template(NAME, f"{name}.jinja", **context)) for name in FORMATTED}
    # One line per code: black would take a second per 5,000 codes on every registry edit, so the
    # template writes black's layout itself (naming.python.assignment; tests hold it to black's).
    files[f"{base}/enums.py"] = render_template(NAME, "enums.py.jinja", **context)
    # The same for new_error's overloads: one Literal line per code, laid out as black would.
    context["signatures"] = new_error_signatures(contract)
    files[f"{base}/_new_error.py"] = render_template(NAME, "_new_error.py.jinja", **context)
    for name, source in runtime_sources(NAME).items():
        files[f"{base}/{name}"] = f"# {contract.header}\n{source}"
    # The strict verdict is errgen's own module, shared with `errgen validate` (errgen.payload_checks).
    files[f"{base}/_verdict.py"] = f"# {contract.header}\n{verdict_source()}"
    files[f"{base}/_envelope.py"] = envelope_module(contract.header, envelope_schema_text(contract))
    files[f"{base}/py.typed"] = ""
    files[f"{base}/_table.json"] = render_template(NAME, "_table.json.jinja", **context)
    files["python/pyproject.toml"] = render_template(NAME, "pyproject.toml.jinja", **context)
    files["python/README.md"] = render_template(NAME, "README.md.jinja", **context)
    notice = license_notice(contract)
    if notice is not None:
        files["python/LICENSE"] = notice
    return files


def example_arguments(contract: ContractView) -> str | None:
    """`new_error`'s arguments in the README's example, with the code's real member name."""
    row = example_code(contract)
    if row is None:
        return None
    member = dict((wire, name) for name, wire in code_members(contract))[row.code]
    extra = f', resource_id="{EXAMPLE_RESOURCE_ID}"' if row.scope == "resource" else ""
    return f'Code.{member}, "req-1"{extra}'


def code_members(contract: ContractView) -> list[tuple[str, str]]:
    """(member name, wire value) of each code in the Code enum."""
    return next(e["members"] for e in enums(contract) if e["name"] == "Code")


def code_snippets(contract: ContractView) -> dict[str, str]:
    """For the site's code pages: each code as a caller branches on it with this SDK."""
    package = contract.packages[NAME]["package"]
    return {wire: f"from {package} import Code\n\nif payload.code == Code.{member}:\n    ..." for member, wire in code_members(contract)}


# What the package exports besides its enums and its exception classes.
EXPORTS = (
    "APIError", "Checked", "DEFAULT_MAX_ATTEMPTS", "DEFAULT_MAX_DELAY_MS", "Decision", "Deprecation", "ErrorPayload",
    "HttpReading", "HttpResponse", "Payload", "PayloadError", "RECOVERY_TABLE", "REGISTRY_NAME", "REGISTRY_VERSION",
    "RecoveryEntry", "UnknownCode", "UnknownErrorPayload", "Verdict", "backoff_ms", "check", "check_payload", "decide",
    "decide_failure", "decide_response", "did_you_mean", "error_from_response", "error_from_response_async",
    "failure_of", "from_http", "from_mcp_result", "new_error", "parse_payload", "raise_for_response",
    "raise_for_response_async", "read_http", "recovery_entry", "retry", "retry_async", "status_action", "to_http",
    "to_mcp_result", "validate_payload",
)


def exception_classes(contract: ContractView) -> list[dict[str, str]]:
    """One APIError subclass per category, in registry order: class name, wire value, docstring.

    Named as stripe-python names its own, after the category's words with one `Error` suffix:
    `rate_limit` -> RateLimitError, `rate_limit_error` -> RateLimitError (not RateLimitErrorError).
    A name the package already exports, in any letter case (`api_error` -> ApiError beside
    APIError), becomes `<Words>CategoryError`, so no two names differ only in case."""
    taken = {name.lower() for name in (*EXPORTS, *(e["name"] for e in enums(contract)))}
    out: list[dict[str, str]] = []
    for row in contract.categories:
        words = naming.words_of(row.identifier_text)
        stem = naming.type_name("_".join(words[:-1] if len(words) > 1 and words[-1] == "error" else words))
        name = stem if stem.endswith("Error") else f"{stem}Error"
        if name.lower() in taken:
            name = f"{stem.removesuffix('Error')}CategoryError"
        name = naming.unique_among(name, taken)
        taken.add(name.lower())
        out.append({"name": name, "wire": row.name, "doc": row.description})
    return out


# The payload fields new_error fills itself, or takes as its own parameters.
_FILLED = ("code", "category", "retryable", "scope", "correlation_id")


def new_error_signatures(contract: ContractView) -> list[dict[str, Any]]:
    """new_error's overloads: one per distinct (retryable, hint fields, scopes) among the codes, in
    registry order, each with the codes it takes (a `Literal` alias laid out as black lays it out),
    the scopes they allow (`scope`'s annotation) and its keyword parameters (name, annotation).
    Few signatures however many codes: mypy stays fast."""
    members = dict((wire, name) for name, wire in code_members(contract))
    groups: dict[tuple[bool, tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for row in contract.codes:
        scopes = tuple(s for s in contract.scopes if s in row.scopes)
        groups.setdefault((row.retryable, tuple(sorted(row.hints)), scopes), []).append(members[row.code])
    out = []
    scope_aliases: dict[tuple[str, ...], str] = {}
    for n, ((retryable, hints, scopes), codes) in enumerate(groups.items(), start=1):
        alias = f"_Codes{n}"
        fields = [
            (f.name, field_annotation(contract, f.type, f.values))
            for f in contract.fields
            if f.name not in _FILLED and (retryable or f.name != "retry_after_ms") and (not f.hint or f.name in hints)
        ]
        new_scopes = scopes not in scope_aliases
        scope_alias = scope_aliases.setdefault(scopes, f"_Scopes{len(scope_aliases) + 1}")
        out.append({"alias": alias, "literal": naming.literal_alias(alias, [f"Code.{c}" for c in codes]), "fields": fields,
                    "scope": scope_alias, "scope_literal": scope_literal(contract, scope_alias, scopes) if new_scopes else ""})
    return out


def scope_literal(contract: ContractView, alias: str, scopes: tuple[str, ...]) -> str:
    """`scope` narrowed to the scopes some codes allow, as `Scope` members or their text: a scope
    literal a code does not allow fails `mypy --strict`, as it fails at run time."""
    member = {wire: name for name, wire in next(e["members"] for e in enums(contract) if e["name"] == "Scope")}
    return naming.literal_alias(alias, [*(f"Scope.{member[s]}" for s in scopes), *map(naming.string_literal, scopes)])


def field_annotation(contract: ContractView, kind: str, values: tuple[str, ...]) -> str:
    """The Python type new_error takes for a payload field, None allowed (the field left out)."""
    if kind == "enum":
        enum = next(v.name for v in contract.vocabularies if v.values == values)
        return f"Optional[Union[{enum}, Literal[{', '.join(naming.string_literal(v) for v in values)}]]]"
    return f"Optional[{_ANNOTATIONS[kind]}]"


_ANNOTATIONS = {"string": "str", "integer": "int", "boolean": "bool", "string_list": "Sequence[str]",
                "scalar_map": "Mapping[str, Union[str, int, float, bool]]"}


def enums(contract: ContractView) -> list[dict[str, Any]]:
    """Each vocabulary of the view as an enum: class name, docstring, (member, wire value) pairs;
    member names are unique (codes and categories are named after the view's words)."""
    return [{"name": v.name, "doc": v.doc, "members": list(zip(naming.unique(naming.constant(s) for s in v.spelled), v.values))}
            for v in contract.vocabularies]


def envelope_schema_text(contract: ContractView) -> str:
    from errgen import payload_schema
    from errgen.emit.render import to_json

    return to_json(payload_schema.envelope_schema(contract, "ErrorPayloadEnvelope"))


# datamodel-code-generator's options for the envelope; part of the cache key, as are its version,
# black's and the input, so a cached module is exactly what a fresh run would produce.
ENVELOPE_OPTIONS: dict[str, Any] = {
    "input_file_type": "jsonschema",
    "output_model_type": "pydantic_v2.BaseModel",
    "formatters": [],
    "disable_timestamp": True,
    "strict_types": ["str", "int", "bool", "float"],
    "use_annotated": True,
    "field_constraints": True,
    "use_standard_collections": True,
    "use_union_operator": True,
    "use_schema_description": True,
    "use_field_description": True,
    "target_python_version": "3.10",
    "enum_field_as_literal": "all",
}
# black's mode, spelled out so the cache key can name it without importing black.
BLACK_TARGETS = ("PY310",)


# The header's place in the cached module: the registry's name and version go in after, so a new
# release (or another registry) reuses the cached module instead of running the generator again.
_HEADER = "# errgen-header"


@cache
def envelope_module(header: str, schema: str) -> str:
    import json

    file_header = f"{_HEADER}\n# Field types of the payload envelope, by datamodel-code-generator."
    entry = toolcache.key(
        toolcache.tool_version("datamodel-code-generator"), json.dumps(ENVELOPE_OPTIONS, sort_keys=True),
        file_header, schema, *black_key(),
    )
    module = toolcache.cached("envelope", entry, lambda: format_python(run_datamodel_codegen(file_header, schema)))
    assert module.startswith(_HEADER + "\n"), "datamodel-code-generator's output starts with the given header"
    return f"# {header}" + module[len(_HEADER):]


def run_datamodel_codegen(file_header: str, schema: str) -> str:
    import json

    from datamodel_code_generator import DataModelType, InputFileType, generate

    options = dict(ENVELOPE_OPTIONS)
    source = generate(
        json.loads(schema),
        input_file_type=InputFileType(options.pop("input_file_type")),
        output_model_type=DataModelType(options.pop("output_model_type")),
        custom_file_header=file_header,
        **options,
    )
    assert isinstance(source, str)
    return source


@cache
def black_key() -> tuple[str, str]:
    return toolcache.tool_version("black"), f"line_length={LINE_LENGTH};target_versions={','.join(BLACK_TARGETS)}"


def format_python(source: str) -> str:
    """black's output for `source`, from the cache when black has formatted this text before."""
    return toolcache.cached("black", toolcache.key(*black_key(), source), lambda: run_black(source))


def run_black(source: str) -> str:
    import black

    # An explicit mode: black must not read [tool.black] from whatever pyproject.toml is nearby.
    mode = black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion[v] for v in BLACK_TARGETS})
    return black.format_str(source, mode=mode)


def conformance_command(sdk_dir: Path, vectors: Path, mode: str) -> tuple[list[str], Path, str]:
    """The runner of the SDK built in `sdk_dir` (the python/ folder): argv, working folder, tool."""
    packages = sorted(p.name for p in sdk_dir.iterdir() if (p / "_conformance.py").is_file()) if sdk_dir.is_dir() else []
    package = packages[0] if packages else "_missing_"
    return [sys.executable, "-m", f"{package}._conformance", mode, str(vectors)], sdk_dir, "python3"
