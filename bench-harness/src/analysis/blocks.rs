//! The headline estimate: the mean cost of a call, over the blocks of
//! machine time the machine's own evidence does not mark as disturbed.
//!
//! Samples taken close together share the machine's state: on a virtual
//! machine the host moves the core between turbo frequencies every few
//! seconds, another thread on the same core (the host's) can slow some code
//! 1.5–2.3× for seconds at a time, and other programs take the CPU. A
//! benchmark's own cost varies too: a call that grows a `Vec` or a map now
//! and then, a table that leaves the cache, every tenth call doing more
//! work. The headline keeps everything the program does and leaves out only
//! what the machine did, by evidence measured beside each slice rather than
//! by the benchmark's own speed:
//!
//! - the samples are cut into *blocks* (the slices of an interleaved run, or
//!   twentieths of a benchmark measured in one go), merged until each holds
//!   at least [`MIN_BLOCK_VALUES`] values;
//! - a block's value is its samples' **iteration-weighted mean** (its time
//!   over its iterations), so a rare expensive call counts at its cost;
//! - a sample during which the thread was preempted (an involuntary context
//!   switch: another program ran in its time) is left out of its block;
//! - a block is **disturbed** when the speed probe run beside its slices
//!   (`bench_runtime::hidden::speed_probe`, the empty loop) was more than
//!   [`PROBE_SLOWER`] slower than its fast level in the run, or when every
//!   one of its samples was preempted; disturbed blocks are left out, unless
//!   too few would be left ([`MIN_KEPT_SHARE`]);
//! - when the program varies within its blocks (their mean cost of a call
//!   differs from their medians by more than [`PROGRAM_SKEW`], weighted by
//!   calls: rare expensive calls, a growing collection, a phase shorter than
//!   a slice), the headline is the kept blocks' time over their iterations
//!   (the **mean cost of a call**), and its 95% interval is the ratio
//!   estimator's, allowing for the dependence between neighbouring blocks
//!   ([`super::dependence`]);
//! - otherwise (a steady body) it is the mean of the **fast regime** of the
//!   kept blocks' medians (those within [`REGIME_WIDTH`] of their
//!   [`REGIME_ANCHOR_PERCENTILE`]), with the same dependence-aware interval:
//!   on this VM the probe does not see every slow spell of the machine
//!   (allocation, sorting and summing slowed 1.2–2.3× with a quiet probe),
//!   and the mean cost of a call moved 18–27% from run to run on those
//!   kernels where this moved 0.3–2.4%; interrupts put 2–4% on the mean of a
//!   multiply chain that the medians leave out;
//! - unless the blocks above that regime are the program's own phases by
//!   what they show: slower than any spell of the machine's
//!   ([`MACHINE_SLOWEST`]), or taking page faults the blocks in the regime
//!   do not ([`FAULTS_APART`], [`MIN_PHASE_FAULTS`]: the program touching
//!   memory the kernel maps, which no spell of the machine's makes it do);
//!   then the body is read as varying, and its time is the mean cost of a
//!   call.
//!
//! Chosen by measurement (docs/ARCHITECTURE.md, *Decisions*).

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

/// A block is disturbed when the speed probe beside it ran this much
/// (relative) slower than the probe's fast level in the run. The probe read
/// 0.33 ns per iteration on a quiet core and 0.68 ns on a shared one; its
/// own noise on a quiet core is a few percent.
pub(crate) const PROBE_SLOWER: f64 = 0.15;

/// Disturbed blocks are left out only while at least this share of the
/// blocks (and [`MIN_KEPT_BLOCKS`]) remain; a run disturbed nearly throughout keeps every
/// block, and says so ([`BlockEstimate::kept_all_disturbed`]). With two
/// programs compiling beside it, the probe here was slow beside 90% of the
/// slices; the 5% left were enough for an estimate of the quiet machine.
pub(crate) const MIN_KEPT_SHARE: f64 = 0.05;

/// Nor fewer blocks than this: an interval over 3 kept blocks (t = 4.3
/// before any allowance for dependence) read a 4x regression in CI as
/// `[-48.81 µs, 271.3 µs]`, `unclear`, when the probe marked 60 of 63
/// slices slow. Below it every block counts, and a steady body's fast
/// regime leaves the slow ones out.
pub(crate) const MIN_KEPT_BLOCKS: usize = 8;

/// What the machine's own evidence says of one block of samples.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct BlockEvidence {
    /// The speed probe's slowest reading beside the block's slices over the
    /// probe's fast level in the run (1 = as fast as the machine ran);
    /// `None` when not probed.
    pub(crate) probe: Option<f64>,
    /// The thread's page faults over the block's samples; `None` when not
    /// counted, or when a slice runs past the block (its faults cannot be
    /// placed).
    pub(crate) faults: Option<u64>,
}

