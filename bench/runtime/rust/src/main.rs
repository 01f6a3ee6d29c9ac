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
        let (sdk_per_s, sdk_allocs, sdk_bytes) = rate(&sdk_one, lines.len(), budget);
        let (peer_per_s, peer_allocs, peer_bytes) = rate(&peer_one, lines.len(), budget);
        let parse_one = |i: usize| -> bool { serde_json::from_slice::<Value>(lines[i]).is_ok() };
        let (parse_per_s, _, _) = rate(&parse_one, lines.len(), budget / 2);
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

/// One side over the corpus, cyclically, for the budget (after a warm-up of a quarter of it):
/// payloads per second, and allocations and bytes allocated per payload.
fn rate(one: &dyn Fn(usize) -> bool, n: usize, budget: Duration) -> (f64, f64, f64) {
    run(one, n, budget / 4);
    let (a0, b0) = (ALLOCS.load(Relaxed), BYTES.load(Relaxed));
    let start = Instant::now();
    let done = run(one, n, budget);
    let elapsed = start.elapsed().as_secs_f64();
    let (a1, b1) = (ALLOCS.load(Relaxed), BYTES.load(Relaxed));
    (done as f64 / elapsed, (a1 - a0) as f64 / done as f64, (b1 - b0) as f64 / done as f64)
}

fn run(one: &dyn Fn(usize) -> bool, n: usize, budget: Duration) -> usize {
    let start = Instant::now();
    let mut done = 0;
    loop {
        std::hint::black_box(one(done % n));
        done += 1;
        if start.elapsed() >= budget {
            return done;
        }
    }
}
