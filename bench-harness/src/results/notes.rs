//! What a reader must know to trust (or distrust) a measurement: the
//! [`Note`]s, and the rules and thresholds that raise them. The reporter
//! words each note (`report/notes.rs`).

use bench_runtime::counter::Event;
use bench_runtime::{Measurement, Nanos, StopReason};

use super::{median_slice_len, min_max, sorted, Context, Measured, MIN_SLICE_SAMPLES};
use crate::analysis::{self, modality};

/// Something the reader must know to trust (or distrust) a benchmark's
/// figures, with the numbers it rests on. `Display` words it, with what to
/// do about it, as the report prints it (`report/notes.rs`); [`Note::kind`]
/// names it for outputs that group or count notes.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Note {
    /// `--max-time` stopped sampling before `min_samples` samples; one
    /// iteration took `iteration`.
    #[non_exhaustive]
    FewSamples {
        /// The bound in force.
        max_time: Nanos,
        /// The samples recorded before it.
        samples: usize,
        /// The samples asked for.
        min_samples: usize,
        /// The time of one iteration.
        iteration: Nanos,
        /// The benchmark's set-up before its samples (in one process),
        /// which counts against `max_time`.
        setup: Nanos,
    },
    /// `--max-time` ended the run before `--measure-time` was spent.
    #[non_exhaustive]
    BudgetUnspent {
        /// The bound in force.
        max_time: Nanos,
        /// The measuring time asked for.
        measure_time: Nanos,
    },
    /// The headline's relative half-width (`achieved`, when there is an
    /// interval) did not reach `target`, for the reason `missed` gives.
    #[non_exhaustive]
    NotPrecise {
        /// The bound in force.
        max_time: Nanos,
        /// The relative half-width reached, if any.
        achieved: Option<f64>,
        /// The relative half-width asked for (`--precision`).
        target: f64,
        /// Why.
        missed: Missed,
    },
    /// The loop overhead's own uncertainty is most of the headline's
    /// interval: the body costs about as little as the harness resolves.
    #[non_exhaustive]
    NearOverhead {
        /// The overhead's 95% half-width per iteration.
        uncertainty: Nanos,
        /// The headline's relative half-width, overhead included.
        achieved: Option<f64>,
    },
    /// The sample cap stopped sampling before the stop rule was met.
    #[non_exhaustive]
    SampleCap {
        /// The cap.
        max_samples: usize,
    },
    /// One sample: no spread can be estimated.
    OneSample,
    /// The warm-up's rolling coefficient of variation (`final_cv`, `None`
    /// when its `window` never filled) stayed above `threshold`.
    #[non_exhaustive]
    WarmUpUnsettled {
        /// The warm-up's cap (`--warm-up-time`).
        warm_up_time: Nanos,
        /// The last coefficient of variation over the window.
        final_cv: Option<f64>,
        /// The samples in the rolling window (`--warm-up-window`).
        window: usize,
        /// Steady below this coefficient of variation (`--warm-up-cv`).
        threshold: f64,
    },
    /// The median sample lasted under 100 clock read pairs; `wall_cap` is
    /// the cap on a sample's wall time when that is what kept samples short.
    #[non_exhaustive]
    ShortSamples {
        /// The median sample's time.
        median: Nanos,
        /// The cost of one pair of clock reads.
        read_cost: Nanos,
        /// The cap on a sample's wall time, when it was reached.
        wall_cap: Option<Nanos>,
    },
    /// The spread within slices (outliers excluded, relative) is above 5%.
    #[non_exhaustive]
    HighSpread {
        /// That spread, as a fraction.
        spread: f64,
    },
    /// The means of the blocks the machine did not disturb, between
    /// `fastest` and `slowest`, vary by `drift` (relative standard
    /// deviation): the benchmark's own cost changed from slice to slice.
    #[non_exhaustive]
    SpeedChanged {
        /// The fastest block's mean.
        fastest: Nanos,
        /// The slowest block's mean.
        slowest: Nanos,
        /// The block means' relative standard deviation.
        drift: f64,
    },
    /// The program's cost per call sits at two levels (every tenth call
    /// doing more work, phases in and out of the cache): the headline is
    /// their mean, and the row names both.
    #[non_exhaustive]
    Levels {
        /// The faster level's share of the calls.
        fast_share: f64,
        /// Its mean cost per call.
        fast: Nanos,
        /// The slower level's share of the calls.
        slow_share: f64,
        /// Its mean cost per call.
        slow: Nanos,
    },
    /// The machine's evidence marked so many of the blocks as disturbed
    /// (its speed probe slow beside them, or the thread descheduled) that
    /// too few were left to stand alone: every block counts, slow spells
    /// included.
    #[non_exhaustive]
    MachineDisturbed {
        /// The blocks marked as disturbed.
        disturbed: usize,
        /// All blocks.
        blocks: usize,
    },
    /// The values within slices look multimodal (Gregg's mvalue).
    #[non_exhaustive]
    Multimodal {
        /// Their mvalue: 2 for one clean mode, up to 2 more per further mode.
        mvalue: f64,
    },
    /// The benchmark's thread was on the CPU for this `share` of wall time.
    #[non_exhaustive]
    LowCpu {
        /// CPU time over wall time, below 0.9.
        share: f64,
    },
    /// Other threads of the process (most often the body's) worked beside
    /// the benchmark's, for this `share` of its CPU time and at least 5%
    /// of its slices' wall time, while every thread takes memory from
    /// glibc's main arena (`bench_runtime::heap`).
    #[non_exhaustive]
    SharedArena {
        /// Their CPU time over the benchmark's thread's, at least 0.1.
        share: f64,
    },
    /// Under `--forks`: the processes' estimates, from `fastest` to
    /// `slowest`, differ by more than their slices explain (`spread`: their
    /// relative standard deviation).
    #[non_exhaustive]
    ProcessesDiffer {
        /// The processes the benchmark ran in.
        processes: usize,
        /// The fastest process's estimate.
        fastest: Nanos,
        /// The slowest process's estimate.
        slowest: Nanos,
        /// The estimates' relative standard deviation.
        spread: f64,
    },
    /// An A/B group member whose time in the group (`ratio` times its
    /// time `alone`) differs from its solo probe's by more than
    /// 10% and more than both intervals explain.
    #[non_exhaustive]
    DiffersAlone {
        /// Its time measured alone, in the same run.
        alone: Nanos,
        /// Its time in the group over its time alone.
        ratio: f64,
        /// Page faults per iteration in the group and alone, when counters
        /// were read.
        page_faults: Option<(f64, f64)>,
    },
}

