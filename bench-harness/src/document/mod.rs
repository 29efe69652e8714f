//! The results document: the run's environment and method, and per
//! benchmark every raw sample next to the figures computed from it.
//! docs/json-schema.md describes every field and how to recompute the
//! figures from the samples.
//!
//! One document serves two readers: `--format json` and saved baselines
//! ([`crate::baseline`], whose samples are decoded back into measurements
//! to compare). It is built from a run in one place, [`assemble()`], so
//! the two never drift apart. Its JSON is laid out
//! in `layout.rs` (each type's fields, in the order written) and read
//! back in `load.rs`; the sampler's budgets and limits (`config.rs`) are
//! recorded, laid out and decoded in one file.
//!
//! The document's types are separate from the result model
//! ([`crate::results`]) so that the schema is explicit and changes only on
//! purpose: a breaking change bumps [`SCHEMA_VERSION`], and
//! [`parse`](load::parse) refuses documents newer than it understands.
//!
//! Floating-point numbers are written in their shortest exact form and read
//! back exactly (see [`parse`](load::parse)), so a document read back equals
//! the one written and figures recomputed from its samples match to the
//! last bit where the method is exact.

mod assemble;
mod config;
mod decode;
#[cfg(test)]
mod fuzz;
mod layout;
mod load;
mod samples;
mod skim;
#[cfg(test)]
mod tests;
mod verdicts;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::environment::Environment;

pub(crate) use assemble::{assemble, assemble_against, stop_kind};
pub(crate) use config::ConfigRecord;
pub(crate) use decode::stop_reason;
pub(crate) use layout::write;
pub(crate) use load::{load, load_baseline, summarize, LoadError, Summary};
pub(crate) use samples::SamplesRecord;
pub(crate) use verdicts::{comparison, groups, ComparisonRecord, GroupRecord};

/// The version of the document's schema. Bumped on every change that an
/// older reader would misread (a field removed, renamed, retyped or given a
/// new meaning); new optional fields do not bump it. Version 3 packs the
/// raw samples ([`SamplesRecord`]) and may leave them out (`raw_samples`);
/// version 4 makes the headline the mean cost of a call (`block_means_ns`,
/// `disturbed_blocks`, the evidence in `slices` and `preempted`), renames
/// the verdicts (`slower`, `faster`, `no difference`, `unclear`), compares
/// the headlines (`comparison`) and pairs the A/B groups' slices (`groups`).
pub(crate) const SCHEMA_VERSION: u32 = 5;

/// The value of every document's `harness` field: what tells our documents
/// from other JSON.
pub(crate) const HARNESS_TAG: &str = "bench-harness";

/// A whole run: where, how, and what each benchmark measured.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Document {
    /// [`SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// Always [`HARNESS_TAG`].
    pub harness: String,
    pub environment: Environment,
    pub methodology: Methodology,
    /// True when the run was interrupted and some benchmarks are missing or
    /// incomplete.
    pub partial: bool,
    /// Whether the measurements carry their raw samples (`full`, always in
    /// baselines and documents before version 3) or not (`none`:
    /// `--format json` without `--samples full`).
    pub raw_samples: RawSamples,
    /// In the order the report lists them (by name).
    pub benchmarks: Vec<BenchRecord>,
    /// The harness's own reference kernel, measured in the same schedule when
    /// the run saves or compares a baseline: comparing it between two runs
    /// says how much the machine itself changed speed.
    pub machine_reference: Option<EstimateRecord>,
    /// Growth classes fitted over benchmarks' numeric `args`.
    pub complexity: Vec<ComplexityRecord>,
    /// `--against`: this build against another, paired round by round
    /// (`benchmarks` is then empty: nothing is measured on its own).
    pub against: Option<AgainstRecord>,
    /// `--baseline NAME`: each benchmark against the saved run.
    pub comparison: Option<ComparisonRecord>,
    /// In-run A/B groups: each member against its group's baseline member.
    pub groups: Vec<GroupRecord>,
}

/// A paired comparison of two builds (`--against`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AgainstRecord {
    /// The baseline's name (`--against NAME`) or the executable's path
    /// (`--against-exe PATH`).
    pub baseline: String,
    /// The worker protocol both builds spoke.
    pub protocol_version: u32,
    /// Changes within ±this percentage are no difference.
    pub noise_threshold_percent: f64,
    pub benchmarks: Vec<AgainstBenchRecord>,
    /// The other build took out its own loop overhead (an earlier
    /// harness); written only when true.
    pub other_took_own_overhead: bool,
}

