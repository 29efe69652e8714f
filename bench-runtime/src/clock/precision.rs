//! What a clock can resolve and what reading it costs, measured at start-up.

use std::hint::black_box;

use super::{median, Clock};
use crate::units::Nanos;

/// What a clock can resolve, measured at start-up.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimerPrecision {
    /// The smallest non-zero difference between two consecutive reads.
    pub resolution: Nanos,
    /// The cost of one start/stop read pair.
    pub overhead: Nanos,
}

/// Non-zero differences to collect; the smallest is the resolution.
const RESOLUTION_DIFFS: usize = 300;
/// Reads after which a coarse clock stops being sampled for more differences
/// (it still must show one).
const RESOLUTION_MAX_READS: usize = 100_000;
/// Rounds of read pairs; the median round is kept.
const OVERHEAD_ROUNDS: usize = 101;
/// Read pairs per round, timed together so the outer reads are amortised.
const PAIRS_PER_ROUND: u32 = 100;

impl TimerPrecision {
    /// Measures `clock`; takes a few milliseconds at most.
    pub fn measure(clock: &Clock) -> TimerPrecision {
        TimerPrecision {
            resolution: resolution(clock),
            overhead: read_pair_overhead(clock),
        }
    }
}

/// The smallest non-zero step between consecutive reads. For a fine clock
/// this is the cost of one read; for a coarse one, its tick.
fn resolution(clock: &Clock) -> Nanos {
    let mut smallest = u64::MAX;
    let mut seen = 0;
    let mut reads = 0;
    let mut previous = clock.start();
    while seen < RESOLUTION_DIFFS && (reads < RESOLUTION_MAX_READS || seen == 0) {
        let now = clock.start();
        let step = now.0.saturating_sub(previous.0);
        if step > 0 {
            smallest = smallest.min(step);
            seen += 1;
        }
        previous = now;
        reads += 1;
    }
    Nanos(smallest as f64) * clock.nanos_per_tick().0
}

/// The median cost of one `start()` + `stop()` pair.
fn read_pair_overhead(clock: &Clock) -> Nanos {
    let mut per_pair: Vec<f64> = (0..OVERHEAD_ROUNDS)
        .map(|_| {
            let outer_start = clock.start();
            for _ in 0..PAIRS_PER_ROUND {
                black_box(clock.start());
                black_box(clock.stop());
            }
            let outer_end = clock.stop();
            clock.elapsed(outer_start, outer_end).0 / f64::from(PAIRS_PER_ROUND)
        })
        .collect();
    Nanos(median(&mut per_pair))
}
