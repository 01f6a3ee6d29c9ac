"""Java SDK: a Maven project (Java 17, Jackson) with enums, records, the recovery table as data,
the runtime and a conformance runner.

The runtime is real Java under errgen/languages/java/runtime, copied with only its package line changed;
the templates hold data (enum constants, contract.json, pom.xml). Every file is already laid out as
google-java-format 1.28.0 lays it out, so a build needs no JDK; the tests prove it with the tool.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from errgen.contract import ContractView, Vocabulary, view
from errgen.emit.errors import BuildError
from errgen.registry.model import Registry
from errgen.languages.java import naming
from errgen.languages.packaging import EXAMPLE_RESOURCE_ID, example_code, license_notice, license_page, readme_licence
from errgen.emit.render import json_lines
from errgen.emit.render import render as render_template
from errgen.render_text import md_inline as md

NAME = "java"
LABEL = "Java"
SUMMARY = "java/: Maven project <group>:<name>-errors (enums, records, RecoveryTable, runtime; Jackson, Java 17)"
RUNTIME = Path(__file__).resolve().parent / "runtime"
RUNTIME_PACKAGE = "package errgen.runtime;"
RUNNER = "ConformanceRunner"
# The runner reads conformance/responses.json too (docs/conformance.md, "Reading a real response").
READS_RESPONSES = True
# Pinned so a build of the same registry is the same project; each is served by Maven Central.
VERSIONS = {
    "jackson": "2.21.3", "junit": "5.14.4", "compiler": "3.14.0", "surefire": "3.5.4", "resources": "3.3.1",
    "jar": "3.4.2", "dependency": "3.8.1", "source": "3.4.0", "javadoc": "3.12.0",
}
# Past this many codes `Code` is a class with an enum's surface (code_class_sources): javac refuses
# an enum of about 3,400 constants (its static initialiser passes 64 KiB) and a class file's
# constant pool cannot hold 20,000 enum constants at all.
ENUM_LIMIT = 2_500
PART_SIZE = 2_000
# The vocabularies whose Java name differs from the view's: the runtime has its own `Parsed`
# (the tolerant reading) and `Problem` (an id with its message).
TYPE_NAMES = {"Parsed": "Verdict", "Problem": "ProblemId"}


def type_name(name: str) -> str:
    return TYPE_NAMES.get(name, name)


def render(registry: Registry) -> dict[str, str]:
    try:
        return _render(view(registry))
    except naming.JavaNameError as exc:
        raise BuildError(f"target java: {exc}") from None


def _render(v: ContractView) -> dict[str, str]:
    package = naming.package_name(v.packages[NAME]["package"])
    src = f"java/src/main/java/{naming.package_path(package)}"
    files = {"java/pom.xml": pom(v, package), "java/README.md": readme(v, package)}
    if (notice := license_notice(v)) is not None:
        files["java/LICENSE"] = notice
    for vocabulary in v.vocabularies:
        if vocabulary.name == "Code" and len(vocabulary.values) > ENUM_LIMIT:
            files.update(code_class_sources(v, package, src, vocabulary.values))
        else:
            files[f"{src}/{type_name(vocabulary.name)}.java"] = enum_source(v, package, vocabulary)
    files[f"{src}/ErrorPayload.java"] = payload_source(v, package)
    for kind, folder in (("main", src), ("test", f"java/src/test/java/{naming.package_path(package)}")):
        for path in sorted((RUNTIME / kind).glob("*.java")):
            files[f"{folder}/{path.name}"] = runtime_source(path, package, v.header)
    files.update(category_exception_sources(v, package, src))
    files[f"java/src/main/resources/{naming.package_path(package)}/contract.json"] = contract_json(v)
    return files


def enum_source(v: ContractView, package: str, vocabulary: Vocabulary) -> str:
    name, values = type_name(vocabulary.name), vocabulary.values
    names = naming.constant_names(values, _view_words(v))
    constants = [line for wire in values for line in naming.enum_constant_lines(names[wire], wire, last=False)]
    constants.append("  /** A value this version of the SDK does not know; the payload keeps its string. */")
    constants += naming.enum_constant_lines(naming.UNKNOWN_CONSTANT, None, last=True)
    return render_template(NAME, "Enum.java.jinja", header=v.header, package=package, name=name,
                           summary=vocabulary.doc, constants=constants)


# What the builder fills each required field with: the registry's row for the code (a service
# cannot send a contradictory category), the scope given or the code's default, the id given.
# The optional fields are the caller's, whatever the view lists.
BUILT_FROM_ENTRY = {
    "code": "entry.code()", "category": "entry.category()", "retryable": "entry.retryable()",
    "scope": "scope == null ? entry.scope() : scope", "correlation_id": "correlationId",
}


@dataclasses.dataclass(frozen=True)
class JavaField:
    """A payload field as ErrorPayload.java declares, reads and builds it."""

    name: str  # canonical, as the conformance vectors name it
    member: str  # the record component, accessor and builder setter
    type: str  # the component's type (a primitive when required)
    required: bool
    doc: str  # Javadoc text
    read: str  # the Java value of a JSON value `{0}` the envelope accepted (null when absent)
    given: str  # the builder setter's parameter type
    kept: str  # what the builder keeps of the setter's `value`
    built: str  # the record's argument in Builder.build()

    @property
    def boxed(self) -> str:
        return {"boolean": "Boolean", "long": "Long"}.get(self.type, self.type)

    @property
    def optional(self) -> str:
        """The name of the accessor that says whether the field is present."""
        return "optional" + self.member[:1].upper() + self.member[1:]

    def reading(self, node: str) -> str:
        return self.read.format(node)


def java_fields(v: ContractView) -> list[JavaField]:
    """The view's payload fields, in wire order, with their Java types and conversions."""
    enums = {vocabulary.values: type_name(vocabulary.name) for vocabulary in v.vocabularies}
    out = []
    for f in v.fields:
        member = naming.member_name(f.name)
        plain, read, given, kept = _java_type(f.type, enums.get(f.values, "String"), f.required)
        built = BUILT_FROM_ENTRY.get(f.name) if f.required else member
        if built is None:
            raise BuildError(f"target java: the builder cannot fill the required payload field {f.name!r}")
        out.append(JavaField(f.name, member, plain, f.required, naming.javadoc_text(f.description), read, given, kept, built))
    return out


