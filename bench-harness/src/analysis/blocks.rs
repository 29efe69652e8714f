//! The headline estimate: the mean over the fast regime's blocks of machine
//! time of each block's median.
//!
//! Samples taken close together share the machine's state: on a virtual
//! machine the host moves the core between turbo frequencies every few
//! seconds, one vCPU can run 1.5–2.3× slower than the other for seconds at
//! a time, and other programs take the CPU. Consecutive samples are
//! therefore not independent, and a benchmark measured in one stretch
//! inherits whatever episode it lands in.
//!
//! So the samples are cut into *blocks* (the slices of an interleaved run,
//! or twentieths of a benchmark measured in one go), merged until each holds
//! at least [`MIN_BLOCK_VALUES`] values, and:
//! - within a block, the **median** discards interrupts and other one-sample
//!   outliers;
//! - across blocks, the blocks of the benchmark's **fast regime** are kept:
//!   those whose median is within [`REGIME_WIDTH`] (10%) of the blocks' 5th
//!   percentile. Slow episodes (a slow vCPU, competing load, a preempted
//!   slice) slow a block by tens of percent and fall outside; the host's
//!   turbo levels, 2.5% apart, stay inside (with fewer than two blocks in
//!   it, every block counts);
//! - the headline is the **mean** of the kept block medians, and its 95%
//!   interval allows for the dependence between neighbouring blocks
//!   ([`super::dependence`]).
//!
//! Chosen by measurement (docs/ARCHITECTURE.md, *Decisions*): on four quiet
//! runs of the anchor suite here, the mean of all block medians varied
//! 11–18% from run to run on `sum_vec_1k`, `sort_1k` and `alloc_vec_64`,
//! whose blocks sat at two levels (170 and 390 ns for `sum_vec_1k`) in
//! proportions that changed from run to run; the fast-regime mean varied
//! 0.5–1.3%. On the calibration kernels its ratios were as accurate as the
//! mean's (worst error 0.16% over three runs), where the minimum of the
//! block medians was off by up to 0.9%.

use super::dependence::{self, Dependence};
use super::interval::Interval;
use super::percentile::percentile;

/// Blocks a benchmark measured in one go is cut into: enough degrees of
/// freedom that a check repeated as samples grow rarely passes by luck.
pub(crate) const BLOCKS_IN_ONE_GO: usize = 20;

/// The fewest values a block holds: consecutive slices are merged until
/// they have this many, so that a block's median is not one preempted
/// sample (a slow benchmark may take one sample per slice).
pub(crate) const MIN_BLOCK_VALUES: usize = 5;

/// A block is in the fast regime when its median is at most this much
/// (relative) above [`REGIME_ANCHOR_PERCENTILE`] of the block medians.
pub(crate) const REGIME_WIDTH: f64 = 0.10;

/// The fast regime's anchor: this percentile of the block medians, low
/// enough to sit in the fast level when a slow episode covers most of the
/// run, high enough that one lucky block does not define the level.
pub(crate) const REGIME_ANCHOR_PERCENTILE: f64 = 5.0;

/// The headline over blocks of samples.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BlockEstimate {
    /// The mean of the fast regime's block medians.
    pub(crate) estimate: f64,
    /// Each block's median, in time order.
    pub(crate) block_medians: Vec<f64>,
    /// How many blocks are in the fast regime (and count in the estimate).
    pub(crate) regime_blocks: usize,
    /// The sample standard deviation (k − 1) of all block medians: how much
    /// the machine's state moved the blocks; 0 with one block.
    pub(crate) std_dev: f64,
    /// 95% interval of `estimate`, allowing for the dependence between
    /// neighbouring blocks; `None` with fewer than two blocks in the regime.
    pub(crate) interval: Option<Interval>,
    /// The regime's lag-1 correlation and effective number of blocks.
    pub(crate) dependence: Option<Dependence>,
}

impl BlockEstimate {
    /// The interval's larger distance from the estimate, relative to
    /// `reference` (a positive time per iteration).
    pub(crate) fn half_width_relative_to(&self, reference: f64) -> Option<f64> {
        self.half_width().map(|h| h / reference)
    }

