//! Does the program's cost sit at two levels? A body whose every tenth call
//! does ten times the work, or that runs in a table that fits the cache and
//! then in one that does not, has a mean cost that describes neither kind
//! of call: the report names both, with their shares of the calls.
//!
//! The samples' times per call, in logarithms and weighted by their calls,
//! are split in two where the split explains the most of their variance
//! (Otsu's rule). The split is called two levels when it explains at least
//! [`EXPLAINED`] of the variance (two clusters, not a continuum: a body of
//! random cost per call spreads evenly), the levels are at least
//! [`APART`] apart (a host's turbo levels, 2.5% apart, are the machine's
//! and change no reading), and each holds at least [`MIN_SHARE`] of the
//! calls and [`MIN_VALUES`] samples (a rare slow sample is an outlier, not a
//! level).

/// The split must explain this share of the log-times' variance.
pub(crate) const EXPLAINED: f64 = 0.8;

/// The slower level must cost at least this many times the faster.
pub(crate) const APART: f64 = 1.25;

/// Each level must hold at least this share of the calls.
pub(crate) const MIN_SHARE: f64 = 0.05;

/// Each level must hold at least this many samples.
pub(crate) const MIN_VALUES: usize = 3;

/// Two levels of cost per call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Levels {
    /// The faster level: its share of the calls and its mean cost per call.
    pub(crate) fast: (f64, f64),
    /// The slower level, likewise.
    pub(crate) slow: (f64, f64),
}

/// The two levels of `values` (times per call, positive) weighted by
/// `calls`, if they sit at two; `None` otherwise, or for fewer than 10
/// values.
pub(crate) fn two_levels(values: &[f64], calls: &[f64]) -> Option<Levels> {
    let mut points: Vec<(f64, f64, f64)> = values
        .iter()
        .zip(calls)
        .filter(|(v, w)| **v > 0.0 && **w > 0.0 && v.is_finite())
        .map(|(&v, &w)| (v.ln(), w, v))
        .collect();
    if points.len() < 10 {
        return None;
    }
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total_w: f64 = points.iter().map(|p| p.1).sum();
    let total_wx: f64 = points.iter().map(|p| p.1 * p.0).sum();
    let mean = total_wx / total_w;
    let variance = points
        .iter()
        .map(|p| p.1 * (p.0 - mean).powi(2))
        .sum::<f64>()
        / total_w;
    if variance <= 0.0 {
        return None;
    }
    // The split after point i: the between-class variance, from prefix sums.
    let (mut w, mut wx) = (0.0, 0.0);
    let mut best: Option<(f64, usize)> = None;
    for (i, p) in points.iter().enumerate().take(points.len() - 1) {
        w += p.1;
        wx += p.1 * p.0;
        let (share, rest) = (w / total_w, 1.0 - w / total_w);
        if share <= 0.0 || rest <= 0.0 {
            continue;
        }
        let (low, high) = (wx / w, (total_wx - wx) / (total_w - w));
        let between = share * rest * (high - low).powi(2);
        if best.is_none_or(|(b, _)| between > b) {
            best = Some((between, i + 1));
        }
    }
    let (between, split) = best?;
    let level = |part: &[(f64, f64, f64)]| {
        let calls: f64 = part.iter().map(|p| p.1).sum();
        let time: f64 = part.iter().map(|p| p.1 * p.2).sum();
        (calls / total_w, time / calls)
    };
    let (fast, slow) = (level(&points[..split]), level(&points[split..]));
    (between / variance >= EXPLAINED
        && split >= MIN_VALUES
        && points.len() - split >= MIN_VALUES
        && slow.1 >= APART * fast.1
        && fast.0 >= MIN_SHARE
        && slow.0 >= MIN_SHARE)
        .then_some(Levels { fast, slow })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jitter(rng: &mut fastrand::Rng, level: f64) -> f64 {
        level * (1.0 + 0.02 * (rng.f64() - 0.5))
    }

    #[test]
    fn every_tenth_call_ten_times_the_work_is_two_levels() {
        let mut rng = fastrand::Rng::with_seed(1);
        let values: Vec<f64> = (0..1000)
            .map(|i| jitter(&mut rng, if i % 10 == 9 { 1000.0 } else { 100.0 }))
            .collect();
        let levels = two_levels(&values, &vec![1.0; 1000]).unwrap();
        assert!((levels.fast.0 - 0.9).abs() < 1e-9 && (levels.slow.0 - 0.1).abs() < 1e-9);
        assert!((levels.fast.1 / 100.0 - 1.0).abs() < 0.01, "{levels:?}");
        assert!((levels.slow.1 / 1000.0 - 1.0).abs() < 0.01, "{levels:?}");
    }

    #[test]
    fn shares_are_of_calls_not_of_samples() {
        // Samples of equal time: the fast phase's hold three times the calls.
        let mut rng = fastrand::Rng::with_seed(2);
        let values: Vec<f64> = (0..200)
            .map(|i| jitter(&mut rng, if i < 100 { 100.0 } else { 300.0 }))
            .collect();
        let calls: Vec<f64> = values.iter().map(|v| 30_000.0 / v).collect();
        let levels = two_levels(&values, &calls).unwrap();
        assert!((levels.fast.0 - 0.75).abs() < 0.01, "{levels:?}");
    }

    #[test]
    fn a_steady_body_turbo_levels_a_continuum_and_rare_outliers_are_not_levels() {
        let mut rng = fastrand::Rng::with_seed(3);
        let ones = vec![1.0; 2000];
        let steady: Vec<f64> = (0..2000).map(|_| jitter(&mut rng, 100.0)).collect();
        assert_eq!(two_levels(&steady, &ones), None);
        let turbo: Vec<f64> = (0..2000)
            .map(|i| jitter(&mut rng, if i % 3 == 0 { 102.5 } else { 100.0 }))
            .collect();
        assert_eq!(two_levels(&turbo, &ones), None);
        // Random cost per call: uniform between 50 and 500 ns.
        let random: Vec<f64> = (0..2000).map(|_| 50.0 + 450.0 * rng.f64()).collect();
        assert_eq!(two_levels(&random, &ones), None);
        // 1% of samples hit by an interrupt, 5× slower.
        let interrupted: Vec<f64> = (0..2000)
            .map(|i| jitter(&mut rng, if i % 100 == 0 { 500.0 } else { 100.0 }))
            .collect();
        assert_eq!(two_levels(&interrupted, &ones), None);
    }
}