/// The headline over blocks of samples.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BlockEstimate {
    /// The mean cost of a call: the kept blocks' time over their
    /// iterations.
    pub(crate) estimate: f64,
    /// Each block's iteration-weighted mean, in time order.
    pub(crate) block_means: Vec<f64>,
    /// Each block's iterations, in time order.
    pub(crate) block_iters: Vec<f64>,
    /// Which blocks the machine's evidence marks as disturbed.
    pub(crate) disturbed: Vec<bool>,
    /// Which blocks had every sample preempted: the machine's whatever the
    /// body.
    pub(crate) preempted_blocks: Vec<bool>,
    /// How many blocks count in the estimate.
    pub(crate) kept_blocks: usize,
    /// Each block's median (preempted samples left out), in time order.
    pub(crate) block_medians: Vec<f64>,
    /// Each block's page faults, when counted, and the iterations of all
    /// its samples (preempted ones too: the faults are theirs as well), in
    /// time order.
    pub(crate) block_faults: Vec<(Option<u64>, f64)>,
    /// The body was read as varying by its page faults alone
    /// ([`faulting_phases`]): a comparison with a run that did not count
    /// them is between two ways of reading it.
    pub(crate) by_faults: bool,
    /// The body is steady within its blocks (no rare expensive calls): the
    /// estimate is the fast regime's mean of the undisturbed blocks'
    /// medians, not the mean cost of a call.
    pub(crate) steady: bool,
    /// Too few undisturbed blocks were left to stand alone, so every block
    /// counts, disturbed or not.
    pub(crate) kept_all_disturbed: bool,
    /// The sample standard deviation (k − 1) of the kept blocks' means: how
    /// much the benchmark's own speed moved between blocks; 0 with one.
    pub(crate) std_dev: f64,
    /// 95% interval of `estimate`, allowing for the dependence between
    /// neighbouring blocks; `None` with fewer than two blocks kept.
    pub(crate) interval: Option<Interval>,
    /// The kept blocks' lag-1 correlation and effective number.
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

    /// The kept blocks' means and iterations, in time order: for a steady
    /// body the undisturbed ones, for a varying one all but those whose
    /// every sample was preempted.
    pub(crate) fn kept(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        (self.block_means.iter().zip(&self.block_iters))
            .enumerate()
            .filter(move |(j, _)| self.counts(*j))
            .map(|(_, (&mean, &iters))| (mean, iters))
    }

    /// Whether block `j` counts (see [`BlockEstimate::kept`]).
    pub(crate) fn counts(&self, j: usize) -> bool {
        if self.steady {
            self.kept_all_disturbed || !self.disturbed[j]
        } else {
            // Every block preempted (a slow body's one-call samples on a
            // loaded machine): all of them, rather than no time at all.
            !self.preempted_blocks[j] || self.preempted_blocks.iter().all(|&p| p)
        }
    }

    /// How many blocks the machine's evidence left out of the estimate.
    pub(crate) fn left_out(&self) -> usize {
        self.block_means.len() - self.kept_blocks
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

/// What was timed: whether its cost may vary by its own state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Body {
    /// A benchmark's body: rare expensive calls, a growing collection or
    /// phases of its own may make its mean cost of a call the headline.
    Program,
    /// The harness's own kernels, the empty loop the overhead is taken
    /// from and the machine reference: they have no state, so what lifts
    /// their mean above their medians (interrupts) and any block far slower
    /// than the rest is the machine's, and their estimate is always the
    /// fast regime's.
    Stateless,
}

