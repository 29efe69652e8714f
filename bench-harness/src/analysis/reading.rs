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

    /// Where a rerun's time falls (95%), relative to this one: this
    /// headline's own half-width and `rerun` (the relative half-width its
    /// history gives a rerun) combined in quadrature on the log scale, so
    /// the interval `[t·e^−H, t·e^H]` never reaches zero, returned as
    /// `e^H − 1`. `None` for a bound or a time without an interval: the
    /// run says nothing a rerun could be held to.
    pub(crate) fn rerun_plus_minus(&self, rerun: f64) -> Option<f64> {
        let own = self.relative_half_width()?;
        let combined = own.ln_1p().hypot(rerun.ln_1p());
        Some(combined.exp_m1())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A rerun's term adds to a row's own ± in quadrature on logs, so the
    /// interval never reaches zero however wide; a bound or a time
    /// without an interval gets none.
    #[test]
    fn a_rerun_adds_to_the_own_half_width_on_logs() {
        let time = Headline::new(100.0, Some((97.0, 103.0)));
        let rerun = time.rerun_plus_minus(0.04).unwrap();
        let expected = (0.03f64.ln_1p().hypot(0.04f64.ln_1p())).exp_m1();
        assert!((rerun - expected).abs() < 1e-12, "{rerun}");
        assert!(rerun > 0.04 && rerun < 0.052, "{rerun}");
        assert!((time.rerun_plus_minus(0.0).unwrap() - 0.03).abs() < 1e-12);
        // Three times the time (a rerun of a same-code step): wide, and
        // still a time: [t / 4.1, t · 4.1].
        assert!(time.rerun_plus_minus(3.0).unwrap() > 3.0);
        assert_eq!(
            Headline::new(100.0, Some((-1.0, 150.0))).rerun_plus_minus(0.04),
            None
        );
        assert_eq!(Headline::new(100.0, None).rerun_plus_minus(0.04), None);
    }
}
