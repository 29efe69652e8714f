//! The JSON document (`--format json`, and saved baselines): the run's
//! environment and method, and per benchmark every raw sample next to the
//! figures computed from it. docs/json-schema.md describes every field and
//! how to recompute the figures from the samples.
//!
//! The document's types are separate from the result model
//! ([`crate::results`]) so that the schema is explicit and changes only on
//! purpose: a breaking change bumps [`SCHEMA_VERSION`], and [`parse`] refuses
//! documents newer than it understands.
//!
//! Floating-point numbers are written in their shortest exact form and read
//! back exactly (see [`parse`]), so a document read back equals the one
//! written and figures recomputed from its samples match to the last bit
//! where the method is exact.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use bench_runtime::{Measurement, Nanos, Sample, SamplerConfig, StopReason, StopRule, WarmUp};

use crate::analysis::{Interval, Summary, BLOCKS_IN_ONE_GO, CONFIDENCE_LEVEL};
use crate::environment::Environment;
use crate::results::{BenchResult, ComplexityReport, Measured, Outcome, RunInfo};
use crate::run::{Overhead, Schedule};

/// The version of the document's schema. Bumped on every change that an
/// older reader would misread (a field removed, renamed, retyped or given a
/// new meaning); new optional fields do not bump it.
pub const SCHEMA_VERSION: u32 = 1;

/// The value of every document's `harness` field: what tells our documents
/// from other JSON.
pub const HARNESS_TAG: &str = "bench-harness";

/// A whole run: where, how, and what each benchmark measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// [`SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// Always [`HARNESS_TAG`].
    pub harness: String,
    pub environment: Environment,
    pub methodology: Methodology,
    /// True when the run was interrupted and some benchmarks are missing or
    /// incomplete.
    #[serde(default)]
    pub partial: bool,
    /// In the order the report lists them (by name).
    pub benchmarks: Vec<BenchRecord>,
    /// The harness's own reference kernel, measured in the same schedule when
    /// the run saves or compares a baseline: comparing it between two runs
    /// says how much the machine itself changed speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_reference: Option<EstimateRecord>,
    /// Growth classes fitted over benchmarks' numeric `args`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub complexity: Vec<ComplexityRecord>,
}

/// A growth class fitted over one function's `args`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComplexityRecord {
    /// The function's full name without an argument: `sort` for `sort/1000`.
    pub function: String,
    #[serde(default)]
    pub group: Option<String>,
    /// `[argument, headline ns]` of each measured benchmark fitted.
    pub points: Vec<(f64, f64)>,
    /// `constant`, `logarithmic`, `linear`, `linearithmic`, `quadratic`,
    /// `cubic`; absent when no fit was possible.
    #[serde(default)]
    pub class: Option<String>,
    /// `O(1)` … `O(n³)`.
    #[serde(default)]
    pub label: Option<String>,
    /// Time per unit of the class's growth function, in ns.
    #[serde(default)]
    pub coefficient_ns: Option<f64>,
    /// Root-mean-square of the residuals relative to each time (over the
    /// mean time where some time is not positive).
    #[serde(default)]
    pub rms: Option<f64>,
    /// Why no fit was possible.
    #[serde(default)]
    pub error: Option<String>,
}

impl Document {
    /// The benchmark with this full name.
    pub fn benchmark(&self, name: &str) -> Option<&BenchRecord> {
        self.benchmarks.iter().find(|b| b.name == name)
    }
}

/// The method in force for the whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Methodology {
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
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OverheadRecord {
    /// Whether it was subtracted (always true in schema version 1).
    pub subtracted: bool,
    /// Inside every sample whatever its size: the clock reads.
    pub per_sample_ns: f64,
    /// Per iteration: the loop around the routine.
    pub per_iter_ns: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScheduleKind {
    /// Rounds of shuffled slices: each benchmark's samples come in slices.
    Interleaved,
    /// One benchmark after the other, each in one go.
    Sequential,
}

/// The run's stop rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum RunStopRule {
    /// Until the time's 95% interval is within `target` of the time, relative
    /// (0.01 = ±1%), after the measuring budget; or `max_time`.
    Precision { target: f64 },
    /// When the measuring budget is spent.
    TimeBudget,
}

