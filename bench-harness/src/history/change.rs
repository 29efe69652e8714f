//! Change points: the runs where a benchmark's time stepped to a new level.
//!
//! The method is E-divisive with means (Matteson & James 2014, "A
//! nonparametric approach for multiple change point analysis of
//! multivariate data", JASA 109(505)), the method MongoDB runs over its CI
//! performance history (Daly et al. 2020, "The use of change point
//! detection to identify software performance regressions in a continuous
//! integration system", ICPE). Why this one for a history of 10–50 runs
//! whose run-to-run spread (3–7% here) dwarfs each run's own interval
//! (±0.5–1%):
//!
//! - it needs no noise model: the divergence compares the distances
//!   between runs before and after a split with those within each side,
//!   and its significance comes from a permutation test on the series
//!   itself, so the run-to-run spread is learnt from the data, not assumed
//!   from the per-run intervals (which would flag nearly every run);
//! - its false-alarm rate is the permutation test's level, whatever the
//!   noise's shape, where PELT and CUSUM need the variance (poorly known
//!   from 20 runs) and a penalty or threshold tuned to it;
//! - with exponent 1 the divergence is a distance, not a square, so one
//!   slow run (the host in a slow spell) weighs less than in a mean-shift
//!   test.
//!
//! Bisection: the split with the largest divergence is tested (999
//! permutations, level 1%), kept when significant, and each side is
//! searched again. Each side of a split holds at least
//! [`MIN_SEGMENT`] runs, so one odd run cannot make a level of its own: a
//! step at the newest run is marked once two more runs confirm it.
//!
//! A significant split is then kept only when the step is larger than
//! what the runs themselves and the machine explain: the change between
//! the two levels (medians of log time) must exceed the default noise
//! threshold (2%, as `--noise-threshold`) plus the relative half-widths of
//! the runs on either side of it, after taking out the machine reference's
//! change between the same levels when both sides measured it. A split
//! that fails is dropped and its neighbours' levels are joined.
//!
//! Runs on other machines or in another configuration
//! ([`Record::series_key`]) are other series: each is searched on its own.

use std::borrow::Borrow;
use std::collections::BTreeMap;

use super::record::Record;

/// The fewest runs on each side of a change point.
pub(crate) const MIN_SEGMENT: usize = 3;
/// The permutation test's level.
const ALPHA: f64 = 0.01;
/// Permutations per test.
const PERMUTATIONS: usize = 999;
/// A step smaller than this (as a fraction) is no change, as for the
/// baseline verdicts' default `--noise-threshold`.
const NOISE_THRESHOLD: f64 = 0.02;

/// The change points of one benchmark's records, oldest first: the indices
/// of the records that start a new level, ascending.
#[cfg(test)]
pub(crate) fn change_points<R: Borrow<Record>>(records: &[R]) -> Vec<usize> {
    steps(records).into_iter().map(|step| step.at).collect()
}

/// A change point: where a benchmark's time stepped, by how much, and
/// whether its code changed there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Step {
    /// The index of the record that starts the new level.
    pub(crate) at: usize,
    /// The new level's median time against the old one's, as a fraction
    /// (`0.2`: 20% slower).
    pub(crate) change: f64,
    pub(crate) code: CodeAcross,
}

/// What the records of the two levels around a step say of the
/// benchmark's code (`Record::code`, the hash of its machine code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CodeAcross {
    /// Every run of both levels ran the same code: the step is the
    /// machine's or the layout's (where the code sits in memory, what else
    /// runs), not the code's.
    Unchanged,
    /// The runs of the two levels ran different code.
    Changed,
    /// Some run has no code hash (an older record, a stripped binary).
    Unknown,
}

