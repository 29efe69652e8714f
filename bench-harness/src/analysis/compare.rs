//! Is the new run faster, slower, or the same? Comparisons of a benchmark
//! between two runs, and between the members of an in-run A/B group.
//!
//! Everything here is pure: time-ordered values go in, plain numbers and a
//! [`Verdict`] come out.
//!
//! - [`compare`] takes the **block medians** of a baseline run and of a new
//!   run (see [`block_estimate`](super::block_estimate): the headline is
//!   their mean) and tests whether the headline moved: Welch's t-test with an
//!   autocorrelation-aware standard error, the relative change with its 95%
//!   interval, Mann–Whitney U as a distribution-free check and Cohen's d as
//!   the effect size.
//! - [`compare_paired`] takes the per-round values of a group's baseline and
//!   of one member, measured round by round in shuffled order, and tests the
//!   per-round ratio: paired t on the log ratios, Wilcoxon signed-rank as the
//!   distribution-free check.
//! - [`effective_sample_size`] says how many independent values a
//!   time-ordered series is worth; both comparisons use it.
//!
//! # Why block medians, and why an effective sample size
//!
//! Samples within a block share the machine's state, so a block's median is
//! the unit of observation. But even block medians are not independent: on
//! the development VM the host moves the core between turbo frequencies about
//! 2.5% apart every few seconds, so consecutive blocks tend to sit on the
//! same level. The variance of the mean of `n` positively autocorrelated
//! values is not `s²/n` but `s²/n · (1 + 2 Σ ρ_k)`, larger; a test that
//! ignores that reports changes that are only the host's frequency state.
//! Dividing by the effective sample size `n_eff = n / (1 + 2 Σ ρ_k)` instead
//! of `n` restores the right variance, and `n_eff − 1` degrees of freedom
//! say how well that variance itself is known.
//!
//! # The verdict
//!
//! Statistical significance is not practical significance: with enough
//! blocks a 0.1% change is "significant". Each comparison therefore takes a
//! `noise_threshold` (a fraction: 0.02 = 2%), the smallest change that
//! matters, and the [`Verdict`] says where the whole interval lies
//! against it (see [`Verdict`] for the one rule).
//!
//! # Example
//!
//! Eight block medians near 100 ns against eight near 110 ns, with a 2%
//! noise threshold: [`compare`] finds them about 10% slower, the whole
//! interval of the change above 2%, and says [`Verdict::Slower`] (the
//! test `tests::the_documented_example_is_ten_percent_slower`).

use std::fmt;

use super::distributions::{normal_p_with_continuity, students_t_quantile, students_t_two_sided_p};
use super::interval::CONFIDENCE_LEVEL;
use super::moments::{mean, sample_variance};

/// Below this many values on both sides, the normal approximation of
/// Mann–Whitney's U (and of Wilcoxon's W) is rough: the exact p-value can
/// differ from it in the second digit.
pub(crate) const SMALL_SAMPLE: usize = 8;

/// Effective number of independent values in a time-ordered `series`:
/// `n / τ` with `τ = 1 + 2 Σ_{k≥1} ρ_k`, the integrated autocorrelation
/// time, clamped to `[1, n]`.
///
/// The autocorrelations `ρ_k` are the usual biased estimates (autocovariance
/// with denominator `n`, divided by the variance). Summing all of them gives
/// a useless, noisy τ, so the sum is truncated with Geyer's (1992) *initial
/// positive sequence* estimator: the autocorrelations are added in adjacent
/// pairs `Γ_m = ρ_{2m} + ρ_{2m+1}` (with `ρ_0 = 1`; for a reversible Markov
/// chain the true pair sums are all positive) for as long as the estimated
/// pair sums stay positive; then `τ = 2 Σ Γ_m − 1`.
///
/// - White noise gives `n_eff ≈ n` (slightly below on average: a few chance
///   positive pairs are summed; for n = 200 the median is about 0.94 n and
///   one series in twenty falls below 0.6 n, which errs on the cautious side).
/// - An AR(1) series with lag-one correlation ρ gives about
///   `n (1 − ρ) / (1 + ρ)`: `n / 9` for ρ = 0.8.
/// - Anticorrelated series (τ < 1) are clamped to `n`: a comparison never
///   claims more independent values than it has.
///
/// Fewer than 4 values, and series without spread (or with non-finite
/// values) return `n`: there is nothing to estimate the correlation from.
pub(crate) fn effective_sample_size(series: &[f64]) -> f64 {
    let n = series.len();
    let count = n as f64;
    if n < 4 {
        return count;
    }
    let center = mean(series);
    let centered: Vec<f64> = series.iter().map(|x| x - center).collect();
    let autocovariance = |lag: usize| -> f64 {
        centered[..n - lag]
            .iter()
            .zip(&centered[lag..])
            .map(|(a, b)| a * b)
            .sum::<f64>()
            / count
    };
    let variance = autocovariance(0);
    if !(variance > 0.0 && variance.is_finite()) {
        return count;
    }
    let mut pair_sum = 0.0;
    let mut lag = 0;
    while lag + 1 < n {
        let pair = (autocovariance(lag) + autocovariance(lag + 1)) / variance;
        if pair.is_nan() || pair <= 0.0 {
            break;
        }
        pair_sum += pair;
        lag += 2;
    }
    let tau = 2.0 * pair_sum - 1.0;
    let n_eff = if tau > 0.0 { count / tau } else { count };
    n_eff.clamp(1.0, count)
}

