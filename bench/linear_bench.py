"""Hostile inputs beside clean inputs of the same size, whole process each: lint, diff, bump and
validate must stay linear, so a registry or payload full of mistakes costs about what a clean one
does (issue 31 item 4: within 1.5x, the worst case deciding; issue 18 had 2x).

  lint      10,000 codes in 10,000 unknown categories        vs 10,000 clean codes
  lint      10,000 codes in 10,000 unknown categories, 10,000 declared (a did-you-mean over
            10,000 names each)                                vs the codes in the declared ones, same bytes
  lint      20,000 deprecations replaced by unknown codes     vs 20,000 replaced by known codes
  lint      10,000 codes, each odd one the same identifier as the one before (5,000 collisions)
                                                              vs the odd ones named apart, same bytes
  lint      10,000 codes, each with two misspelt hints         vs the same hints spelt right
  lint      10,000 codes, each with `descripton:`              vs the same key spelt right
  bump      10,000 codes all newly deprecated                  vs the reworded pair
  diff      10,000 codes all renamed (10,000 removed, added)  vs 10,000 codes with new descriptions
  bump      the same renamed pair                             vs the same reworded pair
  validate  one valid payload plus 40,000 unknown keys       vs 2,000 clean payloads, same bytes
  validate  20,000 payloads of unknown codes, each one character off a known one
                                                              vs the same 20,000 payloads, codes known
  validate  20,000 payloads each sending `corrélation_id`     vs the same, keys right (about the same bytes)
  lint      192 KB: 90 codes named with 1,000 letters, each replaced_by a misspelling of the next
                                                              vs the same, replaced_by spelt right
  validate  --responses: one response repeating one header name 600,000 times
                                                              vs 600,000 distinct names, same bytes

Run: python -m bench.linear_bench [WORD...]   (only the cases whose label holds a WORD; wall and CPU seconds, best of 2; on a shared machine the CPU
ratio moves less with the other load)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench import synth
from bench.common import OUT, errgen_cmd, table
from bench.diff_bench import cpu_command

LINT_CODES, DEPRECATED_CODES, DIFF_CODES, PAYLOAD_KEYS, PAYLOADS = 10_000, 20_000, 10_000, 40_000, 20_000
LONG_NAME, LONG_CODES, HEADER_REPEATS = 1_000, 90, 600_000


def write(name: str, text: str) -> Path:
    path = OUT / "linear" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def deprecated(n: int, target: str) -> str:
    """Every code deprecated in favour of `target` (formatted with the next code's number)."""
    text = synth.registry_text(n)
    lines = []
    for line in text.splitlines():
        lines.append(line)
        found = re.fullmatch(r"  CODE_(\d+):", line)
        if found:
            lines.append(f"    deprecated: {{since: 1.0.0, replaced_by: {target.format((int(found.group(1)) + 1) % n)}}}")
    return "\n".join(lines) + "\n"


def twins(n: int, prefix: str) -> str:
    """Every odd code renamed `<prefix>_<the even code's number>`: with prefix `code` each becomes
    the same identifier as the code before it in every language (5,000 collisions); `cade` is
    the clean input of the same size."""
    return re.sub(r"^  CODE_(\d+):$", lambda m: f"  {prefix}_{int(m.group(1)) - 1:06d}:" if int(m.group(1)) % 2 else m.group(0),
                  synth.registry_text(n), flags=re.M)


def declared(n: int, unknown: bool) -> str:
    """n declared categories `kat_<i>` and code i in `cat_<i>` (unknown, one letter off a declared
    one) or, for the clean input of the same bytes, in `kat_<i>`."""
    text = synth.registry_text(n, tweak={i: f"{'c' if unknown else 'k'}at_{i}" for i in range(n)})
    return text.replace("categories:\n", "categories:\n" + "".join(f"  kat_{i}: {{retryable: true, description: x}}\n" for i in range(n)), 1)


def every_hint(n: int, hint: str) -> str:
    """Every code's hints one word, `hint` formatted with its number: unknown hints (a did-you-mean
    each) or, for the clean input, a known hint written as long."""
    return re.sub(r"^    hints: \[.*\]$", lambda m: f"    hints: [{hint}]", synth.registry_text(n), flags=re.M)


def payloads(registry: Path, n: int, spoil: str = "") -> str:
    """n valid payloads of the registry's codes in turn; `code` spoilt, each code's last character
    is an `x` (an unknown code one edit from a known one: a did-you-mean each, the same bytes);
    `key` spoilt, correlation_id is sent as `corrélation_id` (an unknown key and a missing one, in
    a message with a letter outside ASCII)."""
    import yaml

    loaded = yaml.safe_load(registry.read_text(encoding="utf-8"))
    codes, categories = list(loaded["codes"].items()), loaded["categories"]
    lines = []
    for i in range(n):
        code, entry = codes[i % len(codes)]
        scope = entry["scope"] if isinstance(entry["scope"], str) else entry["scope"][0]
        row = {"code": code[:-1] + "x" if spoil == "code" else code, "category": entry["category"],
               "retryable": categories[entry["category"]].get("retryable", False), "scope": scope,
               "corrélation_id" if spoil == "key" else "correlation_id": f"req-{i:06d}"}
        if scope == "resource":
            row["resource_id"] = "res_1"
        lines.append(json.dumps(row))
    return "\n".join(lines) + "\n"


def long_names(n: int, length: int, misspelt: bool) -> str:
    """n codes named with `length` random capitals, each deprecated in favour of the next: with
    `misspelt`, a different letter of each target changed (a did-you-mean each, comparing names
    of `length` characters), else spelt right (the same bytes)."""
    import random

    rng = random.Random(1)
    names = [f"C{i:04d}_" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(length)) for i in range(n)]
    lines = ["errgen: 1", "name: synthetic", "version: 1.0.0", "categories:", "  validation:", "    retryable: false",
             "    action: fix", "    description: Failures.", "codes:"]
    for i, name in enumerate(names):
        target, at = names[(i + 1) % n], 6 + i % length
        if misspelt:
            target = target[:at] + "x" + target[at + 1:]
        lines += [f"  {name}:", "    category: validation", "    scope: request", "    http_status: 400",
                  f"    description: Synthetic failure {i}.", "    since: 1.0.0", f"    deprecated: {{since: 1.0.0, replaced_by: {target}}}"]
    return "\n".join(lines + ["history:", "  - {version: 1.0.0, date: 2026-01-10, changes: [Initial.]}"]) + "\n"


