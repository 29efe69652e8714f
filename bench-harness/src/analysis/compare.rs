//! Is the new run faster, slower, or the same? Comparisons of a benchmark
//! between two runs, and between the members of an in-run A/B group.
//!
//! Everything here is pure: figures go in, plain numbers and a [`Verdict`]
//! come out.
//!
//! - [`compare`] takes the **headlines** of a benchmark in a baseline run
//!   and in a new run, each with its own 95% interval ([`Headline`]): the
//!   figures the two rows print. The change is the ratio of the two
//!   headlines, so a row's change is the change between its printed times;
//!   its interval combines the two sides' intervals as independent errors
//!   on the log scale (a Welch test with Satterthwaite's degrees of
//!   freedom).
//! - [`compare_paired`] takes the per-round values of a group's baseline and
//!   of one member, measured round by round in shuffled order, and tests the
//!   per-round ratio: paired t on the log ratios, Wilcoxon signed-rank as the
//!   distribution-free check. A/B groups take it through [`compare_rounds`]
//!   (the log ratios' 20% trimmed mean, Yuen's interval), `--against`
//!   through [`compare_replicated`] (their mean).
//! - [`effective_sample_size`] says how many independent values a
//!   time-ordered series of per-round ratios is worth.
//!
//! # Why the headlines, not the blocks
//!
//! An earlier version compared the means of *all* block medians of the two
//! runs, an estimator the headline had dropped for its 11–18% run-to-run
//! CV: the example suite against itself one run later printed
//! `int_add +25.33% regressed` where the two rows' times differed by
//! +1.00%, and 14 of 33 rows' changes were more than 5 points from the
//! change between the printed times. The headline's interval already
//! allows for the dependence between blocks and for the loop overhead's
//! uncertainty; the comparison takes it as it is.
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
//! A benchmark at 100 ns ± 1 ns then and 110 ns ± 1 ns now, with a 2%
//! noise threshold: [`compare`] finds it 10% slower, the whole interval of
//! the change above 2%, and says [`Verdict::Slower`] (the test
//! `tests::the_documented_example_is_ten_percent_slower`).

use std::fmt;

use super::distributions::{normal_p_with_continuity, students_t_quantile, students_t_two_sided_p};
use super::interval::CONFIDENCE_LEVEL;
use super::moments::{mean, sample_variance};
use super::special::Normal;

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
/// [`NoDifference`](Verdict::NoDifference) but an exact tie.
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

/// One side of a comparison between runs: a benchmark's headline as its
/// row prints it, with what its own 95% interval says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Headline {
    /// Nanoseconds per iteration, the loop overhead taken out.
    pub time: f64,
    /// The half-width of its 95% interval, in nanoseconds; `None` without
    /// an interval (fewer than two blocks).
    pub half_width: Option<f64>,
    /// The degrees of freedom of that interval (the effective number of
    /// independent blocks, less one); `∞` when not known, which takes the
    /// normal quantile.
    pub df: f64,
    /// Below this (nanoseconds per iteration) a time is what is left of the
    /// timing loop ([`super::Overhead::resolution`]): no ratio rests on it.
    pub resolution: f64,
    /// The clock's resolution over a sample's iterations, in nanoseconds
    /// per iteration: no interval is narrower than this, so that quantised
    /// samples cannot make an interval of zero width.
    pub quantum: f64,
}

impl Headline {
    /// The smallest time this side can tell from zero.
    fn floor(&self) -> f64 {
        self.resolution.max(self.quantum)
    }

    /// The standard error of the log of `value` (this side's time raised
    /// to its floor): the half-width, at least the clock's quantum, over
    /// the interval's quantile. Infinite without an interval.
    fn log_standard_error(&self, value: f64) -> f64 {
        match self.half_width.filter(|h| !h.is_nan()) {
            None => f64::INFINITY,
            Some(half_width) => half_width.max(self.quantum) / quantile(self.df) / value,
        }
    }
}