/// One benchmark of a paired comparison.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AgainstBenchRecord {
    pub name: String,
    /// `compared`, `new` (this build only), `gone` (the other build only)
    /// or `failed`.
    pub status: String,
    /// new/old: the geometric mean of the rounds' ratios.
    pub ratio: Option<f64>,
    /// The ratio's 95% interval.
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// `slower`, `faster` or `no difference`.
    pub verdict: Option<String>,
    /// Paired rounds the ratio rests on.
    pub rounds: Option<usize>,
    /// The paired t-test on the rounds' log ratios (absent in older
    /// documents).
    pub p_t: Option<f64>,
    /// The Wilcoxon signed-rank test on the same (absent in older
    /// documents).
    pub p_wilcoxon: Option<f64>,
    /// This build's time per iteration (mean of its slice medians), ns.
    pub new_ns: Option<f64>,
    /// The other build's, measured in the same rounds, ns.
    pub old_ns: Option<f64>,
    /// Why a `failed` benchmark has no ratio.
    pub failure: Option<String>,
}

/// A growth class fitted over one function's `args`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ComplexityRecord {
    /// The function's full name without an argument: `sort` for `sort/1000`.
    pub function: String,
    pub group: Option<String>,
    /// `[argument, headline ns]` of each measured benchmark fitted.
    pub points: Vec<(f64, f64)>,
    /// The class with the smallest RMS: `constant`, `logarithmic`,
    /// `linear`, `linearithmic`, `quadratic`, `cubic`; absent when no fit
    /// was possible. A claim only when `established`.
    pub class: Option<String>,
    /// `O(1)` … `O(n³)`.
    pub label: Option<String>,
    /// Time per unit of the class's growth function, in ns.
    pub coefficient_ns: Option<f64>,
    /// Root-mean-square of the residuals relative to each time (over the
    /// mean time where some time is not positive).
    pub rms: Option<f64>,
    /// Whether the data establish `class` (`analysis::complexity`'s rule:
    /// an RMS of at most 15%, the runner-up's at least twice it); the
    /// report names no class otherwise. `None` without a fit, and in
    /// documents written before the rule.
    pub established: Option<bool>,
    /// The class with the next smallest RMS.
    pub runner_up: Option<ClassFitRecord>,
    /// Why no fit was possible.
    pub error: Option<String>,
}

/// One growth class's fit.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ClassFitRecord {
    pub class: String,
    pub label: String,
    pub coefficient_ns: f64,
    pub rms: f64,
}

impl Document {
    /// The benchmark with this full name.
    pub(crate) fn benchmark(&self, name: &str) -> Option<&BenchRecord> {
        self.benchmarks.iter().find(|b| b.name == name)
    }

    /// The document without its raw samples (`--samples none`): every
    /// figure computed from them stays, block medians included.
    pub(crate) fn without_samples(mut self) -> Document {
        self.raw_samples = RawSamples::None;
        let measurements = self
            .benchmarks
            .iter_mut()
            .filter_map(|b| b.measurement.as_mut())
            .chain(self.methodology.overhead.measurement.as_deref_mut());
        for m in measurements {
            m.samples.clear();
            m.slices.clear();
            m.preempted.clear();
            m.rounds.clear();
        }
        self
    }
}

/// Whether a document carries the raw samples.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum RawSamples {
    /// Every measurement has every sample: each figure can be recomputed.
    #[default]
    Full,
    /// Left out (`--samples none`): the figures are there, the samples not.
    None,
}

