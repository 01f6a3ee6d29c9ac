"""Each generated SDK beside the schema validator a user of its language would otherwise use, on
the same payloads (issue 31 items 1 and 2).

For every language, one program (bench/runtime/<lang>/, Python in this process) reads the same
corpus files, one JSON payload per line, and times two things over each:
- the SDK: parse the bytes + validate strictly + decide (attempt 1), as a client of that language
  calls it: Python json.loads + check (the strict problems and the decision); TypeScript JSON.parse +
  payloadProblems + decide; Go RawJSON + Validate + Decide; Rust receive (one pass) +
  is_valid + decide; Java Errors.check (one parse, the strict problems and the decision);
- the peer: its validator alone, compiled from the generated error.schema.json, on payloads
  already parsed by the language's usual JSON reader (Python fastjsonschema, and beside it
  jsonschema and pydantic; TypeScript ajv; Go santhosh-tekuri/jsonschema v6; Rust the jsonschema
  crate; Java networknt json-schema-validator).
The peer's time leaves out parsing, so the SDK's figure carries a cost the peer's does not.

Corpora: a mix (80% valid payloads of every code and scope, 10% contradictions of the registry,
5% extra fields, 5% unknown codes) at 100 and 5,000 codes, and single valid payloads of 1 KB to
1 MB (a `searched` object of many entries and a long message) for linearity in payload size.
Each side runs cyclically over a corpus for a time budget: every runner warms each side up, then
the SDK and the peer (and the plain parse, except in Rust; in Python the slower peers too) take
turns in ten slices of it, each going on round the corpus where it stopped, so a changing load
falls on all alike; both sides' counts of valid payloads over the first 2,000 are printed, so a
disagreement shows. Allocations: Go mallocs and bytes per payload (runtime.MemStats), Rust
allocations and bytes (a counting allocator), Java bytes (the thread's allocation counter), Python
the tracemalloc peak over 200 payloads; Node reports none.

    python -m bench.runtime_bench                 # 100 and 5,000 codes, every language, 1 s a side
    python -m bench.runtime_bench --quick         # 100 codes, 0.2 s a side (make bench)
    python -m bench.runtime_bench --json PATH     # also {"<lang>": {"<codes>": {"sdk_per_s": N,
                                                  #   "peer_per_s": N, "peer": "<name>", ...}}}

A language whose toolchain or peer cannot be had prints `unavailable: <reason>`, never a figure.
Targets (issue 31): each SDK >= 1.0x its peer at 5,000 codes; linear in payload size.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable, Sequence

from bench import synth
from bench.common import NODE_BIN, OUT, ROOT, table
from errgen.contract import view
from errgen.emit.build import build
from errgen.registry.lint import lint_path

LANGS = ("python", "typescript", "go", "rust", "java")
PEERS = {
    "python": "fastjsonschema",
    "typescript": "ajv (Ajv2020, compiled)",
    "go": "santhosh-tekuri/jsonschema v6.0.3",
    "rust": "jsonschema crate 0.61",
    "java": "networknt json-schema-validator 2.0.8",
}
TARGETS = ("schema", "python", "typescript", "go", "rust", "java")
SIZES = (1_000, 10_000, 100_000, 1_000_000)
RUNNERS = ROOT / "bench" / "runtime"


class Unavailable(Exception):
    """A language's toolchain or peer validator cannot be had here; the reason is printed."""


def payloads(registry: Any, n: int, seed: int = 7) -> list[dict[str, Any]]:
    """n payloads of the registry's codes: valid ones, contradictions, extra fields, unknown codes."""
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


