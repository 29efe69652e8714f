//! Architectures without a supported cycle counter: only the OS clock, and
//! a plain-Rust stand-in for the known-cost chain.

use crate::clock::ClockError;
use crate::units::Ticks;

pub(crate) const NAME: &str = "none";

pub(crate) fn check_usable() -> Result<(), ClockError> {
    Err(ClockError::NoCycleCounter)
}

pub(crate) fn reported_frequency_hz() -> Option<f64> {
    None
}

pub(crate) fn read_start() -> Ticks {
    unreachable!("no cycle-counter Clock is made where check_usable refuses")
}

pub(crate) fn read_stop() -> Ticks {
    unreachable!("no cycle-counter Clock is made where check_usable refuses")
}

/// The same value as the asm chains, at a cost that is not known exactly:
/// the compiler schedules it freely (see `clock::known_cost`).
#[inline(always)]
pub(crate) fn imul_chain<const N: usize>(mut v: u64) -> u64 {
    for _ in 0..N {
        v = v.wrapping_mul(v);
    }
    v
}