def _java_type(kind: str, enum: str, required: bool) -> tuple[str, str, str, str]:
    """(component type, reading of JSON `{0}`, setter parameter type, kept value) of a field type."""
    if kind in ("boolean", "integer"):
        primitive, read = ("boolean", "{0}.booleanValue()") if kind == "boolean" else ("long", "Verdicts.longValue({0})")
        boxed = "Boolean" if kind == "boolean" else "Long"
        return (primitive, read, primitive, "value") if required else (boxed, "{0} == null ? null : " + read, primitive, "value")
    if kind == "enum" and enum != "String":
        read = f"{enum}.fromWire(text({{0}}))" if required else f"{{0}} == null ? null : {enum}.fromWire({{0}}.textValue())"
        return enum, read, enum, "value"
    if kind == "string_list":
        return "List<String>", "strings({0})", "List<String>", "List.copyOf(value)"
    if kind == "scalar_map":
        return "Map<String, Object>", "scalars({0})", "Map<String, ?>", "new LinkedHashMap<>(value)"
    return "String", "text({0})", "String", "value"  # a string, or an enum without a vocabulary of its own


def payload_source(v: ContractView, package: str) -> str:
    """ErrorPayload.java: the record, its reading, writing and builder, one member per field of
    the view (a new optional field needs no edit here)."""
    fields = java_fields(v)
    params = [line for f in fields for line in naming.filled(f"@param {f.member} {f.doc}", " * ", " *     ")]
    return render_template(NAME, "ErrorPayload.java.jinja", header=v.header, package=package, fields=fields,
                           params=params, naming=naming)


