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
        /// The processes it was measured in (`--forks`; 1 for none): each
        /// pays its set-up out of its share of `max_time`.
        processes: usize,
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
    /// interval and at least 0.1% of its time (or the time is within it):
    /// the body costs about as little as the harness resolves.
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
    /// The cost per call sits at two levels (every tenth call doing more
    /// work, phases in and out of the cache): the row names both, and
    /// whether its time is the faster one's, their mean, or neither.
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
        /// The row's time, as it prints it; `None` when it prints a bound
        /// (`<5.903 µs`, `≈0 ps`: its interval reaches zero).
        time: Option<Nanos>,
        /// The body is steady within its blocks (in every process the
        /// time counts): its time is a fast regime, and slower calls are
        /// read as the machine's slow spells.
        steady: bool,
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
    /// The benchmark's slices cost more the longer it was paused before
    /// them (other benchmarks ran meanwhile): the time includes re-warming
    /// what the pauses evicted, every slice, where a loop running it alone
    /// keeps it warm.
    #[non_exhaustive]
    ColdAfterPause {
        /// The share of pairs of consecutive slices, of those whose pauses
        /// differ at least twofold, in which the one after the longer pause
        /// cost more.
        concordant: f64,
        /// By how much, relative, on the median over the pairs.
        rise: f64,
        /// The median pause before a slice.
        pause: Nanos,
        /// Its time interleaved with the others, when it was then measured
        /// again in one stretch (`session/warm.rs`), which is the time the
        /// row shows.
        interleaved: Option<Nanos>,
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

/// The share of a row's time the loop overhead's uncertainty must reach,
/// beside most of its interval, for the row to be near the loop's own
/// cost: sub-nanosecond bodies here reach 0.3-0.7%; a body of a
/// microsecond, against the same ±0.0016 ns, 0.0002%.
const NEAR_OVERHEAD_SHARE: f64 = 1e-3;

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
            Note::ColdAfterPause { .. } => "cold_after_pause",
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

/// The sign test's z from which slices' cost is said to rise with the
/// pause before them: one-sided p below 4e-5, over the pairs of slices of
/// one benchmark. Over the example suite's rows (3 runs, 33 rows each
/// here) the largest was 2.6; a pointer chase through 128 MiB read
/// 6.2-12.7 (20 runs).
const PAUSE_Z: f64 = 4.0;

/// And the rise must matter: in pairs of consecutive slices, the one after
/// the longer pause costs at least this much more on the median (the
/// pointer chase: 6-12%; the steady rows of the example suite with the
/// largest z: under 2.5%, at z under 3).
const PAUSE_RISE: f64 = 0.02;

/// The pairs compared: one pause at least this many times the other.
const PAUSES_APART: f64 = 2.0;

/// The note on a benchmark whose slices cost more the longer it was paused
/// before them, from its slices' pauses and the cost of a call in each
/// (`per_iter` and `samples`' iterations, its samples not `preempted`).
///
/// The interleaved schedule shuffles every round, so the pause before a
/// slice (the other benchmarks' slices in between) is random, and nothing
/// the program does depends on it: a rise with it is the benchmark's state
/// (caches, the TLB) cooling while others run, or the host reclaiming
/// them. The test pairs consecutive slices, (1st, 2nd), (3rd, 4th) and so
/// on, which keeps a slow trend over the run (benchmarks finishing shorten
/// the pauses) out of it, and counts the pairs, of those whose pauses
/// differ at least twofold, in which the slice after the longer pause cost
/// more: a sign test, whatever the cost's distribution (a body in phases
/// included).
pub(super) fn cold_after_pause(
    per_iter: &[f64],
    samples: &[bench_runtime::Sample],
    extras: &crate::instruments::Extras,
) -> Option<Note> {
    let preempted = &extras.preempted;
    let slices = extras.slices.iter().filter_map(|slice| {
        let pause = slice.pause?;
        let range = slice.first_sample..(slice.first_sample + slice.samples).min(per_iter.len());
        let (time, calls) =
            range
                .filter(|i| preempted.binary_search(i).is_err())
                .fold((0.0, 0.0), |(t, c), i| {
                    let calls = samples[i].iters as f64;
                    (t + per_iter[i] * calls, c + calls)
                });
        (calls > 0.0).then_some((pause.0, time / calls))
    });
    let slices: Vec<(f64, f64)> = slices.collect();
    // Per pair whose pauses differ at least twofold, the cost after the
    // longer pause over the cost after the shorter one. (Pairs of nearly
    // equal pauses carry no signal, and a benchmark left alone with the
    // empty loop at the end of a run has many: they diluted a tenfold
    // rise to 2% on the median.)
    let ratios: Vec<f64> = (slices.chunks_exact(2))
        .filter(|pair| pair[0].0.max(pair[1].0) >= PAUSES_APART * pair[0].0.min(pair[1].0))
        .filter(|pair| pair[0].1 != pair[1].1 && pair[0].1 > 0.0 && pair[1].1 > 0.0)
        .map(|pair| {
            let ((p1, c1), (p2, c2)) = (pair[0], pair[1]);
            if p1 > p2 {
                c1 / c2
            } else {
                c2 / c1
            }
        })
        .collect();
    let pairs = ratios.len() as f64;
    let concordant = ratios.iter().filter(|&&r| r > 1.0).count() as f64;
    // No pairs: z is NaN, and no note.
    let z = (concordant - pairs / 2.0) / (pairs / 4.0).sqrt();
    if z.is_nan() || z < PAUSE_Z {
        return None;
    }
    let rise = analysis::percentile(&sorted(ratios.into_iter()), 50.0) - 1.0;
    let pause = analysis::percentile(&sorted(slices.iter().map(|s| s.0)), 50.0);
    (rise >= PAUSE_RISE).then_some(Note::ColdAfterPause {
        concordant: concordant / pairs,
        rise,
        pause: Nanos(pause),
        interleaved: None,
    })
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
fn program_levels(m: &Measured, preempted: &[usize]) -> Option<Note> {
    let estimate = &m.estimate;
    let n = m.per_iter.len();
    let mut bounds = analysis::block_starts(n, &m.measurement.slice_starts);
    bounds.push(n);
    let (mut values, mut calls) = (Vec::new(), Vec::new());
    for (block, w) in bounds.windows(2).enumerate() {
        if !estimate.counts(block) {
            continue;
        }
        // The samples the time counts: not those it leaves out as
        // preempted.
        for i in (w[0]..w[1]).filter(|i| preempted.binary_search(i).is_err()) {
            values.push(m.per_iter[i]);
            calls.push(m.measurement.samples[i].iters as f64);
        }
    }
    let levels = analysis::levels::two_levels(&values, &calls)?;
    // A steady body's time is its fast regime: its slower calls, in blocks
    // the speed probe saw quiet, are read as slow spells the probe missed,
    // which is what they are unless they are a phase of the program's own
    // within 3x of the other and longer than a slice (docs/statistics.md,
    // the limits): `insert_10k` read 56% of its calls at 262 us, 44% at
    // 385 us, whole slices of each, and printed 258 us. The row says so,
    // but only where whole blocks sit at the slower level. Spells shorter
    // than a slice leave their block's median at the faster one: 5-10% of
    // the calls of compute kernels such as `parse_int/u64` at 1.5-2x, on
    // 29 of 396 rows of quiet runs here.
    if estimate.steady {
        let midpoint = (levels.fast.1 * levels.slow.1).sqrt();
        let blocks = (estimate.block_medians.iter().zip(&estimate.block_iters)).enumerate();
        let (slow, total) = blocks.filter(|(j, _)| estimate.counts(*j)).fold(
            (0.0, 0.0),
            |(slow, total), (_, (&median, &calls))| {
                let at_slow = if median > midpoint { calls } else { 0.0 };
                (slow + at_slow, total + calls)
            },
        );
        if slow < analysis::levels::MIN_SHARE * total {
            return None;
        }
    }
    Some(Note::Levels {
        fast_share: levels.fast.0,
        fast: Nanos(levels.fast.1),
        slow_share: levels.slow.0,
        slow: Nanos(levels.slow.1),
        time: printed_time(estimate),
        steady: estimate.steady,
    })
}

/// The time a row with `estimate` prints, or `None` for a bound.
pub(super) fn printed_time(estimate: &analysis::BlockEstimate) -> Option<Nanos> {
    let interval = estimate.interval.map(|ci| (ci.lower, ci.upper));
    match analysis::Headline::new(estimate.estimate, interval) {
        analysis::Headline::Time { nanos, .. } => Some(Nanos(nanos)),
        _ => None,
    }
}

/// The notes `m` gets. `within` are its values with each slice's level
/// taken out, what the spread and modality rules look at.
pub(super) fn notes(
    m: &Measured,
    within: &[f64],
    context: &Context,
    preempted: &[usize],
) -> Vec<Note> {
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
                processes: 1,
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
    notes.extend(near_overhead(m));

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
    notes.extend(variation(m, within, context, preempted, Levels::Named));
    notes
}

/// The `near_overhead` note, where the loop overhead's uncertainty is most
/// of `m`'s interval and a share of its time, or its time is within it:
/// an interval zero wide (samples all alike) holds any overhead's
/// uncertainty, and is no sign of a body near the loop's cost.
pub(super) fn near_overhead(m: &Measured) -> Option<Note> {
    let uncertainty = m.overhead.per_iter_uncertainty.0;
    let overhead_dominates = m.estimate.half_width().is_some_and(|h| {
        uncertainty > 0.0
            && uncertainty >= h / 2.0
            && uncertainty >= NEAR_OVERHEAD_SHARE * m.estimate.estimate.abs()
    });
    let within_uncertainty = uncertainty > 0.0 && m.estimate.estimate.abs() <= uncertainty;
    (overhead_dominates || within_uncertainty).then_some(Note::NearOverhead {
        uncertainty: m.overhead.per_iter_uncertainty,
        achieved: m.precision,
    })
}

/// Whether [`variation`] may name two levels of cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Levels {
    /// Two levels, where the blocks show them, stand for the spread, drift
    /// and modes they explain.
    Named,
    /// Not two levels (a pool whose levels no process shows on its own):
    /// the spread, drift and modes the samples show are said as they are.
    Unnamed,
}

/// The notes on how `m`'s cost varied within and between its blocks: two
/// levels of cost (when `levels` allows), else its spread within slices,
/// its drift between them, and modes.
pub(super) fn variation(
    m: &Measured,
    within: &[f64],
    context: &Context,
    preempted: &[usize],
    levels: Levels,
) -> Vec<Note> {
    let mut notes = Vec::new();
    let measurement = &m.measurement;
    let estimate = &m.estimate;
    // Two levels of cost explain whatever spread, drift or modes the
    // samples show: the row names them instead.
    if let Some(levels) = program_levels(m, preempted).filter(|_| levels == Levels::Named) {
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

    /// A benchmark's slices, one sample of 1,000 calls each, and the
    /// evidence beside them.
    #[derive(Default)]
    struct Slices {
        per_iter: Vec<f64>,
        samples: Vec<bench_runtime::Sample>,
        extras: Extras,
    }

    impl Slices {
        /// One more slice, at `cost` ns a call, after a pause of `pause` ms.
        fn push(&mut self, cost: f64, pause: Option<f64>) {
            self.extras.slices.push(crate::instruments::SliceEvidence {
                first_sample: self.per_iter.len(),
                samples: 1,
                probe: 1.0,
                pause: pause.map(|ms| Nanos(ms * 1e6)),
                faults: None,
            });
            self.per_iter.push(cost);
            self.samples.push(bench_runtime::Sample {
                iters: 1000,
                elapsed: Nanos(0.0),
            });
        }

        fn note(&self) -> Option<Note> {
            cold_after_pause(&self.per_iter, &self.samples, &self.extras)
        }
    }

    /// A benchmark's run of `slices` slices after pauses drawn at random
    /// between 0.1 and 15 ms (the first slice has none), each costing
    /// `cost(slice, pause in ms, rng)` ns a call.
    fn paused(
        seed: u64,
        slices: usize,
        cost: impl Fn(usize, f64, &mut fastrand::Rng) -> f64,
    ) -> Option<Note> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut run = Slices::default();
        for slice in 0..slices {
            let pause = 0.1 + 14.9 * rng.f64();
            run.push(cost(slice, pause, &mut rng), (slice > 0).then_some(pause));
        }
        run.note()
    }

    /// 5% noise around `mean`.
    fn noisy(mean: f64, rng: &mut fastrand::Rng) -> f64 {
        mean * (0.95 + 0.1 * rng.f64())
    }

    #[test]
    fn a_body_that_cools_between_slices_is_told_so_with_the_rise() {
        // 20% more after a 15 ms pause than after none, in 5% noise: the
        // pairs of pauses twofold apart differ by 6-7 ms on the median,
        // their costs by 8-10%.
        let cools = |_: usize, pause: f64, rng: &mut fastrand::Rng| {
            noisy(100.0 * (1.0 + 0.2 * pause / 15.0), rng)
        };
        for seed in 0..20 {
            let Some(Note::ColdAfterPause {
                concordant,
                rise,
                pause,
                ..
            }) = paused(seed, 200, cools)
            else {
                panic!("seed {seed}: no note");
            };
            assert!((0.06..0.13).contains(&rise), "seed {seed}: {rise}");
            assert!((6e6..9e6).contains(&pause.0), "seed {seed}: {pause:?}");
            assert!(concordant > 0.7, "seed {seed}: {concordant}");
        }
        // The same in phases of the program's own: 20 slices at 15 ns a
        // call, then 20 at 250 ns, in turn (a table in and out of the cache).
        let phases = |slice: usize, pause: f64, rng: &mut fastrand::Rng| {
            let level = if (slice / 20) % 2 == 0 { 15.0 } else { 250.0 };
            noisy(level * (1.0 + 0.2 * pause / 15.0), rng)
        };
        for seed in 0..20 {
            assert!(paused(seed, 300, phases).is_some(), "seed {seed}");
        }
    }

    #[test]
    fn a_body_whose_cost_does_not_follow_the_pauses_is_not_told() {
        // Steady; in phases; every tenth slice 10x; and a cost falling
        // over the run while the pauses shorten (benchmarks finishing):
        // in 100 seeds each, not once.
        let steady = |_: usize, _: f64, rng: &mut fastrand::Rng| noisy(100.0, rng);
        let phases = |slice: usize, _: f64, rng: &mut fastrand::Rng| {
            noisy(if (slice / 20) % 2 == 0 { 15.0 } else { 250.0 }, rng)
        };
        let rare = |slice: usize, _: f64, rng: &mut fastrand::Rng| {
            noisy(if slice % 10 == 0 { 1000.0 } else { 100.0 }, rng)
        };
        for seed in 0..100 {
            assert_eq!(paused(seed, 300, steady), None, "steady, seed {seed}");
            assert_eq!(paused(seed, 300, phases), None, "phases, seed {seed}");
            assert_eq!(paused(seed, 300, rare), None, "rare, seed {seed}");
        }
        // The trend: the pauses shrink from 15 to 1.5 ms over the run, the
        // cost falls from 200 to 100 ns.
        for seed in 0..100 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let (n, mut run) = (300, Slices::default());
            for slice in 0..n {
                let progress = slice as f64 / n as f64;
                let pause = (15.0 - 13.5 * progress) * (0.5 + rng.f64());
                run.push(noisy(200.0 - 100.0 * progress, &mut rng), Some(pause));
            }
            assert_eq!(run.note(), None, "trend, seed {seed}");
        }
    }

    #[test]
    fn a_preempted_sample_does_not_count_toward_its_slice() {
        // Cooling as above, but every slice after a long pause lost its
        // sample to preemption: nothing is left to compare with.
        let mut rng = fastrand::Rng::with_seed(7);
        let mut run = Slices::default();
        for slice in 0..200 {
            let pause = 0.1 + 14.9 * rng.f64();
            run.push(
                noisy(100.0 * (1.0 + 0.2 * pause / 15.0), &mut rng),
                Some(pause),
            );
            if pause > 2.0 {
                run.extras.preempted.push(slice);
            }
        }
        assert_eq!(run.note(), None);
    }
}