def headers(n: int, repeated: bool) -> str:
    """One recorded response with n headers: one name n times (joined into one value as HTTP folds
    them), or n distinct names of the same length."""
    body = json.dumps({"code": "CODE_000000", "message": "x", "correlation_id": "c"})
    pairs = [["X-Rep-000000" if repeated else f"X-Rep-{i:06d}", "v"] for i in range(n)]
    return json.dumps({"status": 429, "headers": pairs, "body": body})


def cases() -> list[tuple[str, list[str], list[str], tuple[int, ...]]]:
    """(label, hostile command, clean command, accepted exit codes)."""
    lint = errgen_cmd() + ["lint", "--registry"]
    unknown_categories = write("unknown-categories.yaml", synth.registry_text(LINT_CODES, tweak={i: f"cat_{i}" for i in range(LINT_CODES)}))
    clean = write("clean.yaml", synth.registry_text(LINT_CODES))
    among_declared, in_declared = write("unknown-among-declared.yaml", declared(LINT_CODES, True)), write("declared.yaml", declared(LINT_CODES, False))
    unknown_targets = write("unknown-replaced-by.yaml", deprecated(DEPRECATED_CODES, "GONE_{:06d}"))
    known_targets = write("known-replaced-by.yaml", deprecated(DEPRECATED_CODES, "CODE_{:06d}"))
    old = write("old.yaml", synth.registry_text(DIFF_CODES))
    renamed = write("renamed.yaml", synth.registry_text(DIFF_CODES, version="2.0.0").replace("  CODE_", "  RENAMED_"))
    reworded = write("reworded.yaml", synth.registry_text(DIFF_CODES, version="1.0.1").replace("for load testing", "under load"))
    diff = errgen_cmd() + ["diff"]
    row = {"code": "CODE_000000", "category": "rate_limit", "retryable": True, "scope": "request", "correlation_id": "c-1"}
    hostile_payload = write("wide.json", json.dumps({**row, **{f"key_{i}": i for i in range(PAYLOAD_KEYS)}}))
    size = hostile_payload.stat().st_size
    line = json.dumps(row) + "\n"
    clean_payloads = write("clean.jsonl", line * (size // len(line)))
    validate = errgen_cmd() + ["validate", "--registry", str(clean)]
    colliding, apart = write("colliding.yaml", twins(LINT_CODES, "code")), write("apart.yaml", twins(LINT_CODES, "cade"))
    misspelt_key = write("misspelt-key.yaml", synth.registry_text(LINT_CODES).replace("    description:", "    descripton:"))
    unknown_hints = write("unknown-hints.yaml", every_hint(LINT_CODES, "did_you_meen, safe_to_replai"))
    known_hints = write("known-hints.yaml", every_hint(LINT_CODES, "did_you_mean, safe_to_replay"))
    all_deprecated = write("all-deprecated.yaml", deprecated(DIFF_CODES, "CODE_{:06d}").replace("version: 1.0.0", "version: 1.0.0", 1))
    unknown_codes = write("unknown-codes.jsonl", payloads(clean, PAYLOADS, spoil="code"))
    unknown_keys = write("unknown-keys.jsonl", payloads(clean, PAYLOADS, spoil="key"))
    known_codes = write("known-codes.jsonl", payloads(clean, PAYLOADS))
    long_misspelt = write("long-names-misspelt.yaml", long_names(LONG_CODES, LONG_NAME, True))
    long_right = write("long-names.yaml", long_names(LONG_CODES, LONG_NAME, False))
    responses = validate + ["--responses"]
    repeated, distinct = write("repeated-headers.json", headers(HEADER_REPEATS, True)), write("distinct-headers.json", headers(HEADER_REPEATS, False))
    return [
        ("lint: 192 KB of long names misspelt", lint + [str(long_misspelt)], lint + [str(long_right)], (0, 1)),
        ("validate: 600,000 repeated headers", responses + [str(repeated)], responses + [str(distinct)], (0, 1)),
        ("validate: 20,000 unknown codes", validate + [str(unknown_codes)], validate + [str(known_codes)], (0, 1)),
        ("validate: 20,000 non-ASCII keys", validate + [str(unknown_keys)], validate + [str(known_codes)], (0, 1)),
        ("lint: every code collides", lint + [str(colliding)], lint + [str(apart)], (0, 1)),
        ("lint: a misspelt key", lint + [str(misspelt_key)], lint + [str(clean)], (0, 1)),
        ("lint: unknown hints", lint + [str(unknown_hints)], lint + [str(known_hints)], (0, 1)),
        ("bump: every code deprecated", bump_cmd(old, all_deprecated), bump_cmd(old, reworded), (0, 1)),
        ("lint: unknown categories", lint + [str(unknown_categories)], lint + [str(clean)], (0, 1)),
        ("lint: unknown among 10,000 declared categories", lint + [str(among_declared)], lint + [str(in_declared)], (0, 1)),
        ("lint: unknown replaced_by", lint + [str(unknown_targets)], lint + [str(known_targets)], (0, 1)),
        ("diff: every code renamed", diff + [str(old), str(renamed)], diff + [str(old), str(reworded)], (0, 1)),
        ("bump: every code renamed", bump_cmd(old, renamed), bump_cmd(old, reworded), (0, 1)),
        ("validate: 40,000 keys", validate + [str(hostile_payload)], validate + [str(clean_payloads)], (0, 1)),
    ]


def bump_cmd(old: Path, new: Path) -> list[str]:
    """bump edits the file in place: each run works on a fresh copy."""
    copy = new.with_name(f"bump-{new.name}")
    return ["sh", "-c", f'cp "{new}" "{copy}" && exec "$@"', "bump", *errgen_cmd(), "bump", "--from", str(old), "--registry", str(copy),
            "--date", "2026-03-01"]


def main() -> None:
    import sys

    only = sys.argv[1:]  # words: run only the cases whose label holds one of them
    rows = []
    for label, hostile, clean, ok in cases():
        if only and not any(word in label for word in only):
            continue
        bad, bad_cpu = cpu_command(hostile, repeat=2, ok=ok)
        good, good_cpu = cpu_command(clean, repeat=2, ok=ok)
        rows.append([label, f"{bad:.2f}", f"{good:.2f}", f"{bad / good:.2f}x", f"{bad_cpu:.2f}", f"{good_cpu:.2f}", f"{bad_cpu / good_cpu:.2f}x", "<= 1.5x"])
    print(table(["case", "hostile s", "clean s", "ratio", "hostile CPU s", "clean CPU s", "CPU ratio", "target"], rows), flush=True)


if __name__ == "__main__":
    main()
