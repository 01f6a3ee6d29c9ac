"""TypeScript SDK: the runtime (errgen/languages/typescript/runtime, copied as is) plus the contract's data
rendered from the view: literal unions and policy (contract.ts), the payload union type, the
recovery table, package.json and a strict tsconfig.json. No runtime dependencies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from errgen.contract import PROBLEM_MEMBERS, ContractView, FieldSpec, view
from errgen.registry.model import Registry
from errgen.languages.packaging import EXAMPLE_RESOURCE_ID, example_code, license_notice, readme_licence
from errgen.languages.typescript import naming
from errgen.emit.render import render as render_template
from errgen.resources import runtime_sources

NAME = "typescript"
LABEL = "TypeScript"
# Its runner checks conformance/responses.json (real responses, docs/conformance.md).
READS_RESPONSES = True
SUMMARY = "typescript/: npm package <name>-errors (types, isErrorPayload, RECOVERY_TABLE, runtime, conformance runner), no dependencies"
# The registry's data, rendered in each form: TypeScript (src/), and the JavaScript and declarations
# the package runs from (dist/), so that it installs with no build (issue 26 item 4).
DATA = ("index", "contract", "recovery", "errors")
JS_FORMS = ("cjs", "esm")
# The compiler the package's devDependencies pin (for `npm run typecheck`), and the one
# compile_runtime.py makes runtime_compiled/ with.
TYPESCRIPT = "5.9.3"
# runtime/ (the source) compiled to JavaScript and declarations, committed: README.md there says why.
RUNTIME_COMPILED = Path(__file__).resolve().parent / "runtime_compiled"
RUNNER = "conformance"  # run by node as CommonJS only: no ES module of it


def runtime_modules(form: str) -> list[str]:
    """The runtime's module names (file stems) in one form."""
    return [Path(name).stem for name in runtime_sources(NAME) if form == "cjs" or Path(name).stem != RUNNER]


def compiled_names() -> list[str]:
    """runtime_compiled/'s files: `<form>/<module>.js` per form, and `types/<module>.d.ts` (the
    declarations are the same in both forms)."""
    return [f"{form}/{stem}.js" for form in JS_FORMS for stem in runtime_modules(form)] + [
        f"types/{stem}.d.ts" for stem in runtime_modules("cjs")]


def compiled_runtime() -> dict[str, str]:
    """runtime_compiled/ as committed, by compiled_names()."""
    return {name: (RUNTIME_COMPILED / name).read_text(encoding="utf-8") for name in compiled_names()}


def _context(contract: ContractView) -> dict[str, Any]:
    context: dict[str, Any] = {"view": contract, "header": contract.header, "typescript": TYPESCRIPT, "unions": unions(contract),
                               "problem_members": PROBLEM_MEMBERS, "version": naming.version(contract.version),
                               "fields": fields(contract), "w": {f.name: naming.property_key(f.wire) for f in contract.fields},
                               "q": {f.name: naming.string_literal(f.wire) for f in contract.fields}}
    context["error_classes"] = naming.error_classes(list(contract.category_names))
    context["category_descriptions"] = {c.name: c.description for c in contract.categories}
    wire = {f.name: f.wire for f in contract.fields}
    context["hint_unions"] = {r.code: " | ".join(naming.string_literal(wire[h]) for h in r.hints) or "never" for r in contract.codes}
    return context


def _data(context: dict[str, Any], form: str) -> dict[str, str]:
    """The data modules in one form, by file name (payload holds types only)."""
    ext = {"ts": ".ts", "dts": ".d.ts"}.get(form, ".js")
    files = {f"{name}{ext}": render_template(NAME, f"{name}.ts.jinja", **context, form=form) for name in DATA}
    files[f"payload{ext}"] = render_template(NAME, "payload.js.jinja" if ext == ".js" else "payload.ts.jinja", **context, form=form)
    return files


def data_sources(registry: Registry) -> dict[str, str]:
    """The TypeScript data modules of a registry (what the runtime compiles against)."""
    return _data(_context(view(registry)), "ts")


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    context = _context(contract)
    files = {f"typescript/src/{name}": text for name, text in _data(context, "ts").items()}
    for name, source in runtime_sources(NAME).items():
        files[f"typescript/src/{name}"] = f"// {contract.header}\n{source}"
    compiled = compiled_runtime()
    for form in JS_FORMS:
        for part in ("js", "dts"):
            for name, text in _data(context, form if part == "js" else "dts").items():
                files[f"typescript/dist/{form}/{name}"] = text
        for stem in runtime_modules(form):
            files[f"typescript/dist/{form}/{stem}.js"] = f"// {contract.header}\n{compiled[f'{form}/{stem}.js']}"
            files[f"typescript/dist/{form}/{stem}.d.ts"] = f"// {contract.header}\n{compiled[f'types/{stem}.d.ts']}"
        # How node reads the .js files of this folder (the package's own package.json sets no type).
        marker = {"//": contract.header, "type": "commonjs" if form == "cjs" else "module"}
        files[f"typescript/dist/{form}/package.json"] = json.dumps(marker, indent=2, ensure_ascii=False) + "\n"
    publishing = {**context, **package_context(contract)}
    files["typescript/package.json"] = render_template(NAME, "package.json.jinja", **publishing)
    files["typescript/README.md"] = render_template(NAME, "README.md.jinja", **publishing)
    if (notice := license_notice(contract)) is not None:
        files["typescript/LICENSE"] = notice
    files["typescript/tsconfig.json"] = tsconfig(contract.header)
    return files


