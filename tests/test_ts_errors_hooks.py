"""Issue 40 for TypeScript: the error classes per category are named after the registry's
categories. (The strict consumer of the classes, the axios reading and the retry hooks is
test_ts_sdk_api.py's hooks.ts, compiled with the other consumers of the SDK in one tsc run.)"""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, build_to


def test_the_category_classes_follow_the_registry(tmp_path: Path) -> None:
    """Stripe's categories end in `_error`: the classes do not double it."""
    build_to(ROOT / "examples" / "apis" / "stripe.yaml", tmp_path / "out", "typescript")
    errors = (tmp_path / "out" / "typescript" / "src" / "errors.ts").read_text()
    for category, name in [("card_error", "CardError"), ("invalid_request_error", "InvalidRequestError"),
                           ("rate_limit_error", "RateLimitError")]:
        assert f'export const {name}: CategoryErrorClass<"{category}"> = categoryErrorClass("{category}");' in errors
    assert "ErrorError" not in errors