/// What a comparison concludes, from where the 95% interval of the change
/// lies against a `noise_threshold` `θ ≥ 0` (the smallest change that
/// matters, as a fraction):
///
/// 1. [`Slower`](Verdict::Slower): the whole interval of the ratio new/old
///    lies above `1 + θ` (the new run is slower by more than θ).
/// 2. [`Faster`](Verdict::Faster): the whole interval of new/old lies below
///    `1 / (1 + θ)` (the *old* run is slower by more than θ: a relative
///    change below `−θ/(1 + θ)`, −1.96% for θ = 2%).
/// 3. [`NoDifference`](Verdict::NoDifference): the whole interval of
///    new/old lies within `[1/(1 + θ), 1 + θ]`: whatever changed is smaller
///    than θ.
/// 4. [`Unclear`](Verdict::Unclear) otherwise: the interval reaches beyond
///    the threshold on at least one side and does not lie wholly beyond it,
///    so the data cannot tell a change of practical size from none. It is
///    reported with the largest change the interval still allows; more
///    measuring, or a quieter machine, settles it.
///
/// An interval beyond the threshold excludes no change, so the p-value of
/// the same test is below 0.05: the rule needs no separate test. Faster-by-θ
/// is measured from the new run (old/new > 1 + θ) so that the rule is
/// symmetric: swapping the two runs swaps Slower and Faster exactly. A
/// negative or NaN threshold counts as 0, where nothing is
/// [`NoDifference`](Verdict::NoDifference) but an exact tie. When the ratio
/// is undefined (see [`ChangeMethod::Difference`]) the same bounds apply to
/// `1 + change`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Verdict {
    /// Slower by more than the threshold, the whole interval says.
    Slower,
    /// Faster by more than the threshold, the whole interval says.
    Faster,
    /// Any change is smaller than the threshold, the whole interval says.
    NoDifference,
    /// The interval reaches beyond the threshold and does not lie wholly
    /// beyond it.
    Unclear,
}

impl Verdict {
    /// Every verdict, in the order the tallies list them.
    pub(crate) const ALL: [Verdict; 4] = [
        Verdict::Slower,
        Verdict::Faster,
        Verdict::NoDifference,
        Verdict::Unclear,
    ];
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Slower => "slower",
            Verdict::Faster => "faster",
            Verdict::NoDifference => "no difference",
            Verdict::Unclear => "unclear",
        })
    }
}

/// How [`Comparison::change`] and its interval were computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum ChangeMethod {
    /// `new/old − 1`, with the interval from the log ratio (both estimates
    /// positive: the normal case).
    LogRatio,
    /// `(new − old) / max(|old|, f64::MIN_POSITIVE)`, with the interval of
    /// the difference scaled the same way: used when an estimate is zero,
    /// negative or NaN (a body cheaper than the subtracted loop overhead can
    /// measure ≤ 0), where a ratio means nothing. The figure is then only a
    /// sign and an order of magnitude.
    Difference,
}