/// The method in force for the whole run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Methodology {
    /// The clock that timed the samples: `rdtsc (invariant TSC)`, `os`, ...
    pub clock: String,
    /// Its frequency, in ticks per second.
    pub clock_hz: f64,
    /// The smallest step the clock showed.
    pub resolution_ns: f64,
    /// What one start/stop pair of clock reads costs.
    pub read_pair_ns: f64,
    /// The shortest sample the clock allows (1,000 resolutions, 100 read
    /// pairs, 10 µs).
    pub sample_floor_ns: f64,
    /// The timing loop's own cost, subtracted from every sample.
    pub overhead: OverheadRecord,
    pub schedule: ScheduleKind,
    /// `--cold`: the caches were evicted before each sample (absent, and
    /// so false, in documents from before it was recorded).
    pub cold: bool,
    /// When sampling stops once the measuring budget is spent.
    pub stop_rule: RunStopRule,
    /// Seed of the interleaved shuffles (`--seed` repeats the order). May
    /// exceed 2^53.
    pub seed: u64,
    /// The confidence level of every interval in the document (0.95).
    pub confidence_level: f64,
    /// Blocks a benchmark measured in one go is cut into for the headline.
    pub blocks_in_one_go: usize,
    /// The headline's definition, in words.
    pub headline: String,
    /// The percentile rule, in words.
    pub percentiles: String,
}

/// The loop overhead subtracted from every sample: a sample of `iters`
/// iterations that took `elapsed_ns` counts as
/// `(elapsed_ns − per_sample_ns) / iters − per_iter_ns` per iteration.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OverheadRecord {
    /// Whether it was subtracted (always true in schema version 1).
    pub subtracted: bool,
    /// Inside every sample whatever its size: the clock reads.
    pub per_sample_ns: f64,
    /// Per iteration: the loop around the routine.
    pub per_iter_ns: f64,
    /// The 95% half-width of `per_iter_ns`, part of every benchmark's
    /// interval; absent in documents written before it was recorded.
    pub per_iter_uncertainty_ns: Option<f64>,
    /// The empty loop as measured in the run's own schedule, every raw
    /// sample and figure like a benchmark's, with only `per_sample_ns`
    /// taken out: its `estimate` is `per_iter_ns` and its half-width
    /// `per_iter_uncertainty_ns`, so the subtraction can be recomputed.
    /// Absent when no loop was measured (a `--forks` parent without a
    /// baseline) and in older documents.
    pub measurement: Option<Box<MeasurementRecord>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScheduleKind {
    /// Rounds of shuffled slices: each benchmark's samples come in slices.
    Interleaved,
    /// One benchmark after the other, each in one go.
    Sequential,
}

/// The run's stop rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum RunStopRule {
    /// Until the time's 95% interval is within `target` of the time, relative
    /// (0.01 = ±1%), after the measuring budget; or `max_time`.
    Precision { target: f64 },
    /// When the measuring budget is spent.
    TimeBudget,
}

