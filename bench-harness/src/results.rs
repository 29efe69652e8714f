//! The result model every reporter consumes: what was run, what it
//! measured, the statistics over it and the notes a reader needs.
//! Statistics are computed here, once; reporters only format them.
//!
//! [`run_suite`](crate::run_suite) returns one [`BenchResult`] per benchmark.
//! Its public part is what a bench target needs to read the figures: the
//! name and where the benchmark sits, its [`Outcome`], and for a measured
//! one ([`Measured`]) the raw samples, the headline time per iteration with
//! its precision, and the [`Note`]s. The analysis behind them (summaries,
//! outliers, comparisons) is the harness's own and stays inside the crate.
//!
//! These types grow: [`BenchResult`], [`Measured`], [`Outcome`] and
//! [`Note`] (and each of its variants with fields) are
//! `#[non_exhaustive]`, so a new field, outcome or note is not a breaking
//! change. Read their fields, match them with a `_` arm (or `..` in a
//! variant's fields); the types their fields hold ([`Measurement`],
//! [`SamplerConfig`], [`Nanos`], ...) are re-exported at the crate root.

pub(crate) mod against;
pub(crate) mod comparison;
mod notes;

use bench_runtime::{Measurement, Nanos, SamplerConfig, StopReason, Throughput, TimerPrecision};

use crate::analysis::compare::{Comparison, PairedComparison};
use crate::analysis::{self, outliers::Outliers, BlockEstimate, Body, Overhead, Summary};
use crate::instruments::{self, AllocRates, Evidence, Extras, SliceEvidence};
use crate::settings::Schedule;
pub(crate) use notes::differs_alone;
use notes::{cold_after_pause, notes, shared_arena, variation, Levels, LOW_CPU_RATIO};

pub use crate::failure::Failure;
pub use crate::settings::BytesUnit;
pub(crate) use notes::HIGH_CV;
pub use notes::{Missed, Note};

/// What the headline time ([`Measured::headline`]) is, in the words every
/// human-facing output uses: the one definition of the method sentence's
/// core, which the terminal, Markdown and HTML reports build on.
pub(crate) const HEADLINE_METHOD: &str =
    "mean cost of a call over the slices the machine did not disturb";

/// Facts about the whole run and the method in force, printed in the header.
#[derive(Debug, Clone)]
pub(crate) struct RunInfo {
    pub harness_version: &'static str,
    pub clock_name: &'static str,
    pub clock_hz: f64,
    pub precision: TimerPrecision,
    /// The shortest sample the timer allows (1,000 resolutions, 100 read pairs).
    pub sample_floor: Nanos,
    /// The timing loop's cost, subtracted from every sample.
    pub overhead: Overhead,
    pub schedule: Schedule,
    /// `--cold`: the caches were evicted before each sample.
    pub cold: bool,
    /// Target relative half-width of the headline's 95% CI; 0 = time budget.
    pub target_precision: f64,
    /// Seed of the interleaved shuffles (`--seed` repeats the order).
    pub seed: u64,
    /// Interrupted (Ctrl-C): benchmarks stopped early or are missing.
    pub partial: bool,
    /// `--forks N`: each benchmark was measured in N processes.
    pub forks: Option<usize>,
}

/// One benchmark's line in the report.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct BenchResult {
    /// The name users see and filter on: the module path below the crate
    /// root, the function, its type and its argument (`kernels::sort/1000`).
    pub name: String,
    /// Where the row sits in the report's tree, below its group: the module
    /// path, the function, its type and its argument, e.g. `["kernels",
    /// "sort", "1000"]` for `kernels::sort/1000`.
    pub path: Vec<String>,
    /// `#[benchmark(group = "...")]`.
    pub group: Option<String>,
    /// Work per iteration: `Bencher::throughput`, else the attribute's.
    pub throughput: Option<Throughput>,
    /// How its byte rate is printed: `--bytes-unit`, else the attribute's,
    /// group's or file's `bytes_unit`.
    pub bytes_unit: BytesUnit,
    /// The `types` type, as written.
    pub type_name: Option<String>,
    /// The `args` value's name.
    pub arg: Option<String>,
    /// Whether it was measured, ran once, failed or was skipped.
    pub outcome: Outcome,
    /// Against `--baseline`, when one was given and this was measured.
    pub(crate) comparison: Option<Compared>,
}

/// A growth class fitted over one function's `args` (`complexity`).
#[derive(Debug, Clone)]
pub(crate) struct ComplexityReport {
    /// The function's name without an argument: `sort` for `sort/1000`.
    pub function: String,
    /// Its tree path (as [`BenchResult::path`] without the argument).
    pub path: Vec<String>,
    pub group: Option<String>,
    /// The argument and headline (ns) of each measured benchmark.
    pub points: Vec<(f64, f64)>,
    /// The best fit, or why there is none.
    pub fit: Result<crate::analysis::complexity::Fit, String>,
}