/// The headline estimate of `values` (per-iteration times in time order,
/// with the loop's cost already taken out), each sample `iters[i]`
/// iterations long, cut at `slice_starts`. The samples at `preempted`
/// (ascending) were descheduled and are left out of their block's mean;
/// `evidence(start, end)` says what the machine's evidence shows of the
/// block of samples `start..end`. `None` for no values.
pub(crate) fn block_estimate(
    body: Body,
    values: &[f64],
    iters: &[u64],
    preempted: &[usize],
    slice_starts: &[usize],
    offset: f64,
    evidence: &dyn Fn(usize, usize) -> BlockEvidence,
) -> Option<BlockEstimate> {
    let n = values.len();
    let mut bounds = block_starts(n, slice_starts);
    bounds.push(n);
    let (mut block_means, mut block_iters, mut disturbed) = (Vec::new(), Vec::new(), Vec::new());
    let (mut block_medians, mut preempted_blocks) = (Vec::new(), Vec::new());
    let mut block_faults = Vec::new();
    for w in bounds.windows(2) {
        let (start, end) = (w[0], w[1]);
        let kept = |i: &usize| preempted.binary_search(i).is_err();
        let mean_of = |keep: &dyn Fn(&usize) -> bool| {
            let (time, calls) = (start..end)
                .filter(|i| keep(i))
                .fold((0.0, 0.0), |(t, c), i| {
                    let calls = iters[i] as f64;
                    (t + values[i] * calls, c + calls)
                });
            (time / calls, calls)
        };
        let seen = evidence(start, end);
        let all_calls = iters[start..end].iter().map(|&i| i as f64).sum();
        block_faults.push((seen.faults, all_calls));
        let slow = seen.probe.is_some_and(|p| p > 1.0 + PROBE_SLOWER);
        let (mean, calls, all_preempted) = match mean_of(&kept) {
            // Every sample preempted: the block is the machine's.
            (_, calls) if calls <= 0.0 => {
                let (mean, calls) = mean_of(&|_| true);
                (mean, calls, true)
            }
            (mean, calls) => (mean, calls, false),
        };
        let disturbed_here = slow || all_preempted;
        let mut sorted: Vec<f64> = (start..end)
            .filter(|i| all_preempted || kept(i))
            .map(|i| values[i])
            .collect();
        sorted.sort_by(f64::total_cmp);
        block_medians.push(percentile(&sorted, 50.0));
        preempted_blocks.push(all_preempted);
        block_means.push(mean);
        block_iters.push(calls);
        disturbed.push(disturbed_here);
    }
    if block_means.is_empty() {
        return None;
    }
    let undisturbed = disturbed.iter().filter(|&&d| !d).count();
    let k = block_means.len();
    let needed = ((MIN_KEPT_SHARE * k as f64).ceil() as usize).max(MIN_KEPT_BLOCKS);
    let kept_all_disturbed = undisturbed < needed.min(k);
    let mut estimate = BlockEstimate {
        estimate: 0.0,
        kept_blocks: 0,
        steady: false,
        block_medians,
        block_faults,
        by_faults: false,
        kept_all_disturbed,
        std_dev: 0.0,
        interval: None,
        dependence: None,
        block_means,
        block_iters,
        disturbed,
        preempted_blocks,
    };
    // A varying body: every block but the machine's own counts. The probe
    // is no evidence here: beside a body that ran through a 128 MiB table
    // it read slow for 87% of the slices, and leaving those out read the
    // chase at 0.05-0.45 of its cost.
    let kept: Vec<(f64, f64)> = estimate.kept().collect();
    let total: f64 = kept.iter().map(|(_, iters)| iters).sum();
    let ratio = kept.iter().map(|(mean, iters)| mean * iters).sum::<f64>() / total;
    // The ratio estimator's error, linearised: each block's deviation from
    // the ratio, weighted by its share of the iterations.
    let average = total / kept.len() as f64;
    let deviations: Vec<f64> = kept
        .iter()
        .map(|(mean, iters)| iters / average * (mean - ratio))
        .collect();
    if let Some((interval, dependence)) = dependence::mean_interval(&deviations) {
        let half_width = (interval.upper - interval.lower) / 2.0;
        estimate.interval = Some(Interval {
            lower: ratio - half_width,
            upper: ratio + half_width,
            ..interval
        });
        estimate.dependence = Some(dependence);
    }
    estimate.std_dev = std_dev(&kept.iter().map(|(mean, _)| *mean).collect::<Vec<_>>());
    estimate.estimate = ratio;
    estimate.kept_blocks = kept.len();
    // Steady within blocks: the robust estimate of the machine's fast
    // regime stands (see the module's docs).
    let skew = within_block_skew(&estimate, offset);
    if body == Body::Stateless || skew.is_some_and(|s| (s - 1.0).abs() <= PROGRAM_SKEW) {
        let medians: Vec<f64> = (estimate.block_medians.iter().zip(&estimate.disturbed))
            .filter(|(_, &d)| kept_all_disturbed || !d)
            .map(|(m, _)| *m)
            .collect();
        let mean = |regime: &[f64]| regime.iter().sum::<f64>() / regime.len() as f64;
        let regime = fast_regime(&medians, offset);
        // Whether the program's phases lie above it is judged as before:
        // the quiet blocks only move where the regime sits.
        if body == Body::Program {
            let fast = mean(&regime);
            if phases_beyond_the_machine(&estimate, fast, offset) {
                return Some(estimate);
            }
            if faulting_phases(&estimate, fast, offset) {
                estimate.by_faults = true;
                return Some(estimate);
            }
        }
        let regime = if kept_all_disturbed {
            quiet_regime(&estimate, regime, offset)
        } else {
            regime
        };
        estimate.steady = true;
        estimate.estimate = mean(&regime);
        estimate.kept_blocks = regime.len();
        estimate.std_dev = std_dev(&regime);
        (estimate.interval, estimate.dependence) = match dependence::mean_interval(&regime) {
            Some((interval, dependence)) => (Some(interval), Some(dependence)),
            None => (None, None),
        };
    }
    Some(estimate)
}

/// Whether blocks that count for a varying body (all but the wholly
/// preempted) at more than [`MACHINE_SLOWEST`] times the `fast` regime
/// (the loop's `offset` added back to both) hold [`PHASE_SHARE`] of the
/// calls or more: phases of the program's own longer than a slice, which
/// the probe cannot tell from the machine's spells (beside a pointer chase
/// through 128 MiB it read slow for 90% of the slices), but which are
/// slower than any spell of the machine's measured here.
fn phases_beyond_the_machine(estimate: &BlockEstimate, fast: f64, offset: f64) -> bool {
    let limit = MACHINE_SLOWEST * (fast + offset);
    if limit.is_nan() || limit <= 0.0 {
        return false;
    }
    let (mut beyond, mut total) = (0.0, 0.0);
    for (j, (mean, calls)) in (estimate.block_means.iter().zip(&estimate.block_iters)).enumerate() {
        if estimate.counts(j) {
            total += calls;
            if mean + offset > limit {
                beyond += calls;
            }
        }
    }
    total > 0.0 && beyond >= PHASE_SHARE * total
}

