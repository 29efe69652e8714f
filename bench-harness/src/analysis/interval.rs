//! 95% confidence intervals for the mean (Student t) and for the median
//! (order statistics, no assumption about the distribution).

use super::special::Binomial;

use super::distributions::students_t_quantile;

/// The confidence level the harness reports intervals at: 95%.
pub(crate) const CONFIDENCE_LEVEL: f64 = 0.95;

/// A confidence interval, in the unit of the values it was computed from
/// (nanoseconds for per-iteration times).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Interval {
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// Probability, between 0 and 1, that an interval built this way covers
    /// the true value: the nominal 0.95 for the mean, the exact coverage
    /// achieved by the chosen order statistics (at least 0.95) for the median.
    pub confidence: f64,
}

// The reports read the bounds themselves; the tests check intervals with
// these.
#[cfg(test)]
impl Interval {
    /// Half-width relative to `estimate`, as a fraction (0.01 = 1%):
    /// `max(estimate − lower, upper − estimate) / |estimate|`.
    ///
    /// The larger side is used because the median interval is not symmetric
    /// around the median. Infinite (or NaN) when `estimate` is zero.
    pub(crate) fn half_width_relative(&self, estimate: f64) -> f64 {
        let below = estimate - self.lower;
        let above = self.upper - estimate;
        below.max(above) / estimate.abs()
    }

    /// Whether `value` lies within the interval, bounds included.
    pub(crate) fn contains(&self, value: f64) -> bool {
        self.lower <= value && value <= self.upper
    }
}

/// The 95% confidence interval of the mean, `mean ± t·s/√n`, with `t` the
/// 97.5% quantile of Student's t with `n − 1` degrees of freedom and `s` the
/// sample standard deviation (denominator n − 1).
///
/// Exact when the samples are independent and normal, approximate otherwise
/// (the central limit theorem makes it good for large `n` unless the tail is
/// very heavy). None for `n < 2`: one sample says nothing about the spread.
pub(crate) fn mean_interval(mean: f64, std_dev: f64, n: usize) -> Option<Interval> {
    if n < 2 {
        return None;
    }
    let degrees_of_freedom = (n - 1) as f64;
    let t = students_t_quantile(0.5 + CONFIDENCE_LEVEL / 2.0, degrees_of_freedom);
    let half_width = t * std_dev / (n as f64).sqrt();
    Some(Interval {
        lower: mean - half_width,
        upper: mean + half_width,
        confidence: CONFIDENCE_LEVEL,
    })
}

/// The distribution-free confidence interval of the median: the narrowest
/// symmetric pair of order statistics `(x₍ⱼ₎, x₍ₙ₋ⱼ₊₁₎)` (1-based ranks) that
/// covers the median with probability at least 95%.
///
/// The number of samples below the true median is Binomial(n, ½) for any
/// continuous distribution, so the pair covers it with probability
/// `P(j ≤ B ≤ n − j) = 1 − 2·P(B ≤ j − 1)`, taken from the binomial
/// distribution itself rather than a normal approximation, so small samples
/// get the right ranks; [`Interval::confidence`] reports that achieved
/// coverage. Ties in the data (a coarse timer) make the interval slightly
/// conservative. `sorted` must be in ascending order.
///
/// None for `n ≤ 5`: even (min, max) then covers the median with less than
/// 95% probability (15/16 = 93.75% for n = 5), and an interval that cannot
/// keep its promise is not reported.
pub(crate) fn median_interval(sorted: &[f64]) -> Option<Interval> {
    let n = sorted.len();
    let (rank, coverage) = narrowest_median_rank(n)?;
    Some(Interval {
        lower: sorted[rank - 1],
        upper: sorted[n - rank],
        confidence: coverage,
    })
}

/// The largest 1-based rank `j` whose symmetric pair still covers the median
/// with probability ≥ 95%, and that coverage.
fn narrowest_median_rank(n: usize) -> Option<(usize, f64)> {
    let below_median = Binomial::new(0.5, n as u64).ok()?;
    let coverage = |rank: usize| 1.0 - 2.0 * below_median.cdf(rank as u64 - 1);
    if n < 2 || coverage(1) < CONFIDENCE_LEVEL {
        return None;
    }
    // Coverage shrinks as the rank grows: binary search for the last rank
    // that keeps 95%. Ranks beyond n/2 would cross the pair over.
    let (mut known_good, mut upper_bound) = (1, n / 2);
    while known_good < upper_bound {
        let candidate = (known_good + upper_bound).div_ceil(2);
        if coverage(candidate) >= CONFIDENCE_LEVEL {
            known_good = candidate;
        } else {
            upper_bound = candidate - 1;
        }
    }
    Some((known_good, coverage(known_good)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relative_error(actual: f64, expected: f64) -> f64 {
        ((actual - expected) / expected).abs()
    }

    /// Reference values printed by (SciPy 1.17.1)
    /// `python3 -c "from scipy.stats import t; [print(v, float(t.ppf(0.975, v))) for v in (9, 999, 1000, 1e5, 1e7)]"`:
    /// ```text
    /// 9 2.262157162798205
    /// 999 1.9623414611334493
    /// 1000 1.9623390808264083
    /// 100000.0 1.9599877075346095
    /// 10000000.0 1.959964221767205
    /// ```
    #[test]
    fn t_quantile_matches_scipy_from_few_to_millions_of_degrees_of_freedom() {
        let scipy = [
            (9.0, 2.262157162798205),
            (999.0, 1.9623414611334493),
            (1000.0, 1.9623390808264083),
            (1e5, 1.9599877075346095),
            (1e7, 1.959964221767205),
        ];
        for (degrees_of_freedom, expected) in scipy {
            let actual = students_t_quantile(0.975, degrees_of_freedom);
            assert!(
                relative_error(actual, expected) < 1e-12,
                "df {degrees_of_freedom}: {actual} vs {expected}"
            );
        }
    }

    #[test]
    fn five_samples_are_too_few_for_a_95_percent_median_interval() {
        assert_eq!(narrowest_median_rank(5), None);
        let (rank, coverage) = narrowest_median_rank(6).unwrap();
        assert_eq!(rank, 1);
        assert!((coverage - (1.0 - 2.0 / 64.0)).abs() < 1e-14);
    }

    #[test]
    fn half_width_uses_the_wider_side() {
        let interval = Interval {
            lower: 90.0,
            upper: 120.0,
            confidence: 0.95,
        };
        assert_eq!(interval.half_width_relative(100.0), 0.2);
    }
}