impl ComplexityReport {
    /// Fits the measured benchmarks among `results` whose names are
    /// `function/ARG` with a numeric argument.
    pub(crate) fn fit(function: &str, results: &[BenchResult]) -> Option<ComplexityReport> {
        let members: Vec<&BenchResult> = results
            .iter()
            .filter(|r| {
                r.arg
                    .as_ref()
                    .is_some_and(|arg| r.name == format!("{function}/{arg}"))
            })
            .collect();
        let first = members.first()?;
        let points: Vec<(f64, f64)> = members
            .iter()
            .filter_map(|r| {
                let n = r.arg.as_deref()?.parse::<f64>().ok()?;
                Some((n, r.measured()?.headline()))
            })
            .collect();
        let fit = crate::analysis::complexity::fit(&points).map_err(|e| e.to_string());
        Some(ComplexityReport {
            function: function.to_string(),
            path: first.path[..first.path.len().saturating_sub(1)].to_vec(),
            group: first.group.clone(),
            points,
            fit,
        })
    }
}

/// A benchmark's standing against the baseline.
#[derive(Debug, Clone)]
pub(crate) enum Compared {
    /// Measured in both runs.
    Against(Comparison),
    /// Not in the baseline, or not measured there (failed, ignored).
    New,
}

/// An in-run A/B comparison: each member against the group's baseline,
/// from samples paired round by round.
#[derive(Debug, Clone)]
pub(crate) struct GroupReport {
    pub group: String,
    /// The member marked `baseline`.
    pub baseline: String,
    /// The other members, each with its paired comparison or why there is
    /// none (a failure, no rounds in common with the baseline).
    pub members: Vec<(String, Result<PairedComparison, String>)>,
}

impl BenchResult {
    /// A result with no group, throughput nor comparison, its tree path
    /// the name's `::` segments.
    pub(crate) fn new(name: impl Into<String>, outcome: Outcome) -> BenchResult {
        let name = name.into();
        BenchResult {
            path: name.split("::").map(str::to_string).collect(),
            name,
            group: None,
            throughput: None,
            bytes_unit: BytesUnit::Decimal,
            type_name: None,
            arg: None,
            outcome,
            comparison: None,
        }
    }

    /// Work per second at the headline time, when the work per iteration
    /// is known.
    pub fn rate(&self) -> Option<(Throughput, f64)> {
        let throughput = self.throughput?;
        let headline = self.measured()?.headline();
        let work = match throughput {
            Throughput::Bytes(n) | Throughput::Items(n) => n as f64,
        };
        (headline > 0.0 && work > 0.0).then(|| (throughput, work / (headline * 1e-9)))
    }

    /// The measurement, when there is one.
    pub fn measured(&self) -> Option<&Measured> {
        match &self.outcome {
            Outcome::Measured(measured) => Some(measured),
            _ => None,
        }
    }
}

/// What became of a benchmark in this run.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Outcome {
    /// Measured under `cargo bench`.
    Measured(Box<Measured>),
    /// Ran once under `cargo test --benches`.
    Passed,
    /// Panicked (in its set-up, its routine or its `args`), or returned
    /// without calling `Bencher::iter`: nothing was measured.
    Failed(Failure),
    /// Marked `#[benchmark(ignore)]` and not brought back by `--ignored` or
    /// `--include-ignored`: listed, not run.
    Ignored,
}