/// One benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchRecord {
    /// The full name: module path below the bench file, then the name.
    pub name: String,
    /// The group the benchmark belongs to, if any.
    #[serde(default)]
    pub group: Option<String>,
    /// The benchmark's parameters, one field each.
    #[serde(default)]
    pub params: BTreeMap<String, Value>,
    pub outcome: OutcomeKind,
    /// Present when `outcome` is `failed`.
    #[serde(default)]
    pub failure: Option<FailureRecord>,
    /// Present when `outcome` is `measured`.
    #[serde(default)]
    pub measurement: Option<MeasurementRecord>,
    /// Work per iteration, when the benchmark declares it.
    #[serde(default)]
    pub throughput: Option<Throughput>,
}

impl BenchRecord {
    /// The headline in nanoseconds per iteration, when measured.
    pub fn headline_ns(&self) -> Option<f64> {
        self.measurement.as_ref().map(|m| m.estimate.time_ns)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    Measured,
    /// Ran once as a smoke test (`cargo test --benches`).
    Passed,
    Failed,
    Ignored,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRecord {
    pub message: String,
    /// `file:line:column` of the panic, when it was one.
    pub location: Option<String>,
}

/// Work done by one iteration, to turn times into rates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    pub unit: ThroughputUnit,
    pub per_iteration: u64,
    /// Units per second at the headline time, when measured.
    #[serde(default)]
    pub per_second: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThroughputUnit {
    Bytes,
    #[serde(alias = "elements")]
    Items,
}

/// A measured benchmark: the raw samples and everything computed from them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasurementRecord {
    /// Every recorded sample, in the order taken (warm-up excluded).
    pub samples: Vec<SampleRecord>,
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
    /// What the reader must know to trust the figures, with remedies.
    pub notes: Vec<String>,
    /// Counters per iteration (`--counters`), the cost of reading them
    /// subtracted, by event name; empty when none were measured.
    #[serde(default)]
    pub counters: BTreeMap<String, f64>,
    /// Allocations per iteration, the harness's own subtracted, when
    /// `CountingAlloc` is the global allocator.
    #[serde(default)]
    pub allocations: Option<AllocationsRecord>,
    /// The benchmark thread's CPU time over its slices, against their wall
    /// time.
    #[serde(default)]
    pub cpu: Option<CpuRecord>,
    /// The CPUs its slices ran on.
    #[serde(default)]
    pub cpus: Vec<usize>,
    /// Under `--forks`: the processes' estimates and their spread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forks: Option<ForksRecord>,
}

/// A benchmark measured in several processes (`--forks`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForksRecord {
    /// Each process's headline, in the order they ran.
    pub process_estimates_ns: Vec<f64>,
    /// Standard deviation of `process_estimates_ns`, relative to the
    /// headline's `reference_ns`.
    pub between_process_spread: f64,
    /// The pooled standard deviation of the block medians within each
    /// process, relative to the headline's `reference_ns`.
    pub within_process_spread: f64,
    /// One-way analysis of variance of the block medians by process: the
    /// chance of processes differing this much if only the blocks varied;
    /// null when it cannot be computed.
    pub p_value: Option<f64>,
}

/// Allocations per iteration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllocationsRecord {
    pub allocations: f64,
    pub deallocations: f64,
    pub reallocations: f64,
    pub bytes_allocated: f64,
}

/// CPU time against wall time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuRecord {
    pub user_ns: f64,
    pub system_ns: f64,
    pub wall_ns: f64,
}

/// One sample as the clock read it: `iters` iterations in `elapsed_ns`,
/// overhead not subtracted.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SampleRecord {
    pub iters: u64,
    pub elapsed_ns: f64,
}

