//! Percentiles by linear interpolation between closest ranks.

/// The `p`-th percentile (`p` in percent, 0 to 100) of `sorted`, in the
/// unit of the values (nanoseconds for per-iteration times).
///
/// The rule is linear interpolation between closest ranks, "type 7" of
/// Hyndman & Fan (1996): the default of R's `quantile` and of NumPy's
/// `percentile` (`method="linear"`). With `n` values and `h = (n − 1)·p/100`,
/// the result is `x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])` on the 0-based
/// sorted values. So `p = 0` is the minimum, `p = 100` the maximum, `p = 50`
/// the usual median (mean of the two middle values when `n` is even), and the
/// result never leaves the range of the data.
///
/// `sorted` must be in ascending order (e.g. sorted with `f64::total_cmp`);
/// this is not checked in release builds.
///
/// # Panics
///
/// If `sorted` is empty, or `p` is not within `0.0..=100.0` (NaN included):
/// both are mistakes of the caller, not properties of the data.
pub(crate) fn percentile(sorted: &[f64], p: f64) -> f64 {
    assert!(!sorted.is_empty(), "percentile of an empty sample");
    assert!(
        (0.0..=100.0).contains(&p),
        "percentile {p} is outside 0..=100"
    );
    debug_assert!(
        sorted.windows(2).all(|pair| pair[0] <= pair[1]),
        "percentile needs sorted values"
    );

    let rank = (sorted.len() - 1) as f64 * (p / 100.0);
    let below = rank.floor();
    let fraction = rank - below;
    let index = below as usize;
    let Some(&above_value) = sorted.get(index + 1) else {
        return sorted[sorted.len() - 1];
    };
    let below_value = sorted[index];
    if fraction == 0.0 {
        return below_value;
    }
    let interpolated = below_value + fraction * (above_value - below_value);
    // Rounding may overshoot the bracketing values by an ulp; clamping keeps
    // percentiles ordered (p90 ≤ p95 ≤ ... ≤ max). `max`/`min` rather than
    // `clamp`, which panics on NaN.
    interpolated.max(below_value).min(above_value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_are_the_extremes() {
        let sorted = [1.0, 2.0, 4.0, 8.0];
        assert_eq!(percentile(&sorted, 0.0), 1.0);
        assert_eq!(percentile(&sorted, 100.0), 8.0);
    }

    #[test]
    fn median_of_an_even_sample_is_the_mean_of_the_middle_pair() {
        assert_eq!(percentile(&[1.0, 2.0, 4.0, 8.0], 50.0), 3.0);
    }

    #[test]
    fn single_value_is_every_percentile() {
        for p in [0.0, 12.5, 50.0, 99.9, 100.0] {
            assert_eq!(percentile(&[7.0], p), 7.0);
        }
    }

    #[test]
    #[should_panic(expected = "outside 0..=100")]
    fn fractions_are_not_percents() {
        percentile(&[1.0, 2.0], 150.0);
    }
}