/// A benchmark in a baseline run against the same benchmark in a new run,
/// from their headlines. See [`compare`].
///
/// Times are in nanoseconds per iteration.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Comparison {
    /// The baseline's headline, as its row printed it.
    pub old: f64,
    /// The new run's headline, as its row prints it.
    pub new: f64,
    /// The change and its verdict; `None` when both times lie below their
    /// loop's resolution, too fast for any ratio.
    pub ratio: Option<Ratio>,
    /// The two sides were measured in ways that move the time (in one
    /// stretch against interleaved, `--cold` against not): the change
    /// holds the method's, and the verdict is `Unclear` whatever the
    /// interval says (`session/verdicts.rs`).
    pub two_ways: bool,
}

impl Comparison {
    /// The verdict, when there is a ratio.
    pub(crate) fn verdict(&self) -> Option<Verdict> {
        self.ratio.as_ref().map(|r| r.verdict)
    }
}

/// The change between two headlines. Changes, intervals and thresholds are
/// fractions (0.05 = 5%), never percent.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ratio {
    /// Relative change `new/old − 1`, as a fraction: positive = slower
    /// (0.05: 5% slower), negative = faster. A side below its loop's
    /// resolution counts at the resolution, so that the change is then a
    /// bound in the right direction.
    pub change: f64,
    /// 95% interval of [`change`](Ratio::change), as fractions `(lower,
    /// upper)`: `exp(ln(new/old) ± t·√(se²_old + se²_new)) − 1`, each side's
    /// `se` the standard error of its log headline (its interval's
    /// half-width, at least the clock's quantum, over its quantile, over the
    /// headline), `t` at [`welch_df`](Ratio::welch_df) degrees of freedom.
    /// Not symmetric around `change`. `(−1, ∞)` when a side has no interval.
    pub change_interval: (f64, f64),
    /// Welch's statistic on the log scale, `ln(new/old) / √(se²_old +
    /// se²_new)`. NaN when a side has no interval.
    pub welch_t: f64,
    /// Satterthwaite's degrees of freedom of the two standard errors,
    /// `(v_old + v_new)² / (v_old²/ν_old + v_new²/ν_new)` with `v = se²`
    /// and `ν` each side's own; `∞` when neither side's is known. NaN when a
    /// side has no interval.
    pub welch_df: f64,
    /// Two-sided p-value of that test (H0: equal times), between 0 and 1.
    /// NaN when a side has no interval.
    pub p_welch: f64,
    /// The noise threshold the verdict was reached with, as a fraction
    /// (negative or NaN given: 0).
    pub noise_threshold: f64,
    /// The conclusion (see [`Verdict`] for the rule).
    pub verdict: Verdict,
}

impl Ratio {
    /// The end of the interval farther from no change, as a change: the
    /// largest change the data still allow (`+0.036`: up to 3.6% slower).
    pub(crate) fn largest_change(&self) -> f64 {
        let (lower, upper) = self.change_interval;
        farther(lower.ln_1p(), upper.ln_1p()).exp_m1()
    }
}

/// Compares a benchmark's headline in a baseline run (`old`) with its
/// headline in a new run (`new`), with `noise_threshold` the smallest
/// relative change that matters (a fraction: 0.02 = 2%).
///
/// The change is the ratio of the two headlines. Its interval treats the
/// two sides' errors as independent and combines them on the log scale:
/// each side's standard error is its interval's half-width over the
/// quantile that interval used (Student's t at its own degrees of freedom,
/// or the normal's when they are unknown), and the two go into a Welch
/// test with Satterthwaite's degrees of freedom.
///
/// Times near zero follow [`resolved`]'s rule: no ratio when both
/// headlines lie below their sides' floor (the loop's resolution, or the
/// clock's quantum if more), too fast for any ratio; else a side under its
/// floor counts at the floor, and the change is a bound in the right
/// direction. A side without an interval gives the interval `(−1,
/// ∞)` and the verdict [`Verdict::Unclear`].
pub(crate) fn compare(old: &Headline, new: &Headline, noise_threshold: f64) -> Comparison {
    let ratio = (old.time > old.floor() || new.time > new.floor())
        .then(|| ratio(old, new, noise_threshold));
    Comparison {
        old: old.time,
        new: new.time,
        ratio,
        two_ways: false,
    }
}

