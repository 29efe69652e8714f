//! Outliers: counted, never silently dropped.
//!
//! Two views are reported side by side, because they answer different
//! questions. Tukey's fences come from the quartiles, so the outliers cannot
//! hide themselves by inflating the yardstick; the 3-sigma count is the
//! familiar one, but a few huge samples inflate the standard deviation they
//! are measured with. (With the sample standard deviation no value can be
//! more than `(n − 1)/√n` sigmas away, so the 3-sigma count is always zero
//! for n ≤ 10.)
//!
//! The caller decides what to do: [`without_outliers`] returns a filtered
//! copy for a "robust" view, and the full data stays available for the
//! percentiles.

use super::moments;
use super::percentile::percentile;

/// Tukey's fences, in the unit of the samples (nanoseconds per iteration).
///
/// The quartiles use the rule of [`percentile()`](super::percentile());
/// `IQR = q3 − q1`. The inner fences sit 1.5 IQR beyond the quartiles, the
/// outer fences 3 IQR beyond.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fences {
    /// First quartile (25th percentile).
    pub q1: f64,
    /// Third quartile (75th percentile).
    pub q3: f64,
    /// `q1 − 3·IQR`: below it a sample is a severe low outlier.
    pub lower_outer: f64,
    /// `q1 − 1.5·IQR`: below it a sample is (at least) a mild low outlier.
    pub lower_inner: f64,
    /// `q3 + 1.5·IQR`: above it a sample is (at least) a mild high outlier.
    pub upper_inner: f64,
    /// `q3 + 3·IQR`: above it a sample is a severe high outlier.
    pub upper_outer: f64,
}

impl Fences {
    /// The fences of `sorted` (ascending order). All fields are NaN for an
    /// empty slice, so that no value is ever beyond them.
    pub(crate) fn from_sorted(sorted: &[f64]) -> Fences {
        if sorted.is_empty() {
            return Fences::from_quartiles(f64::NAN, f64::NAN);
        }
        Fences::from_quartiles(percentile(sorted, 25.0), percentile(sorted, 75.0))
    }

    fn from_quartiles(q1: f64, q3: f64) -> Fences {
        let iqr = q3 - q1;
        Fences {
            q1,
            q3,
            lower_outer: q1 - 3.0 * iqr,
            lower_inner: q1 - 1.5 * iqr,
            upper_inner: q3 + 1.5 * iqr,
            upper_outer: q3 + 3.0 * iqr,
        }
    }

    /// Interquartile range `q3 − q1`, of which the fences are multiples.
    #[cfg(test)] // only the tests read it
    pub(crate) fn iqr(&self) -> f64 {
        self.q3 - self.q1
    }

    /// Whether `value` lies within the inner fences, bounds included: not an
    /// outlier of either kind.
    pub(crate) fn contains(&self, value: f64) -> bool {
        self.lower_inner <= value && value <= self.upper_inner
    }
}

/// How many samples fall beyond each fence, and beyond 3 standard
/// deviations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Outliers {
    /// The fences the Tukey counts refer to.
    pub fences: Fences,
    /// Samples below `lower_outer`.
    pub low_severe: usize,
    /// Samples in `[lower_outer, lower_inner)`.
    pub low_mild: usize,
    /// Samples in `(upper_inner, upper_outer]`.
    pub high_mild: usize,
    /// Samples above `upper_outer`.
    pub high_severe: usize,
    /// Samples farther than 3 sample standard deviations (n − 1) from the
    /// mean, in either direction. Counted independently of the fences.
    pub beyond_3_sigma: usize,
}

impl Outliers {
    /// All Tukey outliers: mild and severe, low and high.
    pub(crate) fn tukey_total(&self) -> usize {
        self.low_severe + self.low_mild + self.high_mild + self.high_severe
    }
}

/// Counts the outliers among `values` (in any order).
///
/// An empty slice gives NaN fences and zero counts.
pub(crate) fn classify(values: &[f64]) -> Outliers {
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let fences = Fences::from_sorted(&sorted);

    let mut outliers = Outliers {
        fences,
        low_severe: 0,
        low_mild: 0,
        high_mild: 0,
        high_severe: 0,
        beyond_3_sigma: 0,
    };
    for &value in &sorted {
        if value < fences.lower_outer {
            outliers.low_severe += 1;
        } else if value < fences.lower_inner {
            outliers.low_mild += 1;
        } else if value > fences.upper_outer {
            outliers.high_severe += 1;
        } else if value > fences.upper_inner {
            outliers.high_mild += 1;
        }
    }

    if !sorted.is_empty() {
        let mean = moments::mean(&sorted);
        let three_sigma = 3.0 * moments::sample_variance(&sorted, mean).sqrt();
        outliers.beyond_3_sigma = sorted
            .iter()
            .filter(|&&value| (value - mean).abs() > three_sigma)
            .count();
    }
    outliers
}

/// A copy of `values`, in their original order, keeping only those within
/// the inner (mild) fences, bounds included.
pub(crate) fn without_outliers(values: &[f64], fences: &Fences) -> Vec<f64> {
    values
        .iter()
        .copied()
        .filter(|&value| fences.contains(value))
        .collect()
}