/// The benchmark's sampling budgets and limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigRecord {
    pub warm_up_time_s: f64,
    pub warm_up_window: usize,
    pub warm_up_cv: f64,
    pub measure_time_s: f64,
    pub stop_rule: StopRuleKind,
    pub max_time_s: f64,
    pub min_samples: usize,
    pub max_samples: usize,
    pub min_sample_time_ns: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopRuleKind {
    Precision,
    TimeBudget,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WarmUpRecord {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopKind {
    Precise,
    TimeBudget,
    SampleCap,
    MaxTime,
    Abandoned,
}

/// The headline: the mean over blocks of each block's median.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateRecord {
    /// Nanoseconds per iteration.
    pub time_ns: f64,
    /// The 95% Student-t interval over the block medians; null with one block.
    pub ci_low_ns: Option<f64>,
    pub ci_high_ns: Option<f64>,
    /// The interval's larger distance from `time_ns`, relative to
    /// `reference_ns`.
    pub relative_half_width: Option<f64>,
    /// What relative figures are relative to: `time_ns`, or the loop's cost
    /// per iteration when the body is cheaper than that.
    pub reference_ns: f64,
    /// Each block's median, in time order.
    pub block_medians_ns: Vec<f64>,
}

/// Location, spread and intervals of per-iteration values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryRecord {
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

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PercentilesRecord {
    pub p50_ns: f64,
    pub p90_ns: f64,
    pub p95_ns: f64,
    pub p99_ns: f64,
    pub p99_9_ns: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IntervalRecord {
    pub low_ns: f64,
    pub high_ns: f64,
    /// The coverage probability achieved (at least 0.95).
    pub confidence: f64,
}

/// Tukey's fences over the per-iteration values, and the counts beyond them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OutliersRecord {
    pub fences: FencesRecord,
    pub low_severe: usize,
    pub low_mild: usize,
    pub high_mild: usize,
    pub high_severe: usize,
    /// Farther than 3 standard deviations from the mean (either side).
    pub beyond_3_sigma: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FencesRecord {
    pub q1_ns: f64,
    pub q3_ns: f64,
    pub lower_outer_ns: f64,
    pub lower_inner_ns: f64,
    pub upper_inner_ns: f64,
    pub upper_outer_ns: f64,
}

const HEADLINE: &str = "mean over blocks of each block's median of the per-iteration times \
     (overhead subtracted); a block is a slice of an interleaved run, or one of \
     blocks_in_one_go equal runs of samples for a benchmark measured in one go; \
     95% Student-t interval over the block medians";

const PERCENTILES: &str =
    "linear interpolation between closest ranks: rank h = (n - 1) * p on the sorted values \
     (Hyndman & Fan type 7, R's and NumPy's default)";

/// The document of a run.
pub fn document(environment: &Environment, info: &RunInfo, results: &[BenchResult]) -> Document {
    Document {
        schema_version: SCHEMA_VERSION,
        harness: HARNESS_TAG.to_string(),
        environment: environment.clone(),
        methodology: methodology(info),
        partial: info.partial,
        benchmarks: results.iter().map(record).collect(),
        machine_reference: None,
        complexity: Vec::new(),
    }
}

/// A complexity report as the document records it.
pub fn complexity(report: &ComplexityReport) -> ComplexityRecord {
    let fit = report.fit.as_ref().ok();
    ComplexityRecord {
        function: report.function.clone(),
        group: report.group.clone(),
        points: report.points.clone(),
        class: fit.map(|f| f.class.name().to_string()),
        label: fit.map(|f| f.class.label().to_string()),
        coefficient_ns: fit.map(|f| f.coefficient),
        rms: fit.map(|f| f.rms),
        error: report.fit.as_ref().err().cloned(),
    }
}

/// The headline of `m` as the document records it.
pub fn estimate(m: &Measured) -> EstimateRecord {
    EstimateRecord {
        time_ns: m.estimate.estimate,
        ci_low_ns: m.estimate.interval.map(|ci| ci.lower),
        ci_high_ns: m.estimate.interval.map(|ci| ci.upper),
        relative_half_width: m.precision.and_then(finite),
        reference_ns: m.reference,
        block_medians_ns: m.estimate.block_medians.clone(),
    }
}

fn methodology(info: &RunInfo) -> Methodology {
    Methodology {
        clock: info.clock_name.to_string(),
        clock_hz: info.clock_hz,
        resolution_ns: info.precision.resolution.0,
        read_pair_ns: info.precision.overhead.0,
        sample_floor_ns: info.sample_floor.0,
        overhead: OverheadRecord {
            subtracted: true,
            per_sample_ns: info.overhead.per_sample.0,
            per_iter_ns: info.overhead.per_iter.0,
        },
        schedule: match info.schedule {
            Schedule::Interleaved => ScheduleKind::Interleaved,
            Schedule::Sequential => ScheduleKind::Sequential,
        },
        stop_rule: if info.target_precision > 0.0 {
            RunStopRule::Precision {
                target: info.target_precision,
            }
        } else {
            RunStopRule::TimeBudget
        },
        seed: info.seed,
        confidence_level: CONFIDENCE_LEVEL,
        blocks_in_one_go: BLOCKS_IN_ONE_GO,
        headline: HEADLINE.to_string(),
        percentiles: PERCENTILES.to_string(),
    }
}

fn record(result: &BenchResult) -> BenchRecord {
    let (outcome, failure, measurement) = match &result.outcome {
        Outcome::Measured(m) => (OutcomeKind::Measured, None, Some(measurement(m))),
        Outcome::Passed => (OutcomeKind::Passed, None, None),
        Outcome::Failed(f) => (
            OutcomeKind::Failed,
            Some(FailureRecord {
                message: f.message.clone(),
                location: f.location.clone(),
            }),
            None,
        ),
        Outcome::Ignored => (OutcomeKind::Ignored, None, None),
    };
    let mut params = BTreeMap::new();
    if let Some(type_name) = &result.type_name {
        params.insert("type".to_string(), Value::String(type_name.clone()));
    }
    if let Some(arg) = &result.arg {
        // A number stays a number, so readers can plot against it.
        let value = serde_json::from_str::<serde_json::Number>(arg)
            .map_or_else(|_| Value::String(arg.clone()), Value::Number);
        params.insert("arg".to_string(), value);
    }
    let throughput = result.throughput.map(|throughput| {
        let (unit, per_iteration) = match throughput {
            bench_runtime::Throughput::Bytes(n) => (ThroughputUnit::Bytes, n),
            bench_runtime::Throughput::Items(n) => (ThroughputUnit::Items, n),
        };
        Throughput {
            unit,
            per_iteration,
            per_second: result.rate().map(|(_, per_second)| per_second),
        }
    });
    BenchRecord {
        name: result.name.clone(),
        group: result.group.clone(),
        params,
        outcome,
        failure,
        measurement,
        throughput,
    }
}

fn measurement(m: &Measured) -> MeasurementRecord {
    let raw = &m.measurement;
    let config = &m.config;
    let secs = |nanos: bench_runtime::Nanos| nanos.0 / 1e9;
    let fences = &m.outliers.fences;
    MeasurementRecord {
        samples: raw
            .samples
            .iter()
            .map(|s| SampleRecord {
                iters: s.iters,
                elapsed_ns: s.elapsed.0,
            })
            .collect(),
        slice_starts: raw.slice_starts.clone(),
        rewarm_samples: raw.rewarm_samples,
        config: ConfigRecord {
            warm_up_time_s: secs(config.warm_up_time),
            warm_up_window: config.warm_up_window,
            warm_up_cv: config.warm_up_cv,
            measure_time_s: secs(config.measure_time),
            stop_rule: match config.stop_rule {
                StopRule::Precision => StopRuleKind::Precision,
                StopRule::TimeBudget => StopRuleKind::TimeBudget,
            },
            max_time_s: secs(config.max_time),
            min_samples: config.min_samples,
            max_samples: config.max_samples,
            min_sample_time_ns: config.min_sample_time.0,
        },
        warm_up: WarmUpRecord {
            time_ns: raw.warm_up.time.0,
            samples: raw.warm_up.samples,
            steady: raw.warm_up.steady,
            final_cv: raw.warm_up.final_cv.and_then(finite),
        },
        stop: stop_kind(raw.stop),
        setup_time_ns: raw.setup_time.0,
        total_time_ns: raw.total_time.0,
        estimate: estimate(m),
        summary: summary(&m.summary),
        outliers: OutliersRecord {
            fences: FencesRecord {
                q1_ns: fences.q1,
                q3_ns: fences.q3,
                lower_outer_ns: fences.lower_outer,
                lower_inner_ns: fences.lower_inner,
                upper_inner_ns: fences.upper_inner,
                upper_outer_ns: fences.upper_outer,
            },
            low_severe: m.outliers.low_severe,
            low_mild: m.outliers.low_mild,
            high_mild: m.outliers.high_mild,
            high_severe: m.outliers.high_severe,
            beyond_3_sigma: m.outliers.beyond_3_sigma,
        },
        filtered: m.filtered.as_ref().map(summary),
        within_slice_spread: m.within_slice_spread,
        drift: m.drift.and_then(finite),
        notes: m.notes.clone(),
        counters: m
            .extras
            .counters
            .iter()
            .filter_map(|(event, _)| {
                let value = m.extras.per_iteration(*event).and_then(finite)?;
                Some((event.name().to_string(), value))
            })
            .collect(),
        allocations: m.allocations().map(|a| AllocationsRecord {
            allocations: a.allocations,
            deallocations: a.deallocations,
            reallocations: a.reallocations,
            bytes_allocated: a.bytes_allocated,
        }),
        cpu: m.extras.cpu.map(|(cpu, wall)| CpuRecord {
            user_ns: cpu.user.0,
            system_ns: cpu.system.0,
            wall_ns: wall.0,
        }),
        cpus: m.extras.cpus.clone(),
        forks: m.forks.as_ref().map(|f| ForksRecord {
            process_estimates_ns: f.process_estimates.clone(),
            between_process_spread: finite(f.between).unwrap_or(0.0),
            within_process_spread: finite(f.within).unwrap_or(0.0),
            p_value: f.p_value.and_then(finite),
        }),
    }
}

fn summary(s: &Summary) -> SummaryRecord {
    let interval = |ci: Option<Interval>| {
        ci.map(|ci| IntervalRecord {
            low_ns: ci.lower,
            high_ns: ci.upper,
            confidence: ci.confidence,
        })
    };
    SummaryRecord {
        n: s.n,
        min_ns: s.min,
        max_ns: s.max,
        mean_ns: s.mean,
        median_ns: s.median,
        std_dev_ns: s.std_dev,
        coefficient_of_variation: finite(s.coefficient_of_variation),
        mad_ns: s.median_absolute_deviation,
        percentiles: PercentilesRecord {
            p50_ns: s.percentiles.p50,
            p90_ns: s.percentiles.p90,
            p95_ns: s.percentiles.p95,
            p99_ns: s.percentiles.p99,
            p99_9_ns: s.percentiles.p99_9,
        },
        mean_ci: interval(s.mean_interval),
        median_ci: interval(s.median_interval),
    }
}

impl MeasurementRecord {
    /// The sampler's measurement back, as [`document`] wrote it (all but
    /// `wall_capped`, which the document does not carry): what a parent
    /// under `--forks` analyses of its children's.
    pub fn raw(&self) -> Measurement {
        Measurement {
            samples: self
                .samples
                .iter()
                .map(|s| Sample {
                    iters: s.iters,
                    elapsed: Nanos(s.elapsed_ns),
                })
                .collect(),
            stop: stop_reason(self.stop),
            warm_up: WarmUp {
                time: Nanos(self.warm_up.time_ns),
                samples: self.warm_up.samples,
                steady: self.warm_up.steady,
                final_cv: self.warm_up.final_cv,
            },
            rewarm_samples: self.rewarm_samples,
            setup_time: Nanos(self.setup_time_ns),
            slice_starts: self.slice_starts.clone(),
            total_time: Nanos(self.total_time_ns),
            wall_capped: false,
        }
    }

    /// The sampler's settings back.
    pub fn sampler_config(&self) -> SamplerConfig {
        let c = &self.config;
        SamplerConfig {
            warm_up_time: Nanos::from_secs(c.warm_up_time_s),
            warm_up_window: c.warm_up_window,
            warm_up_cv: c.warm_up_cv,
            measure_time: Nanos::from_secs(c.measure_time_s),
            stop_rule: match c.stop_rule {
                StopRuleKind::Precision => StopRule::Precision,
                StopRuleKind::TimeBudget => StopRule::TimeBudget,
            },
            max_time: Nanos::from_secs(c.max_time_s),
            min_samples: c.min_samples,
            max_samples: c.max_samples,
            min_sample_time: Nanos(c.min_sample_time_ns),
        }
    }
}

impl OverheadRecord {
    /// The overhead it records.
    pub fn overhead(&self) -> Overhead {
        Overhead {
            per_sample: Nanos(self.per_sample_ns),
            per_iter: Nanos(self.per_iter_ns),
        }
    }
}

fn stop_reason(stop: StopKind) -> StopReason {
    match stop {
        StopKind::Precise => StopReason::Precise,
        StopKind::TimeBudget => StopReason::TimeBudget,
        StopKind::SampleCap => StopReason::SampleCap,
        StopKind::MaxTime => StopReason::MaxTime,
        StopKind::Abandoned => StopReason::Abandoned,
    }
}

fn stop_kind(stop: StopReason) -> StopKind {
    match stop {
        StopReason::Precise => StopKind::Precise,
        StopReason::TimeBudget => StopKind::TimeBudget,
        StopReason::SampleCap => StopKind::SampleCap,
        StopReason::MaxTime => StopKind::MaxTime,
        StopReason::Abandoned => StopKind::Abandoned,
    }
}

/// JSON has no NaN or infinity: an undefined ratio is written as null.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Writes `doc` pretty-printed (two-space indent, one sample per line),
/// ending with a newline.
pub fn write(out: &mut dyn Write, doc: &Document) -> io::Result<()> {
    let mut buffered = io::BufWriter::new(out);
    let mut serializer = serde_json::Serializer::with_formatter(&mut buffered, Layout::default());
    doc.serialize(&mut serializer)?;
    buffered.write_all(b"\n")?;
    buffered.flush()
}

/// The document as a string, as [`write()`] writes it.
pub fn to_string(doc: &Document) -> String {
    let mut bytes = Vec::new();
    write(&mut bytes, doc).expect("writing to memory does not fail");
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// Arrays of numbers written on one line.
const INLINE_ARRAYS: [&str; 4] = ["slice_starts", "block_medians_ns", "load_average", "cpus"];

/// serde_json's pretty layout, except that the elements of a `samples`
/// array take one line each (`{"iters": 1024, "elapsed_ns": 17034.5}`)
/// instead of four (a benchmark has thousands of them), and the arrays of
/// numbers in [`INLINE_ARRAYS`] take one line.
#[derive(Default)]
struct Layout {
    pretty: serde_json::ser::PrettyFormatter<'static>,
    /// Open containers outside one-line elements: `true` for an array whose
    /// elements are written on one line each.
    open: Vec<bool>,
    /// Nesting depth inside a one-line element (0: not in one).
    inline: usize,
    in_key: bool,
    key: String,
}

impl Layout {
    /// Whether a container starting now is one-line (or inside one).
    fn starts_inline(&self) -> bool {
        self.inline > 0 || self.open.last() == Some(&true)
    }
}

impl serde_json::ser::Formatter for Layout {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.starts_inline() {
            self.inline += 1;
            return w.write_all(b"[");
        }
        let key = if self.open.last() == Some(&false) {
            self.key.as_str()
        } else {
            ""
        };
        if INLINE_ARRAYS.contains(&key) {
            self.inline += 1;
            return w.write_all(b"[");
        }
        self.open.push(key == "samples");
        self.key.clear();
        self.pretty.begin_array(w)
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            self.inline -= 1;
            return w.write_all(b"]");
        }
        self.open.pop();
        self.pretty.end_array(w)
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if self.inline > 0 {
            return if first { Ok(()) } else { w.write_all(b", ") };
        }
        self.pretty.begin_array_value(w, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            return Ok(());
        }
        self.pretty.end_array_value(w)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.starts_inline() {
            self.inline += 1;
            return w.write_all(b"{");
        }
        self.open.push(false);
        self.key.clear();
        self.pretty.begin_object(w)
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            self.inline -= 1;
            return w.write_all(b"}");
        }
        self.open.pop();
        self.key.clear();
        self.pretty.end_object(w)
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if self.inline > 0 {
            return if first { Ok(()) } else { w.write_all(b", ") };
        }
        self.in_key = true;
        self.key.clear();
        self.pretty.begin_object_key(w, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.in_key = false;
        if self.inline > 0 {
            return Ok(());
        }
        self.pretty.end_object_key(w)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            return w.write_all(b": ");
        }
        self.pretty.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            return Ok(());
        }
        self.key.clear();
        self.pretty.end_object_value(w)
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if self.in_key {
            self.key.push_str(fragment);
        }
        w.write_all(fragment.as_bytes())
    }
}