    /// The estimate of a time from which a cost known to ±`uncertainty`
    /// (a 95% half-width, the loop overhead's) was subtracted: the two
    /// independent errors add in quadrature, so the interval widens to
    /// `√(h² + uncertainty²)` on each side.
    pub(crate) fn with_subtracted_uncertainty(mut self, uncertainty: f64) -> BlockEstimate {
        if let (Some(half_width), Some(interval)) = (self.half_width(), self.interval.as_mut()) {
            let widened = half_width.hypot(uncertainty);
            interval.lower = self.estimate - widened;
            interval.upper = self.estimate + widened;
        }
        self
    }

    /// The interval's larger distance from the estimate, in the values'
    /// unit.
    pub(crate) fn half_width(&self) -> Option<f64> {
        self.interval
            .map(|ci| (self.estimate - ci.lower).max(ci.upper - self.estimate))
    }
}

/// Cuts `values` (in time order) into blocks: at `slice_starts` when there
/// are at least two slices, else into [`BLOCKS_IN_ONE_GO`] runs of equal
/// length; consecutive blocks are merged until each holds
/// [`MIN_BLOCK_VALUES`] values (the last absorbs a short remainder), unless
/// that would leave fewer than two blocks.
pub(crate) fn blocks<'a>(values: &'a [f64], slice_starts: &[usize]) -> Vec<&'a [f64]> {
    let n = values.len();
    let mut bounds = block_starts(n, slice_starts);
    bounds.push(n);
    bounds.windows(2).map(|w| &values[w[0]..w[1]]).collect()
}

/// Where each block of `n` values begins, as [`blocks`] cuts them: explicit
/// slice starts, so that values pooled from several runs (`--forks`) keep
/// each run's blocks.
pub(crate) fn block_starts(n: usize, slice_starts: &[usize]) -> Vec<usize> {
    let starts: Vec<usize> = if slice_starts.len() >= 2 {
        slice_starts.iter().map(|&s| s.min(n)).collect()
    } else {
        let k = BLOCKS_IN_ONE_GO.min(n);
        (0..k).map(|i| i * n / k.max(1)).collect()
    };
    let mut merged: Vec<usize> = Vec::new();
    let mut open = None;
    for (i, &start) in starts.iter().enumerate() {
        let begin = *open.get_or_insert(start);
        let end = starts.get(i + 1).copied().unwrap_or(n);
        if end.saturating_sub(begin) >= MIN_BLOCK_VALUES {
            merged.push(begin);
            open = None;
        }
    }
    if merged.len() < 2 {
        // Too few values to merge into two whole blocks: the blocks as cut
        // (an interval needs two), without empty ones.
        let ends = starts.iter().skip(1).copied().chain([n]);
        return starts
            .iter()
            .zip(ends)
            .filter(|&(&start, end)| end > start)
            .map(|(&start, _)| start)
            .collect();
    }
    // A short remainder joins the block before it.
    merged
}

/// The headline estimate of `values` (per-iteration times in time order,
/// with the loop's cost `offset` per iteration already taken out) cut at
/// `slice_starts`. `None` for no values.
///
/// The fast regime is judged on the times the machine actually ran, before
/// the loop's cost was taken out: a 10% slower episode slows the loop too,
/// and an empty body's corrected times sit around zero.
pub(crate) fn block_estimate(
    values: &[f64],
    slice_starts: &[usize],
    offset: f64,
) -> Option<BlockEstimate> {
    let block_medians: Vec<f64> = blocks(values, slice_starts)
        .into_iter()
        .map(|block| {
            let mut sorted = block.to_vec();
            sorted.sort_by(f64::total_cmp);
            percentile(&sorted, 50.0)
        })
        .collect();
    if block_medians.is_empty() {
        return None;
    }
    let regime = fast_regime(&block_medians, offset);
    let k = regime.len() as f64;
    let estimate = regime.iter().sum::<f64>() / k;
    let (interval, dependence) = match dependence::mean_interval(&regime) {
        Some((interval, dependence)) => (Some(interval), Some(dependence)),
        None => (None, None),
    };
    Some(BlockEstimate {
        estimate,
        regime_blocks: regime.len(),
        std_dev: std_dev(&block_medians),
        block_medians,
        interval,
        dependence,
    })
}