/// A benchmark in a baseline run against the same benchmark in a new run,
/// from each run's block medians. See [`compare`].
///
/// Times are in the unit of the block medians given (nanoseconds per
/// iteration in the harness); changes, intervals and thresholds are
/// fractions (0.05 = 5%), never percent.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Comparison {
    /// The baseline's headline: the mean of its block medians (NaN without
    /// blocks).
    pub old: f64,
    /// The new run's headline: the mean of its block medians (NaN without
    /// blocks).
    pub new: f64,
    /// Relative change `new/old − 1`, as a fraction: positive = slower
    /// (0.05: 5% slower), negative = faster. See [`change_method`] for the
    /// fallback when the ratio is undefined.
    ///
    /// [`change_method`]: Comparison::change_method
    pub change: f64,
    /// 95% interval of [`change`](Comparison::change), as fractions
    /// `(lower, upper)`: `exp(ln(new/old) ± t·√(se²_old/old² +
    /// se²_new/new²)) − 1` (delta method on the log scale, `t` the 97.5%
    /// quantile of Student's t with [`welch_df`](Comparison::welch_df)
    /// degrees of freedom). Not symmetric around `change`. Unbounded when a
    /// side has fewer than two blocks: `(−1, ∞)` for a ratio.
    pub change_interval: (f64, f64),
    /// Whether `change` is a ratio (the normal case) or a scaled difference
    /// because an estimate was ≤ 0.
    pub change_method: ChangeMethod,
    /// Welch's statistic `(new − old) / √(se²_old + se²_new)`, where each
    /// side's squared standard error of the mean is `s² / n_eff` (sample
    /// variance over the effective sample size, because block medians are
    /// autocorrelated: see the module documentation). NaN when a side has
    /// fewer than two blocks.
    pub welch_t: f64,
    /// Welch–Satterthwaite degrees of freedom,
    /// `(v_old + v_new)² / (v_old²/(n_eff_old − 1) + v_new²/(n_eff_new − 1))`
    /// with `v = se²`. NaN when a side has fewer than two blocks or neither
    /// side has any spread.
    pub welch_df: f64,
    /// Two-sided p-value of Welch's t-test (H0: equal means), between 0 and
    /// 1; the probability of a difference at least this large if nothing
    /// changed. NaN when a side has fewer than two blocks; 1 (equal) or 0
    /// (different) when neither side has any spread.
    pub p_welch: f64,
    /// Mann–Whitney U of the new run: the number of (old, new) pairs of
    /// block medians in which the new one is larger, ties counting one half.
    /// `n_old·n_new/2` when nothing changed; divided by `n_old·n_new` it is
    /// the probability that a new block is slower than an old one.
    pub mann_whitney_u: f64,
    /// Two-sided p-value of the Mann–Whitney U test on the block medians:
    /// normal approximation, tie-corrected variance, continuity correction
    /// (as `scipy.stats.mannwhitneyu(..., method='asymptotic')`). A
    /// distribution-free check on Welch; it assumes independent blocks and is
    /// not corrected for autocorrelation, so it is the more optimistic of
    /// the two when blocks are correlated. 1 when every value is tied, NaN
    /// when a side is empty.
    pub p_mann_whitney: f64,
    /// True when both sides have fewer than [`SMALL_SAMPLE`] (8) blocks: the
    /// normal approximation behind `p_mann_whitney` is then rough (an exact
    /// test would differ in the second digit).
    pub mann_whitney_rough: bool,
    /// Cohen's d: `(new − old) / s_pooled`, with `s_pooled² = ((n_old −
    /// 1)s²_old + (n_new − 1)s²_new) / (n_old + n_new − 2)` over the block
    /// medians. Positive = slower. Around 0.2 is small, 0.8 large. 0 when
    /// there is no spread and the means are equal, ±∞ when there is no
    /// spread and they differ, NaN with fewer than three blocks in all.
    pub cohens_d: f64,
    /// Number of block medians of the baseline.
    pub n_old: usize,
    /// Number of block medians of the new run.
    pub n_new: usize,
    /// Effective number of independent block medians of the baseline
    /// ([`effective_sample_size`]), between 1 and `n_old` (0 without
    /// blocks).
    pub n_eff_old: f64,
    /// Effective number of independent block medians of the new run
    /// ([`effective_sample_size`]), between 1 and `n_new` (0 without
    /// blocks).
    pub n_eff_new: f64,
    /// The noise threshold the verdict was reached with, as a fraction
    /// (negative or NaN given: 0).
    pub noise_threshold: f64,
    /// The conclusion (see [`Verdict`] for the rule).
    pub verdict: Verdict,
}

