//! The timing loop's own cost, subtracted from every sample.

use bench_runtime::{Measurement, Nanos, Sample};

use super::BlockEvidence;

/// The cost the timing loop adds to every measurement, measured at start-up
/// on an empty routine and subtracted from every sample by the analysis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Overhead {
    /// Inside each sample, independent of its size: the two clock reads.
    pub per_sample: Nanos,
    /// Each iteration of the loop around the routine.
    pub per_iter: Nanos,
    /// The 95% half-width of `per_iter`: it is measured like any
    /// benchmark, and its uncertainty is part of every time it is
    /// subtracted from.
    pub per_iter_uncertainty: Nanos,
}

impl Overhead {
    pub(crate) const NONE: Overhead = Overhead {
        per_sample: Nanos::ZERO,
        per_iter: Nanos::ZERO,
        per_iter_uncertainty: Nanos::ZERO,
    };

    /// The smallest time per iteration a ratio of two times can rest on: a
    /// tenth of what is timed (this overhead is a ninth of it), or the
    /// overhead's own 95% half-width if that is more. Below it a ratio is
    /// one of what is left of the loop: an empty body measured against
    /// itself in two processes read 0.094 ps a side and 1.37, "slower",
    /// from a difference of 0.01% in the processes' loops.
    pub(crate) fn resolution(&self) -> Nanos {
        Nanos((self.per_iter.0 / 9.0).max(self.per_iter_uncertainty.0))
    }

    /// The mean of `overheads` (several processes' own, `--forks`); `None`
    /// for none. Each process measured its loop on its own, so the mean's
    /// uncertainty is √Σuᵢ² / N, as the interval over the processes takes
    /// their own (three loops each known to ±0.5 ns: ±0.29 ns).
    pub(crate) fn mean(overheads: impl IntoIterator<Item = Overhead>) -> Option<Overhead> {
        let (mut n, mut per_sample, mut per_iter, mut squares) = (0.0, 0.0, 0.0, 0.0);
        for overhead in overheads {
            n += 1.0;
            per_sample += overhead.per_sample.0;
            per_iter += overhead.per_iter.0;
            squares += overhead.per_iter_uncertainty.0.powi(2);
        }
        (n > 0.0).then(|| Overhead {
            per_sample: Nanos(per_sample / n),
            per_iter: Nanos(per_iter / n),
            per_iter_uncertainty: Nanos(squares.sqrt() / n),
        })
    }

    /// A sample's time per iteration with the loop's cost taken out.
    pub(crate) fn corrected_per_iter(&self, sample: &Sample) -> f64 {
        (sample.elapsed.0 - self.per_sample.0) / sample.iters as f64 - self.per_iter.0
    }

    /// What relative figures (precision, spread) of an estimate are relative
    /// to: the estimate itself, or the loop's own cost per iteration when the
    /// body is cheaper than that (an empty body is judged against the loop,
    /// not against a time near zero).
    pub(crate) fn reference(&self, estimate: f64) -> f64 {
        estimate.max(self.per_iter.0).max(f64::MIN_POSITIVE)
    }
}

/// The loop's cost per iteration from a measurement of the empty routine
/// taken in the run's own schedule: its headline estimate (a steady
/// benchmark's, the fast regime of its block medians, so that both are
/// taken in the same regime of the machine; the loop has no state of its
/// own, so it is always read as steady) with the per-sample cost taken
/// out, and that estimate's 95% half-width.
pub(crate) fn loop_overhead(
    empty: &Measurement,
    per_sample: Nanos,
    preempted: &[usize],
    evidence: &dyn Fn(usize, usize) -> BlockEvidence,
) -> Overhead {
    loop_overhead_of(
        &empty.samples,
        &empty.slice_starts,
        per_sample,
        preempted,
        evidence,
    )
}

/// [`loop_overhead`] of the samples recorded so far (the loop's job
/// publishes it after each slice, for the other jobs' precision rule).
pub(crate) fn loop_overhead_of(
    samples: &[Sample],
    slice_starts: &[usize],
    per_sample: Nanos,
    preempted: &[usize],
    evidence: &dyn Fn(usize, usize) -> BlockEvidence,
) -> Overhead {
    let values: Vec<f64> = samples
        .iter()
        .map(|s| (s.elapsed.0 - per_sample.0) / s.iters as f64)
        .collect();
    let iters: Vec<u64> = samples.iter().map(|s| s.iters).collect();
    let estimate = super::block_estimate(
        super::Body::Stateless,
        &values,
        &iters,
        preempted,
        slice_starts,
        0.0,
        evidence,
    );
    let per_iter = estimate.as_ref().map_or(0.0, |e| e.estimate.max(0.0));
    let uncertainty = estimate.and_then(|e| e.half_width()).unwrap_or(0.0);
    Overhead {
        per_sample,
        per_iter: Nanos(per_iter),
        per_iter_uncertainty: Nanos(uncertainty),
    }
}
