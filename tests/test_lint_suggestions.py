"""Suggestions in lint messages stay bounded on hostile registries without losing what a
person needs: a word asked about twice gets the same answer, a short list of choices is still
listed once fuzzy matching has spent its budget, and no message depends on the hash seed."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT
from errgen.registry.lint.base import Nearest
from test_lint_hostile import with_codes


def test_a_spent_budget_still_lists_a_short_list_of_choices() -> None:
    suggest = Nearest(["alpha", "beta"], budget=2)
    assert suggest("alpah") == "; did you mean 'alpha'?"
    assert suggest("zeta") == "; expected one of: alpha, beta"  # no fuzzy match left to make
    assert suggest("alpah") == "; did you mean 'alpha'?"  # asked before: answered from memory


def test_a_long_list_is_never_spelled_out() -> None:
    names = [f"name_{i}" for i in range(20)]
    assert Nearest(names, budget=0)("other") == ""


def test_unknown_category_messages_do_not_depend_on_the_hash_seed(tmp_path) -> None:
    categories = "".join(f"  cat_{c}: {{retryable: false, action: fix, description: x}}\n" for c in "qwertyuiop")
    path = tmp_path / "r.yaml"
    path.write_text(with_codes(3, category="zzz_{i}", categories=categories), encoding="utf-8")
    script = "import sys; from errgen.registry.lint import lint_path; from pathlib import Path; print([d.message for d in lint_path(Path(sys.argv[1])).diagnostics])"
    seen = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script, str(path)], env=env, capture_output=True, text=True, check=True)
        seen.add(done.stdout)
    assert len(seen) == 1
    assert "expected one of: " in seen.pop()
