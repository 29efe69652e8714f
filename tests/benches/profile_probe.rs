//! Two builds of one bench file for the differential flame graph's tests:
//! built with `PROFILE_PROBE_SLOWER=1` in the environment, `slow_helper`
//! runs twice as many dependent multiplies as in the other build;
//! `steady_helper` (1.5 times the other build's `slow_helper`) is the same
//! in both.

use bench_harness::known_cost::imul_chain;
use bench_harness::{benchmark, black_box};

/// Whether this build's `slow_helper` is the slower one.
const SLOWER: bool = option_env!("PROFILE_PROBE_SLOWER").is_some();

#[inline(never)]
fn steady_helper(x: u64) -> u64 {
    // Not 2000: two functions of the same code would be folded into one.
    imul_chain::<3000>(black_box(x))
}

#[inline(never)]
fn slow_helper(x: u64) -> u64 {
    if SLOWER {
        imul_chain::<4000>(black_box(x))
    } else {
        imul_chain::<2000>(black_box(x))
    }
}

#[benchmark]
fn two_helpers() -> u64 {
    steady_helper(black_box(3)) ^ slow_helper(black_box(5))
}

bench_harness::main!();
