//! The OS monotonic clock. Ticks are nanoseconds.
//!
//! Linux and Android: `CLOCK_MONOTONIC_RAW`, which NTP neither steps nor
//! slews, so a sample is never stretched or shrunk by a rate correction.
//! Elsewhere: [`std::time::Instant`], the platform's monotonic clock.

use super::ClockError;
use crate::units::Ticks;

#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) const NAME: &str = "CLOCK_MONOTONIC_RAW";

/// Reads the clock, or says why the OS refused.
#[cfg(any(target_os = "linux", target_os = "android"))]
#[inline(always)]
fn try_now() -> Result<Ticks, i32> {
    crate::sys::time::monotonic_raw_nanos().map(Ticks)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) const NAME: &str = "Instant";

/// Reads the clock: nanoseconds since the first read in this process.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
#[inline(always)]
fn try_now() -> Result<Ticks, i32> {
    use std::sync::OnceLock;
    use std::time::Instant;
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    Ok(Ticks(epoch.elapsed().as_nanos() as u64))
}

/// Reads the clock.
///
/// # Panics
/// If the OS refuses; [`check`] reports that as an error before any sample.
#[inline(always)]
pub(super) fn now() -> Ticks {
    match try_now() {
        Ok(ticks) => ticks,
        Err(errno) => read_failed(errno),
    }
}

#[cold]
#[inline(never)]
fn read_failed(errno: i32) -> ! {
    panic!("{}", ClockError::OsClockUnreadable { errno })
}

/// Ok when the clock can be read here.
pub(super) fn check() -> Result<(), ClockError> {
    match try_now() {
        Ok(_) => Ok(()),
        Err(errno) => Err(ClockError::OsClockUnreadable { errno }),
    }
}
