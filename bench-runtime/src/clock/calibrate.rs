//! Calibrating a cycle counter's rate against the OS clock at start-up.
//!
//! Both clocks are read together, the thread sleeps, and both are read again;
//! the counter's rate is its ticks over the OS clock's nanoseconds. Sleeping
//! rather than spinning leaves the CPU to others, and lets the thread migrate
//! and the core idle, so a counter that stops in sleep states or differs
//! between cores shows up here rather than in the results.

use std::time::Duration;

use super::{median, os, ClockError};
use crate::units::Ticks;

/// Rounds of measurement; the median is kept.
const ROUNDS: usize = 5;
/// The interval each round measures. With both ends read to within ~100 ns,
/// one round's error is ~1e-5; five rounds cost ~50 ms of start-up.
const ROUND_TIME: Duration = Duration::from_millis(10);
/// Reads of each end of a round; the tightest-bracketed one is kept.
const READS_PER_END: usize = 8;
/// How far a round, or the hardware's stated rate, may stray from the
/// median and still count as agreeing with it.
const AGREEMENT: f64 = 0.01;

/// The counter's ticks per second, measured against the OS clock.
///
/// `reported_hz` is the rate the hardware states, if it states one: it is
/// used when it agrees with the measurement to 1%, since it is exact; a
/// misprogrammed register is ignored in favour of the measured rate.
pub(super) fn ticks_per_second(
    read_counter: fn() -> Ticks,
    reported_hz: Option<f64>,
) -> Result<f64, ClockError> {
    let mut rates = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let begin = read_both(read_counter);
        std::thread::sleep(ROUND_TIME);
        let end = read_both(read_counter);
        let ticks = end
            .ticks
            .0
            .checked_sub(begin.ticks.0)
            .ok_or(ClockError::CounterWentBackwards)?;
        if ticks == 0 {
            return Err(ClockError::CounterStuck);
        }
        rates.push(ticks as f64 * 1e9 / (end.os_nanos - begin.os_nanos));
    }

    let measured = median(&mut rates); // also sorts `rates`
    let agreeing = rates.iter().filter(|&&rate| agrees(rate, measured)).count();
    // A round is spoiled only if the thread is preempted while reading one of
    // its ends, so a majority of rounds agreeing is what a working counter
    // shows even on a busy machine.
    if agreeing <= ROUNDS / 2 {
        return Err(ClockError::UnstableFrequency {
            min_hz: rates[0],
            max_hz: rates[ROUNDS - 1],
        });
    }
    Ok(match reported_hz {
        Some(reported) if agrees(reported, measured) => reported,
        _ => measured,
    })
}

fn agrees(rate: f64, reference: f64) -> bool {
    (rate / reference - 1.0).abs() <= AGREEMENT
}

/// A counter reading and the OS clock's time at that moment.
struct PairedRead {
    ticks: Ticks,
    os_nanos: f64,
}

/// Reads the counter between two OS clock reads and pairs it with their
/// midpoint, keeping the try whose OS reads are closest together: a try
/// interrupted between its reads is wide and loses.
fn read_both(read_counter: fn() -> Ticks) -> PairedRead {
    let mut best = PairedRead {
        ticks: Ticks(0),
        os_nanos: 0.0,
    };
    let mut best_width = u64::MAX;
    for _ in 0..READS_PER_END {
        let before = os::now();
        let ticks = read_counter();
        let after = os::now();
        let width = after.0.saturating_sub(before.0);
        if width < best_width {
            best_width = width;
            best = PairedRead {
                ticks,
                os_nanos: before.0 as f64 + width as f64 / 2.0,
            };
        }
    }
    best
}