impl Comparison {
    /// The end of the interval farther from no change, as a change: the
    /// largest change the data still allow (`+0.036`: up to 3.6% slower).
    pub(crate) fn largest_change(&self) -> f64 {
        let (lower, upper) = self.change_interval;
        farther(lower.ln_1p(), upper.ln_1p()).exp_m1()
    }
}

/// Compares a benchmark's block medians in a baseline run (`old`) with those
/// in a new run (`new`), each in time order, with `noise_threshold` the
/// smallest relative change that matters (a fraction: 0.02 = 2%).
///
/// The headlines are the means of the block medians. Welch's t-test compares
/// them with each side's variance of the mean taken as `s²/n_eff`, not
/// `s²/n`: block medians drift with the machine's frequency state over
/// seconds, and treating them as independent would make the test see
/// changes that are only the host's mood. When the blocks are not
/// autocorrelated (`n_eff = n`) this is exactly
/// `scipy.stats.ttest_ind(new, old, equal_var=False)`.
///
/// A side with fewer than two blocks gives no spread: the t-test's figures
/// are NaN, the interval is `(−1, ∞)` and the verdict is
/// [`Verdict::Unclear`]. Values must be finite.
pub(crate) fn compare(old: &[f64], new: &[f64], noise_threshold: f64) -> Comparison {
    let noise_threshold = sanitize_threshold(noise_threshold);
    let (n_old, n_new) = (old.len(), new.len());
    let (old_mean, new_mean) = (mean(old), mean(new));
    let (old_var, new_var) = (
        sample_variance(old, old_mean),
        sample_variance(new, new_mean),
    );
    let (n_eff_old, n_eff_new) = (effective_sample_size(old), effective_sample_size(new));

    // Squared standard errors of the two means, and the Welch test.
    let v_old = old_var / n_eff_old;
    let v_new = new_var / n_eff_new;
    let difference = new_mean - old_mean;
    let test = if n_old >= 2 && n_new >= 2 {
        let v = v_old + v_new;
        let df = v * v / (v_old * v_old / (n_eff_old - 1.0) + v_new * v_new / (n_eff_new - 1.0));
        Some(t_test(difference, v.sqrt(), df))
    } else {
        None
    };
    let (welch_t, welch_df, p_welch) = match &test {
        Some(t) => (t.t, t.df, t.p),
        None => (f64::NAN, f64::NAN, f64::NAN),
    };

    let (change, change_interval, change_method, verdict) = if old_mean > 0.0 && new_mean > 0.0 {
        // Exactly antisymmetric in (old, new), so that swapping the runs
        // swaps the verdict bit for bit.
        let log_ratio = new_mean.ln() - old_mean.ln();
        let log_se = (v_old / (old_mean * old_mean) + v_new / (new_mean * new_mean)).sqrt();
        let half = half_width(test.as_ref(), log_se);
        let (lower, upper) = (log_ratio - half, log_ratio + half);
        let bound = noise_threshold.ln_1p();
        (
            new_mean / old_mean - 1.0,
            (lower.exp_m1(), upper.exp_m1()),
            ChangeMethod::LogRatio,
            decide(lower, upper, -bound, bound),
        )
    } else {
        let reference = old_mean.abs().max(f64::MIN_POSITIVE);
        let se = (v_old + v_new).sqrt();
        let half = half_width(test.as_ref(), se);
        let (lower, upper) = (
            (difference - half) / reference,
            (difference + half) / reference,
        );
        (
            difference / reference,
            (lower, upper),
            ChangeMethod::Difference,
            decide(
                lower,
                upper,
                -noise_threshold / (1.0 + noise_threshold),
                noise_threshold,
            ),
        )
    };

    let (mann_whitney_u, p_mann_whitney) = mann_whitney(old, new);

    Comparison {
        old: old_mean,
        new: new_mean,
        change,
        change_interval,
        change_method,
        welch_t,
        welch_df,
        p_welch,
        mann_whitney_u,
        p_mann_whitney,
        mann_whitney_rough: n_old < SMALL_SAMPLE && n_new < SMALL_SAMPLE,
        cohens_d: cohens_d(old_mean, old_var, n_old, new_mean, new_var, n_new),
        n_old,
        n_new,
        n_eff_old,
        n_eff_new,
        noise_threshold,
        verdict,
    }
}

