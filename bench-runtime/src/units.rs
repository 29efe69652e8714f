//! Quantities that carry their unit.

use std::iter::Sum;
use std::ops::{Add, AddAssign, Div, Mul, Sub};

/// A raw reading of a clock, in that clock's own ticks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticks(pub u64);

/// A duration in nanoseconds. Fractional, so that per-iteration figures keep
/// sub-nanosecond (picosecond) precision.
#[derive(Copy, Clone, Debug, Default, PartialEq, PartialOrd)]
pub struct Nanos(pub f64);

impl Nanos {
    /// No time at all.
    pub const ZERO: Nanos = Nanos(0.0);

    /// `secs` seconds.
    pub fn from_secs(secs: f64) -> Nanos {
        Nanos(secs * 1e9)
    }

    /// The same span as `d`.
    pub fn from_duration(d: std::time::Duration) -> Nanos {
        Nanos(d.as_nanos() as f64)
    }

    /// This span in seconds.
    pub fn as_secs(self) -> f64 {
        self.0 * 1e-9
    }

    /// The longer of the two.
    pub fn max(self, other: Nanos) -> Nanos {
        Nanos(self.0.max(other.0))
    }
}

impl Add for Nanos {
    type Output = Nanos;
    fn add(self, rhs: Nanos) -> Nanos {
        Nanos(self.0 + rhs.0)
    }
}

impl AddAssign for Nanos {
    fn add_assign(&mut self, rhs: Nanos) {
        self.0 += rhs.0;
    }
}

impl Sub for Nanos {
    type Output = Nanos;
    fn sub(self, rhs: Nanos) -> Nanos {
        Nanos(self.0 - rhs.0)
    }
}

impl Mul<f64> for Nanos {
    type Output = Nanos;
    fn mul(self, rhs: f64) -> Nanos {
        Nanos(self.0 * rhs)
    }
}

impl Div<f64> for Nanos {
    type Output = Nanos;
    fn div(self, rhs: f64) -> Nanos {
        Nanos(self.0 / rhs)
    }
}

impl Sum for Nanos {
    fn sum<I: Iterator<Item = Nanos>>(iter: I) -> Nanos {
        Nanos(iter.map(|n| n.0).sum())
    }
}