def tsconfig(header: str) -> str:
    """The package's strict tsconfig.json (compile_runtime.py compiles runtime/ under it too)."""
    return render_template(NAME, "tsconfig.json.jinja", header=header)


def package_context(contract: ContractView) -> dict[str, Any]:
    """What npm shows of the package: its README example, repository URL and Licence section."""
    repository = contract.about.repository
    return {"package": contract.packages[NAME]["package"], "example": readme_example(contract),
            "repository_url": git_url(repository) if repository else None, "licence": readme_licence(contract, "package"),
            "homepage_link": autolink(contract.about.homepage), "repository_link": autolink(repository)}


def git_url(url: str) -> str:
    """npm's normal form of a repository URL (what `npm pkg fix` writes): git+https://....git."""
    url = url.rstrip("/")
    return f"git+{url}" + ("" if url.endswith(".git") else ".git")


def autolink(url: str | None) -> str | None:
    """A Markdown autolink; lint's package-url rule allows no space, `>` is escaped here."""
    return None if url is None else "<" + url.replace(">", "%3E").replace("<", "%3C") + ">"


def readme_example(contract: ContractView) -> str:
    """About ten lines that compile against this registry's package: a code that needs no other
    field (or its resource id), thrown, sent, read back and retried."""
    row = example_code(contract)
    if row is None:
        return ""
    fields = ""
    if row.scope == "resource":
        key = naming.property_key(next(f.wire for f in contract.fields if f.name == "resource_id"))
        fields = f", {{ {key}: {naming.string_literal(EXAMPLE_RESOURCE_ID)} }}"
    package = contract.packages[NAME]["package"]
    # The class of the example code's category: what a caller's `instanceof` names.
    category = naming.error_classes(list(contract.category_names))[row.category]
    return "\n".join([
        f"import {{ {category}, ErrorPayloadError, newError, retry }} from {naming.string_literal(package)};",
        "",
        "// A service: throw the contract's error, and send it as HTTP (status, headers, JSON body).",
        f"const error = new ErrorPayloadError(newError({naming.string_literal(row.code)}, \"req-1\"{fields}));",
        "const { status, headers, body } = error.toHttp();",
        "",
        "// A client: the response back as that error; retry waits and calls again when the registry says so.",
        "const data = await retry(async () => {",
        "  const response = await fetch(\"https://api.example.com/items/1\");",
        "  if (response.ok) return response.text();",
        "  throw (await ErrorPayloadError.fromResponse(response)) ?? new Error(`HTTP ${response.status}`);",
        "}).catch((caught: unknown) => {",
        "  // One class per category of the registry, with the response's status and headers.",
        f"  if (caught instanceof {category}) console.log(caught.status, caught.code, caught.headers[\"retry-after\"], caught.decide().action);",
        "  throw caught;",
        "});",
    ])


# The fields the payload union pins per code (the rest come from Envelope and Hints).
PINNED = ("code", "category", "retryable", "scope", "retry_after_ms")


def fields(contract: ContractView) -> list[dict[str, Any]]:
    """Each payload field as a TypeScript property: key (by wire name), type, description."""
    return [{"key": naming.property_key(f.wire), "quoted": naming.string_literal(f.wire), "type": ts_type(f), "hint": f.hint,
             "required": f.required, "pinned": f.name in PINNED, "description": f.description} for f in contract.fields]


def ts_type(spec: FieldSpec) -> str:
    named = {"scope": "Scope", "state": "State"}
    if spec.type == "enum":
        return named.get(spec.name) or " | ".join(naming.string_literal(v) for v in spec.values)
    return {"string": "string", "boolean": "boolean", "integer": "number", "string_list": "string[]",
            "scalar_map": "{ [parameter: string]: string | number | boolean }"}[spec.type]


# The vocabularies whose TypeScript name differs from the view's (the runtime's own `Problem` is a
# problem tuple), and each union's constant where it is not the name in capitals, plural.
TYPE_NAMES = {"Hint": "HintField", "Problem": "ProblemId"}
CONSTANTS = {"Category": "CATEGORIES", "Hint": "HINT_FIELDS", "Parsed": "PARSED", "Problem": "PROBLEM_IDS"}


def unions(contract: ContractView) -> list[dict[str, Any]]:
    """Each vocabulary of the view as an `as const` array and its literal union type."""
    return [{"const": CONSTANTS.get(v.name, f"{v.name.upper()}S"), "type": TYPE_NAMES.get(v.name, v.name), "doc": v.doc,
             "members": v.values} for v in contract.vocabularies]


def conformance_command(sdk_dir: Path, vectors: Path, mode: str) -> tuple[list[str], Path, str]:
    """`node dist/cjs/conformance.js`: the runner ships compiled, so only node is needed."""
    return ["node", str(sdk_dir / "dist" / "cjs" / "conformance.js"), mode, str(vectors)], sdk_dir, "node"


def code_snippets(contract: ContractView) -> dict[str, str]:
    """For the site's code pages: each code as a caller branches on it with this SDK (a literal
    of the `Code` union)."""
    return {code: f"if (payload.code === {naming.string_literal(code)}) {{\n  // ...\n}}" for code in contract.code_names}