/// A measured benchmark: the raw samples stay next to their analysis.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Measured {
    /// The raw samples (iterations and elapsed time as the clock read them),
    /// where each slice starts, why sampling stopped, and the warm-up.
    pub measurement: Measurement,
    /// The sampler's settings: the attribute's, overridden by the command
    /// line's, with the defaults filled in.
    pub config: SamplerConfig,
    /// What was timed, as it was read: a benchmark's body, or one of the
    /// harness's own kernels ([`Measured::analyse_as`]).
    pub(crate) body: Body,
    /// What was subtracted from every sample.
    pub(crate) overhead: Overhead,
    /// Nanoseconds per iteration of each sample with the overhead taken out,
    /// in the order taken.
    pub per_iter: Vec<f64>,
    /// The headline: the mean cost of a call over the blocks of `per_iter`
    /// the machine did not disturb, with its 95% interval (see
    /// `analysis::block_estimate`).
    pub(crate) estimate: BlockEstimate,
    /// What relative figures (±, spread) are relative to: the headline, or
    /// the loop's own cost per iteration when the body is cheaper than that,
    /// so they stay meaningful for a body that costs almost nothing.
    pub reference: f64,
    /// Over all of `per_iter` pooled: median, mean, spread, percentiles.
    pub(crate) summary: Summary,
    /// Tukey-fence and 3σ counts over `per_iter`.
    pub(crate) outliers: Outliers,
    /// Over `per_iter` within the inner (1.5 IQR) fences; `None` when no
    /// sample lies outside them.
    pub(crate) filtered: Option<Summary>,
    /// The half-width of the headline's 95% CI relative to `reference`;
    /// `None` without an interval (fewer than two blocks of samples).
    pub precision: Option<f64>,
    /// Standard deviation within slices (the machine's speed changes between
    /// slices taken out, outliers excluded), each value relative to its own
    /// slice's median.
    pub within_slice_spread: f64,
    /// The standard deviation of the slice medians relative to `reference`:
    /// how much the machine's speed changed while measuring. `None` with
    /// fewer than three slices or fewer than five samples a slice.
    pub drift: Option<f64>,
    /// Things the reader must know to trust (or distrust) the figures.
    pub notes: Vec<Note>,
    /// Counters, allocations, CPU time and the CPUs it ran on.
    pub(crate) extras: Extras,
    /// What the harness itself allocates per sample, subtracted from
    /// [`Extras::allocations`].
    pub(crate) harness_allocations: AllocRates,
    /// Under `--forks`: how the processes' estimates spread.
    pub(crate) forks: Option<ForkSpread>,
    /// The relative 95% half-width by which a rerun's headline may differ
    /// from this one, from the benchmark's own recent runs of the same code
    /// (`history::rerun_half_width`); the table's rerun figure combines it
    /// with this run's ±. `None` where the history has fewer than 3 such
    /// runs or the run writes none.
    pub(crate) rerun: Option<f64>,
}

/// How much a benchmark's time depends on the process it ran in
/// (`--forks`): the processes' estimates against the spread within them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ForkSpread {
    /// Each process's headline, in the order they ran.
    pub process_estimates: Vec<f64>,
    /// Each process's own loop overhead, subtracted from its samples.
    pub process_overheads: Vec<Overhead>,
    /// Where each process's samples begin in the pooled samples.
    pub process_sample_starts: Vec<usize>,
    /// The standard deviation of `process_estimates`, relative to the
    /// pooled headline's reference; 0 with one process.
    pub between: f64,
    /// The standard deviation of the block medians within a process
    /// (pooled over processes), relative to the same reference: how much a
    /// process's own slices vary, what `between` is weighed against.
    pub within: f64,
    /// Cochran's Q test of the processes' headlines against their own
    /// intervals: the probability of processes differing this much if only
    /// their own measurement error varied. `None` with one process, or a
    /// process without an interval.
    pub p_value: Option<f64>,
    /// The 95% Student-t interval over `process_estimates`; `None` with one
    /// process.
    pub interval: Option<analysis::Interval>,
}

/// Below this p-value the processes are said to differ (`--forks`).
pub(crate) const PROCESS_EFFECT_P: f64 = 0.05;

/// Processes that differ get a note when their estimates spread by more
/// than this (CV): smaller differences widen the interval but change no
/// conclusion.
const PROCESS_NOTE_SPREAD: f64 = 0.01;

impl ForkSpread {
    fn of(processes: &[Measured], reference: f64) -> ForkSpread {
        let estimates: Vec<f64> = processes.iter().map(Measured::headline).collect();
        let summary = analysis::summarize(&estimates);
        let (mean, sd) = summary.map_or((0.0, 0.0), |s| (s.mean, s.std_dev));
        let blocks: Vec<&[f64]> = processes
            .iter()
            .map(|m| m.estimate.block_means.as_slice())
            .collect();
        let anova = analysis::one_way_anova(&blocks);
        // Each process's standard error from its own dependence-aware
        // interval: the blocks of one process are not independent, so an
        // ANOVA over them flags identical processes far more often than 5%.
        let standard_error = |m: &Measured| -> Option<f64> {
            let half_width = m.estimate.half_width()?;
            let effective = m.estimate.dependence.map_or(2.0, |d| d.effective_size);
            let t = analysis::students_t_quantile(0.975, (effective - 1.0).max(1.0));
            Some(half_width / t)
        };
        let with_errors: Option<Vec<(f64, f64)>> = processes
            .iter()
            .map(|m| Some((m.headline(), standard_error(m)?)))
            .collect();
        let mut process_sample_starts = Vec::with_capacity(processes.len());
        let mut start = 0;
        for m in processes {
            process_sample_starts.push(start);
            start += m.measurement.samples.len();
        }
        ForkSpread {
            process_overheads: processes.iter().map(|m| m.overhead).collect(),
            process_sample_starts,
            between: if estimates.len() > 1 {
                sd / reference
            } else {
                0.0
            },
            within: anova.map_or(0.0, |a| a.within_sd / reference),
            p_value: with_errors.and_then(|e| analysis::cochran_q_p_value(&e)),
            interval: analysis::mean_interval(mean, sd, estimates.len()),
            process_estimates: estimates,
        }
    }