/// A group member whose time differs from its solo time by more than this
/// share gets a note: the group no longer measures what runs alone.
pub(crate) const GROUP_VS_ALONE: f64 = 0.10;

/// The note for an A/B group member measured `in_group` when its solo
/// probe measured `alone`, if they differ markedly.
pub(crate) fn differs_alone(in_group: &Measured, alone: &Measured) -> Option<Note> {
    let (group_time, alone_time) = (in_group.headline(), alone.headline());
    if group_time <= 0.0 || alone_time <= 0.0 {
        return None;
    }
    let ratio = group_time / alone_time;
    let half = |m: &Measured| m.precision.map_or(0.0, |p| p * m.reference);
    let beyond_intervals = (group_time - alone_time).abs() > half(in_group) + half(alone);
    let page_faults = in_group
        .extras
        .per_iteration(Event::PageFaults)
        .zip(alone.extras.per_iteration(Event::PageFaults));
    ((ratio - 1.0).abs() > GROUP_VS_ALONE && beyond_intervals).then_some(Note::DiffersAlone {
        alone: Nanos(alone_time),
        ratio,
        page_faults,
    })
}

/// Why a precision target was not reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missed {
    /// `--max-time` ran out first.
    MaxTime,
    /// Every one of these processes met its share of the target alone,
    /// and the processes allowed for precision (one more, within
    /// `--max-time`) were all run, but the interval over them, which spans
    /// their differences, did not.
    ProcessesDiffer(usize),
    /// The stop rule found the target met while measuring, with the
    /// evidence of the machine's disturbed slices and the loop overhead
    /// known then; the analysis of the whole run's reads a wider interval.
    /// With the processes pooled, when they agree and it is their own
    /// intervals that widened.
    Widened(Option<usize>),
}

