"""errgen's JSON Schema (error.schema.json) beside the plain payload schema of article 000 (a
`code` enum of N values), in the validators users run: python-jsonschema and fastjsonschema
(payloads per second, same payloads), ajv (compile), and jsonschema's metaschema check.

Issue 18's targets: at 5,000 codes each validator runs errgen's schema at no less than half its
speed on the plain schema; ajv compiles errgen's schema at 20,000 codes; the metaschema check
takes under 2 s at 20,000 codes.

Run: python -m bench.schema_bench [--codes 100 5000 20000] [--payloads 2000]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

from bench import synth
from bench.build_bench import plain_schema
from bench.common import NODE_BIN, OUT, table
from errgen.contract import view
from errgen.registry.lint import lint_path
from errgen.payload_schema import example, schema


def payloads(contract: Any, n: int, seed: int = 11) -> list[dict[str, Any]]:
    """Payloads of random codes and scopes that both schemas accept (the plain schema knows no
    hint fields, so they carry none), plus one in ten with a wrong-typed field, which both reject."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        row = contract.codes[rng.randrange(len(contract.codes))]
        p = {k: v for k, v in example(contract, row, rng.choice(row.scopes)).items() if k not in row.hints}
        if i % 10 == 0:
            p["retryable"] = "yes"
        out.append(p)
    return out


def rate(check: Callable[[Any], object], data: list[Any], seconds: float = 1.0) -> float:
    """Payloads per second over whole passes of data, for at least `seconds`."""
    for p in data[:50]:
        check(p)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for p in data:
            check(p)
        done += len(data)
    return done / (time.perf_counter() - start)


def validators(document: dict[str, Any]) -> dict[str, Callable[[Any], object]]:
    import fastjsonschema
    from jsonschema import Draft202012Validator

    strict = Draft202012Validator(document)
    fast = fastjsonschema.compile(document)

    def fast_check(p: Any) -> bool:
        try:
            fast(p)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    return {"jsonschema": strict.is_valid, "fastjsonschema": fast_check}


def ajv_compile(path: Path) -> str:
    script = ("const Ajv2020 = require('ajv/dist/2020').default; const t = process.hrtime.bigint();"
              f"new Ajv2020({{strict: false}}).compile(require({json.dumps(str(path))}));"
              "console.log((Number(process.hrtime.bigint() - t) / 1e9).toFixed(2) + ' s')")
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, cwd=NODE_BIN.parent.parent)
    return done.stdout.strip() if done.returncode == 0 else "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1][:60]


def metaschema_seconds(document: dict[str, Any]) -> float:
    from jsonschema import Draft202012Validator

    start = time.perf_counter()
    Draft202012Validator.check_schema(document)
    return time.perf_counter() - start


def bench(n: int, count: int) -> list[list[object]]:
    contract = view(lint_path(synth.write(OUT, n)).registry)
    data = payloads(contract, count)
    ours = schema(contract)
    plain = plain_schema(list(contract.code_names), list(contract.category_names))
    path = OUT / f"schema-{n}.json"
    path.write_text(json.dumps(ours), encoding="utf-8")
    rows: list[list[object]] = []
    plain_rates = {name: rate(check, data) for name, check in validators(plain).items()}
    for check in validators(plain).values():
        assert [bool(check(p)) for p in data] == [i % 10 != 0 for i in range(len(data))], "a payload the plain schema judges otherwise"
    for name, check in validators(ours).items():
        assert [bool(check(p)) for p in data] == [i % 10 != 0 for i in range(len(data))], f"{name} disagrees with the payloads' validity"
        ours_rate = rate(check, data)
        rows.append([n, name, f"{ours_rate:,.0f}", f"{plain_rates[name]:,.0f}", f"{ours_rate / plain_rates[name]:.2f}x", ">= 0.5x at 5,000"])
    rows.append([n, "ajv compile (errgen's schema)", ajv_compile(path), "", "", "compiles at 20,000"])
    rows.append([n, "jsonschema metaschema check", f"{metaschema_seconds(ours):.2f} s", f"{metaschema_seconds(plain):.2f} s", "",
                 "< 2 s at 20,000"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codes", type=int, nargs="+", default=[100, 5000, 20000])
    parser.add_argument("--payloads", type=int, default=2000)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    rows: list[list[object]] = []
    for n in args.codes:
        rows += bench(n, args.payloads)
        print(table(["codes", "validator", "errgen's schema /s", "plain schema /s", "ratio", "target"], rows), flush=True)
        print()


if __name__ == "__main__":
    main()