    /// Whether the processes differ by more than chance (p below
    /// [`PROCESS_EFFECT_P`]).
    pub(crate) fn process_effect(&self) -> bool {
        self.p_value.is_some_and(|p| p < PROCESS_EFFECT_P)
    }
}

/// The processes whose speed probe ran at the machine's fast level: those
/// whose own fast level is within [`analysis::PROBE_SLOWER`] of the
/// fastest process's (unprobed ones count as fast); all of them unless
/// they are more than half, and two or more. (On a machine slow most of the
/// time the probe marked 4 of 6 processes slow; the two left differed by
/// 50%, and a Student-t interval over two, t = 12.7, put a 4× regression
/// at `unclear, up to +9720%`.)
fn undisturbed_processes(processes: &[Measured]) -> Vec<Measured> {
    let levels: Vec<Option<f64>> = processes
        .iter()
        .map(|p| instruments::probe_level(p.extras.slices.iter()))
        .collect();
    let fastest = levels
        .iter()
        .flatten()
        .fold(f64::INFINITY, |a, &b| a.min(b));
    let fast = |level: &Option<f64>| {
        level.is_none_or(|level| level <= fastest * (1.0 + analysis::PROBE_SLOWER))
    };
    let kept: Vec<Measured> = (processes.iter().zip(&levels))
        .filter(|(_, level)| fast(level))
        .map(|(p, _)| p.clone())
        .collect();
    if kept.len() >= 2 && 2 * kept.len() > processes.len() {
        kept
    } else {
        processes.to_vec()
    }
}

/// The stop reason a pooled measurement reports: the most telling of its
/// processes' (an interrupt, then the hard bound, then the sample cap);
/// [`Measured::pool`] may then turn `Precise` into `ProcessCap`.
fn pooled_stop(stops: impl Iterator<Item = StopReason>) -> StopReason {
    let rank = |stop: &StopReason| match stop {
        StopReason::Abandoned => 5,
        StopReason::MaxTime => 4,
        StopReason::SampleCap => 3,
        StopReason::TimeBudget => 2,
        StopReason::ProcessCap => 1,
        StopReason::Precise => 0,
    };
    stops.max_by_key(rank).unwrap_or(StopReason::Precise)
}

fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}

/// What the analysis needs besides the samples.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context {
    pub(crate) overhead: Overhead,
    pub(crate) timer: TimerPrecision,
    /// The speed probe's fast level over the whole run (every benchmark's
    /// slices), what each block's probe is judged against; `None` when
    /// nothing was probed.
    pub(crate) probe_level: Option<f64>,
}

impl Measured {
    /// The analysis of `measurement`, its blocks judged by the machine's
    /// `evidence` beside its slices (none: every block counts).
    pub(crate) fn analyse(
        measurement: Measurement,
        config: SamplerConfig,
        context: &Context,
        evidence: Evidence<'_>,
    ) -> Measured {
        Measured::analyse_as(Body::Program, measurement, config, context, evidence)
    }

    /// [`Measured::analyse`] of a measurement of `body`: the harness's own
    /// kernels (the empty loop, the machine reference) are read as
    /// [`Body::Stateless`], as the overhead is, so that the loop's row shows
    /// what every row had taken out.
    pub(crate) fn analyse_as(
        body: Body,
        measurement: Measurement,
        config: SamplerConfig,
        context: &Context,
        evidence: Evidence<'_>,
    ) -> Measured {
        let overhead = context.overhead;
        let per_iter: Vec<f64> = measurement
            .samples
            .iter()
            .map(|s| overhead.corrected_per_iter(s))
            .collect();
        Measured::of_per_iter(body, measurement, per_iter, config, context, evidence)
    }

