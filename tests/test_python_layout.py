"""The Python SDK's enums.py and _new_error.py skip black (a large registry would pay black on every
edit), so their layout must be black's own: black changes nothing in it, for real catalogues and for names and
values at every length around the line limit."""

from __future__ import annotations

import itertools
from pathlib import Path

import black
import pytest

from bench import synth
from conftest import REGISTRY, ROOT, load_registry
from errgen.languages.python import naming
from errgen.languages.python import target

MODE = black.Mode(line_length=naming.LINE_LENGTH, target_versions={black.TargetVersion[v] for v in target.BLACK_TARGETS})
CATALOGUES = sorted((ROOT / "tests" / "fixtures" / "realworld").glob("*.yaml")) + [ROOT / "examples" / "payments-api.yaml", REGISTRY]
ALPHABET = "aZ0_-.:#/"  # every kind of character a code may hold


def enums_py(registry_path: Path, name: str = "enums.py") -> str:
    files = target.render(load_registry(registry_path))
    return next(text for rel, text in files.items() if rel.endswith(f"/{name}"))


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.stem)
def test_black_changes_nothing_in_a_catalogues_enums(path: Path) -> None:
    for name in ("enums.py", "_new_error.py"):
        text = enums_py(path, name)
        assert black.format_str(text, mode=MODE) == text, name


def test_black_changes_nothing_in_the_enums_of_long_names(tmp_path: Path) -> None:
    """Codes of every length up to 128 characters (the limit), so every layout occurs: one line,
    the value wrapped in parentheses, one line too long to fix."""
    text = synth.registry_text(128)
    for i in range(128):
        name = (f"c{i}_" + "x" * 128)[: i + 1] if i > 4 else f"c{i}{ALPHABET}"
        text = text.replace(f"  CODE_{i:06d}:", f'  "{name}":', 1)
    path = tmp_path / "long.yaml"
    path.write_text(text)
    enums = enums_py(path)
    assert "= (\n" in enums and any(len(line) > naming.LINE_LENGTH for line in enums.splitlines())
    assert black.format_str(enums, mode=MODE) == enums
    typed = enums_py(path, "_new_error.py")
    assert black.format_str(typed, mode=MODE) == typed


@pytest.mark.parametrize("length", range(70, 110))
def test_a_one_code_literal_is_blacks_layout(length: int) -> None:
    member = "Code." + ("X" * length)
    source = "if TYPE_CHECKING:\n" + naming.literal_alias("_Codes1", [member]) + "\n"
    assert black.format_str(source, mode=MODE) == source


@pytest.mark.parametrize("name_length, value_length", list(itertools.product([1, 20, 60, 84, 85, 86, 95, 96, 97, 128], range(60, 100))))
def test_assignment_is_blacks_layout(name_length: int, value_length: int) -> None:
    name = ("A_B" * 50)[:name_length].strip("_") or "A"
    value = (ALPHABET * 20)[:value_length]
    source = "class C:\n" + naming.assignment(name, naming.string_literal(value)) + "\n"
    assert black.format_str(source, mode=MODE) == source
