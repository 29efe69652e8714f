//! Clocks: the OS monotonic clock and the per-architecture cycle counter.
//!
//! INTERIM: only the OS clock is wired up; the cycle counters, calibration and
//! precision measurement land next (see docs/ARCHITECTURE.md).

use crate::units::{Nanos, Ticks};

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

/// The kind of clock in use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ClockKind {
    Os,
    Cycles,
}

/// A clock that can time a sample: two reads and a conversion to nanoseconds.
#[derive(Copy, Clone, Debug)]
pub struct Clock {
    kind: ClockKind,
    nanos_per_tick: f64,
}

impl Clock {
    pub fn os() -> Clock {
        Clock {
            kind: ClockKind::Os,
            nanos_per_tick: 1.0,
        }
    }

    pub fn kind(&self) -> ClockKind {
        self.kind
    }

    /// Reads the clock at the start of a timed region.
    #[inline(always)]
    pub fn start(&self) -> Ticks {
        os_now()
    }

    /// Reads the clock at the end of a timed region.
    #[inline(always)]
    pub fn stop(&self) -> Ticks {
        os_now()
    }

    /// The time between two readings of this clock.
    #[inline]
    pub fn elapsed(&self, start: Ticks, end: Ticks) -> Nanos {
        Nanos(end.0.saturating_sub(start.0) as f64 * self.nanos_per_tick)
    }
}

#[inline(always)]
fn os_now() -> Ticks {
    use std::sync::OnceLock;
    use std::time::Instant;
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    Ticks(epoch.elapsed().as_nanos() as u64)
}

/// What a clock can resolve, measured at start-up.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimerPrecision {
    /// The smallest non-zero difference between two consecutive reads.
    pub resolution: Nanos,
    /// The cost of one start/stop read pair.
    pub overhead: Nanos,
}