    /// One benchmark measured in several processes (`--forks`), as one:
    /// their samples pooled, each process's blocks kept as blocks (for the
    /// summaries and comparisons). Each process's own loop overhead has
    /// already been taken out of its `per_iter`.
    ///
    /// With two processes or more the headline is the mean of the processes'
    /// estimates, each process counting once, and its interval the wider of
    /// the Student-t interval over those estimates and the one over all
    /// blocks: blocks of one process share its memory layout and its
    /// stretch of machine time, so they are not independent draws. A
    /// one-way analysis of variance of the block medians by process says
    /// whether the processes differ (p < [`PROCESS_EFFECT_P`]); a note says
    /// so when they differ by more than 1%.
    pub(crate) fn pool(processes: Vec<Measured>, context: &Context) -> Measured {
        let overhead = Overhead::mean(processes.iter().map(|m| m.overhead))
            .expect("a forked benchmark ran in at least one process");
        let config = processes[0].config.clone();
        let mut measurement = Measurement {
            samples: Vec::new(),
            stop: pooled_stop(processes.iter().map(|m| m.measurement.stop)),
            warm_up: bench_runtime::WarmUp {
                steady: true,
                ..Default::default()
            },
            rewarm_samples: 0,
            setup_time: Nanos::ZERO,
            slice_starts: Vec::new(),
            total_time: Nanos::ZERO,
            wall_capped: false,
        };
        let mut per_iter = Vec::new();
        let mut extras = Extras::default();
        // Each process's probe against its own fast level: the pooled
        // evidence is relative, its level 1. The readings themselves, in
        // ns, are what the pooled row keeps (`absolute`).
        let (mut evidence, mut absolute, mut preempted) = (Vec::new(), Vec::new(), Vec::new());
        for process in &processes {
            let m = &process.measurement;
            let offset = per_iter.len();
            let level = instruments::probe_level(process.extras.slices.iter());
            evidence.extend(process.extras.slices.iter().map(|s| SliceEvidence {
                first_sample: s.first_sample + offset,
                probe: level.map_or(1.0, |level| s.probe / level),
                ..*s
            }));
            absolute.extend(process.extras.slices.iter().map(|s| SliceEvidence {
                first_sample: s.first_sample + offset,
                ..*s
            }));
            preempted.extend(process.extras.preempted.iter().map(|i| i + offset));
            if let Some(rounds) = &process.extras.rounds {
                let shifted = rounds
                    .iter()
                    .map(|r| r.as_ref().map(|r| r.start + offset..r.end + offset));
                extras.rounds.get_or_insert_with(Vec::new).extend(shifted);
            }
            measurement.slice_starts.extend(
                analysis::block_starts(process.per_iter.len(), &m.slice_starts)
                    .into_iter()
                    .map(|start| start + offset),
            );
            measurement.samples.extend_from_slice(&m.samples);
            per_iter.extend_from_slice(&process.per_iter);
            let warm_up = &mut measurement.warm_up;
            warm_up.time += m.warm_up.time;
            warm_up.samples += m.warm_up.samples;
            warm_up.steady &= m.warm_up.steady;
            warm_up.final_cv = match (warm_up.final_cv, m.warm_up.final_cv) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            measurement.rewarm_samples += m.rewarm_samples;
            measurement.setup_time += m.setup_time;
            measurement.total_time += m.total_time;
            measurement.wall_capped |= m.wall_capped;
            extras.add(&process.extras);
        }
        let context = Context {
            overhead,
            probe_level: Some(1.0),
            ..*context
        };
        let evidence_slices = evidence;
        let evidence = Evidence {
            slices: &evidence_slices,
            preempted: &preempted,
        };
        // Read as each process read it: the harness's own kernels pooled
        // are as stateless as each process's.
        let mut pooled = Measured::of_per_iter(
            processes[0].body,
            measurement,
            per_iter,
            config,
            &context,
            evidence,
        );
        let mut spread = ForkSpread::of(&processes, pooled.reference);
        // The processes the headline rests on: not one the machine slowed
        // throughout (its speed probe's fast level more than
        // `PROBE_SLOWER` above the fastest process's: a process that ran
        // its whole life on the slower vCPU read sort_1k at 14.1 µs where
        // the others read 8.7 µs), as long as two are left.
        let judged = undisturbed_processes(&processes);
        let judged_spread = ForkSpread::of(&judged, pooled.reference);
        // Whether the processes' own intervals, not their differences, made
        // the pooled one.
        let mut own_wider = false;
        if let Some(between) = judged_spread.interval {
            // Each process counts once, however many slices its stop rule
            // took; the interval is the wider of the one over the
            // processes' times and the one their own intervals give the
            // mean of N independent processes, √(Σ hᵢ²) / N. (The pooled
            // blocks are no time series: one process's blocks after
            // another's would read as persistence.)
            let estimate = &mut pooled.estimate;
            // The time is the judged processes' mean: it rests on page
            // faults where one of theirs does.
            estimate.by_faults = judged.iter().any(|p| p.estimate.by_faults);
            let half = |ci: analysis::Interval| (ci.upper - ci.lower) / 2.0;
            let within = judged
                .iter()
                .map(|p| p.estimate.half_width().unwrap_or(0.0).powi(2))
                .sum::<f64>()
                .sqrt()
                / judged.len() as f64;
            own_wider = within > half(between);
            let half = half(between).max(within);
            estimate.estimate = (between.upper + between.lower) / 2.0;
            estimate.interval = Some(analysis::Interval {
                lower: estimate.estimate - half,
                upper: estimate.estimate + half,
                ..between
            });
            pooled.reference = overhead.reference(estimate.estimate);
            pooled.precision = estimate.half_width_relative_to(pooled.reference);
            // The spreads are relative to the reference: to the one just
            // set, not to the pooled blocks' (they differ when processes do).
            spread = ForkSpread::of(&processes, pooled.reference);
        }
        // The notes that name the program's own variation (two levels, a
        // cost that moved between slices) read the pooled blocks, where the
        // processes' differences look the same: one process 3× slower
        // throughout read as "24% of calls at 16.69 ns, 76% at 43.25 ns ...
        // the program's own cost". Such a note stands only where some
        // process shows it on its own; the processes-differ note says the
        // rest. Two levels stand where some process shows the same two:
        // each level within the levels' own apartness of the pooled one,
        // and its share within 0.1. One process at 10 and 19 ns beside one
        // at 35 ns throughout pooled as 10 and 33.7 ns; one at 10 and 19 ns
        // (75% and 25%) beside one at 10 and one at 19 ns throughout, as
        // 58% and 42%.
        let programs = |n: &Note| matches!(n, Note::Levels { .. } | Note::SpeedChanged { .. });
        let near = |a: Nanos, b: Nanos| a.0.max(b.0) < analysis::levels::APART * a.0.min(b.0);
        let shown_alone = |n: &Note| {
            let kind = n.kind();
            let alike = |q: &Note| match (n, q) {
                (
                    Note::Levels {
                        fast,
                        slow,
                        fast_share,
                        ..
                    },
                    Note::Levels {
                        fast: f,
                        slow: s,
                        fast_share: share,
                        ..
                    },
                ) => near(*fast, *f) && near(*slow, *s) && (fast_share - share).abs() <= 0.1,
                _ => q.kind() == kind,
            };
            processes.iter().any(|p| p.notes.iter().any(alike))
        };
        let is_levels = |n: &Note| matches!(n, Note::Levels { .. });
        let had_levels = pooled.notes.iter().any(is_levels);
        pooled.notes.retain(|n| !programs(n) || shown_alone(n));
        if had_levels && !pooled.notes.iter().any(is_levels) {
            // The levels stood for the spread, drift and modes of the pooled
            // samples: with them gone, those are said as the samples show
            // them, by the same rule (a drift only where some process
            // drifted on its own). Before, such a row had none of them.
            let slices = &pooled.measurement.slice_starts;
            let within = analysis::within_block(&pooled.per_iter, slices, pooled.estimate.estimate);
            let unnamed = variation(&pooled, &within, &context, &preempted, Levels::Unnamed);
            (pooled.notes).extend(
                unnamed
                    .into_iter()
                    .filter(|n| !programs(n) || shown_alone(n)),
            );
        }
        // The time over processes is the mean of their own: the note
        // compares the levels with that one.
        let steady = judged.iter().all(|p| p.estimate.steady);
        let headline = notes::printed_time(&pooled.estimate);
        for note in &mut pooled.notes {
            if let Note::Levels {
                time, steady: s, ..
            } = note
            {
                (*time, *s) = (headline, steady);
            }
        }
        // A note quotes one process's set-up, not their sum, and the
        // processes that each paid it out of their share of --max-time.
        for note in &mut pooled.notes {
            if let Note::FewSamples {
                setup,
                processes: n,
                ..
            } = note
            {
                *setup = *setup / processes.len() as f64;
                *n = processes.len();
            }
        }
        // Each process may have met its share of the precision target
        // alone while the interval over them did not: because they differ,
        // or because their own intervals read wider once their whole run
        // was analysed (then more processes are not the remedy). Either
        // way the row must not say `precise` beside a wider ±. The pooled
        // blocks' own verdict on widening is not this interval's. A process
        // that ran out of --max-time makes the row's stop `max-time`; its
        // note quotes the interval over the processes, the one printed, and
        // goes when that one met the target anyway.
        let precision = pooled.precision;
        pooled.notes.retain_mut(|note| match note {
            Note::NotPrecise {
                missed: Missed::Widened(_),
                ..
            } => false,
            Note::NotPrecise {
                missed: Missed::MaxTime,
                achieved,
                target,
                ..
            } => {
                *achieved = precision;
                precision.is_none_or(|p| p > *target)
            }
            _ => true,
        });
        // Near the loop's cost by the interval printed, the one over the
        // processes, not by the pooled blocks'.
        let near = |n: &Note| matches!(n, Note::NearOverhead { .. });
        match (
            pooled.notes.iter().position(near),
            notes::near_overhead(&pooled),
        ) {
            (Some(i), Some(note)) => pooled.notes[i] = note,
            (Some(i), None) => drop(pooled.notes.remove(i)),
            (None, note) => pooled.notes.extend(note),
        }
        let target = pooled.config.stop_rule.precision_target();
        if let (StopReason::Precise, Some(target)) = (pooled.measurement.stop, target) {
            if pooled.precision.is_none_or(|p| p > target) {
                let missed = if own_wider {
                    Missed::Widened(Some(processes.len()))
                } else {
                    Missed::ProcessesDiffer(processes.len())
                };
                pooled.measurement.stop = StopReason::ProcessCap;
                pooled.notes.push(Note::NotPrecise {
                    max_time: pooled.config.max_time,
                    achieved: pooled.precision,
                    target,
                    missed,
                });
            }
        }
        if spread.process_effect() && spread.between > PROCESS_NOTE_SPREAD {
            let (low, high) = min_max(spread.process_estimates.iter().copied());
            pooled.notes.push(Note::ProcessesDiffer {
                processes: processes.len(),
                fastest: Nanos(low),
                slowest: Nanos(high),
                spread: spread.between,
            });
        }
        // The pooled samples' evidence, for what reads it after the
        // headline (the A/B groups' slice medians, the document): the
        // probe's readings as each process took them, so that a baseline's
        // processes are judged again against their own levels, and the one
        // the machine slowed throughout is left out of its headline again.
        // (Relative readings made every process's level 1, and the
        // comparison's baseline kept such a process: an A/A change of 0.12
        // points against its printed times here.)
        extras.preempted = preempted;
        extras.slices = absolute;
        pooled.attach(extras, AllocRates::default());
        pooled.forks = Some(spread);
        pooled
    }

