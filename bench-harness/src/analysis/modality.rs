//! Does one distribution explain the samples, or several?
//!
//! A benchmark that alternates between two code paths, cache states or CPU
//! frequencies produces two clusters of times. Their mean and median
//! describe neither, so the report should say so instead of printing one
//! confident number.
//!
//! # The verdict: mvalue
//!
//! Brendan Gregg's mvalue ("Frequency Trails: Modes and Modality") walks a
//! histogram with a zero bar added at each end and sums the absolute height
//! changes, divided by the tallest bar. One clean hump scores 2 (up to the
//! peak, back down); each further separate mode adds up to 2 more, in
//! proportion to its height. BenchmarkDotNet's `MultimodalDistributionAnalyzer`
//! warns at three tiers: above 2.8 "can have several modes", above
//! [`MVALUE_BIMODAL`] (3.2) "bimodal", above [`MVALUE_MULTIMODAL`] (4.2)
//! "multimodal", and only from [`MIN_SAMPLES`] (15) samples on.
//! [`looks_multimodal`] answers yes above the bimodal tier.
//!
//! As in BenchmarkDotNet's `MValueCalculator`, the samples outside Tukey's
//! inner fences are dropped first (outliers are reported separately, see
//! [`outliers`](super::outliers)), the histogram starts at a bin width from
//! Scott's rule, `3.5·s/n^(1/3)`, and the width doubles until one bin holds
//! everything; the largest mvalue over those widths is the answer. Two
//! differences, both deliberate:
//!
//! - BenchmarkDotNet starts at *half* Scott's width and uses an adaptive
//!   histogram that merges sparse bins. Here the bins are plain, equally
//!   wide and anchored at the smallest sample, so half-width bins are too
//!   noisy: in a simulation (300 samples of each size from 15 to 10 000)
//!   they pushed 10–17% of normal samples above 3.2. Starting at the full
//!   Scott width, no normal, log-normal, exponential, gamma or uniform
//!   sample exceeded 3.2, while a 50/50 mixture of two normals 6σ apart
//!   exceeded it in 98–100% of samples of 300 or more (45% at n = 100).
//! - A minority mode (say 30% of the samples) stays below the bimodal tier
//!   by construction: its bar is less than 60% of the main one. The
//!   bimodality coefficient notices those, see below.
//!
//! # A second opinion: the bimodality coefficient
//!
//! [`bimodality_coefficient`] is `b = (g² + 1) / (k + 3(n−1)²/((n−2)(n−3)))`
//! with `g` the sample skewness and `k` the sample excess kurtosis, both
//! with the usual small-sample adjustment. A uniform distribution scores
//! 5/9 and values above [`BIMODALITY_COEFFICIENT_THRESHOLD`] suggest
//! bimodality. It is kept, and tested against SciPy, but is not part of
//! the verdict and nothing outside the tests calls it: skewness alone
//! raises it, and timings are right-skewed. In the same simulation it
//! exceeded 5/9 for 50–87% of exponential samples and up to 37% of
//! log-normal (σ = 0.5) ones.

use super::moments;
use super::outliers::Fences;

/// Fewest samples for a modality verdict; BenchmarkDotNet's minimum too.
/// Below it a histogram has too few bars to show two humps.
pub(crate) const MIN_SAMPLES: usize = 15;

/// mvalue above which the samples look bimodal; the threshold of
/// [`looks_multimodal`].
pub(crate) const MVALUE_BIMODAL: f64 = 3.2;

/// mvalue above which the samples look multimodal (three modes or more).
/// Only the tests use this tier: a note says "multimodal" from the bimodal
/// one.
#[cfg(test)]
pub(crate) const MVALUE_MULTIMODAL: f64 = 4.2;

/// Bimodality coefficient of the uniform distribution, 5/9 ≈ 0.556; larger
/// values suggest bimodality.
#[cfg(test)] // the second opinion, see the module docs
pub(crate) const BIMODALITY_COEFFICIENT_THRESHOLD: f64 = 5.0 / 9.0;

/// Whether `values` look like they come from two or more distributions:
/// at least [`MIN_SAMPLES`] samples and an [`mvalue`] above
/// [`MVALUE_BIMODAL`] (3.2).
///
/// `step` is the clock's tick in the values' units (its resolution over a
/// sample's iterations): no histogram bin is narrower than two of them, so
/// samples that took N or N + 1 ticks are one mode, not two. On this VM
/// (20 ns ticks) that alone made 17 of 33 rows of the example suite look
/// multimodal in one run.
pub(crate) fn looks_multimodal(values: &[f64], step: f64) -> bool {
    values.len() >= MIN_SAMPLES && mvalue(values, step) > MVALUE_BIMODAL
}