/// Why a file could not be read as a document. Each says what is wrong with
/// which file, in one line, and what to do.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read (missing, unreadable).
    Io { path: PathBuf, error: io::Error },
    /// The file is empty (or only white space).
    Empty { path: Option<PathBuf> },
    /// Not valid JSON: truncated (the message starts with `EOF`) or corrupt.
    Syntax {
        path: Option<PathBuf>,
        message: String,
        line: usize,
        column: usize,
    },
    /// Valid JSON, but not a bench-harness document: no `"harness":
    /// "bench-harness"` tag or no `schema_version`.
    NotOurs {
        path: Option<PathBuf>,
        reason: String,
    },
    /// A bench-harness document of a newer schema than this version reads.
    NewerSchema {
        path: Option<PathBuf>,
        found: u64,
        supported: u32,
    },
    /// A bench-harness document of a known version whose fields are missing
    /// or mistyped. `line` and `column` are 0 when unknown.
    Shape {
        path: Option<PathBuf>,
        message: String,
        line: usize,
        column: usize,
    },
}

impl LoadError {
    /// The file the error is about; `None` for text given to [`parse`].
    pub fn path(&self) -> Option<&Path> {
        match self {
            LoadError::Io { path, .. } => Some(path),
            LoadError::Empty { path }
            | LoadError::Syntax { path, .. }
            | LoadError::NotOurs { path, .. }
            | LoadError::NewerSchema { path, .. }
            | LoadError::Shape { path, .. } => path.as_deref(),
        }
    }

