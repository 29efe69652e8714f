//! Mean and central moments, computed so that "stiff" data (large values that
//! differ only in their last digits, like a 10 ms benchmark jittering by a
//! few ns) keeps its precision.
//!
//! The textbook shortcut `E[x²] − mean²` subtracts two nearly equal large
//! numbers and can lose every significant digit of the variance; the NIST
//! StRD "NumAcc" datasets exist to catch exactly that. Here the mean comes
//! from a compensated sum plus a correction pass, and the variance from the
//! corrected two-pass formula of Chan, Golub and LeVeque (1983):
//! `(Σd² − (Σd)²/n) / (n − 1)` with `d = x − mean`, where the second term
//! cancels the rounding error left in the mean.

/// Arithmetic mean of `values`; NaN for an empty slice.
pub(crate) fn mean(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let first_guess = compensated_sum(values.iter().copied()) / n;
    // The first guess is off by the rounding of the sum and of the division;
    // the mean of the residuals measures that error and removes it.
    let correction = compensated_sum(values.iter().map(|x| x - first_guess)) / n;
    first_guess + correction
}

/// Sample variance (denominator n − 1) around `mean`, which must be the
/// mean of `values`. Zero for fewer than two values: one sample shows no
/// spread.
pub(crate) fn sample_variance(values: &[f64], mean: f64) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let n = values.len() as f64;
    let sum_of_squares = compensated_sum(values.iter().map(|x| (x - mean) * (x - mean)));
    let sum = compensated_sum(values.iter().map(|x| x - mean));
    // Rounding can push a zero variance a hair below zero; sqrt would then
    // give NaN for perfectly constant samples.
    ((sum_of_squares - sum * sum / n) / (n - 1.0)).max(0.0)
}

/// Sample skewness and excess kurtosis with the usual small-sample
/// adjustment (Fisher's G1 and G2, as SAS, Excel's SKEW/KURT and
/// `scipy.stats.skew/kurtosis(bias=False)` report them).
///
/// None for fewer than four values or zero spread, where they are undefined.
#[cfg(test)] // only the bimodality coefficient's
pub(crate) fn adjusted_skewness_and_kurtosis(values: &[f64]) -> Option<(f64, f64)> {
    if values.len() < 4 {
        return None;
    }
    let n = values.len() as f64;
    let mean = mean(values);
    let central_moment =
        |power: i32| compensated_sum(values.iter().map(|x| (x - mean).powi(power))) / n;
    let (m2, m3, m4) = (central_moment(2), central_moment(3), central_moment(4));
    // NaN (from non-finite input) fails this test too.
    if m2.is_nan() || m2 <= 0.0 {
        return None;
    }
    let biased_skewness = m3 / m2.powf(1.5);
    let skewness = biased_skewness * (n * (n - 1.0)).sqrt() / (n - 2.0);
    let excess_kurtosis =
        (n - 1.0) / ((n - 2.0) * (n - 3.0)) * ((n + 1.0) * m4 / (m2 * m2) - 3.0 * (n - 1.0));
    Some((skewness, excess_kurtosis))
}

/// Neumaier's compensated summation: the error of each addition is
/// collected and added back at the end, so the sum of n terms is accurate to
/// a couple of ulps instead of drifting by O(n) ulps.
fn compensated_sum(terms: impl Iterator<Item = f64>) -> f64 {
    let mut sum = 0.0_f64;
    let mut lost = 0.0_f64;
    for term in terms {
        let next = sum + term;
        lost += if sum.abs() >= term.abs() {
            (sum - next) + term
        } else {
            (term - next) + sum
        };
        sum = next;
    }
    sum + lost
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compensated_sum_keeps_the_small_terms_a_naive_sum_drops() {
        let terms = [1e16, 1.0, -1e16, 1.0];
        assert_eq!(compensated_sum(terms.into_iter()), 2.0);
    }

    #[test]
    fn constant_samples_have_exactly_zero_variance() {
        let values = [0.1; 7];
        assert_eq!(sample_variance(&values, mean(&values)), 0.0);
    }

    #[test]
    fn skewness_and_kurtosis_need_four_values_with_spread() {
        assert_eq!(adjusted_skewness_and_kurtosis(&[1.0, 2.0, 3.0]), None);
        assert_eq!(adjusted_skewness_and_kurtosis(&[5.0; 10]), None);
    }
}