/// A final interval this much wider than the target a stop rule found met
/// is a miss. Less is within the half-width's own sampling error (about
/// 16–24% from the 10–20 blocks a stop is judged on), and changes nothing
/// a reader does.
const WIDENED: f64 = 1.25;

/// Whether `m`, stopped by its precision rule, reads wider than the
/// target in the end.
fn widened(m: &Measured) -> bool {
    let target = m.config.stop_rule.precision_target().unwrap_or(0.0);
    m.measurement.stop == StopReason::Precise
        && target > 0.0
        && m.precision.is_none_or(|p| p > target * WIDENED)
}

impl Note {
    /// The note's kind, stable across versions and wordings: the
    /// document's `note_kinds`.
    pub fn kind(&self) -> &'static str {
        match self {
            Note::FewSamples { .. } => "few_samples",
            Note::BudgetUnspent { .. } => "budget_unspent",
            Note::NotPrecise { .. } => "not_precise",
            Note::NearOverhead { .. } => "near_overhead",
            Note::SampleCap { .. } => "sample_cap",
            Note::OneSample => "one_sample",
            Note::WarmUpUnsettled { .. } => "warm_up_unsettled",
            Note::ShortSamples { .. } => "short_samples",
            Note::HighSpread { .. } => "high_spread",
            Note::SpeedChanged { .. } => "speed_changed",
            Note::Levels { .. } => "levels",
            Note::MachineDisturbed { .. } => "machine_disturbed",
            Note::Multimodal { .. } => "multimodal",
            Note::LowCpu { .. } => "low_cpu",
            Note::SharedArena { .. } => "shared_arena",
            Note::ProcessesDiffer { .. } => "processes_differ",
            Note::DiffersAlone { .. } => "differs_alone",
        }
    }
}

/// Below this share of wall time spent on the CPU, a benchmark is said to
/// have waited.
pub(super) const LOW_CPU_RATIO: f64 = 0.9;

/// From this share of the benchmark's own CPU time, and of its slices'
/// wall time ([`OTHER_THREADS_WALL`]), the process's other threads are said
/// to work beside it: the harness's own are idle while a slice runs
/// (0.1-0.4% of the benchmark's CPU time over the example suite here, in
/// one process and in three).
pub(super) const OTHER_THREADS_SHARE: f64 = 0.1;

/// The other half of the rule: a benchmark that mostly waits has little
/// CPU time of its own, and the progress line's redraws would pass the
/// first half beside it.
pub(super) const OTHER_THREADS_WALL: f64 = 0.05;

/// The note on other threads working beside a benchmark's, when every
/// thread takes memory from one arena (`one_arena`) and they used
/// [`OTHER_THREADS_SHARE`] of its CPU time and [`OTHER_THREADS_WALL`] of
/// its slices' wall time.
pub(super) fn shared_arena(extras: &crate::instruments::Extras, one_arena: bool) -> Option<Note> {
    let (cpu, wall) = extras.other_threads_share()?;
    let busy = cpu >= OTHER_THREADS_SHARE && wall >= OTHER_THREADS_WALL;
    (one_arena && busy).then_some(Note::SharedArena { share: cpu })
}

/// Above this coefficient of variation (within slices, outliers excluded)
/// the spread is reported as high.
pub(crate) const HIGH_CV: f64 = 0.05;

/// Above this one, the benchmark itself gets a note: more than machine noise.
const BENCH_DRIFT: f64 = 0.10;

