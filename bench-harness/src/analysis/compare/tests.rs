//! Comparisons between runs and within A/B groups, checked against SciPy,
//! against known effects and coverage on synthetic data, and by symmetry.
//!
//! Reference tool versions: Python 3.11 with NumPy 2.4.6 and SciPy 1.17.1,
//! `import numpy as np; from scipy import stats` before every one-liner
//! quoted below. (SciPy 1.17 calls the normal approximation of
//! `stats.wilcoxon` `method='asymptotic'`; the older name was `'approx'`.)

use proptest::prelude::*;

use super::*;

/// A headline of `time` ns ± `half` at `df` degrees of freedom, with no
/// floor: the loop and the clock resolve everything.
fn headline(time: f64, half: f64, df: f64) -> Headline {
    Headline {
        time,
        half_width: Some(half),
        df,
        resolution: 0.0,
        quantum: 0.0,
    }
}

/// The example of the module's documentation.
#[test]
fn the_documented_example_is_ten_percent_slower() {
    let old = headline(100.0, 1.0, 19.0);
    let new = headline(110.0, 1.0, 19.0);
    let c = compare(&old, &new, 0.02).ratio.expect("a ratio");
    assert_eq!(c.verdict, Verdict::Slower);
    assert_close("change", c.change, 0.1, 1e-12);
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
// The comparison of two headlines, against SciPy.

#[test]
fn two_headlines_match_scipy() {
    // 100 ns ± 2 at 10 degrees of freedom then, 103 ns ± 3 at 20 now:
    // q1, q2 = stats.t.ppf(0.975, 10), stats.t.ppf(0.975, 20)
    // s1, s2 = 2/q1/100, 3/q2/103; v = s1**2 + s2**2
    // df = v**2/(s1**4/10 + s2**4/20); L = np.log(103/100); t = L/np.sqrt(v)
    // h = stats.t.ppf(0.975, df)*np.sqrt(v)
    // print(df, t, 2*stats.t.sf(abs(t), df), np.expm1(L - h), np.expm1(L + h))
    // 29.775657323973753 1.7807331184363338 0.08516217198307992
    // -0.004342609500678892 0.06552716840474598
    let c = compare(
        &headline(100.0, 2.0, 10.0),
        &headline(103.0, 3.0, 20.0),
        0.02,
    )
    .ratio
    .expect("a ratio");
    assert_close("df", c.welch_df, 29.775657323973753, 1e-10);
    assert_close("t", c.welch_t, 1.7807331184363338, 1e-10);
    assert_close("p", c.p_welch, 0.08516217198307992, 1e-9);
    assert_close("lower", c.change_interval.0, -0.004342609500678892, 1e-8);
    assert_close("upper", c.change_interval.1, 0.06552716840474598, 1e-9);
    assert_close("change", c.change, 0.03, 1e-12);
    // Up to 6.55% slower, down to 0.43% faster: unclear at 2%.
    assert_eq!(c.verdict, Verdict::Unclear);
    assert_close("largest", c.largest_change(), 0.06552716840474598, 1e-9);

    // Intervals of unknown degrees of freedom take the normal quantile:
    // s1, s2 = 2/stats.norm.ppf(0.975)/100, 3/stats.norm.ppf(0.975)/103
    // ... print(t, 2*stats.norm.sf(abs(t)), np.expm1(L - h), np.expm1(L + h))
    // 1.639717833583034 0.10106384918361518 -0.005756369220904985 0.0670422893920605
    let inf = f64::INFINITY;
    let n = compare(&headline(100.0, 2.0, inf), &headline(103.0, 3.0, inf), 0.02)
        .ratio
        .unwrap();
    assert_eq!(n.welch_df, inf);
    assert_close("t", n.welch_t, 1.639717833583034, 1e-10);
    assert_close("p", n.p_welch, 0.10106384918361518, 1e-9);
    assert_close("lower", n.change_interval.0, -0.005756369220904985, 1e-8);
    assert_close("upper", n.change_interval.1, 0.0670422893920605, 1e-9);
}

#[test]
fn the_change_is_the_change_between_the_printed_times() {
    // Whatever the intervals, the change is the ratio of the two figures
    // the rows print.
    for (old, new) in [(623.3, 629.5), (1.063, 1.071), (8.05e6, 7.91e6)] {
        for half in [0.001, 0.02, 0.3] {
            let c = compare(
                &headline(old, old * half, 12.0),
                &headline(new, new * half, 40.0),
                0.02,
            );
            assert_eq!((c.old, c.new), (old, new));
            assert_eq!(c.ratio.unwrap().change, new / old - 1.0);
        }
    }
}

#[test]
fn the_interval_covers_the_true_change_at_its_nominal_rate() {
    // Each side's headline is the mean of 20 independent blocks (sd 1%),
    // printed with its t-interval at 19 degrees of freedom; the truth is a
    // 3% change. The combined interval should cover it 95% of the time.
    let mut rng = SplitMix64(11);
    let side = |rng: &mut SplitMix64, truth: f64| {
        let blocks = rng.blocks(20, truth, 0.01);
        let mean = blocks.iter().sum::<f64>() / 20.0;
        let sd = (blocks.iter().map(|b| (b - mean).powi(2)).sum::<f64>() / 19.0).sqrt();
        let half = students_t_quantile(0.975, 19.0) * sd / 20f64.sqrt();
        headline(mean, half, 19.0)
    };
    let trials = 4000;
    let covered = (0..trials)
        .filter(|_| {
            let (old, new) = (side(&mut rng, 100.0), side(&mut rng, 103.0));
            let (low, high) = compare(&old, &new, 0.02).ratio.unwrap().change_interval;
            low <= 0.03 && 0.03 <= high
        })
        .count();
    let coverage = covered as f64 / f64::from(trials);
    assert!((0.935..=0.965).contains(&coverage), "coverage {coverage}");
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

#[test]
fn identical_quantised_rounds_give_no_zero_width_interval() {
    // A steady chain's slice medians are the same whole number of clock
    // ticks every round: every round's ratio is the same. The clock's
    // quantum keeps the interval open and the p-value above 0.
    let baseline = [800.0; 12];
    let member = [816.0; 12];
    let exact = compare_paired(&baseline, &member);
    assert_eq!(
        (exact.ratio_interval.0, exact.p_t),
        (exact.ratio_interval.1, 0.0)
    );
    let floor = 0.002;
    let p = compare_rounds(&baseline, &member, 0.0, floor).expect("a ratio");
    assert_close("ratio", p.ratio, 1.02, 1e-12);
    assert_close("lower", p.log_ratio_interval.0, 1.02f64.ln() - floor, 1e-12);
    assert_close("upper", p.log_ratio_interval.1, 1.02f64.ln() + floor, 1e-12);
    assert!(p.p_t > 0.0, "{p:?}");
    assert_eq!(p.verdict(0.01), Verdict::Slower);
    // Identical members: no difference, by the floor's width.
    let same = compare_rounds(&baseline, &baseline, 0.0, floor).expect("a ratio");
    assert_eq!((same.t, same.p_t), (0.0, 1.0));
    assert_eq!(same.verdict(0.01), Verdict::NoDifference);
    assert_eq!(same.verdict(0.0), Verdict::Unclear);
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
// The verdict rule.

#[test]
fn verdicts_follow_where_the_whole_interval_lies() {
    // ± 0.5% on each side, at 2%.
    let at = |new: f64| {
        compare(
            &headline(100.0, 0.5, 30.0),
            &headline(new, new * 0.005, 30.0),
            0.02,
        )
        .verdict()
        .unwrap()
    };
    assert_eq!(at(110.0), Verdict::Slower);
    assert_eq!(at(90.0), Verdict::Faster);
    assert_eq!(at(100.5), Verdict::NoDifference);
    // Change 2.2% ± 0.7%: the interval straddles the threshold.
    assert_eq!(at(102.2), Verdict::Unclear);
    // Change 0 in a wide interval: no difference cannot be claimed.
    let wide = compare(
        &headline(100.0, 3.0, 30.0),
        &headline(100.0, 3.0, 30.0),
        0.02,
    )
    .ratio
    .unwrap();
    assert_eq!(wide.verdict, Verdict::Unclear);
    assert!(wide.largest_change() > 0.02, "{wide:?}");
}

#[test]
fn no_difference_never_hides_an_interval_beyond_the_threshold() {
    // Whatever the figures, `no difference` only with the whole interval
    // inside ±θ, and `slower`/`faster` only with it wholly beyond.
    let mut rng = SplitMix64(7);
    for _ in 0..2000 {
        let old = 100.0 * (1.0 + 0.05 * rng.normal());
        let new = 100.0 * (1.0 + 0.05 * rng.normal());
        let (h_old, h_new) = (old * 0.03 * rng.uniform(), new * 0.03 * rng.uniform());
        let theta = 0.04 * rng.uniform();
        let c = compare(
            &headline(old, h_old, 20.0),
            &headline(new, h_new, 9.0),
            theta,
        )
        .ratio
        .unwrap();
        let (low, high) = c.change_interval;
        let inside = low >= -theta / (1.0 + theta) - 1e-12 && high <= theta + 1e-12;
        match c.verdict {
            Verdict::NoDifference => assert!(inside, "{c:?}"),
            Verdict::Slower => assert!(low > theta - 1e-12, "{c:?}"),
            Verdict::Faster => assert!(high < -theta / (1.0 + theta) + 1e-12, "{c:?}"),
            Verdict::Unclear => {
                assert!(!inside, "{c:?}");
                // The end farther from no change, on the log scale.
                let largest = c.largest_change();
                let farther = if (-low.ln_1p()) > high.ln_1p() {
                    low
                } else {
                    high
                };
                assert_close("largest", largest, farther, 1e-9);
            }
        }
    }
}

#[test]
fn verdicts_read_as_words() {
    let words = Verdict::ALL.map(|v| v.to_string());
    assert_eq!(words, ["slower", "faster", "no difference", "unclear"]);
}

// ---------------------------------------------------------------------------
// Degenerate inputs.

#[test]
fn a_side_without_an_interval_says_nothing() {
    let old = Headline {
        half_width: None,
        ..headline(100.0, 0.0, 1.0)
    };
    let c = compare(&old, &headline(110.0, 1.0, 19.0), 0.02)
        .ratio
        .unwrap();
    assert!(c.welch_t.is_nan() && c.welch_df.is_nan() && c.p_welch.is_nan());
    assert_eq!(c.change_interval, (-1.0, f64::INFINITY));
    assert_eq!(c.verdict, Verdict::Unclear);
    assert_close("change", c.change, 0.1, 1e-12);
}

#[test]
fn no_interval_is_narrower_than_the_clock() {
    // Quantised samples: both sides the same whole number of ticks in
    // every block, so each headline's own interval has zero width. The
    // clock's resolution over a sample's iterations keeps the comparison's
    // interval open and its p-value above 0.
    let quantised = |time: f64| Headline {
        quantum: 0.38 / 1000.0,
        ..headline(time, 0.0, 59.0)
    };
    let same = compare(&quantised(800.1), &quantised(800.1), 0.0)
        .ratio
        .unwrap();
    assert!(same.change_interval.0 < 0.0 && same.change_interval.1 > 0.0);
    assert_eq!((same.welch_t, same.p_welch), (0.0, 1.0));
    let close = compare(&quantised(800.1), &quantised(800.1 + 0.38 / 1000.0), 0.0)
        .ratio
        .unwrap();
    assert!(close.p_welch > 0.05, "{close:?}");
    assert_eq!(close.verdict, Verdict::Unclear);
    // Without a floor the same figures are "exact".
    let exact = compare(
        &headline(800.1, 0.0, 59.0),
        &headline(800.1004, 0.0, 59.0),
        0.0,
    );
    assert_eq!(exact.ratio.unwrap().p_welch, 0.0);
}

#[test]
fn headlines_near_zero_give_no_ratio_or_a_bound_in_the_right_direction() {
    // The loop resolves 0.028 ns: an empty body against itself has no ratio.
    let near_zero = |time: f64| Headline {
        resolution: 0.028,
        ..headline(time, 0.01, 30.0)
    };
    assert_eq!(
        compare(&near_zero(0.004), &near_zero(-0.003), 0.02).ratio,
        None
    );
    // Below zero by more than the resolution (the loop overhead
    // overestimated) is no time either.
    assert_eq!(
        compare(&near_zero(-0.27), &near_zero(0.01), 0.02).ratio,
        None
    );
    // Optimised away then, 5 ns now: slower, by at least 5 / 0.028.
    let slower = compare(&near_zero(0.004), &near_zero(5.0), 0.02)
        .ratio
        .unwrap();
    assert_eq!(slower.verdict, Verdict::Slower);
    assert!(slower.change > 170.0, "{slower:?}");
    let faster = compare(&near_zero(5.0), &near_zero(-0.01), 0.02)
        .ratio
        .unwrap();
    assert_eq!(faster.verdict, Verdict::Faster);
    assert!(faster.change < -0.99, "{faster:?}");
}

// ---------------------------------------------------------------------------
// Properties.

/// A baseline and a new headline: a time, the new one shifted by a factor,
/// each with a half-width and degrees of freedom of its own.
fn sides() -> impl Strategy<Value = (Headline, Headline)> {
    let df = || prop_oneof![Just(f64::INFINITY), 1.0..200.0_f64];
    (
        1e-3..1e6_f64,
        0.7..1.4_f64,
        0.0..0.2_f64,
        0.0..0.2_f64,
        df(),
        df(),
    )
        .prop_map(|(base, factor, a, b, df_old, df_new)| {
            let new = base * factor;
            (
                headline(base, base * a, df_old),
                headline(new, new * b, df_new),
            )
        })
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

/// Per-round values for the paired comparison: a base with quantised noise.
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn swapping_the_runs_mirrors_the_comparison((old, new) in sides(), theta in threshold()) {
        let c = compare(&old, &new, theta).ratio.unwrap();
        let s = compare(&new, &old, theta).ratio.unwrap();
        prop_assert_eq!(s.change.signum() * c.change.signum() <= 0.0, true);
        prop_assert_eq!(s.change == 0.0, c.change == 0.0);
        prop_assert_eq!(s.welch_t, -c.welch_t);
        prop_assert_eq!(s.p_welch, c.p_welch);
        prop_assert_eq!(s.verdict, swapped(c.verdict));
        // The interval of old/new is the reciprocal of that of new/old.
        assert_near("lower", (1.0 + s.change_interval.0) * (1.0 + c.change_interval.1), 1.0)?;
        assert_near("upper", (1.0 + s.change_interval.1) * (1.0 + c.change_interval.0), 1.0)?;
    }

    #[test]
    fn the_unit_does_not_matter((old, new) in sides(), a in 1e-3..1e3_f64, theta in threshold()) {
        let c = compare(&old, &new, theta).ratio.unwrap();
        let scale = |h: Headline| Headline {
            time: a * h.time,
            half_width: h.half_width.map(|w| a * w),
            ..h
        };
        let s = compare(&scale(old), &scale(new), theta).ratio.unwrap();
        assert_near("change", s.change, c.change)?;
        assert_near("lower", s.change_interval.0, c.change_interval.0)?;
        assert_near("upper", s.change_interval.1, c.change_interval.1)?;
        // (Student's tail at a fractional degree of freedom is exact to a
        // few parts in a million.)
        let p_tolerance = 1e-5 * c.p_welch + 1e-12;
        prop_assert!((s.p_welch - c.p_welch).abs() <= p_tolerance, "{} {}", s.p_welch, c.p_welch);
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
// Ranks, as Wilcoxon and the dependence model use them.

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
    // So is an empty body whose loop overhead was overestimated: its times
    // lie well below zero, and a ratio of them would be noise (raised to
    // the resolution on both sides, exactly 1 with an interval of no width).
    let overestimated: Vec<f64> = empty.iter().map(|t| t - 0.27).collect();
    assert_eq!(compare_resolved(&overestimated, &other, resolution), None);
    assert_eq!(
        compare_resolved(&overestimated, &overestimated, resolution),
        None
    );
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

// ---------------------------------------------------------------------------
// The A/B groups' trimmed comparison.

/// Log ratios around `center` (a change of `center`), AR(1) noise of
/// relative size `spread` with lag-1 correlation `rho`, as per-round times
/// of a baseline at 100 and a member.
fn rounds_around(
    rng: &mut SplitMix64,
    n: usize,
    center: f64,
    spread: f64,
    rho: f64,
) -> (Vec<f64>, Vec<f64>) {
    let noise = ar1(rng, n, rho);
    let scale = (1.0 - rho * rho).sqrt();
    let baseline = vec![100.0; n];
    let member = noise
        .iter()
        .map(|e| 100.0 * (center + spread * scale * e).exp())
        .collect();
    (baseline, member)
}

#[test]
fn one_disturbed_round_does_not_decide_a_groups_ratio() {
    // A member 2% slower over 30 rounds (±0.3% a round); in round 11 the
    // baseline's slice ran on a CPU twice as slow. The plain mean of the
    // log ratios follows that round; the trimmed one does not.
    let mut rng = SplitMix64(21);
    let (mut baseline, member) = rounds_around(&mut rng, 30, 0.02f64.ln_1p(), 0.003, 0.0);
    baseline[11] *= 2.0;
    let plain = compare_paired(&baseline, &member);
    assert_ne!(plain.verdict(0.01), Verdict::Slower, "{plain:?}");
    let trimmed = compare_rounds(&baseline, &member, 0.0, 0.0).expect("a ratio");
    assert_eq!(trimmed.trimmed, 6);
    assert!((trimmed.ratio - 1.02).abs() < 0.002, "{trimmed:?}");
    assert_eq!(trimmed.verdict(0.01), Verdict::Slower, "{trimmed:?}");
}

#[test]
fn trimming_costs_the_interval_no_coverage() {
    // 40 rounds, the true change 2%, rounds independent or persistent
    // (2,000 series each, fixed seeds). Independent: Yuen's interval
    // covers the truth about 95% of the time. Persistent (ρ = 0.4): both
    // the trimmed and the plain interval cover about 92.5%, what Geyer's
    // effective size leaves at 40 rounds; trimming loses nothing.
    let truth = 0.02f64.ln_1p();
    for (seed, rho) in [(31, 0.0), (32, 0.4)] {
        let mut rng = SplitMix64(seed);
        let trials = 2000;
        let (mut trimmed, mut plain) = (0, 0);
        for _ in 0..trials {
            let (baseline, member) = rounds_around(&mut rng, 40, truth, 0.005, rho);
            let covers = |(low, high): (f64, f64)| low <= truth && truth <= high;
            let p = compare_rounds(&baseline, &member, 0.0, 0.0).unwrap();
            trimmed += usize::from(covers(p.log_ratio_interval));
            plain += usize::from(covers(
                compare_paired(&baseline, &member).log_ratio_interval,
            ));
        }
        let (trimmed, plain) = (trimmed as f64 / 2000.0, plain as f64 / 2000.0);
        assert!(
            trimmed >= plain - 0.01,
            "ρ = {rho}: {trimmed} against {plain}"
        );
        if rho == 0.0 {
            assert!((0.935..=0.97).contains(&trimmed), "coverage {trimmed}");
        } else {
            assert!(trimmed >= 0.9, "coverage {trimmed}");
        }
    }
}

/// One pair of processes: the near-zero rule and the rounds' interval.
fn compare_resolved(baseline: &[f64], member: &[f64], resolution: f64) -> Option<PairedComparison> {
    compare_replicated(&[(baseline.to_vec(), member.to_vec())], resolution, 0.0)
}

/// Rounds of one pair of processes around `ratio`: ±0.2% alternating.
fn pair_at(ratio: f64) -> (Vec<f64>, Vec<f64>) {
    let old = vec![100.0; 10];
    let new = (0..10)
        .map(|i| 100.0 * ratio * if i % 2 == 0 { 1.002 } else { 0.998 })
        .collect();
    (old, new)
}

/// Three pairs of processes whose layouts put the same code 3% apart
/// (allocation-heavy bodies, here): each pair's rounds are tight, and all
/// the rounds read as one series (their persistence counted) claim ±1.6%.
/// Each pair counting once, the interval spans the layouts (±3.9%), and
/// the verdict is unclear.
#[test]
fn pairs_of_processes_that_disagree_widen_the_interval_to_their_spread() {
    let pairs = [pair_at(1.0), pair_at(1.03), pair_at(1.005)];
    let naive = compare_resolved(
        &pairs.iter().flat_map(|p| p.0.clone()).collect::<Vec<_>>(),
        &pairs.iter().flat_map(|p| p.1.clone()).collect::<Vec<_>>(),
        0.0,
    )
    .unwrap();
    let c = compare_replicated(&pairs, 0.0, 0.0).unwrap();
    let half = |c: &PairedComparison| (c.log_ratio_interval.1 - c.log_ratio_interval.0) / 2.0;
    assert!(half(&c) > 2.0 * half(&naive), "{naive:?}");
    // The pairs' mean log ratios: ln 1.0, ln 1.03, ln 1.005, each less
    // 2e-6 from the alternation (mean 0.011513, sd 0.015824); t(2) =
    // 4.302653: ± 0.039308 (numpy, scipy).
    let (lower, upper) = c.log_ratio_interval;
    assert!((c.mean_log_ratio - 0.011_513).abs() < 1e-6, "{c:?}");
    assert!(((upper - lower) / 2.0 - 0.039_308).abs() < 1e-6, "{c:?}");
    assert_eq!(c.verdict(0.01), Verdict::Unclear);
    assert!(c.largest_change() > 0.05, "{}", c.largest_change());
}

/// Pairs that agree keep the rounds' own interval, and a 2% change is
/// slower; identical quantised rounds in every pair still get the clock's
/// floor, never a zero-width interval.
#[test]
fn pairs_that_agree_keep_the_rounds_interval_and_the_floor() {
    let pairs = [pair_at(1.02), pair_at(1.02), pair_at(1.02)];
    let c = compare_replicated(&pairs, 0.0, 0.0).unwrap();
    assert_eq!(c.verdict(0.01), Verdict::Slower, "{c:?}");
    let same = vec![(vec![100.0; 10], vec![102.0; 10]); 3];
    let c = compare_replicated(&same, 0.0, 0.002).unwrap();
    let (lower, upper) = c.log_ratio_interval;
    assert!(((upper - lower) / 2.0 - 0.002).abs() < 1e-12, "{c:?}");
    assert!(c.p_t > 0.0, "{c:?}");
}

/// A comparison still measuring stops only where its 99% interval is
/// settled: three pairs 1.8–2.2% slower say `slower` at 95% (t with 2
/// degrees of freedom), not yet at 99%; ten such pairs say it at both.
#[test]
fn a_comparison_stops_measuring_only_on_its_wider_interval() {
    let three = [pair_at(1.018), pair_at(1.02), pair_at(1.022)];
    let c = compare_replicated(&three, 0.0, 0.0).unwrap();
    assert_eq!(c.verdict(0.01), Verdict::Slower, "{c:?}");
    assert!(!c.settled_at(0.01, 0.99), "{c:?}");
    let ten: Vec<_> = (0..10)
        .map(|i| pair_at(1.015 + 0.001 * f64::from(i)))
        .collect();
    let c = compare_replicated(&ten, 0.0, 0.0).unwrap();
    assert_eq!(c.verdict(0.01), Verdict::Slower, "{c:?}");
    assert!(c.settled_at(0.01, 0.99), "{c:?}");
    // Inside the band at 99% too: settled as no difference.
    let same = [pair_at(1.0), pair_at(1.001), pair_at(0.999), pair_at(1.0)];
    let c = compare_replicated(&same, 0.0, 0.0).unwrap();
    assert_eq!(c.verdict(0.01), Verdict::NoDifference, "{c:?}");
    assert!(c.settled_at(0.01, 0.99), "{c:?}");
}
