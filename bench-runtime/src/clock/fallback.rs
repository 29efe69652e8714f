//! Architectures without a supported cycle counter: only the OS clock.

use super::ClockError;
use crate::units::Ticks;

pub(super) const NAME: &str = "none";

pub(super) fn check_usable() -> Result<(), ClockError> {
    Err(ClockError::NoCycleCounter)
}

pub(super) fn reported_frequency_hz() -> Option<f64> {
    None
}

pub(super) fn read_start() -> Ticks {
    unreachable!("no cycle-counter Clock is made where check_usable refuses")
}

pub(super) fn read_stop() -> Ticks {
    unreachable!("no cycle-counter Clock is made where check_usable refuses")
}