/// A member of an in-run A/B group against the group's baseline, from their
/// per-round values. See [`compare_paired`].
///
/// Ratios are member/baseline: above 1 = the member is slower.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PairedComparison {
    /// Mean over the used rounds of `ln(member/baseline)`: the log of
    /// [`ratio`](PairedComparison::ratio). NaN without usable rounds.
    pub mean_log_ratio: f64,
    /// 95% interval of `mean_log_ratio`: `mean ± t·s/√n_eff` with `t` the
    /// 97.5% quantile of Student's t with `n_eff − 1` degrees of freedom.
    /// `(−∞, ∞)` with fewer than two usable rounds.
    pub log_ratio_interval: (f64, f64),
    /// Geometric mean over the used rounds of member/baseline: how many times
    /// the baseline's time the member takes (1.05: 5% slower).
    pub ratio: f64,
    /// 95% interval of [`ratio`](PairedComparison::ratio): the exponential of
    /// [`log_ratio_interval`](PairedComparison::log_ratio_interval).
    pub ratio_interval: (f64, f64),
    /// Paired t statistic `mean / (s/√n_eff)` of the log ratios. NaN with
    /// fewer than two usable rounds.
    pub t: f64,
    /// Degrees of freedom of the t-test and interval: `n_eff − 1`. NaN with
    /// fewer than two usable rounds.
    pub df: f64,
    /// Two-sided p-value of the paired t-test on the log ratios (H0: the
    /// mean log ratio is 0, the member as fast as the baseline). With
    /// `n_eff = rounds` this is `scipy.stats.ttest_1samp(log_ratios, 0)`.
    pub p_t: f64,
    /// Two-sided p-value of the Wilcoxon signed-rank test on the log ratios:
    /// zero differences dropped (Wilcoxon's method), tie-corrected variance,
    /// normal approximation with continuity correction. Distribution-free,
    /// but it assumes independent rounds. Rough below [`SMALL_SAMPLE`]
    /// rounds. 1 when every log ratio is 0; NaN without usable rounds.
    pub p_wilcoxon: f64,
    /// Rounds used: both values positive and finite.
    pub rounds: usize,
    /// Rounds left out: a value ≤ 0 or not finite on either side (a body
    /// cheaper than the subtracted loop overhead can measure ≤ 0), or a
    /// round present on one side only.
    pub skipped: usize,
    /// Effective number of independent rounds in the series of log ratios
    /// ([`effective_sample_size`]), between 1 and `rounds` (0 without usable
    /// rounds).
    pub n_eff: f64,
}

impl PairedComparison {
    /// The verdict at `noise_threshold` (a fraction), by the same rule as
    /// [`compare`]'s (see [`Verdict`]), on the interval of the ratio.
    pub(crate) fn verdict(&self, noise_threshold: f64) -> Verdict {
        let bound = sanitize_threshold(noise_threshold).ln_1p();
        let (lower, upper) = self.log_ratio_interval;
        decide(lower, upper, -bound, bound)
    }

    /// The end of the interval farther from a ratio of 1, as a change:
    /// the largest change the data still allow (`+0.036`: the member may
    /// be up to 3.6% slower).
    pub(crate) fn largest_change(&self) -> f64 {
        let (lower, upper) = self.log_ratio_interval;
        farther(lower, upper).exp_m1()
    }
}

