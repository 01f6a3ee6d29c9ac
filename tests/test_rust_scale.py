"""The Rust crate at scale (issue 31 item 5): the recovery table's rows name one constant per
distinct scopes, actions and hints list instead of writing a slice in every row, which made
rustc's type check of the table superlinear (20,000 codes: 86 s of CPU, 3 GB; docs/performance.md)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bench import synth
from errgen import contract
from errgen.languages.rust import target as rust_target
from errgen.languages.rust.target import SharedSlices
from errgen.registry.lint import lint_text

RUSTFMT = shutil.which("rustfmt")


def synthetic_data(n_codes: int) -> tuple[str, contract.ContractView]:
    result = lint_text(synth.registry_text(n_codes))
    assert result.registry is not None
    return rust_target.render(result.registry)["rust/src/data.rs"], contract.view(result.registry)


def test_rows_name_one_constant_per_distinct_list() -> None:
    data, view = synthetic_data(300)
    table = data.split("pub static RECOVERY_TABLE: &[CodeEntry] = &[\n", 1)[1].split("\n];\n", 1)[0]
    assert "&[" not in table  # no slice literal left in any row
    declared = dict(re.findall(r"^const (\w+): &\[[^\]]+\] = (&\[.*?\]);$", data, flags=re.M | re.S))
    distinct = ({tuple(c.scopes) for c in view.codes}, {tuple(c.actions[s] for s in c.scopes) for c in view.codes},
                {tuple(c.hints) for c in view.codes})
    assert len(declared) == sum(len(kind) for kind in distinct) < 300 // 4
    named = re.findall(r"^        (?:scopes|actions|hints): (\w+),$", table, flags=re.M)
    assert len(named) == 3 * 300 and set(named) == set(declared)
    first = view.codes[0]
    row = table.split("    },\n", 1)[0]
    scopes = re.search(r"scopes: (\w+),", row)
    assert scopes and declared[scopes.group(1)] == "&[" + ", ".join(f"Scope::{s.title()}" for s in first.scopes) + "]"


def test_constants_are_named_after_their_words_else_numbered() -> None:
    shared = SharedSlices()
    word = lambda v: f"Scope::{v}"  # noqa: E731
    assert shared.name("SCOPES", "Scope", ["Resource", "Request"], word) == "SCOPES_RESOURCE_REQUEST"
    assert shared.name("SCOPES", "Scope", ["Resource", "Request"], word) == "SCOPES_RESOURCE_REQUEST"  # declared once
    assert shared.name("HINTS", "&str", [], repr) == "NO_HINTS"
    # Two lists whose words read the same, and a list too long to name: numbered, each distinct.
    assert shared.name("HINTS", "&str", ["did_you_mean"], lambda v: f'"{v}"') == "HINTS_DID_YOU_MEAN"
    assert shared.name("HINTS", "&str", ["did-you-mean"], lambda v: f'"{v}"') == "HINTS_1"
    assert shared.name("HINTS", "&str", ["didYouMean"], lambda v: f'"{v}"') == "HINTS_2"
    long = ["searched", "did_you_mean", "accepted", "state", "safe_to_replay"]
    assert shared.name("HINTS", "&str", long, lambda v: f'"{v}"') == "HINTS_3"
    assert shared.constants == [
        "const SCOPES_RESOURCE_REQUEST: &[Scope] = &[Scope::Resource, Scope::Request];",
        "const NO_HINTS: &[&str] = &[];",
        'const HINTS_DID_YOU_MEAN: &[&str] = &["did_you_mean"];',
        'const HINTS_1: &[&str] = &["did-you-mean"];',
        'const HINTS_2: &[&str] = &["didYouMean"];',
        'const HINTS_3: &[&str] = &[\n    "searched",\n    "did_you_mean",\n    "accepted",\n    "state",\n'
        '    "safe_to_replay",\n];',  # wider than rustfmt's array width: one item a line
    ]


def test_a_constant_too_wide_for_its_line_moves_its_list_after_the_equals_sign() -> None:
    shared = SharedSlices()
    name = shared.name("SCOPES", "Scope", ["Request", "Resource", "Service"], lambda v: f"Scope::{v}")
    assert shared.constants == [f"const {name}: &[Scope] =\n    &[Scope::Request, Scope::Resource, Scope::Service];"]


@pytest.mark.skipif(RUSTFMT is None, reason="needs rustfmt")
def test_the_synthetic_table_is_as_rustfmt_formats_it(tmp_path: Path) -> None:
    data, _ = synthetic_data(300)
    (tmp_path / "data.rs").write_text(data, encoding="utf-8")
    done = subprocess.run([RUSTFMT or "rustfmt", "--check", "--edition", "2021", str(tmp_path / "data.rs")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