/// Gregg's mvalue of `values` (in any order), a dimensionless number: about
/// 2 for one mode, about 2 more for each further mode of similar height.
///
/// See the [module documentation](self) for the histogram it is computed
/// on. All-equal samples score exactly 2; an empty slice scores 0.
///
/// No bin is narrower than two `step`s (a clock's tick over the iterations
/// of a sample: see [`looks_multimodal`]); 0 lets Scott's width decide.
pub(crate) fn mvalue(values: &[f64], step: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let fences = Fences::from_sorted(&sorted);
    sorted.retain(|&value| fences.contains(value));

    let (Some(&min), Some(&max)) = (sorted.first(), sorted.last()) else {
        return 0.0;
    };
    let range = max - min;
    let one_bar = 2.0;
    if range.is_nan() || range <= 0.0 || range.is_infinite() {
        return one_bar;
    }

    let n = sorted.len() as f64;
    let std_dev = moments::sample_variance(&sorted, moments::mean(&sorted)).sqrt();
    let mut bin_width = (3.5 * std_dev / n.cbrt()).max(2.0 * step);
    if bin_width.is_nan() || bin_width <= 0.0 || bin_width.is_infinite() {
        return one_bar;
    }

    let mut highest = one_bar;
    loop {
        if let Some(score) = histogram_mvalue(&sorted, min, range, bin_width) {
            highest = highest.max(score);
        }
        if bin_width > range {
            return highest;
        }
        bin_width *= 2.0;
    }
}

/// mvalue of the histogram of `sorted` with bins of `bin_width` starting at
/// `min`; None if that would take unreasonably many bins.
fn histogram_mvalue(sorted: &[f64], min: f64, range: f64, bin_width: f64) -> Option<f64> {
    // Scott's width keeps the count near 3.3·n^(1/3) on fenced data; the cap
    // only guards against floating-point extremes allocating without bound.
    let bin_count = (range / bin_width).floor() + 1.0;
    if bin_count > (4 * sorted.len() + 16) as f64 {
        return None;
    }
    let mut counts = vec![0_usize; bin_count as usize];
    let last_bin = counts.len() - 1;
    for &value in sorted {
        let bin = (((value - min) / bin_width) as usize).min(last_bin);
        counts[bin] += 1;
    }

    let tallest = counts.iter().copied().max()?;
    // The zero bars at both ends make the climb to the first bar and the
    // descent from the last one count.
    let padded = || std::iter::once(0).chain(counts.iter().copied()).chain([0]);
    let height_changes: usize = padded()
        .zip(padded().skip(1))
        .map(|(left, right)| left.abs_diff(right))
        .sum();
    Some(height_changes as f64 / tallest as f64)
}

/// Sarle's bimodality coefficient of `values`, a number between 0 and 1;
/// above [`BIMODALITY_COEFFICIENT_THRESHOLD`] (5/9) suggests bimodality but
/// skewness alone can get there (see the [module documentation](self)).
///
/// Skewness and excess kurtosis are the adjusted estimators G1 and G2 (what
/// `scipy.stats.skew(x, bias=False)` and `scipy.stats.kurtosis(x,
/// bias=False)` return). None for fewer than 4 samples or no spread.
#[cfg(test)] // the second opinion, see the module docs
pub(crate) fn bimodality_coefficient(values: &[f64]) -> Option<f64> {
    let (skewness, excess_kurtosis) = moments::adjusted_skewness_and_kurtosis(values)?;
    let n = values.len() as f64;
    let small_sample_term = 3.0 * (n - 1.0) * (n - 1.0) / ((n - 2.0) * (n - 3.0));
    Some((skewness * skewness + 1.0) / (excess_kurtosis + small_sample_term))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_a_clock_tick_apart_are_one_mode_and_real_modes_stay_two() {
        // A 35 µs sample of 2 iterations on a 20 ns clock: 17,646 or
        // 17,656 ns an iteration, as the reads fall, plus a few slower.
        let tick = 10.0;
        let clock_only: Vec<f64> = (0..400)
            .map(|i| 17_646.0 + tick * f64::from(i % 2 + u32::from(i % 37 == 0)))
            .collect();
        assert!(mvalue(&clock_only, 0.0) > MVALUE_BIMODAL);
        assert!(!looks_multimodal(&clock_only, tick));
        // Two paths 5% apart, half the calls each, read on the same clock:
        // still two.
        let two_paths: Vec<f64> = (clock_only.iter().enumerate())
            .map(|(i, v)| if (i / 2) % 2 == 0 { v * 1.05 } else { *v })
            .collect();
        assert!(looks_multimodal(&two_paths, tick));
    }

    #[test]
    fn one_spike_scores_two() {
        assert_eq!(mvalue(&[5.0; 20], 0.0), 2.0);
    }

    #[test]
    fn nothing_scores_zero() {
        assert_eq!(mvalue(&[], 0.0), 0.0);
    }

    #[test]
    fn two_equal_bars_with_a_gap_score_four() {
        let sorted = [1.0, 1.0, 1.0, 1.0, 9.0, 9.0, 9.0, 9.0];
        // Bins [1, 4), [4, 7), [7, 10) hold 4, 0 and 4 samples: up, down,
        // up, down.
        assert_eq!(histogram_mvalue(&sorted, 1.0, 8.0, 3.0), Some(4.0));
    }
}
