//! Two builds of one bench file for the `--against` tests: built with
//! `AGAINST_FIXTURE_CHAIN=1020` in the environment, `chain` runs 1020
//! dependent multiplies instead of 1000 (2% more work, a regression of
//! known size), and `body_changes` 4000 (for the history's code hash);
//! everything else is the same in both builds.

use bench_harness::known_cost::imul_chain;
use bench_harness::{benchmark, black_box, Bencher};

/// Whether this build is the longer one (decided when it was compiled).
const LONGER: bool = option_env!("AGAINST_FIXTURE_CHAIN").is_some();

#[benchmark]
fn chain() -> u64 {
    if LONGER {
        imul_chain::<1020>(black_box(3))
    } else {
        imul_chain::<1000>(black_box(3))
    }
}

/// Four times the work in the longer build: a step the history sees in
/// three runs of each build, across a change of code.
#[benchmark]
fn body_changes() -> u64 {
    if LONGER {
        imul_chain::<4000>(black_box(3))
    } else {
        imul_chain::<1000>(black_box(3))
    }
}

#[benchmark]
fn unchanged() -> u64 {
    imul_chain::<1000>(black_box(3))
}

/// Sub-nanosecond: each build's time is mostly the loop overhead taken
/// out, so the two sides must take out the same one.
#[benchmark]
fn add() -> u64 {
    black_box(1u64) + black_box(2u64)
}

/// Nothing at all: times scattered about zero, no ratio to take.
#[benchmark]
fn empty() {}

/// Prints on stdout while setting up: a worker's replies must survive it.
#[benchmark]
fn prints(b: &mut Bencher) {
    println!("{{\"type\":\"opened\"}} printed by a benchmark, not a reply");
    b.iter(|| imul_chain::<100>(black_box(3)))
}

/// Aborts when measured as a worker and `AGAINST_FIXTURE_DIE` is set: a
/// worker that crashes mid-run.
#[benchmark]
fn dies_in_worker() -> u64 {
    if std::env::var_os("AGAINST_FIXTURE_DIE").is_some()
        && std::env::var_os("BENCH_HARNESS_AGAINST_WORKER").is_some()
    {
        std::process::abort();
    }
    imul_chain::<100>(black_box(3))
}

/// Never returns when measured as a worker and `AGAINST_FIXTURE_HANG` is
/// set: a worker that hangs mid-run.
#[benchmark]
fn hangs_in_worker() -> u64 {
    if std::env::var_os("AGAINST_FIXTURE_HANG").is_some()
        && std::env::var_os("BENCH_HARNESS_AGAINST_WORKER").is_some()
    {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
    imul_chain::<100>(black_box(3))
}

bench_harness::main!();