/// The change between two headlines that are not both too fast.
fn ratio(old: &Headline, new: &Headline, noise_threshold: f64) -> Ratio {
    let noise_threshold = sanitize_threshold(noise_threshold);
    let value = |h: &Headline| h.time.max(h.floor()).max(f64::MIN_POSITIVE);
    let (old_value, new_value) = (value(old), value(new));
    // Exactly antisymmetric in (old, new), so that swapping the runs swaps
    // the verdict bit for bit.
    let log_ratio = new_value.ln() - old_value.ln();
    let (v_old, v_new) = (
        old.log_standard_error(old_value).powi(2),
        new.log_standard_error(new_value).powi(2),
    );
    let variance = v_old + v_new;
    let (welch_t, welch_df, p_welch, half) = if variance.is_finite() {
        let share = |v: f64, df: f64| if df.is_finite() { v * v / df } else { 0.0 };
        let denominator = share(v_old, old.df) + share(v_new, new.df);
        let df = if denominator > 0.0 {
            variance * variance / denominator
        } else {
            f64::INFINITY
        };
        let se = variance.sqrt();
        let t = if se > 0.0 {
            log_ratio / se
        } else if log_ratio == 0.0 {
            0.0
        } else {
            log_ratio.signum() * f64::INFINITY
        };
        (t, df, two_sided_p(t, df), quantile(df) * se)
    } else {
        (f64::NAN, f64::NAN, f64::NAN, f64::INFINITY)
    };
    let (lower, upper) = (log_ratio - half, log_ratio + half);
    let bound = noise_threshold.ln_1p();
    Ratio {
        change: new_value / old_value - 1.0,
        change_interval: (lower.exp_m1(), upper.exp_m1()),
        welch_t,
        welch_df,
        p_welch,
        noise_threshold,
        verdict: decide(lower, upper, -bound, bound),
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom, the
/// normal's for `df = ∞`: a 95% interval is `± quantile·se`.
fn quantile(df: f64) -> f64 {
    if df == f64::INFINITY {
        Normal::standard().inverse_cdf(0.5 + CONFIDENCE_LEVEL / 2.0)
    } else {
        students_t_quantile(0.5 + CONFIDENCE_LEVEL / 2.0, df)
    }
}

/// `P(|T| ≥ |t|)` for Student's T with `df` degrees of freedom, the
/// normal's beyond 10⁷ (where the two differ by less than a part in a
/// million, and Student's tail is no longer computed exactly: a side
/// whose error dwarfs the other's makes Satterthwaite's `df` that large).
fn two_sided_p(t: f64, df: f64) -> f64 {
    if t.is_infinite() && !df.is_nan() {
        0.0
    } else if df > 1e7 && !t.is_nan() {
        (2.0 * Normal::standard().sf(t.abs())).min(1.0)
    } else {
        students_t_two_sided_p(t, df)
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

/// A member of an in-run A/B group against the group's baseline, from their
/// per-round values. See [`compare_paired`].
///
/// Ratios are member/baseline: above 1 = the member is slower.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PairedComparison {
    /// Mean over the used rounds of `ln(member/baseline)`, the
    /// [`trimmed`](PairedComparison::trimmed) smallest and largest left
    /// out: the log of [`ratio`](PairedComparison::ratio). NaN without
    /// usable rounds.
    pub mean_log_ratio: f64,
    /// 95% interval of `mean_log_ratio`: `mean ± t·s/√n_eff` with `t` the
    /// 97.5% quantile of Student's t with `n_eff − 1` degrees of freedom;
    /// with rounds trimmed, Yuen's: `s` the standard deviation of the
    /// winsorized log ratios (each trimmed one set to the nearest kept),
    /// over the kept share `h/n`, and `t` at `n_eff·h/n − 1`. Never
    /// narrower than `± floor` (the clock's quantum, see
    /// [`compare_rounds`]). `(−∞, ∞)` with fewer than two usable rounds.
    pub log_ratio_interval: (f64, f64),
    /// Geometric mean over the used rounds (trimmed, see `mean_log_ratio`)
    /// of member/baseline: how many times the baseline's time the member
    /// takes (1.05: 5% slower).
    pub ratio: f64,
    /// 95% interval of [`ratio`](PairedComparison::ratio): the exponential of
    /// [`log_ratio_interval`](PairedComparison::log_ratio_interval).
    pub ratio_interval: (f64, f64),
    /// Paired t statistic `mean / se` of the log ratios, `se` the interval's
    /// half-width over `t` (`s/√n_eff`, or the floor's share when that is
    /// more). NaN with fewer than two usable rounds.
    pub t: f64,
    /// Degrees of freedom of the t-test and interval: `n_eff − 1` (Yuen's
    /// `n_eff·h/n − 1` with rounds trimmed). NaN with fewer than two usable
    /// rounds.
    pub df: f64,
    /// Two-sided p-value of the paired t-test on the log ratios (H0: the
    /// mean log ratio is 0, the member as fast as the baseline). With
    /// `n_eff = rounds` and no floor this is
    /// `scipy.stats.ttest_1samp(log_ratios, 0)`.
    pub p_t: f64,
    /// Two-sided p-value of the Wilcoxon signed-rank test on the log ratios:
    /// zero differences dropped (Wilcoxon's method), tie-corrected variance,
    /// normal approximation with continuity correction. Distribution-free,
    /// but it assumes independent rounds. Rough below 8 rounds (the exact
    /// p-value can differ in the second digit). 1 when every log ratio is 0; NaN without usable rounds.
    pub p_wilcoxon: f64,
    /// Rounds used: both values positive and finite.
    pub rounds: usize,
    /// Rounds left out: a value ≤ 0 or not finite on either side (a body
    /// cheaper than the subtracted loop overhead can measure ≤ 0), or a
    /// round present on one side only.
    pub skipped: usize,
    /// Effective number of independent rounds in the series of log ratios
    /// (winsorized, with rounds trimmed; [`effective_sample_size`]), between
    /// 1 and `rounds` (0 without usable rounds).
    pub n_eff: f64,
    /// Rounds left out of the mean at each end: none for
    /// [`compare_paired`] and `--against`, a fifth of the rounds for A/B
    /// groups ([`GROUP_TRIM`]).
    pub trimmed: usize,
}

impl PairedComparison {
    /// The verdict at `noise_threshold` (a fraction), by the same rule as
    /// [`compare`]'s (see [`Verdict`]), on the interval of the ratio.
    pub(crate) fn verdict(&self, noise_threshold: f64) -> Verdict {
        let bound = sanitize_threshold(noise_threshold).ln_1p();
        let (lower, upper) = self.log_ratio_interval;
        decide(lower, upper, -bound, bound)
    }

    /// Whether a comparison still measuring may stop with this verdict: the
    /// verdict of the interval at `confidence` (wider than the 95% one the
    /// row prints) is settled. A comparison looked at after every pair of
    /// processes gets that many chances to stop on a chance excursion;
    /// stopping only on a 99% interval keeps the false verdicts of the
    /// final 95% one near their nominal rate (one `slower` in 9 of a build
    /// against itself, allocation-heavy bodies, when it stopped at 95%).
    pub(crate) fn settled_at(&self, noise_threshold: f64, confidence: f64) -> bool {
        let (lower, upper) = self.log_ratio_interval;
        let widen = if self.df.is_finite() && self.df > 0.0 {
            students_t_quantile(0.5 + confidence / 2.0, self.df) / quantile(self.df)
        } else {
            let normal = Normal::standard();
            normal.inverse_cdf(0.5 + confidence / 2.0) / quantile(f64::INFINITY)
        };
        let (centre, half) = ((upper + lower) / 2.0, (upper - lower) / 2.0 * widen);
        let bound = sanitize_threshold(noise_threshold).ln_1p();
        decide(centre - half, centre + half, -bound, bound) != Verdict::Unclear
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
///
/// The runs use it through [`compare_rounds`] (`--against` through
/// [`compare_replicated`]), which add the near-zero rule and the clock's
/// floor.
#[cfg(test)]
pub(crate) fn compare_paired(baseline: &[f64], member: &[f64]) -> PairedComparison {
    paired(baseline, member, 0.0, 0.0)
}

/// The share of an A/B group's rounds left out of the mean log ratio at
/// each end (a 20% trimmed mean, with Yuen's interval). A round in which
/// one member's whole slice ran on a slower CPU, or was descheduled, is a
/// ratio of that moment, not of the code: with two busy loops beside the
/// calibration group, one such round made its 2% slower member read
/// `0.9441 [0.8058, 1.1062]` (Wilcoxon's p < 0.0001 all the same), and
/// another run read `1.2561 [0.8135, 1.9394]`. A fifth at each end keeps
/// about 94% of the mean's efficiency when the rounds are normal.
pub(crate) const GROUP_TRIM: f64 = 0.2;

/// [`compare_paired`], the interval of the mean log ratio at least `±
/// floor` wide, with `trim` (a share) of the rounds left out at each end.
fn paired(baseline: &[f64], member: &[f64], floor: f64, trim: f64) -> PairedComparison {
    let usable = |x: f64| x > 0.0 && x.is_finite();
    let log_ratios: Vec<f64> = baseline
        .iter()
        .zip(member)
        .filter(|&(&b, &m)| usable(b) && usable(m))
        .map(|(&b, &m)| (m / b).ln())
        .collect();
    let rounds = log_ratios.len();
    let skipped = baseline.len().max(member.len()) - rounds;

    let trimmed = ((trim * rounds as f64).floor() as usize).min(rounds.saturating_sub(1) / 2);
    let mut sorted = log_ratios.clone();
    sorted.sort_by(f64::total_cmp);
    let kept = &sorted[trimmed..rounds - trimmed];
    let mean_log_ratio = mean(kept);
    // The series in time order, each trimmed value set to the nearest kept
    // one: its spread and dependence stand for the trimmed mean's.
    let winsorized: Vec<f64> = match (kept.first(), kept.last()) {
        (Some(&low), Some(&high)) if trimmed > 0 => {
            log_ratios.iter().map(|x| x.clamp(low, high)).collect()
        }
        _ => log_ratios.clone(),
    };
    let n_eff = effective_sample_size(&winsorized);
    let (t, df, p_t, log_ratio_interval) = if rounds >= 2 {
        let share = kept.len() as f64 / rounds as f64;
        let df = n_eff * share - 1.0;
        let q = quantile(df);
        let spread = (sample_variance(&winsorized, mean(&winsorized)) / n_eff).sqrt() / share;
        let from_rounds = if spread > 0.0 { q * spread } else { 0.0 };
        let half = from_rounds.max(floor);
        // The standard error the interval stands for: the floor's share
        // when the rounds alone would claim less.
        let se = if from_rounds >= floor {
            spread
        } else {
            floor / q
        };
        let test = t_test(mean_log_ratio, se, df);
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
        trimmed,
    }
}

/// An A/B group's comparison: [`resolved`]'s near-zero rule, the
/// mean log ratio trimmed by [`GROUP_TRIM`] at each end with Yuen's
/// interval (one round in which a member's slice ran on a slower CPU must
/// not decide the ratio), and the interval at least `± floor` wide: the
/// clock's resolution over a round's iterations, relative to its time,
/// both sides' together. Rounds whose values are the same whole number of
/// clock ticks every time would otherwise give an interval of zero width
/// and a p-value of 0.
pub(crate) fn compare_rounds(
    baseline: &[f64],
    member: &[f64],
    resolution: f64,
    floor: f64,
) -> Option<PairedComparison> {
    resolved(baseline, member, resolution, floor, GROUP_TRIM)
}

/// A paired comparison replicated over pairs of processes (`--against`):
/// `pairs[k]` holds the rounds of the `k`-th pair of fresh processes, one
/// of each build, as `(baseline, member)` times. Each pair measures one
/// memory layout of each build, and the layouts differ by more than the
/// rounds within a pair do (allocation-heavy bodies read 3–7% apart
/// between two processes in every round, here), so the rounds of all pairs
/// are no sample of independent draws: each pair counts once.
///
/// The ratio is the geometric mean of the pairs' ratios; its interval the
/// wider of the Student-t interval over the pairs' mean log ratios
/// (`P − 1` degrees of freedom: the spread between layouts) and the one the
/// rounds of every pair give together (the spread within them), and at
/// least `± floor`. With one pair it is that pair's rounds' interval: a
/// layout's, no wider. `None` when both sides are within `resolution` of
/// zero in every pair.
pub(crate) fn compare_replicated(
    pairs: &[(Vec<f64>, Vec<f64>)],
    resolution: f64,
    floor: f64,
) -> Option<PairedComparison> {
    let each: Vec<PairedComparison> = pairs
        .iter()
        .filter_map(|(b, m)| resolved(b, m, resolution, floor, 0.0))
        .filter(|c| c.rounds >= 2)
        .collect();
    let (baseline, member): (Vec<f64>, Vec<f64>) = pairs
        .iter()
        .flat_map(|(b, m)| b.iter().copied().zip(m.iter().copied()))
        .unzip();
    let mut all = resolved(&baseline, &member, resolution, floor, 0.0)?;
    if each.len() < 2 {
        return Some(all);
    }
    let means: Vec<f64> = each.iter().map(|c| c.mean_log_ratio).collect();
    let n = means.len() as f64;
    let centre = mean(&means);
    let df = n - 1.0;
    let q = quantile(df);
    let spread = (sample_variance(&means, centre) / n).sqrt();
    let within = (all.log_ratio_interval.1 - all.log_ratio_interval.0) / 2.0;
    let (lower, upper) = (centre - q * spread, centre + q * spread);
    let between = (upper - lower) / 2.0;
    let half = between.max(within).max(floor);
    if between >= within && between >= floor {
        let test = t_test(centre, spread, df);
        all.t = test.t;
        all.df = test.df;
        all.p_t = test.p;
    }
    all.mean_log_ratio = centre;
    all.log_ratio_interval = (centre - half, centre + half);
    all.ratio = centre.exp();
    all.ratio_interval = (
        all.log_ratio_interval.0.exp(),
        all.log_ratio_interval.1.exp(),
    );
    Some(all)
}

/// The near-zero rule every paired comparison shares, for times from which
/// the loop overhead was taken out: no ratio when both sides' mean is
/// below `resolution` ([`super::Overhead::resolution`]), too fast for any
/// ratio (an empty future measured against itself read 0.07, "faster"; an
/// empty body whose loop overhead was overestimated under load, −0.27 ns a
/// side, read `1.0000 [1.0000, 1.0000]`); else [`paired`] over the times
/// raised to at least `resolution` (a side near zero, a body the optimiser
/// removed in one build, gives a ratio that is a bound, in the right
/// direction, instead of a ratio of noise), with the interval's `floor`
/// and the share `trim` trimmed at each end.
fn resolved(
    baseline: &[f64],
    member: &[f64],
    resolution: f64,
    floor: f64,
    trim: f64,
) -> Option<PairedComparison> {
    let within = |values: &[f64]| mean(values) <= resolution;
    if within(baseline) && within(member) {
        return None;
    }
    Some(paired(
        &raise(baseline, resolution),
        &raise(member, resolution),
        floor,
        trim,
    ))
}

/// `values`, each at least `resolution`.
fn raise(values: &[f64], resolution: f64) -> Vec<f64> {
    values.iter().map(|v| v.max(resolution)).collect()
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
/// practical bounds are `below ≤ 0 ≤ above` (the log ratio). NaN bounds
/// are unclear.
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

/// A t-test of `estimate` (H0: 0) with `standard_error` and `df` degrees of
/// freedom.
struct TTest {
    t: f64,
    df: f64,
    /// Two-sided p-value.
    p: f64,
}

fn t_test(estimate: f64, standard_error: f64, df: f64) -> TTest {
    if standard_error == 0.0 {
        // No spread at all, and no floor: the estimate is exact.
        let (t, p) = if estimate == 0.0 {
            (0.0, 1.0)
        } else {
            (estimate.signum() * f64::INFINITY, 0.0)
        };
        return TTest { t, df, p };
    }
    let t = estimate / standard_error;
    TTest {
        t,
        df,
        p: students_t_two_sided_p(t, df),
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

#[cfg(test)]
mod tests;