/// Compares a member of an in-run A/B group with the group's baseline:
/// `baseline[i]` and `member[i]` were measured in the same round `i`
/// (shuffled order within the round), so each round gives one ratio
/// `member[i] / baseline[i]` with the machine's state of that moment
/// largely cancelled out.
///
/// The ratios are analysed on the log scale (a ratio of 2 and one of ½ are
/// equally far from 1): the geometric-mean ratio with a t-interval, a paired
/// t-test and a Wilcoxon signed-rank test on the log ratios. The standard
/// error uses the effective sample size of the log-ratio series, since
/// rounds close in time share the machine's drift.
///
/// Rounds where either value is ≤ 0 or not finite are skipped and counted,
/// as are rounds beyond the shorter slice.
pub(crate) fn compare_paired(baseline: &[f64], member: &[f64]) -> PairedComparison {
    let usable = |x: f64| x > 0.0 && x.is_finite();
    let log_ratios: Vec<f64> = baseline
        .iter()
        .zip(member)
        .filter(|&(&b, &m)| usable(b) && usable(m))
        .map(|(&b, &m)| (m / b).ln())
        .collect();
    let rounds = log_ratios.len();
    let skipped = baseline.len().max(member.len()) - rounds;

    let mean_log_ratio = mean(&log_ratios);
    let n_eff = effective_sample_size(&log_ratios);
    let (t, df, p_t, log_ratio_interval) = if rounds >= 2 {
        let se = (sample_variance(&log_ratios, mean_log_ratio) / n_eff).sqrt();
        let test = t_test(mean_log_ratio, se, n_eff - 1.0);
        let half = half_width(Some(&test), se);
        (
            test.t,
            test.df,
            test.p,
            (mean_log_ratio - half, mean_log_ratio + half),
        )
    } else {
        (
            f64::NAN,
            f64::NAN,
            f64::NAN,
            (f64::NEG_INFINITY, f64::INFINITY),
        )
    };

    PairedComparison {
        mean_log_ratio,
        log_ratio_interval,
        ratio: mean_log_ratio.exp(),
        ratio_interval: (log_ratio_interval.0.exp(), log_ratio_interval.1.exp()),
        t,
        df,
        p_t,
        p_wilcoxon: wilcoxon_signed_rank(&log_ratios),
        rounds,
        skipped,
        n_eff,
    }
}

/// [`compare_paired`] for times from which the loop overhead was taken
/// out: `None` when both sides' mean times lie within `resolution`
/// ([`super::Overhead::resolution`]) of zero, too fast for any ratio (an
/// empty future measured against itself read 0.07, "faster"); else the
/// comparison of the times raised to at least `resolution`, so that a side
/// near zero (a body the optimiser removed in one build) gives a ratio
/// that is a bound, in the right direction, instead of a ratio of noise.
pub(crate) fn compare_resolved(
    baseline: &[f64],
    member: &[f64],
    resolution: f64,
) -> Option<PairedComparison> {
    let within = |values: &[f64]| mean(values).abs() <= resolution;
    if within(baseline) && within(member) {
        return None;
    }
    let floor = |values: &[f64]| -> Vec<f64> { values.iter().map(|v| v.max(resolution)).collect() };
    Some(compare_paired(&floor(baseline), &floor(member)))
}

/// A negative or NaN threshold counts as 0.
fn sanitize_threshold(noise_threshold: f64) -> f64 {
    if noise_threshold > 0.0 {
        noise_threshold
    } else {
        0.0
    }
}

/// The rule of [`Verdict`], on a scale where "no change" is 0 and the
/// practical bounds are `below ≤ 0 ≤ above` (log ratio, or relative
/// change). NaN bounds are unclear.
fn decide(lower: f64, upper: f64, below: f64, above: f64) -> Verdict {
    if lower > above {
        Verdict::Slower
    } else if upper < below {
        Verdict::Faster
    } else if lower >= below && upper <= above {
        Verdict::NoDifference
    } else {
        Verdict::Unclear
    }
}

/// Of two ends of an interval on the log scale, the one farther from 0.
fn farther(lower: f64, upper: f64) -> f64 {
    if lower.abs() > upper.abs() {
        lower
    } else {
        upper
    }
}

/// A t-test of `estimate` (H0: 0) with `standard_error` and `df` degrees of
/// freedom.
struct TTest {
    t: f64,
    df: f64,
    /// Two-sided p-value.
    p: f64,
    /// 97.5% quantile of Student's t: the 95% interval is `± quantile·se`.
    quantile: f64,
}

/// Half-width of the 95% interval of an estimate with `standard_error`:
/// unbounded without a test (too few values to know the spread), 0 for an
/// exact estimate.
fn half_width(test: Option<&TTest>, standard_error: f64) -> f64 {
    match test {
        None => f64::INFINITY,
        Some(_) if standard_error == 0.0 => 0.0,
        Some(test) => test.quantile * standard_error,
    }
}