/// Whether the blocks that count for a varying body and sit above the
/// `fast` regime (beyond [`REGIME_WIDTH`] of it, the loop's `offset` added
/// back), holding [`PHASE_SHARE`] of the calls or more, are the program's
/// own phases by the page faults counted beside them: at least
/// [`FAULTS_APART`] times as many per call (over all their samples, the
/// preempted too) as the other counted blocks (those at most 10% above
/// the fast regime, or below it), and [`MIN_PHASE_FAULTS`] a block or
/// more. The machine's slow
/// spells do not make a program touch new memory; a program whose
/// allocator gives memory back to the kernel and takes it again does, and
/// pays for it in some phases and not others (`insert_10k` here: 0 faults a
/// call in its blocks at 265 µs, 75 in its blocks at 370 µs, the probe
/// quiet beside both). `false` when a block's faults were not counted.
fn faulting_phases(estimate: &BlockEstimate, fast: f64, offset: f64) -> bool {
    let limit = (fast + offset) * (1.0 + REGIME_WIDTH);
    if limit.is_nan() || limit <= 0.0 {
        return false;
    }
    /// One side of the limit: its counted blocks' faults, the iterations of
    /// all their samples, the iterations counted, and the blocks.
    #[derive(Default)]
    struct Side {
        faults: f64,
        all_calls: f64,
        calls: f64,
        blocks: f64,
    }
    let (mut regime, mut above) = (Side::default(), Side::default());
    for (j, &(faults, all_calls)) in estimate.block_faults.iter().enumerate() {
        if !estimate.counts(j) {
            continue;
        }
        let Some(faults) = faults else {
            return false;
        };
        let side = if estimate.block_medians[j] + offset > limit {
            &mut above
        } else {
            &mut regime
        };
        side.faults += faults as f64;
        side.all_calls += all_calls;
        side.calls += estimate.block_iters[j];
        side.blocks += 1.0;
    }
    let total = regime.calls + above.calls;
    if total <= 0.0
        || regime.all_calls <= 0.0
        || above.all_calls <= 0.0
        || above.calls < PHASE_SHARE * total
    {
        return false;
    }
    let rate = |side: &Side| side.faults / side.all_calls;
    above.faults >= MIN_PHASE_FAULTS * above.blocks && rate(&above) >= FAULTS_APART * rate(&regime)
}

/// How many times as many page faults a call the blocks above the fast
/// regime must take as those in it, to be the program's phases.
pub(crate) const FAULTS_APART: f64 = 2.0;

/// The fewest page faults a block above the fast regime must take, on
/// average, to be the program's phase: more than the harness's own work
/// between samples brings over a whole run. Every row of the anchor and
/// example suites but `insert_10k` took at most 128 over its run (at most
/// 33 in a slice); `insert_10k` took 200-500 in every slice of its slow
/// phase.
pub(crate) const MIN_PHASE_FAULTS: f64 = 256.0;

/// The machine's slowest spell measured here: another thread on the same
/// core slowed code 1.5–2.3×, slow vCPU episodes about 1.5×. A block
/// slower than this times the fast regime is the program's own.
pub(crate) const MACHINE_SLOWEST: f64 = 3.0;

/// The share of the calls in blocks beyond [`MACHINE_SLOWEST`] that makes
/// them the program's phases rather than a stray block.
pub(crate) const PHASE_SHARE: f64 = 0.05;

/// Beyond this, the mean cost of a call differs from the median of its
/// blocks by enough (relative) that the program's own variation is
/// established: rare expensive calls, a growing collection, phases shorter
/// than a slice. It is also the most a steady body's fast regime can leave
/// out of the mean cost of a call: a `Vec` growing by a push a call read
/// 1.14–1.33 here (its reallocations and frees), 0.70–0.75× its cost as a
/// steady body under the 0.25 this was. Every benchmark of the example,
/// anchor and calibration suites read 0.98–1.06 (quiet, two busy loops, a
/// build beside it); the empty loop up to 1.07, and it is never the
/// program's ([`Body::Stateless`]).
pub(crate) const PROGRAM_SKEW: f64 = 0.10;

/// A block is in the fast regime when its median is at most this much
/// (relative) above [`REGIME_ANCHOR_PERCENTILE`] of the block medians.
pub(crate) const REGIME_WIDTH: f64 = 0.10;

/// The fast regime's anchor: this percentile of the block medians.
pub(crate) const REGIME_ANCHOR_PERCENTILE: f64 = 5.0;

/// How far the kept blocks' mean cost of a call is from their medians,
/// each block weighted by its calls and judged with the loop's cost added
/// back: `Σ Nⱼ(mⱼ + o) / Σ Nⱼ(medianⱼ + o)`. A machine's slow spell
/// moves a block's mean and median alike; a rare expensive call, or a
/// collection that grows and is rebuilt, lifts the mean above the median,
/// and a fast phase within a slice of slow ones pulls it below.
/// `None` when there is nothing to be relative to.
fn within_block_skew(estimate: &BlockEstimate, offset: f64) -> Option<f64> {
    let keep_all = estimate.kept_all_disturbed;
    let (mut means, mut medians) = (0.0, 0.0);
    for (((mean, median), calls), &disturbed) in (estimate.block_means.iter())
        .zip(&estimate.block_medians)
        .zip(&estimate.block_iters)
        .zip(&estimate.disturbed)
    {
        if keep_all || !disturbed {
            means += calls * (mean + offset);
            medians += calls * (median + offset);
        }
    }
    (medians > 0.0).then(|| means / medians)
}

/// The block medians of the fast regime, in time order: those within
/// [`REGIME_WIDTH`] of the [`REGIME_ANCHOR_PERCENTILE`] of the medians,
/// judged on the time the machine ran (with the loop's `offset` added back:
/// an empty body's corrected times sit around zero); every block when fewer
/// than two qualify.
fn fast_regime(block_medians: &[f64], offset: f64) -> Vec<f64> {
    regime_anchored(block_medians, block_medians, offset).unwrap_or_else(|| block_medians.to_vec())
}

