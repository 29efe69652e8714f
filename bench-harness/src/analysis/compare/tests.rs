//! Comparisons between runs and within A/B groups, checked against SciPy,
//! against known effects on synthetic block medians, and by symmetry.
//!
//! Reference tool versions: Python 3.11 with NumPy 2.4.6 and SciPy 1.17.1,
//! `import numpy as np; from scipy import stats` before every one-liner
//! quoted below. (SciPy 1.17 calls the normal approximation of
//! `stats.wilcoxon` `method='asymptotic'`; the older name was `'approx'`.)

use proptest::prelude::*;

use super::*;

/// The example of the module's documentation.
#[test]
fn the_documented_example_is_ten_percent_slower() {
    let old = [100.2, 99.1, 100.8, 99.6, 100.4, 99.9, 100.1, 99.3];
    let new = [110.3, 109.2, 110.9, 109.8, 110.1, 109.5, 110.6, 109.9];
    let c = compare(&old, &new, 0.02);
    assert_eq!(c.verdict, Verdict::Slower);
    assert!((c.change - 0.1).abs() < 0.005); // about 10% slower
    assert!(c.change_interval.0 > 0.02);
}

fn assert_close(what: &str, actual: f64, expected: f64, relative: f64) {
    let tolerance = relative * expected.abs().max(f64::MIN_POSITIVE);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual:e} vs expected {expected:e} (relative tolerance {relative:e})"
    );
}

/// Deterministic pseudo-random numbers (SplitMix64), so the synthetic data
/// are the same on every run and machine.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// `n` block medians around `center` with relative noise `spread`.
    fn blocks(&mut self, n: usize, center: f64, spread: f64) -> Vec<f64> {
        (0..n)
            .map(|_| center * (1.0 + spread * self.normal()))
            .collect()
    }
}

