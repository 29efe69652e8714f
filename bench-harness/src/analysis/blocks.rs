//! The headline estimate: batch means over stretches of machine time.
//!
//! Samples taken close together share the machine's state: on a virtual
//! machine the host moves the core between turbo frequencies every few
//! seconds, and a benchmark measured in one stretch inherits one of them.
//! Consecutive samples are therefore not independent, and a confidence
//! interval that treats them as independent is far too narrow.
//!
//! The batch-means method treats each *block* (a slice of an interleaved run,
//! or a twentieth of a benchmark measured in one go) as one observation:
//! - within a block, the **median** discards interrupts and other one-sample
//!   outliers;
//! - across blocks, the **mean** of those medians averages over the machine's
//!   states, and its Student-t interval over the block medians says honestly
//!   how well that average is known.
//!
//! Measured on this project's development machine (five runs per setting of
//! the calibration kernels, see docs/ARCHITECTURE.md), this estimator gave
//! the calibration ratios to within 0.6% where the pooled median was off by
//! up to 5%: the pooled median jumps between frequency levels.

use super::interval::{mean_interval, Interval};
use super::percentile::percentile;

/// Blocks a benchmark measured in one go is cut into: enough degrees of
/// freedom that a check repeated as samples grow rarely passes by luck.
pub(crate) const BLOCKS_IN_ONE_GO: usize = 20;

/// The headline over blocks of samples.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BlockEstimate {
    /// The mean of the block medians.
    pub estimate: f64,
    /// Each block's median, in time order.
    pub block_medians: Vec<f64>,
    /// The sample standard deviation (k − 1) of the block medians: how much
    /// the machine's state moved the blocks; 0 with one block.
    pub std_dev: f64,
    /// 95% Student-t interval of `estimate` over the block medians; `None`
    /// with fewer than two blocks.
    pub interval: Option<Interval>,
}

impl BlockEstimate {
    /// The interval's larger distance from the estimate, relative to
    /// `reference` (a positive time per iteration).
    pub(crate) fn half_width_relative_to(&self, reference: f64) -> Option<f64> {
        self.interval
            .map(|ci| (self.estimate - ci.lower).max(ci.upper - self.estimate) / reference)
    }
}

/// Cuts `values` (in time order) into blocks: at `slice_starts` when there
/// are at least two slices, else into [`BLOCKS_IN_ONE_GO`] runs of equal
/// length (one value each when there are fewer). Empty blocks are dropped.
pub(crate) fn blocks<'a>(values: &'a [f64], slice_starts: &[usize]) -> Vec<&'a [f64]> {
    let n = values.len();
    let mut bounds = block_starts(n, slice_starts);
    bounds.push(n);
    bounds.windows(2).map(|w| &values[w[0]..w[1]]).collect()
}

/// Where each non-empty block of `n` values begins, as [`blocks`] cuts
/// them: explicit slice starts, so that values pooled from several runs
/// (`--forks`) keep each run's blocks.
pub(crate) fn block_starts(n: usize, slice_starts: &[usize]) -> Vec<usize> {
    let starts: Vec<usize> = if slice_starts.len() >= 2 {
        slice_starts.iter().map(|&s| s.min(n)).collect()
    } else {
        let k = BLOCKS_IN_ONE_GO.min(n);
        (0..k).map(|i| i * n / k.max(1)).collect()
    };
    // An empty block (two equal starts, or one at the end) is dropped.
    let ends = starts.iter().skip(1).copied().chain([n]);
    starts
        .iter()
        .zip(ends)
        .filter(|&(&start, end)| end > start)
        .map(|(&start, _)| start)
        .collect()
}

/// The batch-means estimate of `values` (in time order) cut at `slice_starts`.
/// `None` for no values.
pub(crate) fn block_estimate(values: &[f64], slice_starts: &[usize]) -> Option<BlockEstimate> {
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
    let k = block_medians.len() as f64;
    let estimate = block_medians.iter().sum::<f64>() / k;
    let std_dev = if block_medians.len() > 1 {
        (block_medians
            .iter()
            .map(|m| (m - estimate).powi(2))
            .sum::<f64>()
            / (k - 1.0))
            .sqrt()
    } else {
        0.0
    };
    let interval = mean_interval(estimate, std_dev, block_medians.len());
    Some(BlockEstimate {
        estimate,
        block_medians,
        std_dev,
        interval,
    })
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
        let values = [1.0, 2.0, 3.0, 10.0, 20.0, 30.0, 40.0];
        let b = blocks(&values, &[0, 3]);
        assert_eq!(b, [&values[..3], &values[3..]]);
    }

    #[test]
    fn one_slice_is_cut_into_twenty() {
        let values: Vec<f64> = (0..45).map(f64::from).collect();
        let b = blocks(&values, &[0]);
        assert_eq!(b.len(), 20);
        assert_eq!(b.iter().map(|b| b.len()).sum::<usize>(), 45);
        assert_eq!(blocks(&values[..4], &[0]).len(), 4);
    }

    #[test]
    fn block_starts_are_explicit_and_skip_empty_blocks() {
        assert_eq!(block_starts(45, &[0]).len(), 20);
        assert_eq!(block_starts(3, &[0]), [0, 1, 2]);
        assert_eq!(block_starts(7, &[0, 3, 3, 7]), [0, 3]);
        assert_eq!(block_starts(0, &[0]), Vec::<usize>::new());
    }

    #[test]
    fn estimate_is_the_mean_of_block_medians() {
        // Blocks at two machine speeds, each with an interrupt outlier.
        let values = [10.0, 10.0, 90.0, 10.0, 11.0, 11.0, 11.0, 95.0];
        let e = block_estimate(&values, &[0, 4]).unwrap();
        assert_eq!(e.block_medians, [10.0, 11.0]);
        assert_eq!(e.estimate, 10.5);
        // t(0.975, 1) = 12.706; sd of {10, 11} = 0.7071; se = 0.5.
        let ci = e.interval.unwrap();
        assert!((ci.upper - 10.5 - 12.706 * 0.5).abs() < 1e-3, "{ci:?}");
    }

    #[test]
    fn within_block_removes_level_shifts() {
        let values = [10.0, 10.5, 9.5, 20.0, 20.5, 19.5];
        let w = within_block(&values, &[0, 3], 15.0);
        assert_eq!(w, [15.0, 15.5, 14.5, 15.0, 15.5, 14.5]);
    }
}