fn t_test(estimate: f64, standard_error: f64, df: f64) -> TTest {
    if standard_error == 0.0 {
        // No spread at all: the estimate is exact.
        let (t, p) = if estimate == 0.0 {
            (0.0, 1.0)
        } else {
            (estimate.signum() * f64::INFINITY, 0.0)
        };
        return TTest {
            t,
            df,
            p,
            quantile: students_t_quantile(0.5 + CONFIDENCE_LEVEL / 2.0, df),
        };
    }
    let t = estimate / standard_error;
    TTest {
        t,
        df,
        p: students_t_two_sided_p(t, df),
        quantile: students_t_quantile(0.5 + CONFIDENCE_LEVEL / 2.0, df),
    }
}

/// Mid-ranks (1-based, ties sharing their average rank) of `values`, and the
/// tie term `Σ (t³ − t)` over groups of `t` equal values.
pub(super) fn average_ranks(values: &[f64]) -> (Vec<f64>, f64) {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut tie_term = 0.0;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end (0-based) hold ranks start+1..=end.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &index in &order[start..end] {
            ranks[index] = rank;
        }
        let t = (end - start) as f64;
        tie_term += t * t * t - t;
        start = end;
    }
    (ranks, tie_term)
}

/// Mann–Whitney U of `new` against `old` and its two-sided p-value: normal
/// approximation with mean `n₁n₂/2`, variance `n₁n₂/12 · ((n + 1) − Σ(t³ −
/// t)/(n(n − 1)))` (ties) and continuity correction ½.
fn mann_whitney(old: &[f64], new: &[f64]) -> (f64, f64) {
    let (n_old, n_new) = (old.len() as f64, new.len() as f64);
    if old.is_empty() || new.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let pooled: Vec<f64> = old.iter().chain(new).copied().collect();
    let (ranks, tie_term) = average_ranks(&pooled);
    let rank_sum_new: f64 = ranks[old.len()..].iter().sum();
    let u = rank_sum_new - n_new * (n_new + 1.0) / 2.0;
    let n = n_old + n_new;
    let variance = n_old * n_new / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    let p = normal_p_with_continuity(u - n_old * n_new / 2.0, variance.max(0.0).sqrt());
    (u, p)
}

/// Two-sided p-value of Wilcoxon's signed-rank test of `differences`
/// (H0: symmetric around 0): zeros dropped, mid-ranks of `|d|`, statistic
/// `W⁺` (sum of the ranks of positive differences) with mean `n(n + 1)/4`
/// and variance `(n(n + 1)(2n + 1) − Σ(t³ − t)/2) / 24`, continuity
/// correction ½.
///
/// This is `scipy.stats.wilcoxon(d, zero_method='wilcox', correction=True,
/// method='asymptotic')` except when `|W⁺ − mean|` is ¼, where SciPy's
/// correction overshoots past the mean; here the p-value is then 1.
fn wilcoxon_signed_rank(differences: &[f64]) -> f64 {
    if differences.is_empty() {
        return f64::NAN;
    }
    let nonzero: Vec<f64> = differences.iter().copied().filter(|&d| d != 0.0).collect();
    let n = nonzero.len() as f64;
    let magnitudes: Vec<f64> = nonzero.iter().map(|d| d.abs()).collect();
    let (ranks, tie_term) = average_ranks(&magnitudes);
    let w_plus: f64 = nonzero
        .iter()
        .zip(&ranks)
        .filter(|&(&d, _)| d > 0.0)
        .map(|(_, &r)| r)
        .sum();
    let expected = n * (n + 1.0) / 4.0;
    let variance = (n * (n + 1.0) * (2.0 * n + 1.0) - tie_term / 2.0) / 24.0;
    normal_p_with_continuity(w_plus - expected, variance.max(0.0).sqrt())
}

/// Cohen's d with the pooled standard deviation; see
/// [`Comparison::cohens_d`].
fn cohens_d(
    old_mean: f64,
    old_var: f64,
    n_old: usize,
    new_mean: f64,
    new_var: f64,
    n_new: usize,
) -> f64 {
    if n_old == 0 || n_new == 0 || n_old + n_new < 3 {
        return f64::NAN;
    }
    let pooled_var =
        ((n_old - 1) as f64 * old_var + (n_new - 1) as f64 * new_var) / (n_old + n_new - 2) as f64;
    let difference = new_mean - old_mean;
    if pooled_var == 0.0 {
        return if difference == 0.0 {
            0.0
        } else {
            difference.signum() * f64::INFINITY
        };
    }
    difference / pooled_var.sqrt()
}

#[cfg(test)]
mod tests;