/// Several modes are only worth a note when the samples' middle 90% spans
/// at least this share of the time per iteration: modes 0.2% apart are real
/// but change no conclusion.
const MODES_APART: f64 = 0.01;

/// Time spent measuring, after set-up and warm-up.
fn measuring_time(measurement: &Measurement) -> Nanos {
    measurement.total_time - measurement.setup_time - measurement.warm_up.time
}

/// The p5..p95 range of `values` relative to `reference`.
fn practical_width(values: &[f64], reference: f64) -> f64 {
    let sorted = sorted(values.iter().copied());
    (analysis::percentile(&sorted, 95.0) - analysis::percentile(&sorted, 5.0)) / reference
}

/// The program's two levels of cost per call, over the samples of the
/// blocks the headline counts, as a note.
fn program_levels(m: &Measured) -> Option<Note> {
    let estimate = &m.estimate;
    let n = m.per_iter.len();
    let mut bounds = analysis::block_starts(n, &m.measurement.slice_starts);
    bounds.push(n);
    let (mut values, mut calls) = (Vec::new(), Vec::new());
    for (block, w) in bounds.windows(2).enumerate() {
        if !estimate.counts(block) {
            continue;
        }
        values.extend_from_slice(&m.per_iter[w[0]..w[1]]);
        calls.extend(
            m.measurement.samples[w[0]..w[1]]
                .iter()
                .map(|s| s.iters as f64),
        );
    }
    let levels = analysis::levels::two_levels(&values, &calls)?;
    Some(Note::Levels {
        fast_share: levels.fast.0,
        fast: Nanos(levels.fast.1),
        slow_share: levels.slow.0,
        slow: Nanos(levels.slow.1),
    })
}