/// One benchmark.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BenchRecord {
    /// The full name: module path below the bench file, then the name.
    pub name: String,
    /// The group the benchmark belongs to, if any.
    pub group: Option<String>,
    /// The benchmark's parameters, one field each.
    pub params: BTreeMap<String, Value>,
    pub outcome: OutcomeKind,
    /// Present when `outcome` is `failed`.
    pub failure: Option<FailureRecord>,
    /// Present when `outcome` is `measured`.
    pub measurement: Option<MeasurementRecord>,
    /// Work per iteration, when the benchmark declares it.
    pub throughput: Option<Throughput>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutcomeKind {
    Measured,
    /// Ran once as a smoke test (`cargo test --benches`).
    Passed,
    Failed,
    Ignored,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FailureRecord {
    pub message: String,
    /// `file:line:column` of the panic, when it was one.
    pub location: Option<String>,
}

/// Work done by one iteration, to turn times into rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Throughput {
    pub unit: ThroughputUnit,
    pub per_iteration: u64,
    /// Units per second at the headline time, when measured.
    pub per_second: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ThroughputUnit {
    Bytes,
    Items,
}

/// A measured benchmark: the raw samples and everything computed from them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MeasurementRecord {
    /// Every recorded sample, in the order taken (warm-up excluded);
    /// empty, and not written, in a document without raw samples.
    pub samples: SamplesRecord,
    /// Index in `samples` where each slice begins: `[0]` for a benchmark
    /// measured in one go.
    pub slice_starts: Vec<usize>,
    /// Samples run after a pause and discarded (interleaved schedule).
    pub rewarm_samples: usize,
    pub config: ConfigRecord,
    pub warm_up: WarmUpRecord,
    /// Why sampling stopped.
    pub stop: StopKind,
    /// The benchmark's set-up, before its first sample.
    pub setup_time_ns: f64,
    /// Wall time spent on the benchmark, set-up and warm-up included.
    pub total_time_ns: f64,
    /// The headline.
    pub estimate: EstimateRecord,
    /// Over all per-iteration values pooled.
    pub summary: SummaryRecord,
    pub outliers: OutliersRecord,
    /// The summary of the per-iteration values within the inner fences;
    /// null when no value lies outside them.
    pub filtered: Option<SummaryRecord>,
    /// Standard deviation within blocks (block medians taken out, outliers
    /// excluded), relative to `estimate.reference_ns`.
    pub within_slice_spread: f64,
    /// Standard deviation of the block medians relative to
    /// `estimate.reference_ns`; null with fewer than 3 blocks or blocks of
    /// under 5 samples (median).
    pub drift: Option<f64>,
    /// How far a rerun may move the time, relative (95%): the benchmark's
    /// own spread over its recent runs of the same code in the history,
    /// which the outputs for people add to the ± in quadrature; absent
    /// with fewer than 3 such runs. `estimate` keeps this run's interval.
    pub rerun_half_width: Option<f64>,
    /// Its time interleaved with the others, when its slices cooled
    /// between them and it was measured again in one stretch
    /// (`cold_after_pause`): the figures here are that second pass's.
    pub interleaved_ns: Option<f64>,
    /// What the reader must know to trust the figures, with remedies.
    pub notes: Vec<String>,
    /// The kind of each of `notes`, in the same order: a stable snake_case
    /// name ([`crate::results::Note::kind`]) to group or count them by.
    /// Empty in documents written before kinds were recorded.
    pub note_kinds: Vec<String>,
    /// Counters per iteration (`--counters`), the cost of reading them
    /// subtracted, by event name; empty when none were measured.
    pub counters: BTreeMap<String, f64>,
    /// Allocations per iteration, the harness's own subtracted, when
    /// `CountingAlloc` is the global allocator.
    pub allocations: Option<AllocationsRecord>,
    /// The benchmark thread's CPU time over its slices, against their wall
    /// time.
    pub cpu: Option<CpuRecord>,
    /// The CPUs its slices ran on.
    pub cpus: Vec<usize>,
    /// Under `--forks`: the processes' estimates and their spread.
    pub forks: Option<ForksRecord>,
    /// The body timed itself (`Bencher::iter_custom`): its samples are
    /// its own durations, and no loop overhead is taken out of them.
    /// Written only when true.
    pub self_timed: bool,
    /// The machine's evidence beside each slice, in time order: written
    /// with the raw samples, which it judges (schema version 4 on).
    pub slices: Vec<SliceRecord>,
    /// The samples during which the thread was preempted, ascending:
    /// written with the raw samples (schema version 4 on).
    pub preempted: Vec<usize>,
    /// For a member of an A/B group: the samples (`[first, end)`) each
    /// round of its group recorded, null for a round it recorded none in;
    /// written with the raw samples.
    pub rounds: Vec<Option<(usize, usize)>>,
}

/// A benchmark measured in several processes (`--forks`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ForksRecord {
    /// Each process's headline, in the order they ran.
    pub process_estimates_ns: Vec<f64>,
    /// Standard deviation of `process_estimates_ns`, relative to the
    /// headline's `reference_ns`.
    pub between_process_spread: f64,
    /// The pooled standard deviation of the block medians within each
    /// process, relative to the headline's `reference_ns`.
    pub within_process_spread: f64,
    /// Cochran's Q test of `process_estimates_ns` against the processes'
    /// own intervals: the chance of processes differing this much if only
    /// their measurement error varied; null when it cannot be computed.
    pub p_value: Option<f64>,
    /// Each process's own loop overhead, which its samples had taken out
    /// (absent in older documents).
    pub process_overheads: Vec<OverheadRecord>,
    /// Where each process's samples begin in `samples` (absent in older
    /// documents).
    pub process_sample_starts: Vec<usize>,
}

/// Allocations per iteration.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AllocationsRecord {
    pub allocations: f64,
    pub deallocations: f64,
    pub reallocations: f64,
    pub bytes_allocated: f64,
}

/// CPU time against wall time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CpuRecord {
    pub user_ns: f64,
    pub system_ns: f64,
    pub wall_ns: f64,
}

