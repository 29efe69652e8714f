//! Clocks: the OS monotonic clock and the per-architecture cycle counter.
//!
//! A [`Clock`] is chosen once at start-up ([`Clock::select`]) and then read
//! twice per sample ([`Clock::start`], [`Clock::stop`]). The cycle counter is
//! cheaper to read and finer-grained than the OS clock, but counts in its own
//! ticks: [`Clock::cycles`] checks that it is usable and calibrates it against
//! the OS clock.
//!
//! Each architecture's counter lives in its own file under `arch/`, behind
//! one small interface; `arch` picks the file by `cfg`.

#[allow(unsafe_code)]
mod arch;
mod calibrate;
pub mod cpu;
mod error;
pub mod known_cost;
mod os;
mod precision;

use std::sync::OnceLock;

use crate::units::{Nanos, Ticks};

pub use error::ClockError;
pub use precision::TimerPrecision;

/// Which clock the user asked for on the command line (`--timer`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimerChoice {
    /// The cycle counter where it is usable, else the OS clock.
    Auto,
    /// The OS monotonic clock.
    Os,
    /// The cycle counter; an error where it is not usable.
    Cycles,
}

impl TimerChoice {
    /// Every choice, in the order `--help` lists them.
    pub const ALL: [TimerChoice; 3] = [TimerChoice::Auto, TimerChoice::Os, TimerChoice::Cycles];

    /// The word for it on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TimerChoice::Auto => "auto",
            TimerChoice::Os => "os",
            TimerChoice::Cycles => "cycles",
        }
    }
}

impl std::fmt::Display for TimerChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for TimerChoice {
    type Err = ();

    /// The inverse of [`TimerChoice::name`].
    fn from_str(text: &str) -> Result<Self, ()> {
        TimerChoice::ALL
            .into_iter()
            .find(|choice| choice.name() == text)
            .ok_or(())
    }
}

/// The kind of clock in use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ClockKind {
    /// The OS monotonic clock; ticks are nanoseconds.
    Os,
    /// The CPU's cycle counter, calibrated against the OS clock.
    Cycles,
}

/// A clock that can time a sample: two reads and a conversion to nanoseconds.
#[derive(Copy, Clone, Debug)]
pub struct Clock {
    kind: ClockKind,
    nanos_per_tick: f64,
}

impl Clock {
    /// The OS monotonic clock: `CLOCK_MONOTONIC_RAW` on Linux and Android,
    /// [`std::time::Instant`] elsewhere.
    ///
    /// Reads panic if the OS refuses them; [`Clock::select`] checks that it
    /// does not, and says so as a [`ClockError`].
    pub fn os() -> Clock {
        Clock {
            kind: ClockKind::Os,
            nanos_per_tick: 1.0,
        }
    }

    /// The CPU's cycle counter, if it is usable here, calibrated against the
    /// OS clock.
    ///
    /// The first call checks the counter and calibrates it (about 50 ms); later
    /// calls return the same result at once, so every benchmark in a process
    /// converts ticks with the same factor.
    pub fn cycles() -> Result<Clock, ClockError> {
        static CALIBRATED: OnceLock<Result<Clock, ClockError>> = OnceLock::new();
        CALIBRATED
            .get_or_init(|| {
                arch::check_usable()?;
                os::check()?;
                let ticks_per_second =
                    calibrate::ticks_per_second(arch::read_start, arch::reported_frequency_hz())?;
                Ok(Clock {
                    kind: ClockKind::Cycles,
                    nanos_per_tick: 1e9 / ticks_per_second,
                })
            })
            .clone()
    }

    /// The clock the user asked for: [`TimerChoice::Auto`] takes the cycle
    /// counter where it is usable and the OS clock otherwise.
    pub fn select(choice: TimerChoice) -> Result<Clock, ClockError> {
        match choice {
            TimerChoice::Auto => Clock::cycles().or_else(|_| Clock::checked_os()),
            TimerChoice::Os => Clock::checked_os(),
            TimerChoice::Cycles => Clock::cycles(),
        }
    }

    fn checked_os() -> Result<Clock, ClockError> {
        os::check()?;
        Ok(Clock::os())
    }

    /// Which kind of clock this is.
    pub fn kind(&self) -> ClockKind {
        self.kind
    }

    /// What this clock reads, for reports: "rdtsc (invariant TSC)",
    /// "cntvct_el0", "rdtime", "CLOCK_MONOTONIC_RAW" or "Instant".
    pub fn name(&self) -> &'static str {
        match self.kind {
            ClockKind::Os => os::NAME,
            ClockKind::Cycles => arch::NAME,
        }
    }

    /// Ticks per second (1e9 for the OS clock).
    pub fn frequency_hz(&self) -> f64 {
        1e9 / self.nanos_per_tick
    }

    /// The duration of one tick.
    pub fn nanos_per_tick(&self) -> Nanos {
        Nanos(self.nanos_per_tick)
    }

    /// Reads the clock at the start of a timed region.
    // PERF: a two-way match on a field that never changes: the branch is
    // always predicted and costs about a cycle. In `start` it runs before the
    // read, outside the timed region; in `stop`, inside it, so it is part of
    // the read-pair overhead that `TimerPrecision` measures.
    #[inline(always)]
    pub fn start(&self) -> Ticks {
        match self.kind {
            ClockKind::Os => os::now(),
            ClockKind::Cycles => arch::read_start(),
        }
    }

    /// Reads the clock at the end of a timed region.
    #[inline(always)]
    pub fn stop(&self) -> Ticks {
        match self.kind {
            ClockKind::Os => os::now(),
            ClockKind::Cycles => arch::read_stop(),
        }
    }

    /// The time between two readings of this clock.
    #[inline]
    pub fn elapsed(&self, start: Ticks, end: Ticks) -> Nanos {
        Nanos(end.0.saturating_sub(start.0) as f64 * self.nanos_per_tick)
    }
}

/// The median of `values`, which must not be empty; sorts them in place.
pub(crate) fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