    /// The analysis of `per_iter`, the overhead-corrected time per
    /// iteration of each of `measurement`'s samples.
    fn of_per_iter(
        body: Body,
        measurement: Measurement,
        per_iter: Vec<f64>,
        config: SamplerConfig,
        context: &Context,
        evidence: Evidence<'_>,
    ) -> Measured {
        let overhead = context.overhead;
        let slices = &measurement.slice_starts;
        let no_samples = "a finished sampler has recorded at least one sample";
        let iters: Vec<u64> = measurement.samples.iter().map(|s| s.iters).collect();
        let judge = |start, end| evidence.block(context.probe_level, start, end);
        let preempted = evidence.preempted;
        let offset = overhead.per_iter.0;
        let estimate =
            analysis::block_estimate(body, &per_iter, &iters, preempted, slices, offset, &judge)
                .expect(no_samples)
                .with_subtracted_uncertainty(overhead.per_iter_uncertainty.0);
        let reference = overhead.reference(estimate.estimate);
        let summary = analysis::summarize(&per_iter).expect(no_samples);
        let outliers = analysis::outliers::classify(&per_iter);
        let filtered = (outliers.tukey_total() > 0)
            .then(|| analysis::outliers::without_outliers(&per_iter, &outliers.fences))
            .and_then(|kept| analysis::summarize(&kept));
        let precision = estimate.half_width_relative_to(reference);
        let within = analysis::within_block(&per_iter, slices, estimate.estimate);
        let within_slice_spread = within_spread(&per_iter, slices, &overhead, reference);
        let drift = (median_slice_len(&measurement) >= MIN_SLICE_SAMPLES)
            .then(|| drift(&estimate, reference))
            .flatten();
        let mut result = Measured {
            measurement,
            config,
            body,
            overhead,
            per_iter,
            estimate,
            reference,
            summary,
            outliers,
            filtered,
            precision,
            within_slice_spread,
            drift,
            notes: Vec::new(),
            extras: Extras::default(),
            harness_allocations: AllocRates::default(),
            forks: None,
            rerun: None,
        };
        result.notes = notes(&result, &within, context, preempted);
        result
    }