    /// The same error about the file at `file`.
    pub fn with_path(mut self, file: &Path) -> LoadError {
        match &mut self {
            LoadError::Io { path, .. } => *path = file.to_path_buf(),
            LoadError::Empty { path }
            | LoadError::Syntax { path, .. }
            | LoadError::NotOurs { path, .. }
            | LoadError::NewerSchema { path, .. }
            | LoadError::Shape { path, .. } => *path = Some(file.to_path_buf()),
        }
        self
    }

    fn describe(&self) -> String {
        let subject = match self.path() {
            Some(path) => format!("file {}", path.display()),
            None => "the JSON text".to_string(),
        };
        const AGAIN: &str = "delete it or write it again (--save-baseline, or --format json)";
        let at = |line: &usize, column: &usize| {
            if *line == 0 {
                String::new()
            } else {
                format!(" at line {line}, column {column}")
            }
        };
        match self {
            LoadError::Io { error, .. } => format!("cannot read {subject}: {error}"),
            LoadError::Empty { .. } => {
                format!("{subject} is empty, not a bench-harness results document: {AGAIN}")
            }
            LoadError::Syntax {
                message,
                line,
                column,
                ..
            } => {
                let what = if message.starts_with("EOF") {
                    "is truncated"
                } else {
                    "is corrupt, not valid JSON"
                };
                format!("{subject} {what} ({message}{}): {AGAIN}", at(line, column))
            }
            LoadError::NotOurs { reason, .. } => format!(
                "{subject} is JSON but not a bench-harness results document ({reason}): give \
                 the path of a file written by --save-baseline or --format json"
            ),
            LoadError::NewerSchema {
                found, supported, ..
            } => format!(
                "{subject} has schema version {found}, newer than the version {supported} that \
                 bench-harness {} reads: upgrade bench-harness, or write the file again with \
                 this version",
                env!("CARGO_PKG_VERSION")
            ),
            LoadError::Shape {
                message,
                line,
                column,
                ..
            } => format!(
                "{subject} is a bench-harness document with missing or mistyped fields \
                 ({message}{}): it was edited or damaged; {AGAIN}",
                at(line, column)
            ),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, whatever the file name or the parser put in.
        let text = self.describe().replace(['\n', '\r'], " ");
        f.write_str(&text)
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads the document at `path`; see [`parse`].
pub fn load(path: &Path) -> Result<Document, LoadError> {
    let bytes = std::fs::read(path).map_err(|error| LoadError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let text = std::str::from_utf8(&bytes).map_err(|error| {
        let valid = &bytes[..error.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        LoadError::Syntax {
            path: Some(path.to_path_buf()),
            message: format!("not UTF-8 text: {error}"),
            line,
            column: String::from_utf8_lossy(&valid[line_start..])
                .chars()
                .count()
                + 1,
        }
    })?;
    parse(text).map_err(|error| error.with_path(path))
}

/// Reads a document from JSON text.
///
/// In order: empty text, invalid JSON, JSON that is not ours, a newer
/// schema version (checked before the rest, so a future document is
/// reported as such and not as malformed), then the fields.
///
/// Numbers are read exactly (serde_json's `float_roundtrip` feature): a
/// document read back equals the one written.
pub fn parse(text: &str) -> Result<Document, LoadError> {
    if text.trim().is_empty() {
        return Err(LoadError::Empty { path: None });
    }
    let value = serde_json::from_str::<Value>(text).map_err(|error| LoadError::Syntax {
        path: None,
        message: without_position(&error),
        line: error.line(),
        column: error.column(),
    })?;
    check_version(&value)?;
    serde_json::from_value::<Document>(value).map_err(|error| {
        // The value has no positions; parsing the text again finds the same
        // error with its line and column.
        let positioned = serde_json::from_str::<Document>(text).err();
        let error = positioned.as_ref().unwrap_or(&error);
        LoadError::Shape {
            path: None,
            message: without_position(error),
            line: error.line(),
            column: error.column(),
        }
    })
}

/// Is `value` a bench-harness document of a version this code reads?
fn check_version(value: &Value) -> Result<(), LoadError> {
    let not_ours = |reason: String| LoadError::NotOurs { path: None, reason };
    let Value::Object(fields) = value else {
        return Err(not_ours(format!(
            "the top level is {}, not an object",
            kind(value)
        )));
    };
    match fields.get("harness") {
        Some(Value::String(tag)) if tag == HARNESS_TAG => {}
        Some(Value::String(tag)) => {
            let tag: String = tag.chars().take(40).collect();
            return Err(not_ours(format!(
                "its \"harness\" is {tag:?}, not \"{HARNESS_TAG}\""
            )));
        }
        Some(other) => {
            return Err(not_ours(format!(
                "its \"harness\" is {}, not \"{HARNESS_TAG}\"",
                kind(other)
            )))
        }
        None => return Err(not_ours(format!("no \"harness\": \"{HARNESS_TAG}\" field"))),
    }
    let shape = |message: String| LoadError::Shape {
        path: None,
        message,
        line: 0,
        column: 0,
    };
    let version = match fields.get("schema_version") {
        None => return Err(not_ours("no \"schema_version\" field".to_string())),
        Some(version) => version.as_u64().ok_or_else(|| {
            shape(format!(
                "\"schema_version\" is {}, not a positive integer",
                kind(version)
            ))
        })?,
    };
    if version > u64::from(SCHEMA_VERSION) {
        return Err(LoadError::NewerSchema {
            path: None,
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    if version == 0 {
        return Err(shape("schema version 0 does not exist".to_string()));
    }
    Ok(())
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json's message without its ` at line L column C` suffix.
fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    message
        .strip_suffix(&suffix)
        .map_or(message.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_read_exactly() {
        let mut rng = fastrand::Rng::with_seed(7);
        let values: Vec<f64> = (0..20_000)
            .map(|i| {
                let scale = 10f64.powi(i % 24 - 12);
                rng.f64() * scale
            })
            .chain([0.1 + 0.2, 1.0 / 3.0, 123_456.789_012_345_67, -0.0, 5e-324])
            .collect();
        let text = serde_json::to_string(&values).unwrap();
        let Value::Array(read) = serde_json::from_str(&text).unwrap() else {
            panic!("an array")
        };
        for (written, read) in values.iter().zip(&read) {
            let read = read.as_f64().unwrap();
            assert_eq!(
                written.to_bits(),
                read.to_bits(),
                "{written} read as {read}"
            );
        }
    }
}
