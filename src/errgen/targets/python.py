"""Python SDK: enums, pydantic v2 model, recovery table, formatted with black.

Only the registry-independent envelope goes through datamodel-code-generator, so its cost does not
grow with the number of codes; per-code parts are rendered from templates.
"""

from __future__ import annotations

from functools import cache

from errgen import payload, table
from errgen.model import HINTS, Registry
from errgen.render import render as render_template

NAME = "python"
SUMMARY = "python/: installable package <name>_errors (enums, ErrorPayload, RECOVERY_TABLE, runtime)"
MODULES = ("__init__.py", "enums.py", "recovery.py", "_validate.py", "models.py", "runtime.py")
LINE_LENGTH = 100


def render(registry: Registry) -> dict[str, str]:
    header = payload.header(registry)
    context = {
        "registry": registry,
        "header": header,
        "package": registry.package,
        "hints": HINTS,
        "rows": table.rows(registry),
        "max_suggestions": payload.MAX_SUGGESTIONS,
        "backoff_base_ms": payload.BACKOFF_BASE_MS,
        "backoff_max_ms": payload.BACKOFF_MAX_MS,
    }
    base = f"python/{registry.package}"
    files = {f"{base}/{module}": format_python(render_template(NAME, f"{module}.jinja", **context)) for module in MODULES}
    files[f"{base}/_envelope.py"] = envelope_module(header)
    files[f"{base}/py.typed"] = ""
    files[f"{base}/_table.json"] = render_template(NAME, "_table.json.jinja", **context)
    files["python/pyproject.toml"] = render_template(NAME, "pyproject.toml.jinja", **context)
    return files


@cache
def envelope_module(header: str) -> str:
    from datamodel_code_generator import DataModelType, InputFileType, generate

    source = generate(
        payload.envelope_schema("ErrorPayloadEnvelope"),
        input_file_type=InputFileType.JsonSchema,
        output_model_type=DataModelType.PydanticV2BaseModel,
        disable_timestamp=True,
        formatters=[],
        strict_types=["str", "int", "bool", "float"],
        use_annotated=True,
        field_constraints=True,
        use_standard_collections=True,
        use_union_operator=True,
        use_schema_description=True,
        use_field_description=True,
        target_python_version="3.10",
        enum_field_as_literal="all",
        custom_file_header=f"# {header}\n# Field types of the payload envelope, by datamodel-code-generator.",
    )
    assert isinstance(source, str)
    return format_python(source)


def format_python(source: str) -> str:
    import black

    # An explicit mode: black must not read [tool.black] from whatever pyproject.toml is nearby.
    mode = black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion.PY310})
    return black.format_str(source, mode=mode)