/// When every block counts, the probe having left too few unmarked to
/// stand alone: `regime` (of every block's median), or the medians within
/// [`REGIME_WIDTH`] of the unmarked ones' percentile where that leaves
/// fewer, two or more of two or more unmarked. With under 5% of the blocks
/// fast, the percentile of all sat among the slow ones (a process the probe
/// marked beside 384 of its 396 blocks read `sort_1k` at 10.37 µs, where
/// its 12 unmarked blocks, the 10 fastest of the 396 among them, read
/// 7.7 µs).
fn quiet_regime(estimate: &BlockEstimate, regime: Vec<f64>, offset: f64) -> Vec<f64> {
    let quiet: Vec<f64> = (estimate.block_medians.iter().zip(&estimate.disturbed))
        .filter(|(_, &d)| !d)
        .map(|(m, _)| *m)
        .collect();
    match (quiet.len() >= 2)
        .then(|| regime_anchored(&estimate.block_medians, &quiet, offset))
        .flatten()
    {
        Some(quieter) if quieter.len() < regime.len() => quieter,
        _ => regime,
    }
}

/// `block_medians` within [`REGIME_WIDTH`] of the
/// [`REGIME_ANCHOR_PERCENTILE`] of `anchors` (the loop's `offset` added
/// back to both); `None` when the anchor is not above zero or fewer than
/// two qualify.
fn regime_anchored(block_medians: &[f64], anchors: &[f64], offset: f64) -> Option<Vec<f64>> {
    let mut sorted = anchors.to_vec();
    sorted.sort_by(f64::total_cmp);
    let anchor = percentile(&sorted, REGIME_ANCHOR_PERCENTILE) + offset;
    if anchor.is_nan() || anchor <= 0.0 {
        return None;
    }
    let limit = anchor * (1.0 + REGIME_WIDTH) - offset;
    let regime: Vec<f64> = block_medians
        .iter()
        .copied()
        .filter(|&m| m <= limit)
        .collect();
    (regime.len() >= 2).then_some(regime)
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
    about_block_medians(values, slice_starts, |v, median| v - median + center)
}

/// Each of `values` less its block's median, over that median's
/// `reference` (the time relative figures are relative to): the spread
/// within blocks, in the blocks' own terms, so that blocks at different
/// levels (processes pooled, or a program's phases) each count as much.
pub(crate) fn within_block_relative(
    values: &[f64],
    slice_starts: &[usize],
    reference: impl Fn(f64) -> f64,
) -> Vec<f64> {
    about_block_medians(values, slice_starts, |v, median| {
        (v - median) / reference(median)
    })
}

