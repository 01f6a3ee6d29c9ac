"""Every vocabulary of the contract view (issue 27 item 4) is declared by every registered
language's SDK, with exactly the view's values in the view's order: the SDKs render them from
`view.vocabularies`, so none can lack one (Go, Rust and Java had no `Hint`; Python and
TypeScript no problem ids)."""

from __future__ import annotations

import ast
import json
import re
from typing import Callable

import pytest

from conftest import REGISTRY, ROOT, load_registry
from errgen.contract import Vocabulary, view
from errgen.languages import all_languages, by_name

LITERAL = r'"(?:[^"\\\n]|\\.)*"'


def _python(files: dict[str, str], name: str) -> list[str]:
    text = next(t for p, t in files.items() if p.endswith("/enums.py"))
    block = re.search(rf"^class {name}\(_StrEnum\):\n(.*?)(?=^class |\Z)", text, re.M | re.S)
    return [ast.literal_eval(v) for v in re.findall(rf"^    \w+ = ({LITERAL})$", block.group(1), re.M)] if block else []


def _typescript(files: dict[str, str], name: str) -> list[str]:
    found = re.search(rf"export const (\w+) = \[(.*?)\] as const;\nexport type {name} = \(typeof \1\)\[number\];",
                      files["typescript/src/contract.ts"], re.S)
    return json.loads(f"[{found.group(2)}]") if found else []


def _go(files: dict[str, str], name: str) -> list[str]:
    text = "".join(t for p, t in sorted(files.items()) if p.endswith(".go") and p.count("/") == 1)
    # Typed constants (`ScopeRequest Scope = "request"`), or untyped ones named after it (`ProblemX = "x"`).
    return [json.loads(v) for v in re.findall(rf"^(?:\t\w+ {name}|const {name}\w+) = ({LITERAL})$", text, re.M)]


def _rust(files: dict[str, str], name: str) -> list[str]:
    text = files["rust/src/data.rs"]
    if name[0].islower():  # a module of &str constants
        block = re.search(rf"^pub mod {name} \{{\n(.*?)^\}}", text, re.M | re.S)
        return [json.loads(v) for v in re.findall(rf"= ({LITERAL});", block.group(1))] if block else []
    # Each enum's wire table (the recovery table for codes, the categories' table for categories).
    return [json.loads(v) for v in re.findall(rf"(?:code|category|value): {name}::\w+,\s+wire: ({LITERAL}),", text)]


def _java(files: dict[str, str], name: str) -> list[str]:
    text = next((t for p, t in files.items() if p.endswith(f"/{name}.java") and "/src/main/" in p), "")
    return [json.loads(v) for v in re.findall(rf"^  \w+\(({LITERAL})\)[,;]$", text, re.M)]


# How each language declares a vocabulary, read back from its rendered files. A language missing
# here fails the test: every registered language must be checked.
DECLARED: dict[str, Callable[[dict[str, str], str], list[str]]] = {
    "python": _python, "typescript": _typescript, "go": _go, "rust": _rust, "java": _java,
}
REGISTRIES = {"default": REGISTRY, "payments-api": ROOT / "examples" / "payments-api.yaml"}


@pytest.fixture(scope="module", params=sorted(REGISTRIES))
def registry(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return load_registry(REGISTRIES[request.param])


@pytest.mark.parametrize("language", [language.name for language in all_languages()])
def test_every_sdk_declares_every_vocabulary_with_its_values(language: str, registry) -> None:  # type: ignore[no-untyped-def]
    assert language in DECLARED, f"no check of how {language} declares a vocabulary: add one to DECLARED"
    target = by_name()[language].target()
    files = target.render(registry)
    names = getattr(target, "TYPE_NAMES", {})
    missing = {}
    for vocabulary in view(registry).vocabularies:
        declared = DECLARED[language](files, names.get(vocabulary.name, vocabulary.name))
        if declared != list(vocabulary.values):
            missing[vocabulary.name] = declared
    assert not missing, f"{language} lacks or misstates: {missing}"


def test_the_view_holds_every_vocabulary_once() -> None:
    v = view(load_registry())
    names = [vocabulary.name for vocabulary in v.vocabularies]
    assert names == ["Code", "Category", "Scope", "Action", "State", "Hint", "Reason", "Parsed", "Problem"]
    assert v.vocabulary["Code"].values == v.code_names and v.vocabulary["Category"].values == v.category_names
    assert all(isinstance(x, Vocabulary) and x.doc and len(x.doc) <= 90 for x in v.vocabularies)
    # Open: a reader keeps an unknown value (a newer server's); closed: the SDK produces them.
    assert {x.name for x in v.vocabularies if x.open} == {"Code", "Category", "Scope", "Action", "State"}
    # The payload's enum fields take their values from the vocabularies.
    assert v.field_map["scope"].values == v.scopes and v.field_map["state"].values == v.states


def test_the_json_tables_hold_each_code_as_the_view_serialises_it(registry) -> None:  # type: ignore[no-untyped-def]
    """One serialisation of a code (CodeRow.as_dict) for every JSON table: recovery.json and the
    Python and Java SDKs' tables (the Python table was positional, Java's had no `since`)."""
    from errgen.emit.targets import recovery

    rows = [row.as_dict() for row in view(registry).codes]
    assert {"since", "type_uri", "deprecated"} <= set(rows[0])
    python = by_name()["python"].target().render(registry)
    table = next(json.loads(text) for path, text in python.items() if path.endswith("/_table.json"))
    assert table["rows"] == rows
    java = by_name()["java"].target().render(registry)
    contract = next(json.loads(text) for path, text in java.items() if path.endswith("/contract.json"))
    assert contract["codes"] == rows
    assert json.loads(recovery.render(registry)["recovery.json"])["codes"] == rows