# java.lang's exceptions (Java 17 to 25): a class of the package with one of these names would hide
# it from every file of the package (a category `runtime_error` made `RuntimeException`, and
# `ServiceException extends RuntimeException` a cycle), and make it ambiguous for a user's
# `import com.acme.errors.*`.
JAVA_LANG_EXCEPTIONS = frozenset(f"{name}Exception" for name in (
    "", "Arithmetic", "ArrayIndexOutOfBounds", "ArrayStore", "ClassCast", "ClassNotFound", "CloneNotSupported",
    "EnumConstantNotPresent", "IllegalAccess", "IllegalArgument", "IllegalCaller", "IllegalMonitorState", "IllegalState",
    "IllegalThreadState", "IndexOutOfBounds", "Instantiation", "Interrupted", "LayerInstantiation", "Match",
    "NegativeArraySize", "NoSuchField", "NoSuchMethod", "NullPointer", "NumberFormat", "ReflectiveOperation", "Runtime",
    "Security", "StringIndexOutOfBounds", "TypeNotPresent", "UnsupportedOperation", "WrongThread"))


def category_exception_sources(v: ContractView, package: str, src: str) -> dict[str, str]:
    """An `ErrorPayloadException` subclass per category (issue 26: catch by category), and the
    factory `ErrorPayloadException.of` and every response helper use to pick one: the payload's
    category, else the category the registry gives the HTTP status (`v.status_categories`: a bare
    429 is a `RateLimitException`, as in stripe-java), else the base class."""
    runtime_classes = {path.stem for kind in ("main", "test") for path in (RUNTIME / kind).glob("*.java")}
    taken = (runtime_classes | {"ErrorPayload"} | {type_name(vocabulary.name) for vocabulary in v.vocabularies}
             | {"CodeClass", "CategoryExceptions"} | JAVA_LANG_EXCEPTIONS)
    names = naming.exception_names(((c.name, c.words or None) for c in v.categories), taken)
    constants = naming.constant_names(v.category_names, _view_words(v))
    files = {}
    rules: list[str] = []
    bare: list[str] = []
    for category in v.category_names:
        name = names[category]
        files[f"{src}/{name}.java"] = render_template(
            NAME, "CategoryException.java.jinja", header=v.header, package=package, name=name,
            category=naming.wrapped_assignment("  public static final Category CATEGORY = ", f"Category.{constants[category]};", 2),
            bare=_constructor_lines(name, "HttpReading reading, HttpHeaders headers, List<Problem> problems"))
        rules += naming.switch_rule_lines(constants[category], f"new {name}(payload, cause, reading, headers)", 6)
        bare += naming.switch_rule_lines(constants[category], f"new {name}(reading, headers, problems)", 6)
    statuses = [line for status, category in v.status_categories
                for line in naming.switch_rule_lines(str(status), f"Category.{constants[category]}", 6)]
    files[f"{src}/CategoryExceptions.java"] = render_template(
        NAME, "CategoryExceptions.java.jinja", header=v.header, package=package, rules=rules, bare=bare,
        statuses=statuses)
    return files


def _constructor_lines(name: str, parameters: str) -> list[str]:
    """`  public NAME(PARAMETERS) {` as google-java-format lays it out: one line, else the
    parameters on the next line."""
    line = f"  public {name}({parameters}) {{"
    return [line] if len(line) <= naming.COLUMN_LIMIT else [f"  public {name}(", f"      {parameters}) {{"]


def code_class_sources(v: ContractView, package: str, src: str, values: tuple[str, ...]) -> dict[str, str]:
    """`Code` for a registry past ENUM_LIMIT codes: a class with an enum's surface, its constants
    declared PART_SIZE at a time in `CodePartN` interfaces that `Code` implements (a class file
    holds about 3,400 enum constants; each part's initialiser stays far below the JVM's limits)."""
    names = naming.constant_names(values, _view_words(v))
    parts = [values[i:i + PART_SIZE] for i in range(0, len(values), PART_SIZE)]
    files = {}
    for number, part in enumerate(parts):
        start = number * PART_SIZE
        constants = [line for offset, wire in enumerate(part)
                     for line in naming.code_field_lines(names[wire], start + offset, wire)]
        files[f"{src}/CodePart{number}.java"] = render_template(
            NAME, "CodePart.java.jinja", header=v.header, package=package, name=f"CodePart{number}",
            first=start, last=start + len(part) - 1, constants=constants)
    supertypes = ["Wire", "Comparable<Code>", *(f"CodePart{n}" for n in range(len(parts)))]
    firsts = [f"CodePart{n}.{names[part[0]]}" for n, part in enumerate(parts)]
    files[f"{src}/Code.java"] = render_template(
        NAME, "CodeClass.java.jinja", header=v.header, package=package, count=len(values),
        declaration=naming.wrapped("public final class Code implements ", supertypes, " {", 0, "    implements "),
        firsts=naming.wrapped("    static final List<Object> PARTS = List.of(", firsts, ");", 4))
    return files


