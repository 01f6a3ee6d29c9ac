//! The Rust side of bench/runtime_bench.py: the generated crate's parse + validate + decide
//! (`receive(bytes)`, then `is_valid` and `decide`) beside the `jsonschema` crate validating the same payloads against the generated schema.
//!
//! Usage: runner SCHEMA BUDGET_MS CORPUS... (one JSON payload per line); prints one JSON object
//! per corpus on standard output. A counting global allocator gives allocations per payload.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use synthetic_errors::policy::{DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS};

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);
static BYTES: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(layout.size(), Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(new_size, Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let schema: Value = serde_json::from_slice(&std::fs::read(&args[1]).expect("schema")).expect("schema JSON");
    let budget = Duration::from_millis(args[2].parse().expect("budget"));
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    for path in &args[3..] {
        let text = std::fs::read(path).expect("corpus");
        let lines: Vec<&[u8]> = text.split(|b| *b == b'\n').filter(|l| !l.is_empty()).collect();
        let parsed: Vec<Value> = lines.iter().map(|l| serde_json::from_slice(l).expect("corpus JSON")).collect();
        // What a client calls on an error body: one pass from the bytes to the strict verdict
        // and the decision (the same checks as read_json + validate + decide_value).
        let sdk_one = |i: usize| -> bool {
            let received = synthetic_errors::receive(lines[i]);
            std::hint::black_box(received.decide(1, DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_DELAY_MS));
            received.is_valid()
        };
        let peer_one = |i: usize| -> bool { validator.is_valid(&parsed[i]) };
        let [(sdk_per_s, sdk_allocs, sdk_bytes), (peer_per_s, peer_allocs, peer_bytes)] = rates([&sdk_one, &peer_one], lines.len(), budget);
        let parse_one = |i: usize| -> bool { serde_json::from_slice::<Value>(lines[i]).is_ok() };
        let [(parse_per_s, _, _), _] = rates([&parse_one, &parse_one], lines.len(), budget / 4);
        let out = json!({
            "file": path, "n": lines.len(), "bytes": lines.iter().map(|l| l.len()).sum::<usize>(),
            "sdk_per_s": sdk_per_s, "peer_per_s": peer_per_s, "parse_per_s": parse_per_s,
            "sdk_valid": count(&sdk_one, lines.len()), "peer_valid": count(&peer_one, lines.len()),
            "sdk_allocs": sdk_allocs, "peer_allocs": peer_allocs,
            "sdk_alloc_bytes": sdk_bytes, "peer_alloc_bytes": peer_bytes,
        });
        println!("{out}");
    }
}

/// How many payloads one side accepts, over at most 2,000 of them (untimed).
fn count(one: &dyn Fn(usize) -> bool, n: usize) -> usize {
    (0..n.min(2000)).filter(|&i| one(i)).count()
}

/// Both sides over the corpus, cyclically, for the budget each (after a warm-up of a quarter of
/// it), in ten alternating slices, so a load that comes and goes on a shared machine falls on
/// both alike: per side, payloads per second, and allocations and bytes allocated per payload.
fn rates(sides: [&dyn Fn(usize) -> bool; 2], n: usize, budget: Duration) -> [(f64, f64, f64); 2] {
    const SLICES: u32 = 10;
    let mut totals = [(0usize, 0f64, 0usize, 0usize); 2]; // done, seconds, allocations, bytes
    for side in sides {
        run(side, n, 0, budget / 4);
    }
    for _ in 0..SLICES {
        for (side, total) in sides.iter().zip(totals.iter_mut()) {
            let (a0, b0) = (ALLOCS.load(Relaxed), BYTES.load(Relaxed));
            let start = Instant::now();
            total.0 += run(*side, n, total.0, budget / SLICES);
            total.1 += start.elapsed().as_secs_f64();
            total.2 += ALLOCS.load(Relaxed) - a0;
            total.3 += BYTES.load(Relaxed) - b0;
        }
    }
    totals.map(|(done, seconds, allocs, bytes)| (done as f64 / seconds, allocs as f64 / done as f64, bytes as f64 / done as f64))
}

/// One side for the budget, from payload `from` on (at least one payload): how many it did.
fn run(one: &dyn Fn(usize) -> bool, n: usize, from: usize, budget: Duration) -> usize {
    let start = Instant::now();
    let mut done = 0;
    loop {
        std::hint::black_box(one((from + done) % n));
        done += 1;
        if start.elapsed() >= budget {
            return done;
        }
    }
}
