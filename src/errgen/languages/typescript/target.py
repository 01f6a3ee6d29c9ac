"""TypeScript SDK: the runtime (errgen/languages/typescript/runtime, copied as is) plus the contract's data
rendered from the view: literal unions and policy (contract.ts), the payload union type, the
recovery table, package.json and a strict tsconfig.json. No runtime dependencies."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from errgen.contract import PROBLEM_MEMBERS, ContractView, FieldSpec, view
from errgen.registry.model import Registry
from errgen.languages.typescript import naming
from errgen.emit.render import render as render_template
from errgen.resources import runtime_sources

NAME = "typescript"
LABEL = "TypeScript"
SUMMARY = "typescript/: npm package <name>-errors (types, isErrorPayload, RECOVERY_TABLE, runtime, conformance runner), no dependencies"
TEMPLATES = ("index.ts", "contract.ts", "recovery.ts", "payload.ts")
# The compiler the package's devDependencies pin, and the one errgen compiles the runner with.
TYPESCRIPT = "5.9.3"


def render(registry: Registry) -> dict[str, str]:
    contract = view(registry)
    context: dict[str, Any] = {"view": contract, "header": contract.header, "typescript": TYPESCRIPT, "unions": unions(contract),
                               "problem_members": PROBLEM_MEMBERS, "version": naming.version(contract.version),
                               "fields": fields(contract), "w": {f.name: naming.property_key(f.wire) for f in contract.fields}}
    wire = {f.name: f.wire for f in contract.fields}
    context["hint_unions"] = {r.code: " | ".join(naming.string_literal(wire[h]) for h in r.hints) or "never" for r in contract.codes}
    files = {f"typescript/src/{name}": render_template(NAME, f"{name}.jinja", **context) for name in TEMPLATES}
    for name, source in runtime_sources(NAME).items():
        files[f"typescript/src/{name}"] = f"// {contract.header}\n{source}"
    files["typescript/package.json"] = render_template(NAME, "package.json.jinja", **context)
    files["typescript/tsconfig.json"] = render_template(NAME, "tsconfig.json.jinja", **context)
    return files


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


def unions(contract: ContractView) -> list[dict[str, Any]]:
    """Each vocabulary as an `as const` array and its literal union type."""
    def union(const: str, type_: str, doc: str, values: tuple[str, ...]) -> dict[str, Any]:
        return {"const": const, "type": type_, "doc": doc, "members": values}

    return [
        union("CODES", "Code", "Stable error codes, in registry order. Branch on these, never on message text.", contract.code_names),
        union("CATEGORIES", "Category", "Classes of failure; one recovery policy per category.", contract.category_names),
        union("SCOPES", "Scope", "What failed: this request, one resource, or the whole service.", contract.scopes),
        union("ACTIONS", "Action", "What a caller does about a failure.", contract.actions),
        union("HINT_FIELDS", "HintField", "Optional payload fields that help the caller build its next call.", contract.hints),
        union("STATES", "State", "Whether anything was read or written before the failure.", contract.states),
        union("REASONS", "Reason", "Which rule decided a Decision.", contract.reasons),
        union("PARSED", "Parsed", "The tolerant reading of a raw payload.", contract.parsed),
    ]


def conformance_command(sdk_dir: Path, vectors: Path, mode: str) -> tuple[list[str], Path, str]:
    """`node conformance.js`: the package's own build (dist/, after npm install in the SDK folder)
    if there is one, else the one `conformance_prepare` compiled into errgen's cache."""
    built = sdk_dir / "dist" / "conformance.js"
    runner = built if built.is_file() else _compiled(sdk_dir) / "conformance.js"
    return ["node", str(runner), mode, str(vectors)], sdk_dir, "node"


def conformance_prepare(sdk_dir: Path) -> str | None:
    """Compile the SDK's own sources (its tsconfig, strict) into errgen's cache with the pinned TypeScript,
    which npm installs there once; nothing is written in the SDK folder. None when the runner is
    ready, else why it cannot be (what to install)."""
    from errgen.emit import toolcache

    if (sdk_dir / "dist" / "conformance.js").is_file() or (_compiled(sdk_dir) / "conformance.js").is_file():
        return None
    node = shutil.which("node")
    if node is None:
        return "needs node"
    try:
        tsc = _typescript(toolcache.folder())
        if isinstance(tsc, str):
            return tsc
        _publish(_compiled(sdk_dir), lambda out: _run([node, str(tsc), "-p", str(sdk_dir / "tsconfig.json"), "--outDir", str(out),
                                                       "--declaration", "false"], "tsc"))
    except (OSError, _Failed) as exc:
        return f"could not compile the runner: {exc}"
    return None


class _Failed(Exception):
    pass


def _compiled(sdk_dir: Path) -> Path:
    """The cache folder of this SDK's compiled sources: keyed by the compiler and every input."""
    from errgen.emit import toolcache

    parts = [TYPESCRIPT]
    for path in [sdk_dir / "tsconfig.json", *sorted((sdk_dir / "src").glob("*.ts"))]:
        try:
            parts += [path.name, path.read_text(encoding="utf-8", errors="surrogateescape")]
        except OSError:
            parts += [path.name, ""]
    return toolcache.folder() / "typescript-runner" / toolcache.key(*parts)


def _typescript(cache: Path) -> Path | str:
    """tsc of the pinned TypeScript in the cache, installed by npm (no scripts run) the first time."""
    home = cache / "node" / f"typescript-{TYPESCRIPT}"
    tsc = home / "node_modules" / "typescript" / "bin" / "tsc"
    if tsc.is_file():
        return tsc
    npm = shutil.which("npm")
    if npm is None:
        return f"needs npm (to install typescript {TYPESCRIPT} in {cache}) or the package built: npm install in the SDK folder"
    _publish(home, lambda tmp: _run([npm, "install", "--prefix", str(tmp), "--no-save", "--no-audit", "--no-fund", "--ignore-scripts",
                                     "--loglevel=error", f"typescript@{TYPESCRIPT}"], f"npm install typescript@{TYPESCRIPT}"))
    return tsc


def _publish(final: Path, make: Any) -> None:
    """`make(folder)` in a private folder beside `final`, then renamed into place whole: a killed
    run leaves no half entry, and a racing run's entry is kept (either is the same)."""
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.", dir=final.parent))
    try:
        make(tmp)
        try:
            os.rename(tmp, final)
        except OSError:
            if not final.is_dir():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run(argv: list[str], what: str) -> None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise _Failed(f"{what} timed out") from None
    if done.returncode != 0:
        tail = " ".join((done.stdout + done.stderr).strip().splitlines()[-3:])
        raise _Failed(f"{what} failed (exit {done.returncode}): {tail}")


def code_snippets(contract: ContractView) -> dict[str, str]:
    """For the site's code pages: each code as a caller branches on it with this SDK (a literal
    of the `Code` union)."""
    return {code: f"if (payload.code === {naming.string_literal(code)}) {{\n  // ...\n}}" for code in contract.code_names}
