"""The generated runtimes beside the schema validators on the same payloads.

Python: validate_payload + decide (the generated SDK) vs jsonschema's Draft202012Validator and
fastjsonschema on the generated schema. TypeScript: the generated isErrorPayload guard vs ajv
compiled from the same schema. 100,000 mixed payloads (valid ones for every code and scope, and
contradictions); per-call cost at 100 and 5,000 codes.

Run: python -m bench.runtime_bench   Targets (issue 5): Python >= 10x jsonschema; TS >= ajv parity;
per-call cost flat in the number of codes.
"""

from __future__ import annotations

import importlib
import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench import synth
from bench.common import NODE_BIN, OUT, table
from errgen.emit.build import build
from errgen.contract import view
from errgen.registry.lint import lint_path

N = 100_000


def payloads(registry: Any, n: int, seed: int = 7) -> list[Any]:
    rng = random.Random(seed)
    codes = registry.codes
    out = []
    for i in range(n):
        code = codes[rng.randrange(len(codes))]
        scope = rng.choice(code.scopes)
        p: dict[str, Any] = {"code": code.name, "category": code.category, "retryable": code.retryable, "scope": scope, "correlation_id": f"c-{i}"}
        if scope == "resource":
            p["resource_id"] = f"r-{i}"
        if code.hints and rng.random() < 0.5:
            p[code.hints[0]] = {"searched": {"q": "x"}, "did_you_mean": ["a"], "accepted": ["b"], "state": "unchanged", "safe_to_replay": True}[code.hints[0]]
        kind = rng.random()
        if kind < 0.1:
            p["retryable"] = not p["retryable"]
        elif kind < 0.15:
            p["extra"] = 1
        elif kind < 0.2:
            p["code"] = "UNKNOWN_CODE"
        out.append(p)
    return out


def prepare(n_codes: int) -> tuple[Any, Path]:
    reg_path = synth.write(OUT, n_codes)
    out = OUT / f"runtime-{n_codes}"
    registry = lint_path(reg_path).registry
    if not (out / "schema" / "error.schema.json").exists():
        build(registry, out, ("python", "typescript", "schema"))
    return registry, out


def python_rates(out: Path, registry: Any, data: list[Any]) -> dict[str, float]:
    sys.path.insert(0, str(out / "python"))
    for name in [m for m in sys.modules if m.startswith(view(registry).packages["python"]["package"])]:
        del sys.modules[name]
    sdk = importlib.import_module(view(registry).packages["python"]["package"])
    schema = json.loads((out / "schema" / "error.schema.json").read_text())
    import fastjsonschema
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    fast = fastjsonschema.compile(schema)

    def errgen_run() -> None:  # noqa: D401
        for p in data:
            try:
                sdk.validate_payload(p)
            except sdk.PayloadError:
                pass
            sdk.decide(p)

    def fast_run(sample: list[Any]) -> None:
        for p in sample:
            try:
                fast(p)
            except fastjsonschema.JsonSchemaException:
                pass

    # The schema validators try every oneOf branch, so their cost grows with the number of codes;
    # they run on a sample sized to take a few seconds.
    few = data[: max(200, 2_000_000 // len(registry.codes) // 10)]
    rates = {}
    for name, fn, sample in (("errgen validate_payload + decide", errgen_run, data), ("fastjsonschema", lambda: fast_run(few), few),
                             ("jsonschema Draft202012Validator", lambda: [validator.is_valid(p) for p in few[: len(few) // 5]], few[: len(few) // 5])):
        start = time.perf_counter()
        fn()
        rates[name] = len(sample) / (time.perf_counter() - start)
    sys.path.remove(str(out / "python"))
    return rates


def ts_rates(out: Path, data: list[Any]) -> dict[str, float]:
    js = out / "js"
    if not js.exists():
        subprocess.run([str(NODE_BIN / "tsc"), "-p", str(out / "typescript"), "--outDir", str(js)], check=True)
    corpus = out / "payloads.json"
    corpus.write_text(json.dumps(data))
    script = f"""
const m = require({json.dumps(str(js / 'index.js'))});
const Ajv2020 = require("ajv/dist/2020").default;
const data = require({json.dumps(str(corpus))});
const ajv = new Ajv2020({{strict: false}});
let validate = null, ajvError = null;
try {{ validate = ajv.compile(require({json.dumps(str(out / 'schema' / 'error.schema.json'))})); }} catch (e) {{ ajvError = String(e); }}
function rate(fn) {{ for (const p of data.slice(0, 2000)) fn(p); const t = process.hrtime.bigint(); let k = 0; for (const p of data) if (fn(p)) k++; return data.length / (Number(process.hrtime.bigint() - t) / 1e9); }}
console.log(JSON.stringify({{"errgen isErrorPayload": rate(m.isErrorPayload), "errgen decide": rate((p) => m.decide(p)), "ajv (compiled)": validate ? rate(validate) : ajvError}}));
"""
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, cwd=NODE_BIN.parent.parent, check=True)
    return json.loads(done.stdout)


def main() -> None:
    rows = []
    for n_codes in (100, 5_000):
        registry, out = prepare(n_codes)
        data = payloads(registry, N)
        py = python_rates(out, registry, data)
        ts = ts_rates(out, data)
        for name, rate in {**py, **ts}.items():
            rows.append([n_codes, name, f"{rate:,.0f}", f"{1e6 / rate:.1f}"] if isinstance(rate, float) else [n_codes, name, "failed", rate[:40]])
        base = py["jsonschema Draft202012Validator"]
        errgen = py["errgen validate_payload + decide"]
        ajv = ts["ajv (compiled)"]
        ts_ratio = f"{ts['errgen isErrorPayload'] / ajv:.2f}x ajv" if isinstance(ajv, float) else "ajv could not compile"
        rows.append([n_codes, "ratios", f"python: {errgen / base:.1f}x jsonschema, {errgen / py['fastjsonschema']:.2f}x fastjsonschema", f"ts guard: {ts_ratio}"])
        print(table(["codes", "validator", "payloads/s", "us/payload"], rows), flush=True)


if __name__ == "__main__":
    main()