/// The block medians of the fast regime, in time order.
fn fast_regime(block_medians: &[f64], offset: f64) -> Vec<f64> {
    let mut sorted = block_medians.to_vec();
    sorted.sort_by(f64::total_cmp);
    let anchor = percentile(&sorted, REGIME_ANCHOR_PERCENTILE) + offset;
    if anchor.is_nan() || anchor <= 0.0 {
        // No time to be relative to: every block counts.
        return block_medians.to_vec();
    }
    let limit = anchor * (1.0 + REGIME_WIDTH) - offset;
    let regime: Vec<f64> = block_medians
        .iter()
        .copied()
        .filter(|&m| m <= limit)
        .collect();
    if regime.len() < 2 {
        // One block is no regime (and has no interval): with so few blocks,
        // every block counts.
        return block_medians.to_vec();
    }
    regime
}

/// The sample standard deviation (k − 1) of `values`; 0 for fewer than two.
fn std_dev(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let k = values.len() as f64;
    let mean = values.iter().sum::<f64>() / k;
    (values.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (k - 1.0)).sqrt()
}

/// Each value minus its block's median, plus `center`: the samples with the
/// differences between blocks (the machine's speed changes) taken out, so
/// what remains is the spread and shape within blocks.
pub(crate) fn within_block(values: &[f64], slice_starts: &[usize], center: f64) -> Vec<f64> {
    blocks(values, slice_starts)
        .into_iter()
        .flat_map(|block| {
            let mut sorted = block.to_vec();
            sorted.sort_by(f64::total_cmp);
            let median = percentile(&sorted, 50.0);
            block.iter().map(move |v| v - median + center)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_are_blocks() {
        let values: Vec<f64> = (0..12).map(f64::from).collect();
        let b = blocks(&values, &[0, 5]);
        assert_eq!(b, [&values[..5], &values[5..]]);
    }

    #[test]
    fn short_slices_merge_until_a_block_holds_five_values() {
        let values: Vec<f64> = (0..12).map(f64::from).collect();
        // Slices of 1, 1, 3, 2, 4 and 1 values.
        let starts = [0, 1, 2, 5, 7, 11];
        // 1 + 1 + 3 make a block; 2 + 4 another, which the last value joins.
        assert_eq!(block_starts(12, &starts), [0, 5]);
        let b = blocks(&values, &starts);
        assert_eq!(b.iter().map(|b| b.len()).collect::<Vec<_>>(), [5, 7]);
        // Too few values for two whole blocks: the slices as they are.
        assert_eq!(block_starts(3, &[0, 1, 2]), [0, 1, 2]);
        assert_eq!(block_starts(11, &[0, 3]), [0, 3]);
        assert_eq!(block_starts(0, &[0]), Vec::<usize>::new());
    }

    #[test]
    fn one_slice_is_cut_into_twenty() {
        let values: Vec<f64> = (0..200).map(f64::from).collect();
        let b = blocks(&values, &[0]);
        assert_eq!(b.len(), 20);
        assert_eq!(b.iter().map(|b| b.len()).sum::<usize>(), 200);
        // 45 values: twentieths of 2 or 3 merge into blocks of 5 or more.
        let b = blocks(&values[..45], &[0]);
        assert!(b.iter().all(|b| b.len() >= 5), "{b:?}");
        assert_eq!(b.iter().map(|b| b.len()).sum::<usize>(), 45);
    }

    #[test]
    fn block_starts_are_explicit_and_skip_empty_blocks() {
        assert_eq!(block_starts(200, &[0]).len(), 20);
        assert_eq!(block_starts(17, &[0, 5, 5, 17]), [0, 5]);
    }

    /// `slices` blocks of `per` values each at the per-block levels given.
    fn run(levels: &[f64], per: usize) -> (Vec<f64>, Vec<usize>) {
        let values = levels
            .iter()
            .flat_map(|&l| std::iter::repeat_n(l, per))
            .collect();
        let starts = (0..levels.len()).map(|i| i * per).collect();
        (values, starts)
    }

    #[test]
    fn the_estimate_is_the_mean_of_the_fast_regimes_block_medians() {
        // Turbo levels 2.5% apart stay in; a slow vCPU episode (1.6×) and
        // a preempted block do not.
        let levels = [100.0, 102.5, 100.0, 160.0, 161.0, 102.5, 100.0, 5000.0];
        let (values, starts) = run(&levels, 5);
        let e = block_estimate(&values, &starts, 0.0).unwrap();
        assert_eq!(e.block_medians, levels);
        assert_eq!(e.regime_blocks, 5);
        assert_eq!(e.estimate, 101.0);
    }

    #[test]
    fn the_regime_is_judged_on_the_time_the_machine_ran() {
        // An empty body: corrected times around 0, the loop costs 0.5 ns; a
        // slow episode makes the loop 1.6× slower (0.3 ns more).
        let levels = [-0.01, 0.01, 0.0, 0.3, 0.31, 0.0];
        let (values, starts) = run(&levels, 5);
        let e = block_estimate(&values, &starts, 0.5).unwrap();
        assert_eq!(e.regime_blocks, 4);
        assert!(e.estimate.abs() < 1e-12, "{}", e.estimate);
    }

    #[test]
    fn a_slow_episode_over_most_of_the_run_leaves_the_fast_level() {
        // 5 of 40 blocks at the fast level, the rest 2.3× slower.
        let mut levels = vec![390.0; 35];
        levels.extend([170.0, 171.0, 169.0, 170.0, 170.0]);
        let (values, starts) = run(&levels, 5);
        let e = block_estimate(&values, &starts, 0.0).unwrap();
        assert_eq!(e.regime_blocks, 5);
        assert_eq!(e.estimate, 170.0);
    }

    /// Issue 12's takeover case: one slice of one sample 100× slower among
    /// 30 normal slices moves the headline by less than 1%, and widens no
    /// interval beyond what the other slices justify.
    #[test]
    fn one_preempted_slice_cannot_take_over_the_headline() {
        let mut rng = fastrand::Rng::with_seed(12);
        let mut values = Vec::new();
        let mut starts = Vec::new();
        for _ in 0..30 {
            starts.push(values.len());
            let level = 100.0 * (1.0 + 0.01 * (rng.f64() - 0.5));
            values.extend((0..20).map(|_| level * (1.0 + 0.002 * rng.f64())));
        }
        let quiet = block_estimate(&values, &starts, 0.5).unwrap();
        for at in [0, 15 * 20, values.len()] {
            let mut preempted_values = values.clone();
            let mut preempted_starts = starts.clone();
            preempted_values.insert(at, 10_000.0);
            let slice = preempted_starts.partition_point(|&s| s < at);
            preempted_starts.insert(slice, at);
            for start in &mut preempted_starts[slice + 1..] {
                *start += 1;
            }
            let preempted = block_estimate(&preempted_values, &preempted_starts, 0.5).unwrap();
            let moved = (preempted.estimate / quiet.estimate - 1.0).abs();
            assert!(moved < 0.01, "moved {moved} with the slice at {at}");
            let widened = preempted.half_width().unwrap() / quiet.half_width().unwrap();
            assert!(widened < 1.1, "interval {widened}× with the slice at {at}");
        }
    }

    #[test]
    fn within_block_removes_level_shifts() {
        let values = [10.0, 10.5, 9.5, 10.0, 10.0, 20.0, 20.5, 19.5, 20.0, 20.0];
        let w = within_block(&values, &[0, 5], 15.0);
        assert_eq!(
            w,
            [15.0, 15.5, 14.5, 15.0, 15.0, 15.0, 15.5, 14.5, 15.0, 15.0]
        );
    }
}