/// `each(value, its block's median)` for every one of `values`, in order.
fn about_block_medians(
    values: &[f64],
    slice_starts: &[usize],
    each: impl Fn(f64, f64) -> f64,
) -> Vec<f64> {
    let mut out = Vec::with_capacity(values.len());
    for block in blocks(values, slice_starts) {
        let mut sorted = block.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = percentile(&sorted, 50.0);
        out.extend(block.iter().map(|&v| each(v, median)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sample preempted (a body of 88 µs per call, one call a sample,
    /// at load 10): the time is still the samples' mean cost of a call, not
    /// NaN, and nothing downstream panics on it.
    #[test]
    fn a_run_whose_every_sample_was_preempted_still_has_a_time() {
        // Every tenth call ten times the work: a varying body.
        let values: Vec<f64> = (0..40)
            .map(|i| if i % 10 == 0 { 1000.0 } else { 100.0 })
            .collect();
        let iters = vec![1u64; 40];
        let preempted: Vec<usize> = (0..40).collect();
        let starts: Vec<usize> = (0..8).map(|b| b * 5).collect();
        let quiet = |_: usize, _: usize| BlockEvidence::default();
        let e = program(&values, &iters, &preempted, &starts, &quiet);
        let mean = values.iter().sum::<f64>() / 40.0;
        assert!(!e.steady, "{e:?}");
        assert!((e.estimate - mean).abs() < 1e-9, "{e:?}");
        let within = within_block(&values, &starts, e.estimate);
        assert!(within.iter().all(|v| v.is_finite()));
    }

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

    /// The estimate of a benchmark's body, the loop's cost already out.
    fn program(
        values: &[f64],
        iters: &[u64],
        preempted: &[usize],
        starts: &[usize],
        evidence: &dyn Fn(usize, usize) -> BlockEvidence,
    ) -> BlockEstimate {
        block_estimate(
            Body::Program,
            values,
            iters,
            preempted,
            starts,
            0.0,
            evidence,
        )
        .unwrap()
    }

    /// The estimate of one of the harness's own kernels, unprobed and
    /// never preempted.
    fn stateless(values: &[f64], iters: &[u64], starts: &[usize]) -> BlockEstimate {
        block_estimate(Body::Stateless, values, iters, &[], starts, 0.0, &unprobed).unwrap()
    }

    /// No evidence either way.
    fn unprobed(_: usize, _: usize) -> BlockEvidence {
        BlockEvidence::default()
    }

    /// Slices of `per` samples each at the per-slice levels given, every
    /// sample of `iters` iterations.
    fn run(levels: &[f64], per: usize) -> (Vec<f64>, Vec<usize>) {
        let values = levels
            .iter()
            .flat_map(|&l| std::iter::repeat_n(l, per))
            .collect();
        let starts = (0..levels.len()).map(|i| i * per).collect();
        (values, starts)
    }

    /// Evidence from a probe reading per slice of `per` samples.
    fn probed(probes: &[f64], per: usize) -> impl Fn(usize, usize) -> BlockEvidence + '_ {
        move |start, _| BlockEvidence {
            probe: Some(probes[start / per]),
            faults: None,
        }
    }

    /// A steady body whose slices sit at 265 and 370 (a map of 10,000
    /// inserts a call, as `insert_10k` read here), the probe quiet beside
    /// all of them. Where the slow slices took 300 page faults each and the
    /// fast ones none, they are the program's: its time is the mean cost of
    /// a call. Without faults (the machine's spell) or with the same faults
    /// in every slice, the fast regime stands; a few faults in the slow
    /// slices (the harness's own record growing) do not make a phase.
    #[test]
    fn slow_slices_that_take_page_faults_the_fast_do_not_are_the_programs() {
        let levels = [
            265.0, 265.0, 370.0, 370.0, 265.0, 370.0, 370.0, 265.0, 370.0, 265.0,
        ];
        let (values, starts) = run(&levels, 5);
        let iters = vec![4; values.len()];
        let mean = levels.iter().sum::<f64>() / levels.len() as f64;
        let with = |faults: &dyn Fn(f64) -> u64| {
            let evidence = |start: usize, _| BlockEvidence {
                probe: Some(1.0),
                faults: Some(faults(levels[start / 5])),
            };
            program(&values, &iters, &[], &starts, &evidence)
        };
        let phases = with(&|level| if level > 300.0 { 300 } else { 0 });
        assert!(!phases.steady);
        assert!((phases.estimate - mean).abs() < 1e-9, "{}", phases.estimate);
        // No faults, the same in every slice, or a few in the slow ones.
        let none = |_: f64| 0_u64;
        let every = |_: f64| 300_u64;
        let few = |level: f64| if level > 300.0 { 20_u64 } else { 0 };
        for faults in [&none as &dyn Fn(f64) -> u64, &every, &few] {
            let e = with(faults);
            assert!(e.steady);
            assert!((e.estimate - 265.0).abs() < 1e-9, "{}", e.estimate);
        }
        // Faults not counted in one block: no evidence either way.
        let partly = |start: usize, _| BlockEvidence {
            probe: Some(1.0),
            faults: (start > 0).then_some(if levels[start / 5] > 300.0 { 300 } else { 0 }),
        };
        assert!(program(&values, &iters, &[], &starts, &partly).steady);
    }

    #[test]
    fn slow_spells_the_probe_saw_are_left_out_and_turbo_levels_stay_in() {
        // Turbo levels 2.5% apart stay in; two slices where the probe ran
        // 1.6× slower (another thread on the core) and the benchmark 1.6×
        // slower with it do not.
        let levels = [100.0, 102.5, 100.0, 160.0, 161.0, 102.5, 100.0, 101.0];
        let probes = [1.0, 1.02, 1.0, 1.6, 1.62, 1.01, 1.0, 1.0];
        let (values, starts) = run(&levels, 5);
        let iters = vec![1; values.len()];
        let e = program(&values, &iters, &[], &starts, &probed(&probes, 5));
        assert_eq!(e.block_means, levels);
        assert_eq!(
            e.disturbed,
            [false, false, false, true, true, false, false, false]
        );
        assert_eq!((e.kept_blocks, e.left_out()), (6, 2));
        assert!((e.estimate - 101.0).abs() < 1e-9, "{}", e.estimate);
        // Without the probe's word the same slow slices count: the
        // benchmark's own speed is never the evidence.
        // Without the probe's word, a body steady within its slices keeps
        // its fast regime: the slow slices are left out all the same.
        let e = program(&values, &iters, &[], &starts, &unprobed);
        assert!(e.steady);
        assert_eq!(e.kept_blocks, 6);
        assert!((e.estimate - 101.0).abs() < 1e-9, "{}", e.estimate);
    }

    #[test]
    fn the_estimate_is_the_mean_cost_of_a_call_through_the_programs_phases() {
        // In each slice, 1,000 calls at 100 ns (a table in the cache), then
        // 1,000 at 300 ns (one that is not), in samples of equal time: one
        // sample of the fast phase, three of the slow one. The mean cost of
        // a call is 200 ns, not the slices' median (300) nor the fast phase
        // (100).
        let slice = [(100.0, 1000), (300.0, 333), (300.0, 333), (300.0, 334)];
        let (values, iters): (Vec<f64>, Vec<u64>) = (0..6).flat_map(|_| slice).unzip();
        let starts: Vec<usize> = (0..6).map(|s| 4 * s).collect();
        let e = program(&values, &iters, &[], &starts, &unprobed);
        assert!(!e.steady);
        assert!((e.estimate - 200.0).abs() < 1e-9, "{}", e.estimate);
        // Phases longer than a slice look like the machine's speed moving:
        // within 3× of the fast slices, a slice of each phase reads as a
        // steady body's slow slices, and only the fast regime counts
        // (docs/statistics.md says so).
        let values = [100.0, 250.0, 250.0, 250.0];
        let iters = [1000, 400, 400, 400];
        let e = program(&values, &iters, &[], &[0, 1, 2, 3], &unprobed);
        assert!(e.steady);
        // Beyond 3× no spell of the machine's explains them: the mean cost
        // of a call (a pointer chase in and out of the cache, 6 ns and
        // 200 ns a call, read 0.05× its cost as a steady body).
        // Each phase is 990 calls: one slice of the fast one, 33 of the
        // slow one.
        let phase = |slow: bool| {
            if slow {
                vec![(200.0, 30); 33]
            } else {
                vec![(6.0, 990)]
            }
        };
        let (values, iters): (Vec<f64>, Vec<u64>) = [false, true, false, true]
            .into_iter()
            .flat_map(phase)
            .unzip();
        let starts: Vec<usize> = (0..values.len()).collect();
        let e = program(&values, &iters, &[], &starts, &unprobed);
        assert!(!e.steady);
        assert!((e.estimate - 103.0).abs() < 1e-9, "{}", e.estimate);
        // A stray slow block, under 5% of the calls, changes nothing.
        let values = [100.0, 100.0, 100.0, 100.0, 100.0, 400.0];
        let iters = [1000, 1000, 1000, 1000, 1000, 200];
        let e = program(&values, &iters, &[], &[0, 1, 2, 3, 4, 5], &unprobed);
        assert!(e.steady);
        // Holding 17% of the calls, such a block is the program's phase...
        let iters = [1000, 1000, 1000, 1000, 1000, 1000];
        let e = program(&values, &iters, &[], &[0, 1, 2, 3, 4, 5], &unprobed);
        assert!(!e.steady);
        assert!((e.estimate - 150.0).abs() < 1e-9, "{}", e.estimate);
        // ...but the harness's own kernels have no phases: it is the
        // machine's, and their time the fast regime's.
        let e = stateless(&values, &iters, &[0, 1, 2, 3, 4, 5]);
        assert!(e.steady && e.estimate == 100.0, "{e:?}");
    }

    #[test]
    fn a_rare_expensive_call_counts_at_its_cost() {
        // Every tenth call does 10× the work, one call a sample: the block's
        // mean holds it where a median would drop it.
        let values: Vec<f64> = (0..200)
            .map(|i| if i % 10 == 9 { 1000.0 } else { 100.0 })
            .collect();
        let iters = vec![1; 200];
        let e = program(&values, &iters, &[], &[0], &unprobed);
        assert_eq!(e.block_means.len(), 20);
        assert!((e.estimate - 190.0).abs() < 1e-9, "{}", e.estimate);
    }

    #[test]
    fn amortised_work_of_a_tenth_of_the_cost_counts_and_the_loop_stays_steady() {
        // A push a call, and every 100th call copies the vector: 100 ns a
        // call, 1,200 ns the copying one, in samples of 10 calls (the
        // copying call in every tenth sample). The mean cost of a call is
        // 111 ns, 11% above the medians: the program's, not the machine's.
        let amortised = |copy: f64| -> Vec<f64> {
            (0..400)
                .map(|i| {
                    if i % 10 == 9 {
                        100.0 + copy / 10.0
                    } else {
                        100.0
                    }
                })
                .collect()
        };
        let iters = vec![10; 400];
        let starts: Vec<usize> = (0..20).map(|s| 20 * s).collect();
        let e = program(&amortised(1100.0), &iters, &[], &starts, &unprobed);
        assert!(!e.steady);
        assert!((e.estimate - 111.0).abs() < 1e-9, "{}", e.estimate);
        // A copy of 900 ns, 9%: within the bound, the body is steady.
        let e = program(&amortised(900.0), &iters, &[], &starts, &unprobed);
        assert!(e.steady);
        assert!((e.estimate - 100.0).abs() < 1e-9, "{}", e.estimate);
        let values = amortised(1100.0);
        // The same times from the empty loop are interrupts: it has no state
        // of its own, and its cost is the fast regime's.
        let e = stateless(&values, &iters, &starts);
        assert!(e.steady);
        assert!((e.estimate - 100.0).abs() < 1e-9, "{}", e.estimate);
    }

    #[test]
    fn a_run_disturbed_nearly_throughout_keeps_every_block_and_says_so() {
        // 7 slices in 20 with a quiet probe: too few to stand for the run
        // (an interval over so few blocks is wider than the machine's
        // spells it leaves out).
        let levels = [100.0; 20];
        let mut probes = [1.5; 20];
        for quiet in [1, 3, 7, 9, 12, 15, 18] {
            probes[quiet] = 1.0;
        }
        let (values, starts) = run(&levels, 5);
        let iters = vec![1; values.len()];
        let e = program(&values, &iters, &[], &starts, &probed(&probes, 5));
        assert!(e.kept_all_disturbed);
        assert_eq!((e.kept_blocks, e.left_out()), (20, 0));
        let probes_of_20 = probes;
        // Fewer quiet blocks than 5% of them, the rest slow: the quiet
        // ones anchor the fast regime, and the slow ones are left out.
        let mut levels = [130.0; 60];
        let mut probes = [1.5; 60];
        for quiet in [4, 31] {
            (levels[quiet], probes[quiet]) = (100.0, 1.0);
        }
        let (values, starts) = run(&levels, 5);
        let iters = vec![1; values.len()];
        let e = program(&values, &iters, &[], &starts, &probed(&probes, 5));
        assert!(e.kept_all_disturbed && e.steady);
        assert!((e.estimate - 100.0).abs() < 1e-9, "{}", e.estimate);
        // One of them alone at the lower level: too few for a regime, and
        // the regime of all blocks stands (it is never raised).
        levels[31] = 200.0;
        let (values, _) = run(&levels, 5);
        let e = program(&values, &iters, &[], &starts, &probed(&probes, 5));
        let all = (58.0 * 130.0 + 100.0) / 59.0;
        assert!((e.estimate - all).abs() < 1e-9, "{}", e.estimate);
        // 8 of 20 are enough.
        let (levels, mut probes) = ([100.0; 20], probes_of_20);
        let (values, starts) = run(&levels, 5);
        let iters = vec![1; values.len()];
        probes[19] = 1.0;
        let e = program(&values, &iters, &[], &starts, &probed(&probes, 5));
        assert!(!e.kept_all_disturbed);
        assert_eq!(e.kept_blocks, 8);
    }

    #[test]
    fn preempted_samples_are_left_out_and_a_block_of_them_is_disturbed() {
        // The thread lost the CPU during samples 7 and 12: 4 ms of another
        // program's time in a 20 µs sample.
        let mut values = vec![100.0; 25];
        let iters = vec![200; 25];
        values[7] = 20_100.0;
        values[12] = 20_100.0;
        let e = program(&values, &iters, &[7, 12], &[0, 5, 10, 15, 20], &unprobed);
        assert_eq!(e.block_means, [100.0; 5]);
        assert_eq!(e.block_iters, [1000.0, 800.0, 800.0, 1000.0, 1000.0]);
        assert_eq!(e.estimate, 100.0);
        // A block whose every sample was preempted is the machine's.
        let preempted: Vec<usize> = (5..10).collect();
        let e = program(&values, &iters, &preempted, &[0, 5, 10, 15, 20], &unprobed);
        assert_eq!(e.disturbed, [false, true, false, false, false]);
        assert_eq!(e.kept_blocks, 4);
    }

    /// Coverage of the headline's 95% interval over `reps` simulated runs
    /// of `k` slices of equal time, each slice's cost per call from
    /// `level(rng, slice)`: the truth is the mean cost of a call, the long
    /// run's time over its calls.
    fn coverage(
        seed: u64,
        k: usize,
        reps: usize,
        mut series: impl FnMut(&mut fastrand::Rng, usize) -> Vec<f64>,
    ) -> f64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        // Slices of 1 ms, five samples each of equal calls; one in five of
        // a body's calls costs 3× (so the mean cost of a call is the
        // estimate): a sample's calls are 0.2 ms over the cost.
        let calls = |level: f64| (2e5 / level).round() as u64;
        let expand = |levels: &[f64]| -> (Vec<f64>, Vec<u64>) {
            levels
                .iter()
                .flat_map(|&l| [l, l, l, l, 3.0 * l].map(|v| (v, calls(l))))
                .unzip()
        };
        let long: Vec<f64> = (0..400).flat_map(|_| series(&mut rng, 1000)).collect();
        let (values, iters) = expand(&long);
        let time: f64 = values.iter().zip(&iters).map(|(v, &c)| v * c as f64).sum();
        let truth = time / iters.iter().map(|&c| c as f64).sum::<f64>();
        let starts: Vec<usize> = (0..k).map(|b| 5 * b).collect();
        let hits = (0..reps)
            .filter(|_| {
                let (values, iters) = expand(&series(&mut rng, k));
                let e = program(&values, &iters, &[], &starts, &unprobed);
                assert!(!e.steady);
                e.interval.unwrap().contains(truth)
            })
            .count();
        hits as f64 / reps as f64
    }

    /// Issue 24: the mean cost of a call's interval covers at 0.93–0.97
    /// whatever the slices' spread (1%, 3%, 5%) and persistence (AR(1) at
    /// ρ = 0, 0.4, 0.8), and
    /// when the machine switches between two turbo levels 2.5% apart every
    /// block or every five blocks on average (3,000 runs of 60 blocks each:
    /// 0.933–0.973; independent blocks sit at the top, 0.96–0.973, since a
    /// correlation is never assumed negative). With switches every twenty
    /// blocks it does not (see the last assertion).
    #[test]
    fn the_interval_covers_the_mean_cost_of_a_call_at_the_spreads_seen_here() {
        for (i, spread) in [0.01, 0.03, 0.05].into_iter().enumerate() {
            for (j, rho) in [0.0, 0.4, 0.8].into_iter().enumerate() {
                let seed = 300 + (3 * i + j) as u64;
                let ar = |rng: &mut fastrand::Rng, k: usize| {
                    crate::testing::random::ar1(rng, k, rho, 0.0, 1.0)
                        .into_iter()
                        .map(|e| 100.0 * (1.0 + spread * e))
                        .collect()
                };
                let covered = coverage(seed, 60, 3000, ar);
                assert!(
                    (0.93..=0.975).contains(&covered),
                    "coverage {covered} at spread {spread}, ρ = {rho}"
                );
            }
        }
        let levels = |dwell: f64| {
            move |rng: &mut fastrand::Rng, k: usize| {
                let mut high = rng.bool();
                (0..k)
                    .map(|_| {
                        if dwell <= 1.0 {
                            high = rng.bool();
                        } else if rng.f64() < 1.0 / dwell {
                            high = !high;
                        }
                        let level = if high { 102.5 } else { 100.0 };
                        level * (1.0 + 0.002 * (rng.f64() - 0.5))
                    })
                    .collect()
            }
        };
        // Switching every 5 blocks: 0.925.
        for (dwell, seed) in [(1.0, 200), (5.0, 201)] {
            let covered = coverage(seed, 60, 3000, levels(dwell));
            assert!(
                (0.92..=0.975).contains(&covered),
                "coverage {covered} at dwell {dwell}"
            );
        }
        // Switching every 20 blocks, a run of 60 sees about three switches:
        // no interval from one run can tell the levels' shares (the
        // effective sample is about 3), and it covers about 0.8. Stated, not
        // hidden: docs/methodology.md says so, and several processes
        // (`--forks`) are the remedy.
        let covered = coverage(202, 60, 1500, levels(20.0));
        assert!(
            (0.7..0.9).contains(&covered),
            "coverage {covered} at dwell 20"
        );
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