/// The notes `m` gets. `within` are its values with each slice's level
/// taken out, what the spread and modality rules look at.
pub(super) fn notes(m: &Measured, within: &[f64], context: &Context) -> Vec<Note> {
    let mut notes = Vec::new();
    let config = &m.config;
    let measurement = &m.measurement;
    let n = measurement.samples.len();

    match measurement.stop {
        StopReason::MaxTime if n < config.min_samples => {
            let one = measurement
                .samples
                .last()
                .map(|s| s.per_iter())
                .unwrap_or_default();
            notes.push(Note::FewSamples {
                max_time: config.max_time,
                samples: n,
                min_samples: config.min_samples,
                iteration: one,
                setup: measurement.setup_time,
            });
        }
        StopReason::MaxTime if measuring_time(measurement).0 < config.measure_time.0 => {
            notes.push(Note::BudgetUnspent {
                max_time: config.max_time,
                measure_time: config.measure_time,
            });
        }
        StopReason::MaxTime if config.stop_rule.precision_target().is_some() => {
            notes.push(Note::NotPrecise {
                max_time: config.max_time,
                achieved: m.precision,
                target: config.stop_rule.precision_target().unwrap_or_default(),
                missed: Missed::MaxTime,
            });
        }
        StopReason::Precise if widened(m) => {
            notes.push(Note::NotPrecise {
                max_time: config.max_time,
                achieved: m.precision,
                target: config.stop_rule.precision_target().unwrap_or_default(),
                missed: Missed::Widened(None),
            });
        }
        StopReason::SampleCap => notes.push(Note::SampleCap {
            max_samples: config.max_samples,
        }),
        _ => {}
    }
    if n == 1 {
        notes.push(Note::OneSample);
    }
    let uncertainty = m.overhead.per_iter_uncertainty.0;
    let overhead_dominates = m
        .estimate
        .half_width()
        .is_some_and(|h| uncertainty > 0.0 && uncertainty >= h / 2.0);
    let within_uncertainty = uncertainty > 0.0 && m.estimate.estimate.abs() <= uncertainty;
    if overhead_dominates || within_uncertainty {
        notes.push(Note::NearOverhead {
            uncertainty: m.overhead.per_iter_uncertainty,
            achieved: m.precision,
        });
    }

    let warm_up = &measurement.warm_up;
    if !warm_up.steady && n > 1 {
        notes.push(Note::WarmUpUnsettled {
            warm_up_time: config.warm_up_time,
            final_cv: warm_up.final_cv,
            window: config.warm_up_window,
            threshold: config.warm_up_cv,
        });
    }

    let sample_times = sorted(measurement.samples.iter().map(|s| s.elapsed.0));
    let median_sample = analysis::percentile(&sample_times, 50.0);
    let floor = context.timer.overhead.0 * 100.0;
    if median_sample < floor {
        // Samples stop growing when their wall time would pass the cap (an
        // untimed set-up per input, `iter_batched`), or at `max_time`.
        notes.push(Note::ShortSamples {
            median: Nanos(median_sample),
            read_cost: context.timer.overhead,
            wall_cap: measurement.wall_capped.then(|| config.max_sample_wall()),
        });
    }

    let estimate = &m.estimate;
    if estimate.steady && estimate.kept_all_disturbed {
        notes.push(Note::MachineDisturbed {
            disturbed: estimate.disturbed.iter().filter(|&&d| d).count(),
            blocks: estimate.block_means.len(),
        });
    }
    // Two levels of cost explain whatever spread, drift or modes the
    // samples show: the row names them instead.
    if let Some(levels) = program_levels(m) {
        notes.push(levels);
        return notes;
    }

    // Slice-based figures need slices of several samples: with one or two, a
    // slice's median is one sample's noise, not the machine's speed.
    let slices_hold_enough = median_slice_len(measurement) >= MIN_SLICE_SAMPLES;
    let spread = m.within_slice_spread;
    if slices_hold_enough && spread > HIGH_CV {
        notes.push(Note::HighSpread { spread });
    }

    if let Some(drift) = m.drift.filter(|&d| slices_hold_enough && d > BENCH_DRIFT) {
        let (low, high) = min_max(estimate.kept().map(|(mean, _)| mean));
        notes.push(Note::SpeedChanged {
            fastest: Nanos(low),
            slowest: Nanos(high),
            drift,
        });
    }

    // One tick of the clock over a sample's iterations (the median count:
    // one short sample must not blur every mode): values closer than that
    // are the clock's, not modes.
    let step = context.timer.resolution.0 / m.median_iters();
    if slices_hold_enough
        && modality::looks_multimodal(within, step)
        && practical_width(within, m.reference) >= MODES_APART
    {
        notes.push(Note::Multimodal {
            mvalue: modality::mvalue(within, step),
        });
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instruments::Extras;
    use bench_runtime::clock::cpu::CpuTime;

    /// The benchmark's thread ran `own` ms of its 10 ms of slices; others
    /// ran `others` ms beside it.
    fn beside(own: f64, others: f64) -> Extras {
        let own = CpuTime {
            user: Nanos(own * 1e6),
            system: Nanos(0.0),
        };
        Extras {
            cpu: Some((own, Nanos(1e7))),
            other_threads_cpu: Nanos(others * 1e6),
            ..Extras::default()
        }
    }

    #[test]
    fn threads_beside_the_benchmark_are_noted_by_their_cpu_and_wall_time() {
        // 0.6 ms beside 1 ms: 60% of its CPU time, 6% of the wall time.
        let note = shared_arena(&beside(1.0, 0.6), true);
        assert_eq!(note, Some(Note::SharedArena { share: 0.6 }));
        // Not where the threads have arenas of their own.
        assert_eq!(shared_arena(&beside(1.0, 0.6), false), None);
        // 0.4 ms: 40% of a thread that mostly waited, but 4% of the wall
        // time (a progress line's redraws).
        assert_eq!(shared_arena(&beside(1.0, 0.4), true), None);
        // 0.9 ms beside a busy thread's 10 ms: under 10% of its CPU time.
        assert_eq!(shared_arena(&beside(10.0, 0.9), true), None);
    }
}
