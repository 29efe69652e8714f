//! The known-cost kernels compute what they claim, and a long chain takes
//! clearly longer than a short one.
//!
//! The machine running these may be a busy shared VM (or an emulator): the
//! timing check is a rough property with a wide margin, not a measurement.

use bench_runtime::clock::known_cost::imul_chain;
use bench_runtime::{black_box, Clock};

/// `x` squared `n` times with wrapping multiplies: x^(2^n) mod 2^64.
fn reference(x: u64, n: usize) -> u64 {
    (0..n).fold(x, |v, _| v.wrapping_mul(v))
}

const INPUTS: [u64; 8] = [
    0,
    1,
    2,
    3,
    0xdead_beef,
    0x9e37_79b9_7f4a_7c15,
    u64::MAX - 2,
    u64::MAX,
];

/// Checks `imul_chain::<N>` against the reference for every input, for each
/// `N` listed (a const generic needs one instantiation per value).
macro_rules! check_chains {
    ($($n:literal),+ $(,)?) => {
        $(
            for x in INPUTS {
                assert_eq!(
                    imul_chain::<$n>(black_box(x)),
                    reference(x, $n),
                    "imul_chain::<{}>({x:#x})",
                    $n
                );
            }
        )+
    };
}

#[test]
fn chain_squares_its_input_n_times() {
    // Past 1000 the chain loops over a block of 1000.
    check_chains!(0, 1, 2, 3, 5, 7, 10, 31, 63, 64, 100, 999, 1000, 1001, 2000, 2500, 10000);
}

#[test]
fn small_chains_have_the_expected_values() {
    assert_eq!(imul_chain::<0>(black_box(3)), 3);
    assert_eq!(imul_chain::<1>(black_box(3)), 9);
    assert_eq!(imul_chain::<3>(black_box(3)), 6561);
    assert_eq!(imul_chain::<5>(black_box(3)), 3u64.pow(32));
    // 2^64 wraps to zero.
    assert_eq!(imul_chain::<6>(black_box(2)), 0);
}

/// The median time of 51 calls, each timed on its own.
fn median_nanos(clock: &Clock, kernel: impl Fn(u64) -> u64) -> f64 {
    let mut times: Vec<f64> = (0..51)
        .map(|_| {
            let start = clock.start();
            black_box(kernel(black_box(3)));
            let end = clock.stop();
            clock.elapsed(start, end).0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

#[test]
fn a_chain_of_10000_takes_clearly_longer_than_one_of_100() {
    let Ok(clock) = Clock::cycles() else {
        eprintln!("skipped: no usable cycle counter");
        return;
    };
    // Warm the code and the caches once before timing.
    black_box(imul_chain::<100>(black_box(3)));
    black_box(imul_chain::<10000>(black_box(3)));
    let short = median_nanos(&clock, imul_chain::<100>);
    let long = median_nanos(&clock, imul_chain::<10000>);
    // Truth is about 100 times, less the read pair's share of the short one.
    assert!(
        long > 5.0 * short,
        "imul_chain::<10000> took {long:.1} ns, imul_chain::<100> {short:.1} ns: \
         expected a ratio above 5"
    );
}

#[test]
fn a_looped_chain_runs_every_block() {
    // 3000 is three passes over the 1000-multiply block: three times the
    // time of 1000, not once (a loop that ran one pass) nor four.
    let Ok(clock) = Clock::cycles() else {
        eprintln!("skipped: no usable cycle counter");
        return;
    };
    black_box(imul_chain::<1000>(black_box(3)));
    black_box(imul_chain::<3000>(black_box(3)));
    let one = median_nanos(&clock, imul_chain::<1000>);
    let three = median_nanos(&clock, imul_chain::<3000>);
    let ratio = three / one;
    assert!(
        (2.4..3.6).contains(&ratio),
        "imul_chain::<3000> took {three:.1} ns, imul_chain::<1000> {one:.1} ns: \
         expected a ratio near 3, got {ratio:.2}"
    );
}
