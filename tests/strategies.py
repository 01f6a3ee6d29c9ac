"""Hypothesis strategies for registries: valid ones, with hostile text and keyword names."""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import strategies as st

from errgen.identifiers import identity_key
from errgen.registry.model import HINTS, SCOPES
from errgen.leaks import LeakScanner

KEYWORD_CATEGORIES = [
    "class", "import", "default", "type", "from", "in", "none", "true", "false", "def", "return",
    "function", "var", "let", "const", "enum", "interface", "new", "this", "constructor",
    "prototype", "hasownproperty", "tostring", "value", "name", "self", "await", "async",
]
HOSTILE = ['"', "'", '"""', "'''", "*/", "/*", "${x}", "`", "``` ", "\n", "\u2028", "\u2029", "\\", "\\n",
           "</script>", "|", "#", "<!--", "-->", "{{ x }}", "{% raw %}", "😀", "\t", "% s", "{0}", "\r\n"]

segments = st.one_of(st.sampled_from(HOSTILE), st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=8))
_SCANNER = LeakScanner()
# A valid registry's text leaks nothing (errgen lint rejects that), however hostile it is otherwise.
descriptions = st.lists(segments, min_size=1, max_size=12).map("".join).filter(
    lambda s: s.strip() and len(s) <= 500 and not any(_SCANNER.scan(s))
)
code_names = st.from_regex(r"[A-Z][A-Z0-9]{0,6}(_[A-Z0-9]{1,5}){0,3}", fullmatch=True)
category_names = st.one_of(st.sampled_from(KEYWORD_CATEGORIES), st.from_regex(r"[a-z][a-z0-9]{0,6}(_[a-z0-9]{1,4}){0,2}", fullmatch=True))


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(identity_key(name), name)
    return list(seen.values())


@st.composite
def registries(draw: st.DrawFn, max_codes: int = 6) -> dict[str, Any]:
    cat_names = _unique(draw(st.lists(category_names, min_size=1, max_size=4)))
    categories: dict[str, Any] = {}
    for name in cat_names:
        retryable = draw(st.booleans())
        cat: dict[str, Any] = {"retryable": retryable, "description": draw(descriptions)}
        if not retryable and draw(st.booleans()):
            cat["action"] = draw(st.sampled_from(["fix", "escalate"]))
        categories[name] = cat
    codes: dict[str, Any] = {}
    for name in _unique(draw(st.lists(code_names, min_size=1, max_size=max_codes))):
        category = draw(st.sampled_from(cat_names))
        retryable = categories[category]["retryable"]
        scopes = draw(st.lists(st.sampled_from(SCOPES), min_size=1, max_size=3, unique=True))
        code: dict[str, Any] = {"category": category, "scope": scopes[0], "http_status": draw(st.integers(400, 599)),
                                "description": draw(descriptions), "since": "1.0.0"}
        if len(scopes) > 1 or draw(st.booleans()):
            code["scopes"] = scopes
        if draw(st.booleans()):
            code["retryable"] = retryable
        if retryable and draw(st.booleans()):
            code["retry_after_ms"] = draw(st.integers(0, 86_400_000))
        if not retryable and draw(st.booleans()):
            code["action"] = draw(st.sampled_from(["fix", "escalate"]))
        hints = draw(st.lists(st.sampled_from(HINTS), unique=True))
        if hints:
            code["hints"] = hints
        codes[name] = code
    used = {c["category"] for c in codes.values()}
    categories = {k: v for k, v in categories.items() if k in used}
    return {
        "errgen": 1, "name": "demo", "version": "1.0.0", "categories": categories, "codes": codes,
        "history": [{"version": "1.0.0", "date": "2026-01-10", "changes": [draw(descriptions)]}],
    }


def dump(registry: dict[str, Any]) -> str:
    return yaml.safe_dump(registry, allow_unicode=True, sort_keys=False, width=1_000_000)
