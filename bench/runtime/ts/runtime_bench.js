// The TypeScript side of bench/runtime_bench.py: the generated package's parse (JSON.parse) +
// validate (payloadProblems) + decide beside ajv compiled from the generated schema, validating
// the same payloads (already parsed: the validator alone).
//
// Usage: node runtime_bench.js SDK_INDEX_JS SCHEMA BUDGET_MS CORPUS... (one JSON payload per
// line); prints one JSON object per corpus. Run from a folder whose node_modules has ajv.
"use strict";
const fs = require("fs");
const Ajv2020 = require("ajv/dist/2020").default;

const [sdkPath, schemaPath, budgetMs, ...corpora] = process.argv.slice(2);
const sdk = require(sdkPath);
const validate = new Ajv2020({ strict: false }).compile(JSON.parse(fs.readFileSync(schemaPath, "utf8")));
const budget = BigInt(Math.round(Number(budgetMs) * 1e6));
let sink = 0;

function count(one, n) {
  let k = 0;
  for (let i = 0; i < Math.min(n, 2000); i++) if (one(i)) k++;
  return k;
}

function run(one, n, ns) {
  const start = process.hrtime.bigint();
  let done = 0;
  for (;;) {
    if (one(done % n)) sink++;
    done++;
    if (process.hrtime.bigint() - start >= ns) return done;
  }
}

// Payloads per second over the budget, after a warm-up of half of it (the JIT's).
function rate(one, n) {
  run(one, n, budget / 2n);
  const start = process.hrtime.bigint();
  const done = run(one, n, budget);
  return done / (Number(process.hrtime.bigint() - start) / 1e9);
}

for (const file of corpora) {
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0);
  const parsed = lines.map((l) => JSON.parse(l));
  const sdkOne = (i) => {
    const raw = JSON.parse(lines[i]);
    const ok = sdk.payloadProblems(raw).length === 0;
    sink += sdk.decide(raw).action.length;
    return ok;
  };
  const peerOne = (i) => validate(parsed[i]);
  const n = lines.length;
  console.log(JSON.stringify({
    file, n, bytes: lines.reduce((a, l) => a + Buffer.byteLength(l), 0),
    sdk_per_s: rate(sdkOne, n), peer_per_s: rate(peerOne, n), parse_per_s: rate((i) => JSON.parse(lines[i]) !== undefined, n),
    sdk_valid: count(sdkOne, n), peer_valid: count(peerOne, n),
  }));
}
