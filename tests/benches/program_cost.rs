//! Bodies whose cost per call depends on the program's own state, and one
//! of fixed cost: the headline must be the mean cost of a call for each
//! (issue 24). `program_cost --truth NAME` times NAME's body in a plain loop
//! over whole cycles of its state instead, the truth the e2e test compares
//! the headline with (the fixed-cost body's: its undisturbed cost, from
//! short runs).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::time::Instant;

use bench_harness::known_cost::imul_chain;
use bench_harness::{benchmark, black_box, Bencher};
use bench_runtime::clock::cpu::thread_cpu_time;

thread_local! {
    static CALLS: Cell<u64> = const { Cell::new(0) };
    static RANDOM: Cell<u64> = const { Cell::new(0x2545_f491_4f6c_dd1d) };
    static CHASE: RefCell<Option<Chase>> = const { RefCell::new(None) };
    static MAP: RefCell<HashMap<u64, u64>> = RefCell::new(HashMap::new());
    static VEC: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// This thread's calls so far, this one included.
fn call_number() -> u64 {
    CALLS.with(|c| {
        c.set(c.get() + 1);
        c.get()
    })
}

/// Every tenth call does ten times the work (about 23 µs a call, so each
/// sample holds one call).
#[benchmark]
fn every_tenth_call_ten_times() -> u64 {
    let work = if call_number() % 10 == 0 { 10 } else { 1 };
    (0..work).fold(0, |acc, _| acc ^ imul_chain::<25_000>(black_box(3)))
}

/// Between 1 and 20 chains of 100 multiplies, at random.
#[benchmark]
fn random_cost_per_call() -> u64 {
    let x = RANDOM.with(|r| {
        let mut x = r.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        r.set(x);
        x
    });
    (0..1 + x % 20).fold(0, |acc, _| acc ^ imul_chain::<100>(black_box(3)))
}

/// Calls per phase of [`cache_phases`].
const PHASE: u64 = 1 << 18;

/// A pointer chase through a random cycle of 16 KiB, then through one of
/// 128 MiB, [`PHASE`] calls each: in and out of the cache.
struct Chase {
    small: Vec<u32>,
    large: Vec<u32>,
    at: u32,
}

/// A cycle through `n` slots, a power of two, in an order no prefetcher
/// follows: slot `x` leads to `(a * x + c) mod n`, which visits every slot
/// once in a full period (`a` is 1 mod 4, `c` odd). Built in one pass, as
/// each process's set-up: Sattolo's shuffle of the 128 MiB table took 3 s.
fn cycle(n: usize, c: u64) -> Vec<u32> {
    const A: u64 = 0x5851_f42d_4c95_7f2d;
    debug_assert!(n.is_power_of_two() && c % 2 == 1);
    let mask = n as u64 - 1;
    (0..n as u64)
        .map(|x| (A.wrapping_mul(x).wrapping_add(c) & mask) as u32)
        .collect()
}

/// This thread's tables, built the first time (untimed: in the
/// benchmark's set-up, or the truth loop's warm-up).
fn chase_tables() {
    CHASE.with(|chase| {
        chase.borrow_mut().get_or_insert_with(|| Chase {
            small: cycle(4 << 10, 7),
            large: cycle(32 << 20, 11),
            at: 0,
        });
    });
}

/// One step of the chase, in the table of this call's phase.
fn chase_step() -> u32 {
    let n = call_number();
    CHASE.with(|chase| {
        let mut chase = chase.borrow_mut();
        let chase = chase.as_mut().expect("the tables are built first");
        let table = if (n / PHASE) % 2 == 0 {
            &chase.small
        } else {
            &chase.large
        };
        chase.at = table[chase.at as usize % table.len()];
        chase.at
    })
}

#[benchmark]
fn cache_phases(b: &mut Bencher) {
    chase_tables();
    b.iter(chase_step)
}

/// Keys per map of [`growing_map`].
const MAP_KEYS: u64 = 1 << 18;

/// A `HashMap` insert per call, the map replaced every [`MAP_KEYS`] keys.
#[benchmark]
fn growing_map() -> usize {
    let n = call_number();
    MAP.with(|map| {
        let mut map = map.borrow_mut();
        if n % MAP_KEYS == 0 {
            *map = HashMap::new();
        }
        map.insert(n, n);
        map.len()
    })
}

/// Elements per vector of [`growing_vec`].
const VEC_LEN: u64 = 1 << 22;

/// A `Vec` push per call, the vector replaced every [`VEC_LEN`] elements.
#[benchmark]
fn growing_vec() -> usize {
    let n = call_number();
    VEC.with(|v| {
        let mut v = v.borrow_mut();
        if n % VEC_LEN == 0 {
            *v = Vec::new();
        }
        v.push(n);
        v.len()
    })
}

/// A fixed cost: 1,000 dependent multiplies.
#[benchmark]
fn reference() -> u64 {
    imul_chain::<1000>(black_box(3))
}

/// The mean cost of a call of `name`'s body in a plain loop over whole
/// cycles of its state, less the same loop's cost with an empty body, as
/// the harness subtracts its own loop's. The body is called through a
/// pointer, not inlined into the loop: the harness's loop calls these
/// bodies as functions too (a profile shows them so), and how a body is
/// called is part of its cost (a `Vec` push cost up to 1.6x less inlined, here).
/// The fixed-cost reference's is its undisturbed cost ([`short_runs`]).
fn truth(name: &str) -> Option<f64> {
    let (body, cycle): (fn() -> u64, u64) = match name {
        "every_tenth_call_ten_times" => (every_tenth_call_ten_times, 10),
        "random_cost_per_call" => (random_cost_per_call, 1 << 16),
        "cache_phases" => (
            || {
                chase_tables();
                u64::from(chase_step())
            },
            2 * PHASE,
        ),
        "growing_map" => (|| growing_map() as u64, MAP_KEYS),
        "growing_vec" => (|| growing_vec() as u64, VEC_LEN),
        "reference" => {
            let runs = |body: fn() -> u64, seconds| short_runs(black_box(body), SHORT_RUN, seconds);
            return Some(runs(reference, 1.0) - runs(|| 0, 0.1));
        }
        _ => return None,
    };
    Some(plain_loop(black_box(body), cycle, 1.0) - plain_loop(|| 0, 1 << 16, 0.1))
}

/// Calls per short run of [`short_runs`]: about 200 µs of the reference.
const SHORT_RUN: u32 = 250;

/// The fixed-cost body's cost a call as the machine gives it undisturbed:
/// the median of short runs of `calls` calls, timed by the wall clock, for
/// at least `seconds` (the lowest of three such medians, as an episode of
/// the machine's can outlast one). A fixed cost's headline leaves out the
/// machine's interrupts and spells, and a long loop's mean holds them:
/// here they put it up to 3% above the median short run (loops of 13.6 ms
/// read the reference at 822-841 ns, runs of 250 calls 817-821 ns at
/// their median, the harness 816-818 ns). Between two reads of the clock
/// 250 calls apart, its own cost is under 0.1 ns a call, and the empty
/// body's runs take it out.
fn short_runs(body: fn() -> u64, calls: u32, seconds: f64) -> f64 {
    let median = || {
        let (start, mut runs) = (Instant::now(), Vec::new());
        while runs.len() < 3 || start.elapsed().as_secs_f64() < seconds {
            let run = Instant::now();
            for _ in 0..calls {
                black_box(body());
            }
            runs.push(run.elapsed().as_secs_f64() * 1e9 / f64::from(calls));
        }
        runs.sort_by(f64::total_cmp);
        runs[runs.len() / 2]
    };
    (0..3).map(|_| median()).fold(f64::INFINITY, f64::min)
}

/// The mean cost of a call of `body` over whole cycles of `cycle` calls, at
/// least `seconds` of them, after one cycle of warm-up, in nanoseconds of
/// the thread's CPU time (another program's turn on the CPU is not the
/// body's cost, as the harness times a preempted sample by its CPU time):
/// the lowest of three such runs.
fn plain_loop(mut body: impl FnMut() -> u64, cycle: u64, seconds: f64) -> f64 {
    for _ in 0..cycle {
        black_box(body());
    }
    let cpu = || thread_cpu_time().map_or(0.0, |t| t.total().0);
    let mut run = || {
        let (start, wall) = (cpu(), Instant::now());
        let mut calls = 0;
        while calls == 0 || wall.elapsed().as_secs_f64() < seconds {
            for _ in 0..cycle {
                black_box(body());
            }
            calls += cycle;
        }
        (cpu() - start) / calls as f64
    };
    (0..3).map(|_| run()).fold(f64::INFINITY, f64::min)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--truth") {
        let name = args.get(2).map_or("", String::as_str);
        match truth(name) {
            Some(ns) => println!("{ns}"),
            None => {
                eprintln!("error: no body named '{name}'");
                std::process::exit(2);
            }
        }
        return;
    }
    // What a bench target's own `main` may print before it hands over:
    // its processes print it too, before their worker's hello.
    if let Some(banner) = std::env::var_os("BENCH_FIXTURE_BANNER") {
        println!("{}", banner.to_string_lossy());
    }
    bench_harness::main();
}
