//! Properties every summary must have, whatever the samples.

use crate::analysis::modality::{self, MIN_SAMPLES};
use crate::analysis::{outliers, summarize, Summary};
use proptest::prelude::*;

/// Per-iteration times as a benchmark produces them: either spread over
/// many orders of magnitude, or "stiff" (a large base with tiny jitter,
/// where naive variance formulas lose every digit).
fn timings() -> impl Strategy<Value = Vec<f64>> {
    let spread = prop::collection::vec(1e-3..1e9_f64, 1..200);
    let stiff = (1e3..1e9_f64, prop::collection::vec(0.0..1.0_f64, 1..200))
        .prop_map(|(base, jitter)| jitter.into_iter().map(|j| base + j).collect());
    prop_oneof![spread, stiff]
}

/// Any finite f64, from subnormals to ±f64::MAX.
fn any_finite() -> impl Strategy<Value = f64> {
    use prop::num::f64::{NEGATIVE, NORMAL, POSITIVE, SUBNORMAL, ZERO};
    POSITIVE | NEGATIVE | NORMAL | SUBNORMAL | ZERO
}

fn summary_of(values: &[f64]) -> Summary {
    summarize(values).expect("non-empty sample")
}

/// The location statistics that must follow the data under shifts and
/// scalings.
fn locations(summary: &Summary) -> [f64; 8] {
    let p = summary.percentiles;
    [
        summary.mean,
        summary.median,
        p.p50,
        p.p90,
        p.p95,
        p.p99,
        p.p99_9,
        summary.min,
    ]
}

fn largest_magnitude(values: &[f64]) -> f64 {
    values
        .iter()
        .fold(0.0_f64, |largest, x| largest.max(x.abs()))
}

/// Equal up to rounding: a few thousand ulps of the largest magnitude
/// involved, far below any difference a report would show.
fn assert_near(what: &str, actual: f64, expected: f64, magnitude: f64) {
    let tolerance = 1e-12 * magnitude.max(f64::MIN_POSITIVE);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual:e} vs {expected:e} (tolerance {tolerance:e})"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn percentiles_rise_from_min_to_max(values in timings()) {
        let summary = summary_of(&values);
        let p = summary.percentiles;
        let ladder = [summary.min, p.p50, p.p90, p.p95, p.p99, p.p99_9, summary.max];
        prop_assert!(ladder.windows(2).all(|pair| pair[0] <= pair[1]), "{ladder:?}");
        prop_assert!(summary.min <= summary.mean && summary.mean <= summary.max);
    }

    #[test]
    fn order_of_the_samples_does_not_matter(
        (values, shuffled) in timings().prop_flat_map(|values| {
            (Just(values.clone()), Just(values).prop_shuffle())
        })
    ) {
        prop_assert_eq!(summary_of(&values), summary_of(&shuffled));
        prop_assert_eq!(outliers::classify(&values), outliers::classify(&shuffled));
        prop_assert_eq!(modality::mvalue(&values, 0.0), modality::mvalue(&shuffled, 0.0));
    }

    #[test]
    fn scaling_the_samples_scales_location_and_spread(
        values in timings(),
        factor in 1e-3..1e3_f64,
    ) {
        let scaled: Vec<f64> = values.iter().map(|x| factor * x).collect();
        let (before, after) = (summary_of(&values), summary_of(&scaled));
        let magnitude = factor * largest_magnitude(&values);
        for (old, new) in locations(&before).into_iter().zip(locations(&after)) {
            assert_near("location", new, factor * old, magnitude);
        }
        assert_near("std dev", after.std_dev, factor * before.std_dev, magnitude);
        assert_near("max", after.max, factor * before.max, magnitude);
    }

    #[test]
    fn shifting_the_samples_shifts_location_but_not_spread(
        values in timings(),
        offset in -1e6..1e6_f64,
    ) {
        let shifted: Vec<f64> = values.iter().map(|x| x + offset).collect();
        let (before, after) = (summary_of(&values), summary_of(&shifted));
        let magnitude = largest_magnitude(&values) + offset.abs();
        for (old, new) in locations(&before).into_iter().zip(locations(&after)) {
            assert_near("location", new, old + offset, magnitude);
        }
        assert_near("std dev", after.std_dev, before.std_dev, magnitude);
        assert_near("max", after.max, before.max + offset, magnitude);
    }

    #[test]
    fn confidence_intervals_contain_their_estimate(values in timings()) {
        let summary = summary_of(&values);
        if let Some(interval) = summary.mean_interval {
            prop_assert!(interval.contains(summary.mean), "{interval:?} vs {}", summary.mean);
        }
        if let Some(interval) = summary.median_interval {
            prop_assert!(interval.contains(summary.median), "{interval:?} vs {}", summary.median);
            prop_assert!(interval.confidence >= 0.95 && interval.confidence <= 1.0);
        }
        prop_assert_eq!(summary.mean_interval.is_some(), values.len() >= 2);
        prop_assert_eq!(summary.median_interval.is_some(), values.len() >= 6);
    }

    #[test]
    fn outliers_and_kept_samples_account_for_every_sample(values in timings()) {
        let outliers = outliers::classify(&values);
        let kept = outliers::without_outliers(&values, &outliers.fences);
        prop_assert_eq!(kept.len() + outliers.tukey_total(), values.len());
    }

    #[test]
    fn a_histogram_always_has_at_least_one_hump(values in timings()) {
        prop_assert!(modality::mvalue(&values, 0.0) >= 2.0);
        if values.len() < MIN_SAMPLES {
            prop_assert!(!modality::looks_multimodal(&values, 0.0));
        }
    }

    #[test]
    fn nothing_panics_on_any_finite_input(
        values in prop::collection::vec(any_finite(), 1..300)
    ) {
        let summary = summarize(&values);
        prop_assert!(summary.is_some());
        let _ = outliers::classify(&values);
        let _ = modality::mvalue(&values, 0.0);
        let _ = modality::looks_multimodal(&values, 0.0);
        let _ = modality::bimodality_coefficient(&values);
    }
}