    /// Adds what the instruments measured, and the notes about it.
    pub(crate) fn attach(&mut self, extras: Extras, harness_allocations: AllocRates) {
        if let Some(ratio) = extras.cpu_ratio().filter(|&r| r < LOW_CPU_RATIO) {
            self.notes.push(Note::LowCpu { share: ratio });
        }
        let one_arena = bench_runtime::heap::one_arena();
        self.notes.extend(shared_arena(&extras, one_arena));
        let samples = &self.measurement.samples;
        self.notes
            .extend(cold_after_pause(&self.per_iter, samples, &extras));
        self.extras = extras;
        self.harness_allocations = harness_allocations;
    }

    /// Allocations per iteration, the harness's own taken out; `None` when
    /// `CountingAlloc` is not the global allocator.
    pub(crate) fn allocations(&self) -> Option<AllocRates> {
        self.extras
            .allocations_per_iteration(self.harness_allocations)
    }

    /// Whether the headline's interval can be trusted as printed: not when
    /// the machine's evidence marks three quarters of the blocks or more as
    /// disturbed (what is left rests on few blocks, or on disturbed ones) or
    /// the kept blocks are worth fewer than three independent ones.
    pub fn reliable(&self) -> bool {
        let blocks = self.estimate.block_means.len();
        let kept = self.estimate.kept_blocks;
        let effective = self
            .estimate
            .dependence
            .map_or(kept as f64, |d| d.effective_size);
        blocks < 4 || (!self.estimate.kept_all_disturbed && 4 * kept >= blocks && effective >= 3.0)
    }