impl CodeAcross {
    /// From the runs of the level before a step and the level after it:
    /// unchanged only when every one has the same hash, so a change of
    /// code anywhere in the two levels (the change point may sit a run
    /// away from it) is never called a step of the machine.
    pub(crate) fn of(before: &[&Record], after: &[&Record]) -> CodeAcross {
        let mut codes = before.iter().chain(after).map(|r| r.code.as_deref());
        let Some(Some(first)) = codes.next() else {
            return CodeAcross::Unknown;
        };
        let mut across = CodeAcross::Unchanged;
        for code in codes {
            match code {
                None => return CodeAcross::Unknown,
                Some(code) if code != first => across = CodeAcross::Changed,
                Some(_) => {}
            }
        }
        across
    }
}

/// [`change_points`] with each level's change and what the code did
/// across it.
pub(crate) fn steps<R: Borrow<Record>>(records: &[R]) -> Vec<Step> {
    let mut series: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    // A run printed as a bound says only that its time was below it: as a
    // level it would hide a step it sits next to (its interval "explains"
    // any step) or make one of its own.
    for (index, record) in records.iter().enumerate() {
        if !record.borrow().is_bound() {
            series
                .entry(record.borrow().series_key())
                .or_default()
                .push(index);
        }
    }
    let mut found = Vec::new();
    for indices in series.values() {
        let runs: Vec<&Record> = indices.iter().map(|&i| records[i].borrow()).collect();
        let splits = in_series(&runs);
        for (k, &split) in splits.iter().enumerate() {
            let start = if k == 0 { 0 } else { splits[k - 1] };
            let end = splits.get(k + 1).copied().unwrap_or(runs.len());
            let (then, now) = (
                level(&runs[start..split], |r| Some(r.time_ns)),
                level(&runs[split..end], |r| Some(r.time_ns)),
            );
            let change = match (then, now) {
                (Some(then), Some(now)) => (now - then).exp_m1(),
                _ => f64::NAN,
            };
            found.push(Step {
                at: indices[split],
                change,
                code: CodeAcross::of(&runs[start..split], &runs[split..end]),
            });
        }
    }
    found.sort_unstable_by_key(|step| step.at);
    found
}

