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
const budgetNs = Number(budgetMs) * 1e6;
let sink = 0;

function count(one, n) {
  let k = 0;
  for (let i = 0; i < Math.min(n, 2000); i++) if (one(i)) k++;
  return k;
}

// Payloads done in the budget (at least one), round the corpus from payload number `first`.
function run(one, n, first, ns) {
  const start = process.hrtime.bigint();
  let done = 0;
  for (;;) {
    if (one((first + done) % n)) sink++;
    done++;
    if (process.hrtime.bigint() - start >= ns) return done;
  }
}

// Payloads per second of each side over its share of the budget: every side warmed up first
// (half its share, for the JIT), then the sides take turns in ten slices (each going on round the
// corpus where it stopped), so a load that comes and goes on a shared machine falls on all of them
// alike (timed one after the other, the same build measured 0.78x to 2.9x).
function rates(sides, shares, n) {
  const slices = 10;
  const part = (k, d) => BigInt(Math.round((budgetNs * shares[k]) / d));
  sides.forEach((one, k) => run(one, n, 0, part(k, 2)));
  const done = sides.map(() => 0);
  const nanos = sides.map(() => 0n);
  for (let s = 0; s < slices; s++) {
    sides.forEach((one, k) => {
      const start = process.hrtime.bigint();
      done[k] += run(one, n, done[k], part(k, slices));
      nanos[k] += process.hrtime.bigint() - start;
    });
  }
  return done.map((d, k) => d / (Number(nanos[k]) / 1e9));
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
  const parseOne = (i) => JSON.parse(lines[i]) !== undefined;
  const n = lines.length;
  const [sdkPerS, peerPerS, parsePerS] = rates([sdkOne, peerOne, parseOne], [1, 1, 0.5], n);
  console.log(JSON.stringify({
    file, n, bytes: lines.reduce((a, l) => a + Buffer.byteLength(l), 0),
    sdk_per_s: sdkPerS, peer_per_s: peerPerS, parse_per_s: parsePerS,
    sdk_valid: count(sdkOne, n), peer_valid: count(peerOne, n),
  }));
}