/// One sample as the clock read it: `iters` iterations in `elapsed_ns`,
/// overhead not subtracted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SampleRecord {
    pub iters: u64,
    pub elapsed_ns: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WarmUpRecord {
    /// Calibration and warm-up together.
    pub time_ns: f64,
    /// Samples run and discarded, calibration included.
    pub samples: usize,
    /// Whether the rolling coefficient of variation settled.
    pub steady: bool,
    /// The rolling coefficient of variation at the end; null if the window
    /// never filled.
    pub final_cv: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopKind {
    Precise,
    TimeBudget,
    SampleCap,
    MaxTime,
    Abandoned,
    ProcessCap,
}

/// The headline: the mean cost of a call over the blocks the machine did
/// not disturb.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EstimateRecord {
    /// Nanoseconds per iteration.
    pub time_ns: f64,
    /// The 95% interval of `time_ns`; null with fewer than two blocks
    /// kept.
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
    /// The interval's larger distance from `time_ns`, relative to
    /// `reference_ns`.
    pub relative_half_width: Option<f64>,
    /// What relative figures are relative to: `time_ns`, or the loop's cost
    /// per iteration when the body is cheaper than that.
    pub reference_ns: f64,
    /// Each block's iteration-weighted mean, in time order (schema
    /// version 4 on; empty in older documents).
    pub block_means_ns: Vec<f64>,
    /// The indices of the blocks the machine's evidence marked as
    /// disturbed (schema version 4 on; written when there are any).
    pub disturbed_blocks: Vec<usize>,
    /// How many blocks `time_ns` counts (schema version 4 on).
    pub kept_blocks: Option<usize>,
    /// The body was steady within its blocks: `time_ns` is the mean of the
    /// fast regime's block medians, not the mean cost of a call (schema
    /// version 4 on; written only when true).
    pub steady: bool,
    /// Each block's median, in time order: what versions before 4 wrote
    /// instead of `block_means_ns` (read, never written).
    pub block_medians_ns: Vec<f64>,
}

impl EstimateRecord {
    /// Each block's value, in time order: its mean, or its median in a
    /// document written before means were.
    pub(crate) fn block_values(&self) -> &[f64] {
        if self.block_means_ns.is_empty() {
            &self.block_medians_ns
        } else {
            &self.block_means_ns
        }
    }
}

/// The machine's evidence beside one slice of samples: what decides
/// whether the blocks it holds count in the headline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SliceRecord {
    /// Index in `samples` of the slice's first sample.
    pub first_sample: usize,
    /// The samples it recorded.
    pub samples: usize,
    /// The speed probe beside it, ns per iteration of the empty loop.
    pub probe_ns: f64,
    /// The benchmark's pause before it (since its previous slice ended).
    pub pause_ns: Option<f64>,
    /// The thread's page faults over its samples, when counted.
    pub faults: Option<u64>,
}

/// Location, spread and intervals of per-iteration values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SummaryRecord {
    pub n: usize,
    pub min_ns: f64,
    pub max_ns: f64,
    pub mean_ns: f64,
    pub median_ns: f64,
    /// Sample standard deviation (n − 1).
    pub std_dev_ns: f64,
    /// `std_dev_ns / mean_ns`; null when not finite (a zero mean).
    pub coefficient_of_variation: Option<f64>,
    /// Raw median absolute deviation, not scaled.
    pub mad_ns: f64,
    pub percentiles: PercentilesRecord,
    /// 95% Student-t interval of the mean; null for n < 2.
    pub mean_ci: Option<IntervalRecord>,
    /// Distribution-free interval of the median from order statistics; null
    /// for n ≤ 5.
    pub median_ci: Option<IntervalRecord>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PercentilesRecord {
    pub p50_ns: f64,
    pub p90_ns: f64,
    pub p95_ns: f64,
    pub p99_ns: f64,
    pub p99_9_ns: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct IntervalRecord {
    pub low_ns: f64,
    pub high_ns: f64,
    /// The coverage probability achieved (at least 0.95).
    pub confidence: f64,
}

/// Tukey's fences over the per-iteration values, and the counts beyond them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct OutliersRecord {
    pub fences: FencesRecord,
    pub low_severe: usize,
    pub low_mild: usize,
    pub high_mild: usize,
    pub high_severe: usize,
    /// Farther than 3 standard deviations from the mean (either side).
    pub beyond_3_sigma: usize,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FencesRecord {
    pub q1_ns: f64,
    pub q3_ns: f64,
    pub lower_outer_ns: f64,
    pub lower_inner_ns: f64,
    pub upper_inner_ns: f64,
    pub upper_outer_ns: f64,
}