def sized_payload(registry: Any, size: int) -> dict[str, Any]:
    """A valid payload of about `size` bytes: a code with the `searched` hint, whose object gets
    entries of about 36 bytes, and a message holding a tenth of the size."""
    code = next(c for c in registry.codes if "searched" in c.hints and "request" in c.scopes)
    p: dict[str, Any] = {"code": code.name, "category": code.category, "retryable": code.retryable, "scope": "request",
                         "correlation_id": "c-1", "message": "m" * (size // 10), "searched": {}}
    room = size - len(json.dumps(p))
    p["searched"] = {f"k{i:07d}": f"value-{i:014d}" for i in range(max(1, room // 36))}
    return p


def _stamp(registry_text: str) -> str:
    """What the generated SDKs depend on: the registry and errgen's own source."""
    digest = hashlib.sha256(registry_text.encode())
    for path in sorted((ROOT / "src" / "errgen").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def prepare(n_codes: int, prefix: str = "rt") -> tuple[Any, Path]:
    """The synthetic registry of n_codes and every SDK built from it into OUT/<prefix>-<n_codes>
    (rebuilt when stale)."""
    reg_path = synth.write(OUT, n_codes)
    out = OUT / f"{prefix}-{n_codes}"
    stamp = _stamp(reg_path.read_text(encoding="utf-8"))
    registry = lint_path(reg_path).registry
    if not (out / ".stamp").exists() or (out / ".stamp").read_text() != stamp:
        shutil.rmtree(out, ignore_errors=True)
        build(registry, out, TARGETS)
        (out / ".stamp").write_text(stamp)
    return registry, out


def write_corpora(out: Path, registry: Any, mixed: int, sizes: tuple[int, ...]) -> list[Path]:
    files = [out / "corpus-mixed.jsonl"]
    files[0].write_text("".join(json.dumps(p) + "\n" for p in payloads(registry, mixed)))
    for size in sizes:
        files.append(out / f"corpus-{size}.jsonl")
        files[-1].write_text(json.dumps(sized_payload(registry, size)) + "\n")
    return files


# --- Python, in this process ---------------------------------------------------------------

SLICES = 10


def _rates(sides: Sequence[Callable[[int], bool]], shares: Sequence[float], n: int, budget: float,
           clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """Payloads per second of each side over its share of the budget: every side warmed up first
    (a quarter of its share), then the sides take turns in ten slices (each going on round the
    corpus where it stopped), so a load that comes and goes on a shared machine falls on all of
    them alike (timed one after the other, the same build measured 0.78x to 2.9x)."""
    for one, share in zip(sides, shares):
        _loop(one, n, 0, budget * share / 4, clock)
    done = [0] * len(sides)
    seconds = [0.0] * len(sides)
    for _ in range(SLICES):
        for k, (one, share) in enumerate(zip(sides, shares)):
            start = clock()
            done[k] += _loop(one, n, done[k], budget * share / SLICES, clock)
            seconds[k] += clock() - start
    return [d / s for d, s in zip(done, seconds)]


def _loop(one: Callable[[int], bool], n: int, first: int, budget: float, clock: Callable[[], float]) -> int:
    """Payloads done in the budget (at least one), round the corpus from payload number `first`."""
    start, done = clock(), 0
    while True:
        one((first + done) % n)
        done += 1
        if clock() - start >= budget:
            return done


def _agreeing(peer_one: Callable[[int], bool], n: int, budget: float) -> int:
    """How many payloads both sides' verdicts are counted over: up to 2,000, fewer where the peer
    takes longer than twice the budget for them (fastjsonschema at 5,000 codes)."""
    start = time.perf_counter()
    for i in range(min(n, 2000)):
        peer_one(i)
        if time.perf_counter() - start > 2 * budget:
            return i + 1
    return min(n, 2000)


def _peak_kb(one: Callable[[int], bool], n: int) -> float:
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(min(n, 200)):
        one(i)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return (peak - base) / 1024


def run_python(out: Path, registry: Any, files: list[Path], budget: float) -> list[dict[str, Any]]:
    try:
        import fastjsonschema
        from jsonschema import Draft202012Validator
    except ImportError as e:
        raise Unavailable(f"{e.name} is not installed (pip install -e '.[bench]')") from e
    package = view(registry).packages["python"]["package"]
    sys.path.insert(0, str(out / "python"))
    try:
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]
        sdk = importlib.import_module(package)
    finally:
        sys.path.remove(str(out / "python"))
    schema = json.loads((out / "schema" / "error.schema.json").read_text())
    fast = fastjsonschema.compile(schema)
    slow = Draft202012Validator(schema)
    results = []
    for path in files:
        lines = [line.encode() for line in path.read_text().splitlines() if line]
        parsed = [json.loads(line) for line in lines]

        def sdk_one(i: int) -> bool:
            return sdk.check(json.loads(lines[i])).valid

        def fast_one(i: int) -> bool:
            try:
                fast(parsed[i])
                return True
            except fastjsonschema.JsonSchemaException:
                return False

        def pydantic_one(i: int) -> bool:
            try:
                sdk.ErrorPayload.model_validate(parsed[i])
                return True
            except ValueError:
                return False

        def slow_one(i: int) -> bool:
            return bool(slow.is_valid(parsed[i]))

        def parse_one(i: int) -> bool:
            return json.loads(lines[i]) is not None

        n = len(lines)
        counted = _agreeing(fast_one, n, budget)
        sides, shares = [sdk_one, fast_one, parse_one], [1.0, 1.0, 0.5]
        if n > 1:  # the slower peers on the mixed corpus only
            sides, shares = [*sides, slow_one, pydantic_one], [*shares, 0.5, 0.5]
        sdk_rate, peer_rate, parse_rate, *others = _rates(sides, shares, n, budget)
        results.append({
            "file": str(path), "n": n, "bytes": sum(map(len, lines)),
            "sdk_per_s": sdk_rate, "peer_per_s": peer_rate, "parse_per_s": parse_rate,
            "sdk_valid": sum(sdk_one(i) for i in range(counted)), "peer_valid": sum(fast_one(i) for i in range(counted)),
            "sdk_peak_kb": _peak_kb(sdk_one, n), "peer_peak_kb": _peak_kb(fast_one, n),
        })
        if others:
            results[-1]["others"] = dict(zip(["jsonschema Draft202012Validator", "pydantic ErrorPayload.model_validate (types only)"], others))
    return results


# --- the other languages: one program each ---------------------------------------------------

def _run(cmd: list[str], cwd: Path, what: str, env: dict[str, str] | None = None, timeout: float = 3600) -> str:
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=timeout)
    except FileNotFoundError as e:
        raise Unavailable(f"{what}: {e.filename} not found") from e
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise Unavailable(f"{what} failed: {' | '.join(tail)[:300]}")
    return done.stdout


def _lines(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def _args(out: Path, files: list[Path], budget: float) -> list[str]:
    return [str(out / "schema" / "error.schema.json"), str(round(budget * 1000)), *map(str, files)]


def run_typescript(out: Path, registry: Any, files: list[Path], budget: float) -> list[dict[str, Any]]:
    modules = NODE_BIN.parent
    if not (modules / "ajv" / "dist" / "2020.js").exists():
        raise Unavailable(f"ajv is not installed in {modules} (make test installs it)")
    index = out / "typescript" / "dist" / "cjs" / "index.js"
    script = RUNNERS / "ts" / "runtime_bench.js"
    # Node resolves require("ajv") from the script's folder upwards, so a copy sits beside node_modules.
    local = modules.parent / ".errgen-runtime-bench.js"
    shutil.copyfile(script, local)
    try:
        return _lines(_run(["node", str(local), str(index), *_args(out, files, budget)], modules.parent, "node"))
    finally:
        local.unlink()


def build_go(out: Path) -> Path:
    folder = out / "bench-go"
    folder.mkdir(exist_ok=True)
    for name in ("main.go", "go.mod", "go.sum"):
        shutil.copyfile(RUNNERS / "go" / name, folder / name)
    _run(["go", "build", "-o", "runner", "."], folder, "go build (the runner and santhosh-tekuri/jsonschema)", {"GOFLAGS": "-mod=mod"})
    return folder / "runner"


def run_go(out: Path, registry: Any, files: list[Path], budget: float) -> list[dict[str, Any]]:
    return _lines(_run([str(build_go(out)), *_args(out, files, budget)], out, "the Go runner"))


def build_rust(out: Path) -> Path:
    folder = out / "bench-rust"
    shutil.rmtree(folder / "src", ignore_errors=True)
    shutil.copytree(RUNNERS / "rust" / "src", folder / "src")
    for name in ("Cargo.toml", "Cargo.lock"):
        shutil.copyfile(RUNNERS / "rust" / name, folder / name)
    target = OUT / "cargo-target"  # shared, so the jsonschema crate is compiled once
    _run(["cargo", "build", "--release", "--quiet"], folder, "cargo build (the runner and the jsonschema crate)", {"CARGO_TARGET_DIR": str(target)})
    runner = folder / "runner"
    shutil.copyfile(target / "release" / "errgen-runtime-bench", runner)
    runner.chmod(0o755)
    return runner


def run_rust(out: Path, registry: Any, files: list[Path], budget: float) -> list[dict[str, Any]]:
    return _lines(_run([str(build_rust(out)), *_args(out, files, budget)], out, "the Rust runner"))


def java_classpath() -> str:
    """The peer's and Jackson's jars, resolved once by Maven from bench/runtime/java/pom.xml."""
    folder = OUT / "java-peer"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(RUNNERS / "java" / "pom.xml", folder / "pom.xml")
    cp = folder / "classpath.txt"
    if not cp.exists():
        _run(["mvn", "-q", "-B", "dependency:build-classpath", f"-Dmdep.outputFile={cp}"], folder, "mvn (networknt json-schema-validator)")
    return cp.read_text().strip()


def build_java(out: Path) -> tuple[str, Path]:
    cp = java_classpath()
    classes = out / "bench-java"
    shutil.rmtree(classes, ignore_errors=True)
    classes.mkdir()
    sources = [str(p) for p in sorted((out / "java" / "src" / "main" / "java").rglob("*.java")) if p.name != "ConformanceRunner.java"]
    _run(["javac", "-nowarn", "-d", str(classes), "-cp", cp, str(RUNNERS / "java" / "RuntimeBench.java"), *sources], out, "javac")
    shutil.copytree(out / "java" / "src" / "main" / "resources", classes, dirs_exist_ok=True)  # contract.json
    return cp, classes


def run_java(out: Path, registry: Any, files: list[Path], budget: float) -> list[dict[str, Any]]:
    cp, classes = build_java(out)
    return _lines(_run(["java", "-cp", f"{classes}{os.pathsep}{cp}", "RuntimeBench", *_args(out, files, budget)], out, "the Java runner"))


RUN = {"python": run_python, "typescript": run_typescript, "go": run_go, "rust": run_rust, "java": run_java}


# --- report -----------------------------------------------------------------------------------

def _allocs(r: dict[str, Any], side: str) -> str:
    if f"{side}_allocs" in r:
        return f"{r[f'{side}_allocs']:.0f} / {r[f'{side}_alloc_bytes'] / 1024:.1f} KB"
    if f"{side}_alloc_bytes" in r:
        return f"{r[f'{side}_alloc_bytes'] / 1024:.1f} KB"
    if f"{side}_peak_kb" in r:
        return f"peak {r[f'{side}_peak_kb']:.0f} KB"
    return "-"


def _label(path: str) -> str:
    name = Path(path).stem.removeprefix("corpus-")
    return name if name == "mixed" else f"{int(name) // 1000:,} KB"


def report(figures: dict[str, dict[str, Any]]) -> str:
    rows = []
    for lang, by_codes in figures.items():
        for codes, entry in by_codes.items():
            if "unavailable" in entry:
                rows.append([lang, codes, "-", "unavailable", entry["peer"], entry["unavailable"][:100], "", "", "", "", ""])
                continue
            for r in entry["runs"]:
                agree = "yes" if r["sdk_valid"] == r["peer_valid"] else f"NO ({r['sdk_valid']} vs {r['peer_valid']})"
                mb = r["bytes"] / r["n"] / 1e6
                speed = f"{r['sdk_per_s']:,.0f}" if r["n"] > 1 else f"{r['sdk_per_s']:,.1f} ({r['sdk_per_s'] * mb:.0f} MB/s)"
                peer = f"{r['peer_per_s']:,.0f}" if r["n"] > 1 else f"{r['peer_per_s']:,.1f} ({r['peer_per_s'] * mb:.0f} MB/s)"
                rows.append([lang, codes, _label(r["file"]), speed, entry["peer"], peer, f"{r['sdk_per_s'] / r['peer_per_s']:.2f}x", f"{r['parse_per_s']:,.0f}",
                             _allocs(r, "sdk"), _allocs(r, "peer"), agree])
                for name, rate in r.get("others", {}).items():
                    rows.append([lang, codes, _label(r["file"]), "", name, f"{rate:,.0f}", f"{r['sdk_per_s'] / rate:.2f}x", "", "", "", ""])
    return table(["lang", "codes", "payloads", "SDK parse+validate+decide /s", "peer", "peer validate /s", "SDK/peer", "parse alone /s",
                  "SDK allocs", "peer allocs", "same verdicts"], rows)


def summary(figures: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The --json form: per language and codes, the mixed corpus's figures and per size."""
    out: dict[str, dict[str, Any]] = {}
    for lang, by_codes in figures.items():
        for codes, entry in by_codes.items():
            row: dict[str, Any] = {"peer": entry["peer"]}
            if "unavailable" in entry:
                row.update(sdk_per_s=None, peer_per_s=None, unavailable=entry["unavailable"])
            else:
                mixed, *sized = entry["runs"]
                row.update(sdk_per_s=round(mixed["sdk_per_s"], 1), peer_per_s=round(mixed["peer_per_s"], 1), parse_per_s=round(mixed["parse_per_s"], 1),
                           same_verdicts=mixed["sdk_valid"] == mixed["peer_valid"],
                           others={k: round(v, 1) for k, v in mixed.get("others", {}).items()},
                           sizes={str(r["bytes"]): {"sdk_per_s": round(r["sdk_per_s"], 2), "peer_per_s": round(r["peer_per_s"], 2), "parse_per_s": round(r["parse_per_s"], 2)} for r in sized})
            out.setdefault(lang, {})[str(codes)] = row
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.runtime_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="100 codes, 0.2 s a side, 2 payload sizes")
    parser.add_argument("--codes", type=lambda s: [int(x) for x in s.split(",")], help="registry sizes (default 100,5000)")
    parser.add_argument("--langs", type=lambda s: s.split(","), default=list(LANGS), help="comma-separated subset of " + ",".join(LANGS))
    parser.add_argument("--budget", type=float, help="seconds a side per corpus (default 1, quick 0.2)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    codes = args.codes or ([100] if args.quick else [100, 5_000])
    budget = args.budget or (0.2 if args.quick else 1.0)
    sizes = (1_000, 100_000) if args.quick else SIZES
    figures: dict[str, dict[str, Any]] = {}
    for n_codes in codes:
        registry, out = prepare(n_codes)
        files = write_corpora(out, registry, 2_000 if args.quick else 20_000, sizes)
        for lang in args.langs:
            entry: dict[str, Any] = {"peer": PEERS[lang]}
            try:
                entry["runs"] = RUN[lang](out, registry, files, budget)
            except Unavailable as e:
                entry["unavailable"] = str(e)
            figures.setdefault(lang, {})[n_codes] = entry
            print(f"{lang} at {n_codes:,} codes (load average {os.getloadavg()[0]:.1f}):", file=sys.stderr)
            print(report({lang: {n_codes: entry}}), file=sys.stderr, flush=True)
            if args.json:  # after every language, so an interrupted run keeps what it measured
                args.json.parent.mkdir(parents=True, exist_ok=True)
                args.json.write_text(json.dumps(summary(figures), indent=2, sort_keys=True) + "\n")
    print(f"load average {os.getloadavg()[0]:.1f}; {budget} s a side per corpus after a warm-up")
    print(report(figures))


if __name__ == "__main__":
    main()