def code_snippets(v: ContractView) -> dict[str, str]:
    """For the site's code pages: each code as a caller branches on it with this SDK."""
    package = naming.package_name(v.packages[NAME]["package"])
    names = naming.constant_names(v.code_names, _view_words(v))
    return {code: f"import {package}.Code;\n\nif (payload.code() == Code.{names[code]}) {{\n  // ...\n}}" for code in v.code_names}


def _view_words(v: ContractView) -> dict[str, tuple[str, ...]]:
    """The words the contract view names codes and categories after, where it has them (a registry
    may give a code an `identifier`); otherwise each name's own words."""
    rows = [*v.codes, *v.categories]
    return {getattr(r, "code", None) or getattr(r, "name"): words for r in rows if (words := getattr(r, "words", None))}


def runtime_source(path: Path, package: str, header: str) -> str:
    """A runtime file as shipped: the header, then the SDK's package instead of the placeholder."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith(RUNTIME_PACKAGE + "\n"), path
    return f"// {header}\npackage {package};\n" + text[len(RUNTIME_PACKAGE) + 1:]


def pom(v: ContractView, package: str) -> str:
    """The pom: coordinates, the metadata a repository such as Maven Central asks for (name,
    description, url, licences, developers, scm), and the build. Registry text is XML text here."""
    p = v.packages[NAME]
    meta = v.about
    return render_template(
        NAME, "pom.xml.jinja", header=escape(v.header.replace("--", "- -")), package=package,
        group=naming.coordinate("group", p["group"]), artifact=naming.coordinate("artifact", p["artifact"]),
        version=naming.coordinate("version", v.version), versions=VERSIONS, registry=xml_text(v.name),
        description=xml_text(meta.description), url=xml_text(meta.homepage or meta.repository or ""),
        license=xml_text(meta.license or ""), license_url=xml_text(license_page(meta.license) or ""),
        repository=xml_text(meta.repository or ""), scm=xml_text(scm_connection(meta.repository)),
    )


def xml_text(value: str) -> str:
    """`value` as XML 1.0 character data on one line: markup escaped, and each character XML
    cannot hold (a C0 control, a lone surrogate, U+FFFE, U+FFFF) shown as U+FFFD."""
    return escape("".join(map(_xml_char, " ".join(value.split()))))


def _xml_char(c: str) -> str:
    allowed = c >= " " and not "\ud800" <= c <= "\udfff" and c not in "\ufffe\uffff"
    return c if allowed else "\ufffd"


def scm_connection(repository: str | None) -> str:
    """Maven's scm connection for a git repository URL ("" without one)."""
    if not repository:
        return ""
    return "scm:git:" + (repository if repository.endswith(".git") else repository.rstrip("/") + ".git")


def readme(v: ContractView, package: str) -> str:
    """java/README.md: what the package is, how to install it, and a short example that compiles,
    with this registry's names. No version: it lives in pom.xml only."""
    p = v.packages[NAME]
    meta = v.about
    names = naming.constant_names(v.code_names, _view_words(v))
    shown = example_code(v)
    fields = f', b -> b.resourceId("{EXAMPLE_RESOURCE_ID}")' if shown is not None and shown.scope == "resource" else ""
    return render_template(
        NAME, "README.md.jinja", header=v.header.replace("--", "- -"), registry=md(v.name), description=md(meta.description), group=p["group"],
        artifact=p["artifact"], package=package, code=names[shown.code] if shown else None, fields=fields,
        licence=readme_licence(v, "package"), repository=meta.repository, homepage=meta.homepage,
    )


