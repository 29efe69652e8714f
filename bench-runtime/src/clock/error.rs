//! Why a clock cannot be used, in words a user can act on.

use std::fmt;

/// Why the requested clock cannot time benchmarks on this machine.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ClockError {
    /// bench-harness has no cycle counter for this CPU architecture.
    NoCycleCounter,
    /// x86_64: CPUID does not report an invariant TSC, so the counter's rate
    /// may change with frequency scaling or stop in sleep states.
    NoInvariantTsc,
    /// x86_64: the CPU lacks RDTSCP, which the end-of-sample read uses.
    NoRdtscp,
    /// The cycle counter did not advance while the OS clock did.
    CounterStuck,
    /// The cycle counter went backwards between two reads.
    CounterWentBackwards,
    /// Calibration rounds disagreed on the counter's rate.
    UnstableFrequency {
        /// The slowest round's rate, in ticks per second.
        min_hz: f64,
        /// The fastest round's rate, in ticks per second.
        max_hz: f64,
    },
    /// The OS clock could not be read.
    OsClockUnreadable {
        /// What `clock_gettime` set `errno` to.
        errno: i32,
    },
}

const USE_OS: &str = "use --timer os (or --timer auto to fall back)";

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unusable = "the cycle counter is not usable here";
        match self {
            ClockError::NoCycleCounter => write!(
                f,
                "{unusable}: bench-harness has no cycle counter for {} CPUs; {USE_OS}",
                std::env::consts::ARCH
            ),
            ClockError::NoInvariantTsc => write!(
                f,
                "{unusable}: the CPU does not report an invariant TSC; {USE_OS}"
            ),
            ClockError::NoRdtscp => write!(
                f,
                "{unusable}: the CPU does not support the RDTSCP instruction; {USE_OS}"
            ),
            ClockError::CounterStuck => write!(
                f,
                "{unusable}: it did not advance during calibration; {USE_OS}"
            ),
            ClockError::CounterWentBackwards => write!(
                f,
                "{unusable}: it went backwards during calibration (are the counters of \
                 different cores out of sync?); pin the benchmark to one core \
                 (taskset -c 0) or {USE_OS}"
            ),
            ClockError::UnstableFrequency { min_hz, max_hz } => write!(
                f,
                "{unusable}: its rate varied from {:.1} to {:.1} MHz during calibration; \
                 retry on a quieter machine or {USE_OS}",
                min_hz / 1e6,
                max_hz / 1e6
            ),
            ClockError::OsClockUnreadable { errno } => write!(
                f,
                "cannot read the OS clock: clock_gettime failed: {}; if a sandbox \
                 (seccomp) runs the benchmark, allow clock_gettime",
                std::io::Error::from_raw_os_error(*errno)
            ),
        }
    }
}

impl std::error::Error for ClockError {}