/// An AR(1) series `x_i = ρ x_{i−1} + e_i` started in its stationary
/// distribution.
fn ar1(rng: &mut SplitMix64, n: usize, rho: f64) -> Vec<f64> {
    let mut x = rng.normal() / (1.0 - rho * rho).sqrt();
    (0..n)
        .map(|_| {
            let value = x;
            x = rho * x + rng.normal();
            value
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Welch, Cohen's d and the interval of the change, against SciPy.

/// Block medians alternating around their mean: negatively autocorrelated,
/// so the effective sample size is clamped to n and the autocorrelation-aware
/// Welch test is exactly SciPy's.
const OLD: [f64; 10] = [
    100.3, 98.9, 101.2, 99.4, 100.8, 99.1, 101.0, 99.6, 100.5, 98.7,
];
const NEW: [f64; 8] = [103.1, 101.2, 104.0, 101.9, 103.5, 101.4, 103.8, 102.2];

#[test]
fn welch_matches_scipy_when_blocks_are_independent() {
    let c = compare(&OLD, &NEW, 0.01);
    assert_eq!((c.n_old, c.n_new), (10, 8));
    assert_eq!((c.n_eff_old, c.n_eff_new), (10.0, 8.0));

    // r = stats.ttest_ind(new, old, equal_var=False); print(r.statistic, r.pvalue, r.df)
    // 5.526448262416312 8.113466488976282e-05 13.680917125007822
    assert_close("t", c.welch_t, 5.526448262416312, 1e-10);
    assert_close("p", c.p_welch, 8.113466488976282e-05, 1e-10);
    assert_close("df", c.welch_df, 13.680917125007822, 1e-10);

    // a, b = np.array(old), np.array(new)
    // (b.mean()-a.mean())/np.sqrt(((len(a)-1)*a.var(ddof=1)+(len(b)-1)*b.var(ddof=1))/(len(a)+len(b)-2))
    // 2.6771668355356395
    assert_close("Cohen's d", c.cohens_d, 2.6771668355356395, 1e-12);

    // va, vb = a.var(ddof=1)/len(a), b.var(ddof=1)/len(b)
    // df = (va+vb)**2/(va**2/(len(a)-1)+vb**2/(len(b)-1)); q = stats.t.ppf(0.975, df)
    // h = q*np.sqrt(va/a.mean()**2+vb/b.mean()**2); lr = np.log(b.mean()/a.mean())
    // print(b.mean()/a.mean()-1, np.expm1(lr-h), np.expm1(lr+h))
    // 0.02688844422211112 0.016382800233399154 0.037502677765459604
    assert_eq!(c.change_method, ChangeMethod::LogRatio);
    assert_close("change", c.change, 0.02688844422211112, 1e-12);
    assert_close("lower", c.change_interval.0, 0.016382800233399154, 1e-10);
    assert_close("upper", c.change_interval.1, 0.037502677765459604, 1e-10);
    assert_close("old", c.old, 99.95, 1e-14);
    assert_close("new", c.new, 102.6375, 1e-14);

    // The whole interval above +1%.
    assert_eq!(c.verdict, Verdict::Slower);
    // At a 2% threshold the interval straddles it: significant but not
    // surely of practical size.
    assert_eq!(compare(&OLD, &NEW, 0.02).verdict, Verdict::Unclear);
}

#[test]
fn autocorrelated_blocks_widen_the_test() {
    // Block medians drifting slowly with the machine's frequency state.
    let old = [
        100.0, 100.4, 100.9, 101.3, 101.1, 100.6, 100.2, 99.8, 99.5, 99.9, 100.3, 100.8, 101.2,
        101.0, 100.5, 100.1,
    ];
    let new = [
        101.0, 101.5, 101.9, 102.2, 101.8, 101.3, 100.9, 100.6, 100.9, 101.4, 101.8, 102.1, 101.7,
        101.2,
    ];
    let c = compare(&old, &new, 0.005);

    // An independent NumPy transcription of the estimator:
    // def ess(x):
    //     x = np.asarray(x, float); n = len(x)
    //     if n < 4: return float(n)
    //     c = x - x.mean(); g0 = c @ c / n; s = 0.0; lag = 0
    //     while lag + 1 < n:
    //         p = (c[:n-lag] @ c[lag:] + c[:n-lag-1] @ c[lag+1:]) / n / g0
    //         if p <= 0: break
    //         s += p; lag += 2
    //     tau = 2*s - 1
    //     return min(max(n/tau if tau > 0 else n, 1.0), n)
    // ea, eb = ess(old), ess(new); print(ea, eb)
    // 6.784015453338163 6.302023121387287
    assert_close("n_eff old", c.n_eff_old, 6.784015453338163, 1e-10);
    assert_close("n_eff new", c.n_eff_new, 6.302023121387287, 1e-10);

    // va, vb = old.var(ddof=1)/ea, new.var(ddof=1)/eb
    // t = (new.mean()-old.mean())/np.sqrt(va+vb)
    // df = (va+vb)**2/(va**2/(ea-1)+vb**2/(eb-1)); print(t, df, 2*stats.t.sf(abs(t), df))
    // 3.422367414043888 11.08177805639115 0.005640860337466555
    assert_close("t", c.welch_t, 3.422367414043888, 1e-10);
    assert_close("df", c.welch_df, 11.08177805639115, 1e-10);
    assert_close("p", c.p_welch, 0.005640860337466555, 1e-9);

    // Treating the blocks as independent would claim far more:
    // stats.ttest_ind(new, old, equal_var=False)
    // statistic=5.181550506053419, pvalue=1.695365663514269e-05, df=27.958977139558193
    assert!(c.p_welch > 100.0 * 1.695365663514269e-05);
}

// ---------------------------------------------------------------------------
// Mann–Whitney U against SciPy.

#[test]
fn mann_whitney_matches_scipy() {
    // stats.mannwhitneyu(new, old, alternative='two-sided', method='asymptotic', use_continuity=True)
    // MannwhitneyuResult(statistic=79.5, pvalue=0.0005262424287850579)
    // (79.5: one tie across the runs, 101.2 in both.)
    let c = compare(&OLD, &NEW, 0.01);
    assert_eq!(c.mann_whitney_u, 79.5);
    assert_close("p", c.p_mann_whitney, 0.0005262424287850579, 1e-10);
    assert!(!c.mann_whitney_rough);

    // Many ties, within and across the runs:
    // stats.mannwhitneyu([3,4,5,5,6,7,8,8,9], [1,2,2,3,4,5,5,6], alternative='two-sided',
    //                    method='asymptotic', use_continuity=True)
    // MannwhitneyuResult(statistic=59.5, pvalue=0.025496068631499585)
    let old = [1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0];
    let new = [3.0, 4.0, 5.0, 5.0, 6.0, 7.0, 8.0, 8.0, 9.0];
    let c = compare(&old, &new, 0.01);
    assert_eq!(c.mann_whitney_u, 59.5);
    assert_close("p", c.p_mann_whitney, 0.025496068631499585, 1e-10);

    // Both sides below 8 blocks: flagged as rough.
    assert!(compare(&old[..7], &new[..7], 0.01).mann_whitney_rough);
    assert!(!compare(&old[..7], &new[..8], 0.01).mann_whitney_rough);
}

// ---------------------------------------------------------------------------
// Paired comparison against SciPy.

#[test]
fn paired_tests_match_scipy() {
    // Per-round times; the ratios repeat exactly (11/10 = 44/40 = ...), two
    // rounds have a ratio of exactly 1, and the log ratios alternate enough
    // that their effective sample size is the full 14.
    let baseline = [
        10.0, 20.0, 10.0, 40.0, 25.0, 30.0, 10.0, 50.0, 20.0, 16.0, 12.0, 8.0, 30.0, 20.0,
    ];
    let member = [
        11.0, 21.0, 10.0, 44.0, 24.0, 33.0, 9.0, 55.0, 21.0, 18.0, 13.0, 8.4, 30.0, 22.0,
    ];
    let p = compare_paired(&baseline, &member);
    assert_eq!((p.rounds, p.skipped, p.n_eff), (14, 0, 14.0));

    // lr = np.log(member/baseline); r = stats.ttest_1samp(lr, 0.0); print(r.statistic, r.pvalue, r.df)
    // 2.8207198489864114 0.014445118267081622 13
    assert_close("t", p.t, 2.8207198489864114, 1e-10);
    assert_close("p", p.p_t, 0.014445118267081622, 1e-10);
    assert_eq!(p.df, 13.0);

    // Zeros dropped (Wilcoxon's method), ties among 1.1 and 1.05:
    // stats.wilcoxon(lr, zero_method='wilcox', correction=True, method='asymptotic')
    // WilcoxonResult(statistic=12.0, pvalue=0.03587952710274107)
    assert_close("Wilcoxon p", p.p_wilcoxon, 0.03587952710274107, 1e-10);

    // np.exp(lr.mean()); ci = stats.t.interval(0.95, 13, loc=lr.mean(), scale=stats.sem(lr))
    // print(np.exp(lr.mean()), np.exp(ci[0]), np.exp(ci[1]))
    // 1.0493628678549702 1.0113438968794006 1.0888110679567564
    assert_close("ratio", p.ratio, 1.0493628678549702, 1e-12);
    assert_close("lower", p.ratio_interval.0, 1.0113438968794006, 1e-10);
    assert_close("upper", p.ratio_interval.1, 1.0888110679567564, 1e-10);
    assert_close("change", p.ratio - 1.0, 0.0493628678549702, 1e-10);

    assert_eq!(p.verdict(0.01), Verdict::Slower);
    assert_eq!(p.verdict(0.05), Verdict::Unclear);
    assert_eq!(p.verdict(0.1), Verdict::NoDifference);
    assert_close("largest", p.largest_change(), 0.0888110679567564, 1e-9);
}

#[test]
fn paired_skips_rounds_without_a_ratio() {
    let baseline = [10.0, -1.0, 10.0, 0.0, 10.0, 10.0, f64::NAN, 10.0];
    let member = [11.0, 11.0, 11.5, 11.0, 10.8, 11.2, 11.0];
    let p = compare_paired(&baseline, &member);
    // Rounds 1 (≤ 0), 3 (0), 6 (NaN) and 7 (no member value) are left out.
    assert_eq!((p.rounds, p.skipped), (4, 4));
    let expected = ((1.1_f64.ln() + 1.15_f64.ln() + 1.08_f64.ln() + 1.12_f64.ln()) / 4.0).exp();
    assert_close("ratio", p.ratio, expected, 1e-12);

    let none = compare_paired(&[1.0], &[-1.0]);
    assert_eq!((none.rounds, none.skipped), (0, 1));
    assert!(none.ratio.is_nan() && none.p_t.is_nan() && none.p_wilcoxon.is_nan());
    assert_eq!(none.verdict(0.02), Verdict::Unclear);
}

#[test]
fn paired_identical_members_show_no_change() {
    let baseline = [10.0, 12.0, 11.0, 13.0, 10.5];
    let p = compare_paired(&baseline, &baseline);
    assert_eq!((p.ratio, p.ratio_interval), (1.0, (1.0, 1.0)));
    assert_eq!((p.p_t, p.p_wilcoxon), (1.0, 1.0));
    assert_eq!(p.verdict(0.0), Verdict::NoDifference);
}

// ---------------------------------------------------------------------------
// Effective sample size.

#[test]
fn white_noise_is_worth_about_its_length() {
    let mut rng = SplitMix64(1);
    let series: Vec<f64> = (0..200).map(|_| rng.normal()).collect();
    let n_eff = effective_sample_size(&series);
    assert!((160.0..=200.0).contains(&n_eff), "n_eff {n_eff}");

    // Over many series the estimator's bias stays small (it errs low: a few
    // chance positive pairs get summed).
    let average = (0..50)
        .map(|_| {
            let series: Vec<f64> = (0..200).map(|_| rng.normal()).collect();
            effective_sample_size(&series)
        })
        .sum::<f64>()
        / 50.0;
    assert!(
        (170.0..=200.0).contains(&average),
        "average n_eff {average}"
    );
}

#[test]
fn ar1_is_worth_a_ninth_of_its_length() {
    // n (1 − ρ) / (1 + ρ) = 5000 / 9 for ρ = 0.8.
    let mut rng = SplitMix64(2);
    let series = ar1(&mut rng, 5000, 0.8);
    let n_eff = effective_sample_size(&series);
    let expected = 5000.0 / 9.0;
    assert!(
        n_eff > expected / 1.5 && n_eff < expected * 1.5,
        "n_eff {n_eff}, expected about {expected}"
    );
}

#[test]
fn effective_sample_size_edge_cases() {
    assert_eq!(effective_sample_size(&[]), 0.0);
    assert_eq!(effective_sample_size(&[3.0, 1.0, 2.0]), 3.0);
    assert_eq!(effective_sample_size(&[5.0; 10]), 10.0);
    // Anticorrelated: never more than n.
    assert_eq!(
        effective_sample_size(&[1.0, -1.0, 1.0, -1.0, 1.0, -1.0]),
        6.0
    );
    // A step is one long excursion: few independent values, but at least 1.
    let step: Vec<f64> = (0..40).map(|i| if i < 20 { 1.0 } else { 2.0 }).collect();
    let n_eff = effective_sample_size(&step);
    assert!((1.0..5.0).contains(&n_eff), "n_eff {n_eff}");
    // Scale and shift do not matter.
    let moved: Vec<f64> = step.iter().map(|x| 1e3 * x + 7.0).collect();
    assert_close("moved", effective_sample_size(&moved), n_eff, 1e-9);
}

// ---------------------------------------------------------------------------
// Verdicts on synthetic block medians with known effects.

#[test]
fn identical_distributions_are_neither_slower_nor_faster() {
    let mut rng = SplitMix64(3);
    for _ in 0..20 {
        let old = rng.blocks(60, 1000.0, 0.01);
        let new = rng.blocks(60, 1000.0, 0.01);
        let c = compare(&old, &new, 0.02);
        assert!(
            matches!(c.verdict, Verdict::NoDifference | Verdict::Unclear),
            "{c:?}"
        );
    }
}

#[test]
fn ten_percent_slower_with_small_noise_is_slower() {
    let mut rng = SplitMix64(4);
    let old = rng.blocks(60, 1000.0, 0.01);
    let new = rng.blocks(60, 1100.0, 0.01);
    let c = compare(&old, &new, 0.02);
    assert_eq!(c.verdict, Verdict::Slower, "{c:?}");
    assert!((c.change - 0.1).abs() < 0.01, "{c:?}");
    assert!(c.cohens_d > 5.0 && c.p_welch < 1e-10 && c.p_mann_whitney < 1e-10);
    // And the other way round.
    assert_eq!(compare(&new, &old, 0.02).verdict, Verdict::Faster);
}

#[test]
fn one_percent_with_tiny_noise_is_no_difference_at_two_percent() {
    let mut rng = SplitMix64(5);
    let old = rng.blocks(60, 1000.0, 0.001);
    let new = rng.blocks(60, 1010.0, 0.001);
    let c = compare(&old, &new, 0.02);
    // Significant, but surely smaller than what matters.
    assert!(c.p_welch < 0.05, "{c:?}");
    assert_eq!(c.verdict, Verdict::NoDifference, "{c:?}");
    // With a threshold below the change it is slower.
    assert_eq!(compare(&old, &new, 0.005).verdict, Verdict::Slower);
}

#[test]
fn three_percent_in_huge_noise_is_unclear() {
    let mut rng = SplitMix64(6);
    let old = rng.blocks(20, 1000.0, 0.2);
    let new = rng.blocks(20, 1030.0, 0.2);
    let c = compare(&old, &new, 0.02);
    assert_eq!(c.verdict, Verdict::Unclear, "{c:?}");
    assert!(c.change_interval.0 < -0.02 && c.change_interval.1 > 0.02);
    // The largest change it allows is the end farther from none.
    let (low, high) = c.change_interval;
    let farther = if -low.ln_1p() > high.ln_1p() {
        low
    } else {
        high
    };
    assert_close("largest", c.largest_change(), farther, 1e-9);
}

#[test]
fn verdicts_read_as_words() {
    let words = Verdict::ALL.map(|v| v.to_string());
    assert_eq!(words, ["slower", "faster", "no difference", "unclear"]);
}

#[test]
fn no_difference_never_hides_an_interval_beyond_the_threshold() {
    // Whatever the rounds, `no difference` only with the whole interval
    // inside ±θ, and `slower`/`faster` only with it wholly beyond: before,
    // a `no change`/`within noise` could hide an interval reaching beyond.
    let mut rng = SplitMix64(7);
    for _ in 0..2000 {
        let n = 3 + (rng.uniform() * 30.0) as usize;
        let shift = 0.04 * rng.normal();
        let spread = 0.03 * rng.uniform();
        let baseline = rng.blocks(n, 100.0, spread);
        let member: Vec<f64> = rng
            .blocks(n, 100.0, spread)
            .iter()
            .map(|m| m * shift.exp())
            .collect();
        let theta = 0.04 * rng.uniform();
        let p = compare_paired(&baseline, &member);
        let (low, high) = p.log_ratio_interval;
        let bound = theta.ln_1p();
        let inside = low >= -bound && high <= bound;
        match p.verdict(theta) {
            Verdict::NoDifference => assert!(inside, "{p:?}"),
            Verdict::Slower => assert!(low > bound, "{p:?}"),
            Verdict::Faster => assert!(high < -bound, "{p:?}"),
            Verdict::Unclear => {
                assert!(!inside, "{p:?}");
                let farther = if -low > high { low } else { high };
                assert_close("largest", p.largest_change(), farther.exp_m1(), 1e-9);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Degenerate inputs.

#[test]
fn non_positive_estimates_fall_back_to_a_difference() {
    // An empty body: the loop overhead subtracted leaves times around 0.
    let old = [-0.02, 0.01, -0.01, 0.0, -0.03, 0.01];
    let new = [0.5, 0.52, 0.49, 0.51, 0.5, 0.48];
    let c = compare(&old, &new, 0.02);
    assert_eq!(c.change_method, ChangeMethod::Difference);
    let reference = c.old.abs();
    assert_close("change", c.change, (c.new - c.old) / reference, 1e-12);
    assert!(c.change_interval.0 < c.change && c.change < c.change_interval.1);
    assert_eq!(c.verdict, Verdict::Slower);
    assert!(c.change.is_finite());

    // A baseline of exactly 0 still gives a finite figure, and the sign.
    let zero = compare(&[0.0, 0.0, 0.0], &[0.0, 0.0, 1e-300], 0.02);
    assert_eq!(zero.change_method, ChangeMethod::Difference);
    assert!(zero.change > 0.0 && zero.change.is_finite());
}

#[test]
fn too_few_blocks_say_nothing() {
    let c = compare(&[100.0], &[110.0, 111.0], 0.02);
    assert!(c.welch_t.is_nan() && c.welch_df.is_nan() && c.p_welch.is_nan());
    assert_eq!(c.change_interval, (-1.0, f64::INFINITY));
    assert_eq!(c.verdict, Verdict::Unclear);
    assert_close("change", c.change, 0.105, 1e-12);

    let empty = compare(&[], &[1.0, 2.0], 0.02);
    assert!(empty.old.is_nan() && empty.change.is_nan());
    assert!(empty.p_mann_whitney.is_nan() && empty.cohens_d.is_nan());
    assert_eq!(empty.verdict, Verdict::Unclear);
}

#[test]
fn blocks_without_spread_are_exact() {
    let same = compare(&[10.0; 5], &[10.0; 5], 0.0);
    assert_eq!((same.change, same.p_welch, same.cohens_d), (0.0, 1.0, 0.0));
    assert_eq!(same.p_mann_whitney, 1.0);
    assert_eq!(same.verdict, Verdict::NoDifference);

    let slower = compare(&[10.0; 5], &[11.0; 5], 0.02);
    assert_eq!(slower.p_welch, 0.0);
    assert_eq!(slower.cohens_d, f64::INFINITY);
    assert_close("lower", slower.change_interval.0, 0.1, 1e-12);
    assert_eq!(slower.verdict, Verdict::Slower);
}

#[test]
fn long_plateaus_are_worth_few_blocks() {
    // Two frequency levels, 20 blocks on each: 40 blocks worth about 3.
    let old: Vec<f64> = (0..40)
        .map(|i| if i < 20 { 100.0 } else { 103.0 })
        .collect();
    let new: Vec<f64> = (0..40)
        .map(|i| if i < 20 { 101.0 } else { 104.0 })
        .collect();
    let c = compare(&old, &new, 0.02);
    assert!(c.n_eff_old < 4.0 && c.n_eff_new < 4.0, "{c:?}");
    assert!(c.welch_df < 5.0 && c.p_welch > 0.3, "{c:?}");
    assert_eq!(c.verdict, Verdict::Unclear);
    // Mann–Whitney treats the 40 blocks as independent, and is fooled.
    assert!(c.p_mann_whitney < 0.001, "{c:?}");
}

// ---------------------------------------------------------------------------
// Properties.

/// A baseline and a new run: block medians around a common base, the new
/// run shifted by a factor, with quantised noise (so that ties occur).
fn runs() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    let noise = || prop::collection::vec((0u32..20).prop_map(|k| f64::from(k) / 20.0), 2..40);
    (1e-3..1e6_f64, 0.0..0.2_f64, 0.7..1.4_f64, noise(), noise()).prop_map(
        |(base, spread, factor, old, new)| {
            let old = old.iter().map(|u| base * (1.0 + spread * u)).collect();
            let new = new
                .iter()
                .map(|u| base * factor * (1.0 + spread * u))
                .collect();
            (old, new)
        },
    )
}

fn swapped(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::Slower => Verdict::Faster,
        Verdict::Faster => Verdict::Slower,
        other => other,
    }
}

fn assert_near(what: &str, actual: f64, expected: f64) -> Result<(), TestCaseError> {
    let tolerance = 1e-8 * expected.abs().max(actual.abs()) + 1e-12;
    prop_assert!(
        (actual - expected).abs() <= tolerance,
        "{}: {:e} vs {:e}",
        what,
        actual,
        expected
    );
    Ok(())
}

fn threshold() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), 0.0..0.1_f64]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn swapping_the_runs_mirrors_the_comparison((old, new) in runs(), theta in threshold()) {
        let c = compare(&old, &new, theta);
        let s = compare(&new, &old, theta);
        prop_assert_eq!(s.change.signum() * c.change.signum() <= 0.0, true);
        prop_assert_eq!(s.change == 0.0, c.change == 0.0);
        prop_assert_eq!(s.cohens_d, -c.cohens_d);
        prop_assert_eq!(s.welch_t, -c.welch_t);
        prop_assert_eq!(s.p_welch, c.p_welch);
        prop_assert_eq!(s.p_mann_whitney, c.p_mann_whitney);
        prop_assert_eq!(s.verdict, swapped(c.verdict));
        // The interval of old/new is the reciprocal of that of new/old.
        assert_near("lower", (1.0 + s.change_interval.0) * (1.0 + c.change_interval.1), 1.0)?;
        assert_near("upper", (1.0 + s.change_interval.1) * (1.0 + c.change_interval.0), 1.0)?;
    }

    #[test]
    fn the_unit_does_not_matter((old, new) in runs(), a in 1e-3..1e3_f64, theta in threshold()) {
        let c: Comparison = compare(&old, &new, theta);
        let scale = |values: &[f64]| values.iter().map(|x| a * x).collect::<Vec<_>>();
        let s = compare(&scale(&old), &scale(&new), theta);
        assert_near("change", s.change, c.change)?;
        assert_near("lower", s.change_interval.0, c.change_interval.0)?;
        assert_near("upper", s.change_interval.1, c.change_interval.1)?;
        assert_near("p Welch", s.p_welch, c.p_welch)?;
        assert_near("p Mann-Whitney", s.p_mann_whitney, c.p_mann_whitney)?;
        assert_near("d", s.cohens_d, c.cohens_d)?;
        prop_assert_eq!(s.verdict, c.verdict);
    }

    #[test]
    fn swapping_baseline_and_member_inverts_the_ratio((old, new) in runs()) {
        let n = old.len().min(new.len());
        let p = compare_paired(&old[..n], &new[..n]);
        let s = compare_paired(&new[..n], &old[..n]);
        assert_near("ratio", p.ratio * s.ratio, 1.0)?;
        assert_near("p", p.p_t, s.p_t)?;
        prop_assert_eq!(p.rounds, n);
    }
}

// ---------------------------------------------------------------------------
// Ranks, as Mann–Whitney and Wilcoxon use them.

#[test]
fn mid_ranks_and_tie_term() {
    let (ranks, tie_term) = average_ranks(&[3.0, 1.0, 3.0, 2.0, 3.0]);
    assert_eq!(ranks, [4.0, 1.0, 4.0, 2.0, 4.0]);
    assert_eq!(tie_term, 24.0);
}

/// Times with the loop overhead taken out: no ratio when both sides are
/// within the overhead's noise of zero; a bound in the right direction
/// when only one is (a body the optimiser removed in one build).
#[test]
fn times_near_zero_give_no_ratio_or_a_bound_in_the_right_direction() {
    let resolution = 0.028;
    // An empty body against itself: times scattered about zero.
    let empty = [
        0.004, -0.003, 0.002, -0.001, 0.005, 0.001, -0.004, 0.003, 0.002, -0.002,
    ];
    let other = [
        0.003, 0.004, -0.002, 0.001, -0.003, 0.004, 0.002, -0.001, 0.003, 0.002,
    ];
    assert_eq!(compare_resolved(&empty, &other, resolution), None);
    // Optimised away in the old build, 5 ns in the new: a regression, by a
    // factor of at least 5 / 0.028.
    let new: Vec<f64> = (0..10).map(|k| 5.0 + 0.01 * f64::from(k % 3)).collect();
    let regressed = compare_resolved(&empty, &new, resolution).expect("a ratio");
    assert_eq!(regressed.verdict(0.01), Verdict::Slower);
    assert!(regressed.ratio > 170.0, "{}", regressed.ratio);
    let improved = compare_resolved(&new, &empty, resolution).expect("a ratio");
    assert_eq!(improved.verdict(0.01), Verdict::Faster);
    // Sub-nanosecond bodies well above the resolution are compared as
    // they are.
    let add: Vec<f64> = (0..10).map(|k| 0.24 + 0.001 * f64::from(k % 3)).collect();
    let same = compare_resolved(&add, &add, resolution).expect("a ratio");
    assert_eq!(same, compare_paired(&add, &add));
    assert!((same.ratio - 1.0).abs() < 1e-12);
}