def contract_json(v: ContractView) -> str:
    """Everything the runtime reads: policy, the envelope (its key, and whether it holds an array of
    entries: `errors[*]`), fields with wire names, categories, the table, the
    recovery rule for codes the SDK does not know, what a timed action becomes when attempts run
    out, and where a real response carries each fact (the view's `response`, read by
    `Errors.readHttp` and written by `Errors.toHttp`)."""
    data: dict[str, Any] = {
        "$comment": v.header,
        "registry": v.name,
        "policy": dataclasses.asdict(v.policy),
        "envelope": v.envelope,
        "envelope_array": v.envelope_array,
        "fields": [
            {"name": f.name, "wire": f.wire, "type": f.type, "required": f.required, "values": list(f.values),
             "hint": f.hint, "minimum": f.minimum, "maximum": f.maximum, "max_items": f.max_items}
            for f in v.fields
        ],
        "categories": [{"name": c.name, "retryable": c.retryable, "action": c.action} for c in v.categories],
        "codes": [c.as_dict() for c in v.codes],
        "fallback_actions": {scope: {json.dumps(r): a for r, a in by.items()} for scope, by in v.fallback_actions.items()},
        "exhausted": dict(v.exhausted),
        "response": v.response,
    }
    return json_lines(data, depth=2) + "\n"


def conformance_command(sdk_dir: Path, vectors: Path, mode: str) -> tuple[list[str], Path, str]:
    """Compile once with Maven (offline once the dependencies are cached; again only when a source
    is newer than the last compile), then run the runner on the JVM directly: about 1.2 s a run
    where `mvn test` takes 14 s. Maven builds in errgen's verified cache (java/), never inside
    sdk_dir, unless that cache cannot be used (then in sdk_dir/target, hidden by OUT's .gitignore).
    Without Maven or Java the command starts with the missing tool's name, so `errgen conformance`
    reports it as skipped."""
    for tool in ("mvn", "java"):
        if shutil.which(tool) is None:
            return [tool], Path(sdk_dir), tool
    package = _package_of(sdk_dir)
    build = build_directory(sdk_dir)
    compile_ = runner_build('"$B"')
    script = (
        'B="$3"; if [ ! -f "$B/classpath.txt" ] || [ -n "$(find pom.xml src -newer "$B/classpath.txt" -print -quit)" ]; then '
        f"{{ {compile_} -o || {compile_}; }} >&2 || exit 2; fi; "
        'exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$B/classes:$(cat "$B/classpath.txt")" "$0" "$1" "$2"'
    )
    argv = ["sh", "-c", script, f"{package}.{RUNNER}", mode, str(Path(vectors).resolve()), str(build)]
    return argv, Path(sdk_dir), "mvn"


def runner_build(build: str) -> str:
    """The Maven command (shell text; `build` is the quoted build folder) that compiles the
    sources and the tests under the pom's javac -Xlint:all -Werror, packages them without running
    the tests and writes the runner's classpath: the strict check runs it too, so a runner run
    after the strict check starts the JVM at once instead of running Maven a second time."""
    return (f'mvn -q -B -DskipTests -Derrgen.build.directory={build} package dependency:build-classpath '
            f'-Dmdep.outputFile={build}/classpath.txt')


def build_directory(sdk_dir: Path) -> Path:
    """Where Maven builds an SDK for the runner: one folder per SDK folder, outside it, in a
    cache only this user can write (the runner runs what is there)."""
    from errgen.emit import toolcache

    digest = hashlib.sha256(str(Path(sdk_dir).resolve()).encode()).hexdigest()[:16]
    private = toolcache.private_folder("java")
    return private / digest if private else Path(sdk_dir) / "target"


def _package_of(sdk_dir: Path) -> str:
    """The Java package of a built SDK, from its runner's package line ("" when not built: the
    command then fails with the runner's missing class, and errgen conformance says so)."""
    for path in sorted(Path(sdk_dir).glob(f"src/main/java/**/{RUNNER}.java")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("package "):
                return line.removeprefix("package ").rstrip(";").strip()
    return ""