/// The change points of one series' runs.
fn in_series(runs: &[&Record]) -> Vec<usize> {
    let values: Vec<f64> = runs
        .iter()
        .map(|r| r.time_ns.max(f64::MIN_POSITIVE).ln())
        .collect();
    let mut splits = e_divisive(&values);
    // Drop the splits the runs' intervals or the machine explain, the
    // smallest step first, until every one left is a real step.
    loop {
        let weakest = splits
            .iter()
            .enumerate()
            .filter_map(|(k, &split)| {
                let start = if k == 0 { 0 } else { splits[k - 1] };
                let end = splits.get(k + 1).copied().unwrap_or(runs.len());
                let excess = step_excess(&runs[start..split], &runs[split..end]);
                (excess <= 0.0).then_some((k, excess))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match weakest {
            Some((k, _)) => {
                splits.remove(k);
            }
            None => return splits,
        }
    }
}

/// The median of the log of `value` over `runs` (positive, finite values).
fn level(runs: &[&Record], value: fn(&Record) -> Option<f64>) -> Option<f64> {
    let mut logs: Vec<f64> = runs
        .iter()
        .filter_map(|r| value(r))
        .filter(|v| *v > 0.0 && v.is_finite())
        .map(f64::ln)
        .collect();
    median(&mut logs)
}

/// How far the step from the runs `before` to the runs `after` goes beyond
/// what explains it (noise threshold, the two adjacent runs' intervals, the
/// machine reference's change), in log units; 0 or below is no change.
fn step_excess(before: &[&Record], after: &[&Record]) -> f64 {
    let (Some(then), Some(now)) = (
        level(before, |r| Some(r.time_ns)),
        level(after, |r| Some(r.time_ns)),
    ) else {
        return 0.0;
    };
    let machine = match (
        level(before, |r| r.reference_ns),
        level(after, |r| r.reference_ns),
    ) {
        (Some(then), Some(now)) => now - then,
        _ => 0.0,
    };
    let intervals = before.last().map_or(0.0, |r| r.relative_half_width())
        + after.first().map_or(0.0, |r| r.relative_half_width());
    let allowed = (1.0 + NOISE_THRESHOLD + intervals).ln();
    (now - then - machine).abs() - allowed
}

fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// E-divisive with means, exponent 1: the significant splits of `values`,
/// ascending. Deterministic: the permutations are seeded from the series'
/// length and position, so one history always gives the same marks.
pub(crate) fn e_divisive(values: &[f64]) -> Vec<usize> {
    let mut splits = Vec::new();
    let mut rng = fastrand::Rng::with_seed(0x5eed_c4a9_e000 ^ values.len() as u64);
    // Segments still to search, as [start, end).
    let mut pending = vec![(0, values.len())];
    while let Some((start, end)) = pending.pop() {
        let segment = &values[start..end];
        if let Some(split) = significant_split(segment, &mut rng) {
            splits.push(start + split);
            pending.push((start, start + split));
            pending.push((start + split, end));
        }
    }
    splits.sort_unstable();
    splits
}

/// The split of `segment` with the largest divergence, when a permutation
/// test finds it significant at [`ALPHA`].
fn significant_split(segment: &[f64], rng: &mut fastrand::Rng) -> Option<usize> {
    let (split, observed) = best_split(segment)?;
    // Stop as soon as the test cannot pass any more: most segments without
    // a change are settled in a few dozen permutations.
    let allowed = (ALPHA * (PERMUTATIONS + 1) as f64).floor() as usize;
    let mut shuffled = segment.to_vec();
    let mut as_large = 0;
    for _ in 0..PERMUTATIONS {
        rng.shuffle(&mut shuffled);
        let (_, statistic) = best_split(&shuffled)?;
        if statistic >= observed {
            as_large += 1;
            if as_large >= allowed {
                return None;
            }
        }
    }
    // p = (1 + as_large) / (1 + PERMUTATIONS) <= ALPHA.
    Some(split)
}

/// The split τ (each side at least [`MIN_SEGMENT`] long) maximising
/// Matteson & James's Q̂(τ) = (m·n/(m+n)) · Ê, with
/// Ê = 2/(m·n) Σ|xᵢ−yⱼ| − 1/C(m,2) Σ|xᵢ−xₖ| − 1/C(n,2) Σ|yⱼ−yₖ|, and its
/// value; `None` when the segment is too short to split. O(len²).
fn best_split(segment: &[f64]) -> Option<(usize, f64)> {
    let len = segment.len();
    if len < 2 * MIN_SEGMENT {
        return None;
    }
    // left[t] = Σ_{i<t} |x_t − x_i|, right[t] = Σ_{j>t} |x_t − x_j|.
    let mut left = vec![0.0; len];
    let mut right = vec![0.0; len];
    for i in 0..len {
        for j in i + 1..len {
            let d = (segment[i] - segment[j]).abs();
            right[i] += d;
            left[j] += d;
        }
    }
    // With τ = 0: nothing on the left, everything on the right.
    let (mut within_left, mut cross) = (0.0, 0.0);
    let mut within_right: f64 = right.iter().sum();
    let mut best: Option<(usize, f64)> = None;
    for tau in 1..len {
        // Move element τ−1 from the right side to the left.
        let moved = tau - 1;
        within_left += left[moved];
        within_right -= right[moved];
        cross += right[moved] - left[moved];
        let (m, n) = (tau as f64, (len - tau) as f64);
        if tau < MIN_SEGMENT || len - tau < MIN_SEGMENT {
            continue;
        }
        let between = 2.0 * cross / (m * n);
        let inside_left = within_left / (m * (m - 1.0) / 2.0);
        let inside_right = within_right / (n * (n - 1.0) / 2.0);
        let q = m * n / (m + n) * (between - inside_left - inside_right);
        if best.is_none_or(|(_, b)| q > b) {
            best = Some((tau, q));
        }
    }
    best
}