    /// Its time interleaved with the others, when its slices cooled
    /// between them and it was measured again in one stretch: the
    /// figures are then that second pass's.
    pub(crate) fn timed_again(&self) -> Option<Nanos> {
        self.notes.iter().find_map(|n| match n {
            Note::ColdAfterPause { interleaved, .. } => *interleaved,
            _ => None,
        })
    }

    /// The headline estimate, in nanoseconds per iteration: the mean cost
    /// of a call over the blocks the machine did not disturb, overhead
    /// subtracted. Comparisons and ratios use this figure.
    pub fn headline(&self) -> f64 {
        self.estimate.estimate
    }

    /// A summary's standard deviation relative to [`Measured::reference`].
    pub(crate) fn spread(&self, summary: &Summary) -> f64 {
        summary.std_dev / self.reference
    }

    /// The headline as a comparison takes it: with its interval, the
    /// degrees of freedom that was drawn at, the loop's resolution and the
    /// clock's (`clock`, ns) over a typical sample's iterations.
    pub(crate) fn comparable(&self, clock: f64) -> analysis::compare::Headline {
        analysis::compare::Headline {
            time: self.headline(),
            half_width: self.estimate.half_width(),
            df: self
                .estimate
                .dependence
                .map_or(f64::INFINITY, |d| (d.effective_size - 1.0).max(1.0)),
            resolution: self.overhead.resolution().0,
            quantum: clock / self.median_iters(),
        }
    }

    /// The median number of iterations of the samples, at least 1.
    pub(crate) fn median_iters(&self) -> f64 {
        let mut iters: Vec<u64> = self.measurement.samples.iter().map(|s| s.iters).collect();
        iters.sort_unstable();
        iters.get(iters.len() / 2).map_or(1.0, |&i| i.max(1) as f64)
    }

    /// Iterations over all recorded samples.
    pub fn total_iters(&self) -> u64 {
        self.measurement.samples.iter().map(|s| s.iters).sum()
    }
}

/// The spread of `per_iter` within its slices: each value less its
/// slice's median, relative to that median, outliers of those (Tukey)
/// left out, their standard deviation. Relative slice by slice, so that
/// processes pooled at different levels (10, 10 and 30 ns, each spreading
/// 8%) read 8%, not 9.2% of the pool's estimate. A slice whose median is
/// below a tenth of the row's `reference` (at or below zero: an empty
/// body's, the loop's cost over-subtracted) is no scale for its spread,
/// and is relative to `reference` instead.
fn within_spread(per_iter: &[f64], slices: &[usize], overhead: &Overhead, reference: f64) -> f64 {
    let scale = |median: f64| {
        if median >= 0.1 * reference {
            overhead.reference(median)
        } else {
            reference
        }
    };
    let relative = analysis::within_block_relative(per_iter, slices, scale);
    let fences = analysis::outliers::classify(&relative).fences;
    let kept = analysis::outliers::without_outliers(&relative, &fences);
    analysis::summarize(&kept).map_or(0.0, |s| s.std_dev)
}

fn sorted(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values
}

/// Slices with fewer samples than this (median) get no slice-based notes.
pub(crate) const MIN_SLICE_SAMPLES: usize = 5;

/// The median number of samples per slice.
pub(crate) fn median_slice_len(measurement: &Measurement) -> usize {
    let n = measurement.samples.len();
    let starts = &measurement.slice_starts;
    let mut lengths: Vec<usize> = if starts.len() >= 2 {
        starts
            .iter()
            .zip(starts.iter().skip(1).chain([&n]))
            .map(|(a, b)| b.saturating_sub(*a))
            .collect()
    } else {
        vec![n / analysis::BLOCKS_IN_ONE_GO.min(n.max(1))]
    };
    lengths.sort_unstable();
    lengths[lengths.len() / 2]
}

/// The standard deviation of the kept blocks' means, relative to
/// `reference`.
fn drift(estimate: &BlockEstimate, reference: f64) -> Option<f64> {
    (estimate.kept_blocks >= 3).then(|| estimate.std_dev / reference)
}

#[cfg(test)]
mod tests;
