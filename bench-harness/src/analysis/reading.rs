//! The reading of a headline: a time with its relative ±, or only a bound
//! where the interval says no more. One rule for the report's rows and for
//! the history's records of them.

/// How a headline reads: a time with its ±, or only a bound where the
/// interval says no more.
///
/// The ± is the interval's half-width (its wider side) relative to the time
/// itself. Where the interval reaches zero (its lower end at or below 0, or
/// a half-width at least the time), `T ±p%` would claim a time the data do
/// not support (`1.063 ps ±0.55%` was printed for the interval
/// [−0.62, 2.75] ps, the ± relative to the loop's own cost): the body costs
/// at most the interval's upper end, and that is all that is printed, `<X`.
/// The machine-readable outputs (JSON, CSV, bencher) keep the numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Headline {
    /// A time in ns, with its relative half-width when it has an interval.
    Time { nanos: f64, plus_minus: Option<f64> },
    /// The interval reaches zero: the time is at most `upper` ns.
    AtMost { upper: f64 },
    /// No positive time at all: the whole interval is at or below zero, or
    /// the time is negative and has no interval.
    Zero,
}

impl Headline {
    /// A headline of `nanos` with the 95% interval `(lower, upper)`, if any.
    pub(crate) fn new(nanos: f64, interval: Option<(f64, f64)>) -> Headline {
        match interval {
            // Not a number (a damaged history record): shown as it is.
            _ if nanos.is_nan() => Headline::Time {
                nanos,
                plus_minus: None,
            },
            None if nanos >= 0.0 => Headline::Time {
                nanos,
                plus_minus: None,
            },
            None => Headline::Zero,
            Some((_, upper)) if upper <= 0.0 => Headline::Zero,
            Some((lower, upper)) => {
                let half_width = (nanos - lower).max(upper - nanos);
                if lower <= 0.0 || half_width >= nanos {
                    Headline::AtMost { upper }
                } else {
                    Headline::Time {
                        nanos,
                        plus_minus: Some(half_width / nanos),
                    }
                }
            }
        }
    }

    /// The interval's half-width relative to the time; `None` for a bound
    /// or without an interval.
    pub(crate) fn relative_half_width(&self) -> Option<f64> {
        match *self {
            Headline::Time { plus_minus, .. } => plus_minus,
            _ => None,
        }
    }

    /// Whether only a bound is printed (`<X` or `≈0`).
    pub(crate) fn is_bound(&self) -> bool {
        !matches!(self, Headline::Time { .. })
    }
}
