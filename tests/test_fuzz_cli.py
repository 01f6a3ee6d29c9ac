"""A mutation fuzzer through the CLI (in-process): registries for lint, payload files, HTTP
recordings and MCP results for validate. Fixed seed, bounded count: the same inputs every run,
well under a minute. Every run must end with exit 0, 1 or 2 and no traceback."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from conftest import FIXTURES, REGISTRY
from errgen.cli import main

SEED = 10
PAYLOAD = {"code": "RATE_LIMITED", "category": "rate_limit", "retryable": True, "scope": "service", "correlation_id": "c-1",
           "message": "slow down", "retry_after_ms": 1000}
TOKENS = ["{", "}", "[", "]", ":", ",", '"', "\\", "\n", "-", "? ", "!!bool ", "!!int ", "&a ", "*a", "<<: ", "0x" + "f" * 30,
          "9" * 30, "1e400", "NaN", "null", "true", "\u2028", "\x00", "²", "~", "'", "...", "---", "#", "  ", "\t"]


def mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(chars) + 1)
        action = rng.random()
        if action < 0.4:
            chars[at:at] = list(rng.choice(TOKENS))
        elif action < 0.7 and chars:
            del chars[at:at + rng.randint(1, 8)]
        elif chars:
            j = rng.randrange(len(chars))
            chars[at:at] = chars[j:j + rng.randint(1, 40)]  # duplicate a slice elsewhere
    return "".join(chars)


def structural(rng: random.Random) -> object:
    """A random JSON value of the shapes validate unwraps."""
    leaf = rng.choice([None, True, 5, -1, 1e300, "", "x" * rng.randint(0, 50), [], {}, "²", "Bearer " + "a" * 20])
    shape = rng.randrange(4)
    if shape == 0:
        return {**PAYLOAD, rng.choice(list(PAYLOAD) + ["extra"]): leaf}
    if shape == 1:
        return {"status": rng.choice([429, "429", None, [1], 1e300]), "headers": rng.choice([{}, [], {"Retry-After": leaf}, leaf]),
                "body": rng.choice([PAYLOAD, json.dumps(PAYLOAD), leaf])}
    if shape == 2:
        return {"isError": rng.choice([True, False, None]), "content": rng.choice([leaf, [leaf], [{"type": "text", "text": leaf}],
                [{"type": "text", "text": json.dumps(PAYLOAD)}]]), "structuredContent": rng.choice([None, leaf, PAYLOAD])}
    return [PAYLOAD, leaf]


def run(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (0, 1, 2), (args, result.output[-500:])
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))


def test_lint_survives_mutated_registries(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    sources = [REGISTRY.read_text(encoding="utf-8"), (FIXTURES / "valid-minimal.yaml").read_text(encoding="utf-8")]
    for i in range(150):
        path = tmp_path / f"r{i}.yaml"
        path.write_text(mutate(rng, rng.choice(sources)), encoding="utf-8")
        run(["lint", "--registry", str(path)])


def test_validate_survives_mutated_and_odd_payloads(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    for i in range(200):
        value = structural(rng)
        text = json.dumps(value)
        if rng.random() < 0.5:
            text = mutate(rng, text)
        name = tmp_path / f"p{i}{rng.choice(['.json', '.jsonl', '.log'])}"
        lines = text if name.suffix == ".json" else text + "\n" + json.dumps(PAYLOAD)  # JSON Lines: a good line after
        name.write_text(lines, encoding="utf-8")
        run(["validate", "--registry", str(REGISTRY), "--format", rng.choice(["text", "json", "github"]), str(name)])
