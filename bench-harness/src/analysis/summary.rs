//! The descriptive statistics reported for every benchmark.

use super::interval::{mean_interval, median_interval, Interval};
use super::moments;
use super::percentile::percentile;

/// Factor that turns the raw median absolute deviation into an estimate of
/// the standard deviation for normally distributed data: `1 / Φ⁻¹(3/4)`.
/// The reports and the document give the raw MAD and say to scale it by
/// this (docs/json-schema.md); the tests check the factor.
#[cfg(test)]
pub(crate) const MAD_NORMAL_CONSISTENCY: f64 = 1.482_602_218_505_602;

/// Location and spread of a benchmark's samples.
///
/// Every field except `n` and `coefficient_of_variation` is in the unit of
/// the samples: nanoseconds per iteration for the harness.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Summary {
    /// Number of samples.
    pub n: usize,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median: the 50th percentile under the rule of [`percentile`].
    pub median: f64,
    /// Sample standard deviation (denominator n − 1). Zero for a single
    /// sample: there is no spread to see, and both intervals are None.
    pub std_dev: f64,
    /// `std_dev / mean`, a fraction (0.02 = 2%). Not finite when the mean is
    /// zero.
    pub coefficient_of_variation: f64,
    /// Raw median absolute deviation, `median(|xᵢ − median|)`, not scaled.
    /// Multiply by [`MAD_NORMAL_CONSISTENCY`] (see
    /// [`Summary::mad_std_dev_estimate`]) to compare it with `std_dev`.
    pub median_absolute_deviation: f64,
    /// Tail percentiles, for latency-style reporting.
    pub percentiles: Percentiles,
    /// 95% confidence interval of the mean (Student t, n − 1 degrees of
    /// freedom); None for fewer than 2 samples. See [`mean_interval`].
    pub mean_interval: Option<Interval>,
    /// Distribution-free 95% confidence interval of the median from order
    /// statistics; None for 5 samples or fewer. See [`median_interval`].
    pub median_interval: Option<Interval>,
}

/// Percentiles of the samples, by linear interpolation between closest ranks
/// (the rule of [`percentile`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Percentiles {
    /// 50th percentile (equal to the median).
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p99_9: f64,
}

impl Summary {
    /// The median absolute deviation scaled by [`MAD_NORMAL_CONSISTENCY`]: a
    /// standard-deviation estimate that outliers barely move. For normal data
    /// it is close to `std_dev`; much smaller means the spread comes from a
    /// few outliers.
    #[cfg(test)] // only the tests call it
    pub(crate) fn mad_std_dev_estimate(&self) -> f64 {
        self.median_absolute_deviation * MAD_NORMAL_CONSISTENCY
    }
}

/// Summarizes `values` (in any order), or None when there are none.
///
/// The values are sorted once, on a copy; the caller's slice is untouched.
/// They should be finite: NaN or infinities do not panic, but make the
/// statistics meaningless.
pub(crate) fn summarize(values: &[f64]) -> Option<Summary> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);

    let n = sorted.len();
    let mean = moments::mean(&sorted);
    let std_dev = moments::sample_variance(&sorted, mean).sqrt();
    let median = percentile(&sorted, 50.0);
    Some(Summary {
        n,
        min: sorted[0],
        max: sorted[n - 1],
        mean,
        median,
        std_dev,
        coefficient_of_variation: std_dev / mean,
        median_absolute_deviation: median_absolute_deviation(&sorted, median),
        percentiles: Percentiles {
            p50: median,
            p90: percentile(&sorted, 90.0),
            p95: percentile(&sorted, 95.0),
            p99: percentile(&sorted, 99.0),
            p99_9: percentile(&sorted, 99.9),
        },
        mean_interval: mean_interval(mean, std_dev, n),
        median_interval: median_interval(&sorted),
    })
}

/// `median(|xᵢ − median|)` with the same median rule as [`percentile`].
fn median_absolute_deviation(values: &[f64], median: f64) -> f64 {
    let mut deviations: Vec<f64> = values.iter().map(|x| (x - median).abs()).collect();
    // Selection instead of a second sort: only the middle one or two
    // deviations matter.
    let middle = deviations.len() / 2;
    let (smaller, &mut upper_middle, _) = deviations.select_nth_unstable_by(middle, f64::total_cmp);
    if values.len() % 2 == 1 {
        return upper_middle;
    }
    let lower_middle = smaller
        .iter()
        .copied()
        .max_by(f64::total_cmp)
        .unwrap_or(upper_middle);
    f64::midpoint(lower_middle, upper_middle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_samples_no_summary() {
        assert_eq!(summarize(&[]), None);
    }

    #[test]
    fn a_single_sample_has_no_spread_and_no_intervals() {
        let summary = summarize(&[42.0]).unwrap();
        assert_eq!(summary.std_dev, 0.0);
        assert_eq!(summary.median_absolute_deviation, 0.0);
        assert_eq!(summary.mean_interval, None);
        assert_eq!(summary.median_interval, None);
    }

    #[test]
    fn mad_of_an_even_sample_averages_the_middle_deviations() {
        // Median 2.5; sorted deviations 0.5 0.5 1.5 1.5 2.5 97.5.
        let values = [1.0, 2.0, 3.0, 4.0, 100.0, 0.0];
        assert_eq!(median_absolute_deviation(&values, 2.5), 1.5);
    }
}
