//! The words of each [`Note`]: what the reader must know, from the numbers
//! the model recorded, and what to do about it. Every output that shows a
//! note (the table, Markdown, the JSON document's `notes`) shows this text.
//!
//! The model ([`crate::results`]) holds the numbers only, so that outputs
//! can group, count and restyle notes by [`Note::kind`] without parsing
//! sentences; the wording lives here, with the other formatting.

use std::fmt;

use super::format::{escape, percent, time, Headline};
use crate::results::{BenchResult, Measured, Missed, Note};
use bench_runtime::StopRule;

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::FewSamples {
                max_time,
                samples,
                min_samples,
                iteration,
                setup,
                processes,
            } => {
                write!(
                    f,
                    "stopped at --max-time ({}) with {samples} of {min_samples} samples: ",
                    time(max_time.0)
                )?;
                // Each process pays the set-up out of its share.
                let share = max_time.0 / (*processes).max(1) as f64;
                match processes {
                    _ if setup.0 < share / 2.0 => write!(
                        f,
                        "one iteration takes {}; raise --max-time for more samples",
                        time(iteration.0),
                    ),
                    0 | 1 => write!(
                        f,
                        "the set-up took {}, and --max-time counts it; raise --max-time well \
                         above the set-up's time, or make the set-up cheaper",
                        time(setup.0),
                    ),
                    n => write!(
                        f,
                        "the set-up took {} in each of {n} processes, and each process's \
                         share of --max-time ({}) counts it; raise --max-time well above {n}× \
                         the set-up's time, make the set-up cheaper, or use fewer processes \
                         (--forks)",
                        time(setup.0),
                        time(share),
                    ),
                }
            }
            Note::BudgetUnspent {
                max_time,
                measure_time,
            } => write!(
                f,
                "--max-time ({}) ended the run before --measure-time ({}) was spent: \
                 set-up, warm-up and measurement do not fit; raise --max-time",
                time(max_time.0),
                time(measure_time.0),
            ),
            Note::NotPrecise {
                achieved,
                target,
                missed: Missed::ProcessesDiffer(processes),
                ..
            } => write!(
                f,
                "not precise: each of {processes} processes met its share of ±{} alone, but \
                 they differ, so the time over them is known to ±{}; more processes narrow it: \
                 raise --forks (and --max-time, if it left no room for one more), or \
                 accept a wider --precision",
                percent(*target),
                achieved.map_or("?".to_string(), percent),
            ),
            Note::NotPrecise {
                achieved,
                target,
                missed: Missed::Widened(processes),
                ..
            } => {
                let (who, what) = match processes {
                    Some(n) => (
                        format!("each of {n} processes met its share of the target"),
                        "their intervals",
                    ),
                    None => ("the interval met the target".to_string(), "it"),
                };
                write!(
                    f,
                    "not precise: the time is known to ±{}, not ±{}: {who} while measuring, \
                     but the analysis of the whole run (which slices the machine disturbed, \
                     the loop's final overhead) widened {what}; rerun when quieter, or accept \
                     a wider --precision",
                    achieved.map_or("?".to_string(), percent),
                    percent(*target),
                )
            }
            Note::NotPrecise {
                max_time,
                achieved,
                target,
                missed: Missed::MaxTime,
            } => {
                let reached = achieved.map_or(String::new(), |p| {
                    format!(" with the time known to ±{}", percent(p))
                });
                write!(
                    f,
                    "not precise: --max-time ({}) ran out{reached}, target ±{}; the benchmark \
                     or the machine is noisy: close other programs, raise --max-time, or accept \
                     a wider --precision",
                    time(max_time.0),
                    percent(*target),
                )
            }
            Note::NearOverhead {
                uncertainty,
                achieved,
            } => {
                let reached = achieved.map_or(String::new(), |p| {
                    format!(" (the time is known to ±{})", percent(p))
                });
                write!(
                    f,
                    "near the loop's own cost: the loop overhead subtracted is itself known \
                     to ±{} per iteration, most of this benchmark's interval{reached}; the \
                     body costs about as little as the harness can resolve, so compare it \
                     within one run (an A/B group) rather than by its time",
                    time(uncertainty.0),
                )
            }
            Note::SampleCap { max_samples } => write!(
                f,
                "stopped at the sample cap ({max_samples}) before the stop rule was met: the \
                 benchmark is very fast and noisy; accept a wider --precision to stop sooner",
            ),
            Note::OneSample => f.write_str(
                "1 sample: mean, median, min and max are that sample and no spread can be \
                 estimated; raise --max-time for more",
            ),
            Note::WarmUpUnsettled {
                warm_up_time,
                final_cv,
                window,
                threshold,
            } => {
                let cv = final_cv.map_or("never computed".to_string(), percent);
                write!(
                    f,
                    "warm-up did not settle within --warm-up-time ({}): rolling CV {cv} over \
                     {window} samples, threshold {}; early samples may still carry warm-up \
                     effects: raise --warm-up-time",
                    time(warm_up_time.0),
                    percent(*threshold),
                )
            }
            Note::ShortSamples {
                median,
                read_cost,
                wall_cap,
            } => {
                let remedy = match wall_cap {
                    None => "raise --max-time so samples can grow".to_string(),
                    Some(cap) => format!(
                        "the untimed set-up of each input dominates a sample, and a sample's \
                         wall time is capped at {}; raise --measure-time so samples can grow, \
                         or make the set-up cheaper",
                        time(cap.0)
                    ),
                };
                write!(
                    f,
                    "samples last {} (median), under 100× the timer's read cost ({}): the \
                     clock's own cost distorts them; {remedy}",
                    time(median.0),
                    time(read_cost.0),
                )
            }
            Note::HighSpread { spread } => write!(
                f,
                "high spread: within slices, outliers excluded, the standard deviation is {} of \
                 the time per iteration; the work varies between iterations or the machine is \
                 busy: close other programs, or give the body a fixed input",
                percent(*spread),
            ),
            Note::SpeedChanged {
                fastest,
                slowest,
                drift,
            } => write!(
                f,
                "this benchmark's own cost changed from slice to slice while the machine's \
                 speed probe was steady: slice means range from {} to {} (CV {}); the time is \
                 the mean cost of a call over all of them: look for state that grows between \
                 calls (a collection, a cache) if the cost should be steady",
                time(fastest.0),
                time(slowest.0),
                percent(*drift),
            ),
            Note::Levels {
                fast_share,
                fast,
                slow_share,
                slow,
                time: t,
                ..
            } => {
                let mean = fast_share * fast.0 + slow_share * slow.0;
                write!(
                    f,
                    "the cost per call sits at two levels: {} of calls at {}, {} at {} (a mean \
                     of {}); ",
                    percent_whole(*fast_share),
                    time(fast.0),
                    percent_whole(*slow_share),
                    time(slow.0),
                    time(mean),
                )?;
                match levels_reading(self) {
                    Some(LevelsReading::Faster) => f.write_str(
                        "the time is the faster level's: the body is steady within its slices, \
                         so its slower calls are read as the machine's slow spells, unless they \
                         are a phase of the program's own",
                    ),
                    Some(LevelsReading::Mean) => f.write_str(
                        "the time is their mean (a rare expensive call, or phases in and out of \
                         a cache, are the program's own cost)",
                    ),
                    Some(LevelsReading::Neither) => write!(
                        f,
                        "the time, {}, is neither the faster level nor their mean",
                        time(t.map_or(f64::NAN, |t| t.0))
                    ),
                    _ => f.write_str(
                        "the time is a bound, its interval reaching zero, and no level's",
                    ),
                }
            }
            Note::MachineDisturbed { disturbed, blocks } => write!(
                f,
                "the machine was disturbed in {disturbed} of {blocks} slices (the speed probe \
                 beside them ran over {} slow, or the thread was descheduled), too many to \
                 leave out: the time includes the machine's slow spells; rerun on a quieter \
                 machine",
                percent_whole(crate::analysis::PROBE_SLOWER),
            ),
            Note::Multimodal { mvalue } => write!(
                f,
                "the samples look multimodal within slices (mvalue {mvalue:.1}): either the \
                 benchmark has more than one speed (a second code path, an allocator's slow \
                 path) or the machine switched speed within slices; rerun, and if it persists \
                 look at the raw samples",
            ),
            Note::LowCpu { share } => write!(
                f,
                "CPU time was {} of wall time: the benchmark waited (I/O, a lock, a sleep) or \
                 was descheduled; if it should be CPU-bound, look for the wait or quieten the \
                 machine",
                percent(*share),
            ),
            Note::SharedArena { share } => write!(
                f,
                "other threads of the process worked beside this benchmark's thread, for {} \
                 its CPU time: under the harness every thread takes its memory from glibc's \
                 main arena, as code on a program's main thread does, so threads that \
                 allocate contend for it where a program's would each have an arena of their \
                 own; if they allocate, measure it with MALLOC_ARENA_MAX=8 too, which gives \
                 every thread its own (the measuring one included)",
                if *share < 0.995 {
                    format!("{} of", percent_whole(*share))
                } else {
                    format!("{share:.1}×")
                },
            ),
            Note::ColdAfterPause {
                concordant,
                rise,
                pause,
                interleaved,
            } => {
                write!(
                    f,
                    "its slices cost more the longer it was paused before them (other \
                     benchmarks ran in the pauses, {} on the median): of pairs of its \
                     consecutive slices whose pauses differed twofold, the one after the \
                     longer pause cost more in {}, by {} on the median. ",
                    time(pause.0),
                    percent_whole(*concordant),
                    percent_whole(*rise),
                )?;
                match interleaved {
                    Some(interleaved) => write!(
                        f,
                        "Interleaved, its time read {}, re-warming what each pause cooled (caches, \
                         the TLB, or state of its own); this time is from measuring it again in one stretch \
                         per process, warm, as a loop running it alone keeps them",
                        time(interleaved.0),
                    ),
                    None => f.write_str(
                        "The time includes re-warming what each pause cooled (caches, the TLB, \
                         or state of its own), where a loop running it alone keeps them warm; \
                         measure it warm with --schedule sequential",
                    ),
                }
            }
            Note::ProcessesDiffer {
                processes,
                fastest,
                slowest,
                spread,
            } => write!(
                f,
                "the processes differ more than their slices explain: {processes} processes \
                 measured {} to {} (CV {}); memory layout (ASLR, allocation addresses, code \
                 alignment) or the machine's speed while each ran moves this benchmark, so its \
                 ± spans the processes: raise --forks to narrow it",
                time(fastest.0),
                time(slowest.0),
                percent(*spread),
            ),
            Note::DiffersAlone {
                alone,
                ratio,
                page_faults,
            } => {
                let faults = page_faults.map_or(String::new(), |(group, alone)| {
                    format!(
                        " ({group:.1} page faults per iteration in the group, {alone:.1} alone)"
                    )
                });
                write!(
                    f,
                    "in its A/B group this benchmark took {} {} than alone ({}){faults}: the \
                     members disturb each other (caches, the allocator, outputs kept alive), \
                     so the group's ratio may not hold for either alone; compare them run \
                     alone too (--exact NAME)",
                    percent((ratio - 1.0).abs()),
                    if *ratio > 1.0 { "longer" } else { "less" },
                    time(alone.0),
                )
            }
        }
    }
}

/// What a row's time is beside the two levels its note names.
#[derive(Debug, Clone, Copy, PartialEq)]
enum LevelsReading {
    /// The faster level's: a steady body's fast regime.
    Faster,
    /// Their mean: the mean cost of a call over both.
    Mean,
    /// Neither (a mean of processes that read them in different shares,
    /// or a steady body's fast regime that is not the faster level).
    Neither,
    /// A bound (`<5.903 µs`), no figure to compare.
    Bound,
}

/// Which level, or their mean, a [`Note::Levels`]'s time is, within
/// [`LEVELS_READ_AS`]; `None` for another note.
fn levels_reading(note: &Note) -> Option<LevelsReading> {
    let Note::Levels {
        fast_share,
        fast,
        slow_share,
        slow,
        time,
        steady,
    } = note
    else {
        return None;
    };
    let Some(time) = time else {
        return Some(LevelsReading::Bound);
    };
    let near = |level: f64| (time.0 / level - 1.0).abs() <= LEVELS_READ_AS;
    let mean = fast_share * fast.0 + slow_share * slow.0;
    Some(if *steady && near(fast.0) {
        LevelsReading::Faster
    } else if near(mean) {
        LevelsReading::Mean
    } else {
        LevelsReading::Neither
    })
}

/// How near (relative) a row's time must be to a level, or to their mean,
/// to be called that one's.
const LEVELS_READ_AS: f64 = 0.03;

/// Whether `note` changes how its row's figures are read, which earns the
/// row the compact table's `*`. Informational notes are listed under the
/// table all the same, without marking the row: a mark on nearly every row
/// tells nothing. The match has no catch-all, so a new kind needs a
/// decision here.
pub(crate) fn changes_reading(note: &Note) -> bool {
    match note {
        // The run stopped before its rule was met: the time is known less
        // well than asked, or rests on a few samples (one: no ± at all).
        Note::NotPrecise { .. }
        | Note::FewSamples { .. }
        | Note::OneSample
        | Note::BudgetUnspent { .. }
        | Note::SampleCap { .. } => true,
        // The figure itself is in doubt: the clock's own cost distorts the
        // samples, or the body is within the loop overhead's noise.
        Note::ShortSamples { .. } | Note::NearOverhead { .. } => true,
        // Not one steady cost: phases, levels or modes of the program's own
        // (or a steady body's slower level, which its time leaves out).
        Note::SpeedChanged { .. } | Note::Multimodal { .. } | Note::Levels { .. } => true,
        // The time includes the machine's slow spells.
        Note::MachineDisturbed { .. } => true,
        // Not the cost of a call run alone on the CPU: it waited, its
        // process moved it, or its A/B group did.
        Note::LowCpu { .. } | Note::ProcessesDiffer { .. } | Note::DiffersAlone { .. } => true,
        // Threads beside it share one arena: their allocations may cost
        // more than in the program.
        Note::SharedArena { .. } => true,
        // Not the warm cost (every slice re-warmed), or the warm cost
        // measured otherwise than the other rows, in one stretch.
        Note::ColdAfterPause { .. } => true,
        // Informational: how the warm-up went, and how much single
        // iterations vary, which the interval already carries.
        Note::WarmUpUnsettled { .. } | Note::HighSpread { .. } => false,
    }
}

/// Whether the compact table marks `m`'s row `*`: a note that changes how
/// to read it ([`changes_reading`]), a ± that may not hold
/// ([`Measured::reliable`]), or a time printed as a bound ([`bound_text`]).
pub(crate) fn marked(m: &Measured) -> bool {
    m.notes.iter().any(changes_reading) || !m.reliable() || Headline::of(m).is_bound()
}

/// Notes of one kind over a whole run: what they say, the benchmarks they
/// apply to and what to do, so the compact table says each once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NoteGroup {
    /// [`Note::kind`], or one of two facts the report adds: `unreliable`
    /// for rows whose ± cannot be trusted ([`Measured::reliable`]) and
    /// `upper_bound` for rows printed as a bound ([`bound_text`]).
    pub(crate) kind: &'static str,
    /// What the notes say, short, with a figure they share (`not precise
    /// (±1.00% not reached)`).
    pub(crate) summary: String,
    /// The benchmarks, escaped, in the results' order.
    pub(crate) names: Vec<String>,
    /// What to do about it, once.
    pub(crate) remedy: String,
}

/// The kinds in the order their lines are printed: what makes a figure
/// wrong or imprecise first, then what to look into.
const ORDER: [&str; 18] = [
    "machine_disturbed",
    "not_precise",
    "few_samples",
    "one_sample",
    "budget_unspent",
    "sample_cap",
    "short_samples",
    "near_overhead",
    "warm_up_unsettled",
    "levels",
    "speed_changed",
    "multimodal",
    "high_spread",
    "low_cpu",
    "shared_arena",
    "cold_after_pause",
    "processes_differ",
    "differs_alone",
];

/// What a row printed as a bound (`<X`, `≈0 ps`: [`Headline`]) means, in
/// full: under the row in the full table, in Markdown's notes. `None` for
/// a row printed as a time.
pub(crate) fn bound_text(m: &Measured) -> Option<String> {
    let interval = m
        .estimate
        .interval
        .map(|ci| format!("[{}, {}]", time(ci.lower), time(ci.upper)));
    let what = match (Headline::of(m), interval) {
        (Headline::Time { .. }, _) => return None,
        (Headline::AtMost { upper }, interval) => format!(
            "at most {}: the 95% interval of the time{} reaches zero, so only its upper end \
             is a figure",
            time(upper),
            interval.map_or(String::new(), |i| format!(", {i},")),
        ),
        (Headline::Zero, Some(interval)) => format!(
            "no time above zero: the 95% interval of the time, {interval}, lies at or below \
             zero once the loop's own cost is taken out"
        ),
        (Headline::Zero, None) => "no time above zero: the time is below zero once the \
             loop's own cost is taken out"
            .to_string(),
    };
    let why = if for_want_of_resolution(m) {
        "the body costs about as little as the harness resolves: give it more work, or \
         compare it within an A/B group"
            .to_string()
    } else {
        format!(
            "the body's own cost varied between slices by more than the time itself: raise \
             {}, so that the run averages more of it",
            more_time(m)
        )
    };
    Some(format!("{what}; {why}"))
}

/// Whether a row printed as a bound reaches zero for want of resolution:
/// it costs less than the loop around it, or it is steady (its blocks
/// agree, so only the scale of what the harness resolves, the loop's
/// uncertainty or the clock, can take the interval to zero). Otherwise
/// its interval reaches zero for the spread of the body's own cost (a
/// pointer chase in and out of the cache, 3 ns and 290 ns a call in
/// phases of 2^18 calls, read `<1.176 µs` over the 2 or 3 cycles of its
/// state each process measured), and more work in the body would not help.
fn for_want_of_resolution(m: &Measured) -> bool {
    m.estimate.steady || m.headline() < m.overhead.per_iter.0
}

/// The flag that gives `m` more time: `--max-time` under the precision
/// rule, which stops there, `--measure-time` under a time budget.
fn more_time(m: &Measured) -> &'static str {
    match m.config.stop_rule {
        StopRule::TimeBudget => "--measure-time",
        _ => "--max-time",
    }
}

/// The notes of `results` by kind: one group per kind that occurs (two
/// for rows printed as a bound, by cause), rows
/// whose ± is not reliable first, then rows printed as a bound, then the
/// kinds in a fixed order.
pub(crate) fn grouped(results: &[BenchResult]) -> Vec<NoteGroup> {
    let measured: Vec<(String, &Measured)> = results
        .iter()
        .filter_map(|r| Some((escape(&r.name).into_owned(), r.measured()?)))
        .collect();
    let mut groups = Vec::new();
    let unreliable: Vec<String> = measured
        .iter()
        .filter(|(_, m)| !m.reliable())
        .map(|(name, _)| name.clone())
        .collect();
    if !unreliable.is_empty() {
        groups.push(NoteGroup {
            kind: "unreliable",
            summary: "± unreliable (disturbed or few slices)".to_string(),
            names: unreliable,
            remedy: "rerun when quieter, or raise --forks".to_string(),
        });
    }
    // One group for each cause: two lines of the one kind when both occur,
    // each summary naming its cause.
    for cheap in [true, false] {
        let bounds: Vec<&(String, &Measured)> = measured
            .iter()
            .filter(|(_, m)| Headline::of(m).is_bound() && for_want_of_resolution(m) == cheap)
            .collect();
        let Some((_, first)) = bounds.first() else {
            continue;
        };
        // Each line says its cause, so the two read as two lines.
        let (summary, remedy) = if cheap {
            (
                "a bound, not a time (the interval reaches zero)",
                "give the body more work".to_string(),
            )
        } else {
            (
                "a bound, not a time (its own cost varies)",
                format!(
                    "its cost varied by more than itself: raise {}",
                    more_time(first)
                ),
            )
        };
        groups.push(NoteGroup {
            kind: "upper_bound",
            summary: summary.to_string(),
            names: bounds.iter().map(|(name, _)| name.clone()).collect(),
            remedy,
        });
    }
    for kind in ORDER {
        let mut notes = Vec::new();
        let mut names = Vec::new();
        for (name, m) in &measured {
            let of_kind: Vec<&Note> = m.notes.iter().filter(|n| n.kind() == kind).collect();
            if !of_kind.is_empty() {
                names.push(name.clone());
                notes.extend(of_kind);
            }
        }
        if let Some(first) = notes.first() {
            let (summary, remedy) = summarise(first, &notes);
            groups.push(NoteGroup {
                kind,
                summary,
                names,
                remedy: remedy.to_string(),
            });
        }
    }
    groups
}

/// Why `note` missed its precision, if it is such a note.
fn missed(note: &Note) -> Option<Missed> {
    match note {
        Note::NotPrecise { missed, .. } => Some(*missed),
        _ => None,
    }
}

/// The short words for `notes`, all of `first`'s kind: what they say and
/// the remedy. A figure is named only when every note shares it.
fn summarise(first: &Note, notes: &[&Note]) -> (String, &'static str) {
    let shared = |figure: fn(&Note) -> Option<String>| {
        let value = figure(first)?;
        notes
            .iter()
            .all(|n| figure(n).as_ref() == Some(&value))
            .then_some(value)
    };
    match first {
        Note::NotPrecise { .. } => {
            let target = shared(|n| match n {
                Note::NotPrecise { target, .. } => Some(percent(*target)),
                _ => None,
            });
            (
                match target {
                    Some(target) => format!("not precise (±{target} not reached)"),
                    None => "not precise (--precision not reached)".to_string(),
                },
                // Processes that each met the target alone need more
                // processes, not more time each; an interval the whole
                // run's analysis widened, a quieter machine.
                {
                    let any =
                        |why: fn(Missed) -> bool| notes.iter().any(|n| missed(n).is_some_and(why));
                    match (
                        any(|m| m == Missed::MaxTime),
                        any(|m| matches!(m, Missed::ProcessesDiffer(_))),
                        any(|m| matches!(m, Missed::Widened(_))),
                    ) {
                        (false, true, false) => "raise --forks",
                        (true, true, false) => "raise --max-time or --forks",
                        (false, false, true) => "rerun when quieter",
                        (true, false, true) => "raise --max-time, or rerun when quieter",
                        (false, true, true) => "raise --forks, or rerun when quieter",
                        (true, true, true) => "raise --max-time or --forks, or rerun when quieter",
                        _ => "raise --max-time",
                    }
                },
            )
        }
        Note::FewSamples { .. } => (
            "few samples (--max-time reached)".to_string(),
            "raise --max-time",
        ),
        Note::OneSample => ("one sample, no spread".to_string(), "raise --max-time"),
        Note::BudgetUnspent { .. } => (
            "--max-time ended it before --measure-time".to_string(),
            "raise --max-time",
        ),
        Note::SampleCap { .. } => (
            "stopped at the sample cap".to_string(),
            "accept a wider --precision",
        ),
        Note::ShortSamples { .. } => {
            let capped = |n: &&Note| {
                matches!(
                    n,
                    Note::ShortSamples {
                        wall_cap: Some(_),
                        ..
                    }
                )
            };
            let remedy = match (notes.iter().all(capped), notes.iter().any(capped)) {
                (true, _) => "raise --measure-time, or a cheaper set-up",
                (false, true) => "raise --max-time or --measure-time",
                (false, false) => "raise --max-time so samples can grow",
            };
            ("samples too short for the clock".to_string(), remedy)
        }
        Note::NearOverhead { .. } => (
            "at the loop's own cost".to_string(),
            "compare within an A/B group",
        ),
        Note::WarmUpUnsettled { .. } => {
            ("warm-up did not settle".to_string(), "raise --warm-up-time")
        }
        Note::SpeedChanged { .. } => (
            "own cost changed between slices".to_string(),
            "look for state that grows",
        ),
        Note::Levels {
            fast_share,
            fast,
            slow_share,
            slow,
            ..
        } if notes.len() == 1 => (
            format!(
                "2 levels: {} of calls at {}, {} at {}",
                percent_whole(*fast_share),
                time(fast.0),
                percent_whole(*slow_share),
                time(slow.0),
            ),
            match levels_reading(notes[0]) {
                Some(LevelsReading::Mean) => "the time is their mean",
                Some(LevelsReading::Faster) => "the time is the faster; --details",
                Some(LevelsReading::Bound) => "the time is a bound; --details",
                _ => "the time is neither; --details",
            },
        ),
        Note::Levels { .. } => (
            "cost per call at 2 levels".to_string(),
            if (notes.iter()).all(|n| levels_reading(n) == Some(LevelsReading::Mean)) {
                "the time is their mean; --details has them"
            } else {
                "--details has them, and what the time is"
            },
        ),
        Note::MachineDisturbed { .. } => (
            "machine disturbed nearly throughout".to_string(),
            "rerun when quieter",
        ),
        Note::Multimodal { .. } => (
            "multimodal samples".to_string(),
            "rerun, or see the raw samples",
        ),
        Note::HighSpread { .. } => (
            "high spread within slices".to_string(),
            "quieten the machine, or fix the input",
        ),
        Note::SharedArena { .. } => (
            "threads beside it share one arena".to_string(),
            "MALLOC_ARENA_MAX=8 if they allocate",
        ),
        Note::LowCpu { .. } => {
            let shares: Vec<f64> = notes
                .iter()
                .filter_map(|n| match n {
                    Note::LowCpu { share } => Some(*share),
                    _ => None,
                })
                .collect();
            let low = shares.iter().copied().reduce(f64::min).map(percent_whole);
            let high = shares.iter().copied().reduce(f64::max).map(percent_whole);
            (
                range_text("CPU time", low, high, "of wall time"),
                "look for a wait, or quieten the machine",
            )
        }
        Note::ColdAfterPause { .. } => {
            // No figure: the pairs' median rise is not what the time moved
            // (a 6-12% rise in pairs, and 1.2-1.5x on the time).
            let again = notes.iter().all(|n| {
                matches!(
                    n,
                    Note::ColdAfterPause {
                        interleaved: Some(_),
                        ..
                    }
                )
            });
            (
                "slower after longer pauses".to_string(),
                if again {
                    "timed again warm, in one stretch"
                } else {
                    "--schedule sequential runs it warm"
                },
            )
        }
        Note::ProcessesDiffer { .. } => (
            "processes differ beyond their slices".to_string(),
            "raise --forks",
        ),
        Note::DiffersAlone { .. } => (
            "differs in its A/B group from alone".to_string(),
            "compare them alone too (--exact NAME)",
        ),
    }
}

/// `90%`.
fn percent_whole(fraction: f64) -> String {
    format!("{:.0}%", fraction * 100.0)
}

/// `CPU time 27–79% of wall time`, or one figure when both ends read the
/// same.
fn range_text(what: &str, low: Option<String>, high: Option<String>, of: &str) -> String {
    match (low, high) {
        (Some(low), Some(high)) if low != high => {
            format!("{what} {}–{high} {of}", low.trim_end_matches('%'))
        }
        (_, Some(one)) | (Some(one), None) => format!("{what} {one} {of}"),
        (None, None) => format!("{what} low {of}"),
    }
}

#[cfg(test)]
mod tests {
    use bench_runtime::Nanos;

    use super::*;

    /// One note of each kind, with the text every output shows for it.
    fn every_kind() -> Vec<(Note, &'static str)> {
        vec![
            (
                Note::FewSamples {
                    max_time: Nanos(2e9),
                    samples: 1,
                    min_samples: 10,
                    iteration: Nanos(1.5e9),
                    setup: Nanos(1e6),
                    processes: 1,
                },
                "stopped at --max-time (2.000 s) with 1 of 10 samples: one iteration takes \
                 1.500 s; raise --max-time for more samples",
            ),
            (
                Note::BudgetUnspent {
                    max_time: Nanos(5e8),
                    measure_time: Nanos(1e9),
                },
                "--max-time (500.0 ms) ended the run before --measure-time (1.000 s) was spent: \
                 set-up, warm-up and measurement do not fit; raise --max-time",
            ),
            (
                Note::NotPrecise {
                    max_time: Nanos(2e9),
                    achieved: None,
                    target: 0.01,
                    missed: Missed::MaxTime,
                },
                "not precise: --max-time (2.000 s) ran out, target ±1.00%; the benchmark or the \
                 machine is noisy: close other programs, raise --max-time, or accept a wider \
                 --precision",
            ),
            (
                Note::SampleCap { max_samples: 500 },
                "stopped at the sample cap (500) before the stop rule was met: the benchmark is \
                 very fast and noisy; accept a wider --precision to stop sooner",
            ),
            (
                Note::OneSample,
                "1 sample: mean, median, min and max are that sample and no spread can be \
                 estimated; raise --max-time for more",
            ),
            (
                Note::WarmUpUnsettled {
                    warm_up_time: Nanos(1e8),
                    final_cv: None,
                    window: 10,
                    threshold: 0.05,
                },
                "warm-up did not settle within --warm-up-time (100.0 ms): rolling CV never \
                 computed over 10 samples, threshold 5.00%; early samples may still carry \
                 warm-up effects: raise --warm-up-time",
            ),
            (
                Note::ShortSamples {
                    median: Nanos(2078.0),
                    read_cost: Nanos(30.0),
                    wall_cap: Some(Nanos(3e7)),
                },
                "samples last 2.078 µs (median), under 100× the timer's read cost (30.00 ns): \
                 the clock's own cost distorts them; the untimed set-up of each input dominates \
                 a sample, and a sample's wall time is capped at 30.00 ms; raise --measure-time \
                 so samples can grow, or make the set-up cheaper",
            ),
            (
                Note::HighSpread { spread: 0.153 },
                "high spread: within slices, outliers excluded, the standard deviation is 15.3% \
                 of the time per iteration; the work varies between iterations or the machine is \
                 busy: close other programs, or give the body a fixed input",
            ),
            (
                Note::SpeedChanged {
                    fastest: Nanos(10.0),
                    slowest: Nanos(13.0),
                    drift: 0.12,
                },
                "this benchmark's own cost changed from slice to slice while the machine's \
                 speed probe was steady: slice means range from 10.00 ns to 13.00 ns (CV \
                 12.0%); the time is the mean cost of a call over all of them: look for state \
                 that grows between calls (a collection, a cache) if the cost should be steady",
            ),
            (
                Note::Levels {
                    fast_share: 0.9,
                    fast: Nanos(100.0),
                    slow_share: 0.1,
                    slow: Nanos(1000.0),
                    time: Some(Nanos(191.0)),
                    steady: false,
                },
                "the cost per call sits at two levels: 90% of calls at 100.0 ns, 10% at 1.000 \
                 µs (a mean of 190.0 ns); the time is their mean (a rare expensive call, or \
                 phases in and out of a cache, are the program's own cost)",
            ),
            (
                Note::MachineDisturbed {
                    disturbed: 38,
                    blocks: 40,
                },
                "the machine was disturbed in 38 of 40 slices (the speed probe beside them ran \
                 over 15% slow, or the thread was descheduled), too many to leave out: the time \
                 includes the machine's slow spells; rerun on a quieter machine",
            ),
            (
                Note::Multimodal { mvalue: 2.46 },
                "the samples look multimodal within slices (mvalue 2.5): either the benchmark \
                 has more than one speed (a second code path, an allocator's slow path) or the \
                 machine switched speed within slices; rerun, and if it persists look at the raw \
                 samples",
            ),
            (
                Note::LowCpu { share: 0.4 },
                "CPU time was 40.0% of wall time: the benchmark waited (I/O, a lock, a sleep) or \
                 was descheduled; if it should be CPU-bound, look for the wait or quieten the \
                 machine",
            ),
            (
                Note::SharedArena { share: 0.95 },
                "other threads of the process worked beside this benchmark's thread, for 95% of \
                 its CPU time: under the harness every thread takes its memory from glibc's \
                 main arena, as code on a program's main thread does, so threads that \
                 allocate contend for it where a program's would each have an arena of their \
                 own; if they allocate, measure it with MALLOC_ARENA_MAX=8 too, which gives \
                 every thread its own (the measuring one included)",
            ),
            (
                Note::ColdAfterPause {
                    concordant: 0.71,
                    rise: 0.094,
                    pause: Nanos(5.6e6),
                    interleaved: None,
                },
                "its slices cost more the longer it was paused before them (other benchmarks \
                 ran in the pauses, 5.600 ms on the median): of pairs of its consecutive \
                 slices whose pauses differed twofold, the one after the longer pause cost more \
                 in 71%, by 9% on the median. The time includes re-warming what each pause \
                 cooled (caches, the TLB, or state of its own), where a loop running it alone \
                 keeps them warm; measure it warm with --schedule sequential",
            ),
            (
                Note::ProcessesDiffer {
                    processes: 3,
                    fastest: Nanos(10.0),
                    slowest: Nanos(11.0),
                    spread: 0.0476,
                },
                "the processes differ more than their slices explain: 3 processes measured \
                 10.00 ns to 11.00 ns (CV 4.76%); memory layout (ASLR, allocation addresses, \
                 code alignment) or the machine's speed while each ran moves this benchmark, so \
                 its ± spans the processes: raise --forks to narrow it",
            ),
            (
                Note::DiffersAlone {
                    alone: Nanos(100.0),
                    ratio: 1.25,
                    page_faults: Some((64.0, 0.0)),
                },
                "in its A/B group this benchmark took 25.0% longer than alone (100.0 ns) (64.0 \
                 page faults per iteration in the group, 0.0 alone): the members disturb each \
                 other (caches, the allocator, outputs kept alive), so the group's ratio may \
                 not hold for either alone; compare them run alone too (--exact NAME)",
            ),
        ]
    }

    #[test]
    fn each_note_reads_as_one_line_with_its_numbers() {
        for (note, text) in every_kind() {
            assert_eq!(note.to_string(), text, "{note:?}");
        }
    }

    #[test]
    fn other_threads_busier_than_the_benchmark_read_as_a_multiple() {
        let text = Note::SharedArena { share: 5.21 }.to_string();
        let start = "other threads of the process worked beside this benchmark's thread, for 5.2× \
                     its CPU time:";
        assert!(text.starts_with(start), "{text}");
        let text = Note::SharedArena { share: 0.996 }.to_string();
        assert!(text.contains("thread, for 1.0× its CPU time:"), "{text}");
    }

    /// What the time is beside two levels, by the figures: the faster
    /// level's (a steady body), their mean, or neither (`insert_10k` over
    /// three processes at 262, 391 and 262 µs printed 304.9 µs beside
    /// levels of 265 and 404 µs); in the note and the summary's remedy.
    #[test]
    fn a_levels_note_says_what_the_time_is_by_the_figures() {
        let levels = |time: f64, steady: bool| Note::Levels {
            fast_share: 0.56,
            fast: Nanos(262_300.0),
            slow_share: 0.44,
            slow: Nanos(385_300.0),
            time: (time > 0.0).then_some(Nanos(time)),
            steady,
        };
        let start = "the cost per call sits at two levels: 56% of calls at 262.3 µs, 44% at \
                     385.3 µs (a mean of 316.4 µs); ";
        let cases = [
            (
                levels(258_000.0, true),
                "the time is the faster level's: the body is steady within its slices, so its \
                 slower calls are read as the machine's slow spells, unless they are a phase of \
                 the program's own",
                "the time is the faster; --details",
            ),
            (
                levels(318_000.0, false),
                "the time is their mean (a rare expensive call, or phases in and out of a \
                 cache, are the program's own cost)",
                "the time is their mean",
            ),
            // Steady, but the time is no level's: said as neither.
            (
                levels(304_900.0, true),
                "the time, 304.9 µs, is neither the faster level nor their mean",
                "the time is neither; --details",
            ),
            // Near the faster level, but not steady: not the fast regime.
            (
                levels(262_300.0, false),
                "the time, 262.3 µs, is neither the faster level nor their mean",
                "the time is neither; --details",
            ),
            // A bound (`<5.903 µs`): no figure to compare.
            (
                levels(0.0, true),
                "the time is a bound, its interval reaching zero, and no level's",
                "the time is a bound; --details",
            ),
        ];
        for (note, end, remedy) in cases {
            assert_eq!(note.to_string(), format!("{start}{end}"));
            let group = &grouped(&[noted("insert", vec![note])])[0];
            assert_eq!(
                (group.summary.as_str(), group.remedy.as_str()),
                (
                    "2 levels: 56% of calls at 262.3 µs, 44% at 385.3 µs",
                    remedy
                )
            );
        }
    }

    #[test]
    fn each_kind_has_a_name_of_its_own_in_snake_case() {
        let kinds: Vec<&str> = every_kind().iter().map(|(note, _)| note.kind()).collect();
        for (i, kind) in kinds.iter().enumerate() {
            assert!(
                kind.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{kind}"
            );
            assert!(!kinds[..i].contains(kind), "{kind} twice");
        }
    }

    /// A set-up of 3 s (a 128 MiB table built before `b.iter`) left one
    /// 2 µs iteration time for six samples: the note names the set-up,
    /// not the iteration, as what took the time.
    #[test]
    fn few_samples_after_a_long_set_up_name_the_set_up() {
        let note = Note::FewSamples {
            max_time: Nanos(2e9),
            samples: 6,
            min_samples: 10,
            iteration: Nanos(2264.0),
            setup: Nanos(3.07e9),
            processes: 1,
        };
        assert_eq!(
            note.to_string(),
            "stopped at --max-time (2.000 s) with 6 of 10 samples: the set-up took 3.070 s, \
             and --max-time counts it; raise --max-time well above the set-up's time, or make \
             the set-up cheaper"
        );
    }

    /// Under `--forks` each process pays its set-up out of its share of
    /// `--max-time`: a 0.6 s set-up in each of 3 processes left a 10 ns
    /// body one sample a process (here), and the note blamed the
    /// iteration, comparing 0.6 s with the whole 2 s.
    #[test]
    fn few_samples_after_a_set_up_in_each_process_name_its_share() {
        let note = |processes| Note::FewSamples {
            max_time: Nanos(2e9),
            samples: 3,
            min_samples: 10,
            iteration: Nanos(620.9),
            setup: Nanos(6e8),
            processes,
        };
        assert_eq!(
            note(3).to_string(),
            "stopped at --max-time (2.000 s) with 3 of 10 samples: the set-up took 600.0 ms \
             in each of 3 processes, and each process's share of --max-time (666.7 ms) counts \
             it; raise --max-time well above 3× the set-up's time, make the set-up cheaper, or \
             use fewer processes (--forks)"
        );
        // In one process, 0.6 s of 2 s is not what stopped it.
        assert!(note(1).to_string().contains("one iteration takes 620.9 ns"));
    }

    #[test]
    fn processes_precise_alone_but_not_together_say_so_with_the_remedy() {
        let note = Note::NotPrecise {
            max_time: Nanos(2e9),
            achieved: Some(0.176),
            target: 0.05,
            missed: Missed::ProcessesDiffer(4),
        };
        assert_eq!(
            note.to_string(),
            "not precise: each of 4 processes met its share of ±5.00% alone, but they differ, \
             so the time over them is known to ±17.6%; more processes narrow it: raise --forks \
             (and --max-time, if it left no room for one more), or accept a wider --precision"
        );
    }

    #[test]
    fn an_interval_widened_after_its_stop_says_so_and_not_that_processes_differ() {
        let note = |processes| Note::NotPrecise {
            max_time: Nanos(2e9),
            achieved: Some(0.0729),
            target: 0.05,
            missed: Missed::Widened(processes),
        };
        assert_eq!(
            note(Some(3)).to_string(),
            "not precise: the time is known to ±7.29%, not ±5.00%: each of 3 processes met its \
             share of the target while measuring, but the analysis of the whole run (which \
             slices the machine disturbed, the loop's final overhead) widened their intervals; \
             rerun when quieter, or accept a wider --precision"
        );
        assert!(note(None)
            .to_string()
            .contains(": the interval met the target while measuring, but"));
        let widened = [noted("a", vec![note(Some(3))])];
        assert_eq!(grouped(&widened)[0].remedy, "rerun when quieter");
    }

    #[test]
    fn a_reached_precision_and_a_settling_cv_are_shown() {
        let not_precise = Note::NotPrecise {
            max_time: Nanos(2e9),
            achieved: Some(0.0264),
            target: 0.01,
            missed: Missed::MaxTime,
        };
        assert!(not_precise
            .to_string()
            .starts_with("not precise: --max-time (2.000 s) ran out with the time known to ±2.64%, target ±1.00%;"));
        let warm_up = Note::WarmUpUnsettled {
            warm_up_time: Nanos(1e8),
            final_cv: Some(0.08),
            window: 10,
            threshold: 0.05,
        };
        assert!(warm_up
            .to_string()
            .contains("rolling CV 8.00% over 10 samples"));
        let short = Note::ShortSamples {
            median: Nanos(2078.0),
            read_cost: Nanos(30.0),
            wall_cap: None,
        };
        assert!(short
            .to_string()
            .ends_with("distorts them; raise --max-time so samples can grow"));
    }

    /// A measured result named `name` whose notes are `notes`.
    fn noted(name: &str, notes: Vec<Note>) -> BenchResult {
        let mut result =
            crate::testing::fixed_run::measured(name, crate::testing::fixed_run::interleaved());
        if let crate::results::Outcome::Measured(m) = &mut result.outcome {
            m.notes = notes;
        }
        result
    }

    fn not_precise(target: f64) -> Note {
        Note::NotPrecise {
            max_time: Nanos(2e9),
            achieved: Some(0.02),
            target,
            missed: Missed::MaxTime,
        }
    }

    #[test]
    fn notes_are_grouped_by_kind_in_a_fixed_order_with_their_benchmarks() {
        let results = [
            noted("a", vec![Note::LowCpu { share: 0.5 }, not_precise(0.01)]),
            noted("b", vec![]),
            noted("c", vec![Note::LowCpu { share: 0.79 }]),
            noted(
                "d",
                vec![not_precise(0.01), Note::Multimodal { mvalue: 3.0 }],
            ),
            crate::results::BenchResult::new("e", crate::results::Outcome::Ignored),
        ];
        let groups = grouped(&results);
        let summary: Vec<(&str, Vec<&str>)> = groups
            .iter()
            .map(|g| (g.kind, g.names.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            summary,
            [
                ("not_precise", vec!["a", "d"]),
                ("multimodal", vec!["d"]),
                ("low_cpu", vec!["a", "c"]),
            ]
        );
        assert_eq!(groups[0].summary, "not precise (±1.00% not reached)");
        assert_eq!(groups[0].remedy, "raise --max-time");
        assert_eq!(groups[2].summary, "CPU time 50–79% of wall time");
    }

    #[test]
    fn a_precision_missed_over_processes_is_remedied_by_more_processes() {
        let forks = |target| Note::NotPrecise {
            max_time: Nanos(2e9),
            achieved: Some(0.03),
            target,
            missed: Missed::ProcessesDiffer(6),
        };
        let both = [noted("a", vec![forks(0.01)]), noted("b", vec![forks(0.01)])];
        assert_eq!(grouped(&both)[0].remedy, "raise --forks");
        let mixed = [
            noted("a", vec![forks(0.01)]),
            noted("b", vec![not_precise(0.01)]),
        ];
        assert_eq!(grouped(&mixed)[0].remedy, "raise --max-time or --forks");
        let time = [noted("a", vec![not_precise(0.01)])];
        assert_eq!(grouped(&time)[0].remedy, "raise --max-time");
    }

    #[test]
    fn a_figure_is_named_only_when_every_note_of_the_kind_shares_it() {
        let results = [
            noted("a", vec![not_precise(0.01)]),
            noted("b", vec![not_precise(0.02)]),
        ];
        assert_eq!(
            grouped(&results)[0].summary,
            "not precise (--precision not reached)"
        );
        let one = [noted("a", vec![Note::LowCpu { share: 0.42 }])];
        assert_eq!(grouped(&one)[0].summary, "CPU time 42% of wall time");
    }

    #[test]
    fn every_kind_has_a_short_summary_and_remedy() {
        let kinds: Vec<Note> = every_kind().into_iter().map(|(note, _)| note).collect();
        let results: Vec<BenchResult> = kinds
            .iter()
            .enumerate()
            .map(|(i, note)| noted(&format!("bench_{i}"), vec![note.clone()]))
            .collect();
        let groups = grouped(&results);
        assert_eq!(groups.len(), kinds.len());
        for group in &groups {
            assert!(ORDER.contains(&group.kind), "{}", group.kind);
            // Short enough for a name and a count (`fib_20, … 12 more`)
            // on a 100-column line: `note: SUMMARY: NAMES; REMEDY`.
            let frame =
                "note: : ; ".len() + group.summary.chars().count() + group.remedy.chars().count();
            assert!(
                frame <= 100 - "fib_20, … 12 more".chars().count(),
                "{group:?}"
            );
        }
    }

    #[test]
    fn a_row_whose_slices_were_mostly_slow_is_grouped_first() {
        let mut slow = noted("slow", vec![not_precise(0.01)]);
        if let crate::results::Outcome::Measured(m) = &mut slow.outcome {
            // Five blocks, four of them disturbed: not reliable.
            m.estimate.block_means = vec![1.0, 2.0, 2.0, 2.0, 2.0];
            m.estimate.disturbed = vec![false, true, true, true, true];
            m.estimate.kept_blocks = 1;
            assert!(!m.reliable());
        }
        let groups = grouped(&[noted("fine", vec![]), slow]);
        assert_eq!(groups[0].kind, "unreliable");
        assert_eq!(groups[0].names, ["slow"]);
        assert_eq!(groups[1].kind, "not_precise");
    }

    /// The empty body of the issue: 1.063 ps in [−0.62, 2.75] ps.
    fn empty_body() -> BenchResult {
        let mut empty = noted("empty", vec![]);
        if let crate::results::Outcome::Measured(m) = &mut empty.outcome {
            m.estimate.estimate = 0.001063;
            m.estimate.interval = Some(crate::analysis::Interval {
                lower: -0.00062,
                upper: 0.00275,
                confidence: 0.95,
            });
        }
        empty
    }

    #[test]
    fn a_row_printed_as_a_bound_says_what_the_bound_means() {
        let empty = empty_body();
        let text = bound_text(empty.measured().unwrap()).unwrap();
        assert!(
            text.starts_with(
                "at most 2.750 ps: the 95% interval of the time, [-0.620 ps, 2.750 ps], \
                 reaches zero, so only its upper end is a figure; "
            ),
            "{text}"
        );
        assert!(text.ends_with("give it more work, or compare it within an A/B group"));
        let groups = grouped(&[noted("fine", vec![]), empty]);
        assert_eq!(groups.len(), 1, "{groups:?}");
        assert_eq!(groups[0].kind, "upper_bound");
        assert_eq!(groups[0].names, ["empty"]);
        assert_eq!(groups[0].remedy, "give the body more work");
        assert_eq!(bound_text(noted("fine", vec![]).measured().unwrap()), None);
    }

    /// A varying body far above the loop's cost whose interval reaches zero
    /// (its own cost spread over phases longer than the run averaged) is
    /// not told to do more work: more time is what narrows it, named by
    /// the flag that gives it under its stop rule.
    #[test]
    fn a_bound_from_the_bodys_own_spread_asks_for_more_time_not_more_work() {
        let phased = |steady: bool, stop_rule: StopRule| {
            let mut phased = noted("cache_phases", vec![]);
            if let crate::results::Outcome::Measured(m) = &mut phased.outcome {
                m.estimate.estimate = 149.85;
                m.estimate.steady = steady;
                m.estimate.interval = Some(crate::analysis::Interval {
                    lower: -875.96,
                    upper: 1175.66,
                    confidence: 0.95,
                });
                m.config.stop_rule = stop_rule;
            }
            phased
        };
        let precise = StopRule::Precision { target: 0.01 };
        let varying = phased(false, precise);
        let text = bound_text(varying.measured().unwrap()).unwrap();
        assert!(text.starts_with("at most 1.176 µs: "), "{text}");
        assert!(
            text.ends_with("raise --max-time, so that the run averages more of it"),
            "{text}"
        );
        let groups = grouped(&[varying, empty_body()]);
        let remedies: Vec<(&[String], &str)> = groups
            .iter()
            .map(|g| (g.names.as_slice(), g.remedy.as_str()))
            .collect();
        assert_eq!(
            remedies,
            [
                (&["empty".to_string()][..], "give the body more work"),
                (
                    &["cache_phases".to_string()][..],
                    "its cost varied by more than itself: raise --max-time"
                ),
            ]
        );
        assert_ne!(groups[0].summary, groups[1].summary);
        // Under a time budget the flag that gives it more time is another.
        let budget = grouped(&[phased(false, StopRule::TimeBudget)]);
        assert_eq!(
            budget[0].remedy,
            "its cost varied by more than itself: raise --measure-time"
        );
        // A steady body's blocks agree: only the harness's resolution takes
        // its interval to zero, whatever it costs.
        let steady = grouped(&[phased(true, precise)]);
        assert_eq!(steady[0].remedy, "give the body more work");
    }

    /// Of every kind, only the informational ones leave a row unmarked.
    #[test]
    fn only_notes_that_change_the_reading_mark_a_row() {
        let unmarked: Vec<&str> = every_kind()
            .iter()
            .filter(|(note, _)| !changes_reading(note))
            .map(|(note, _)| note.kind())
            .collect();
        assert_eq!(unmarked, ["warm_up_unsettled", "high_spread"]);
        let row = |notes| noted("r", notes).measured().map(marked).unwrap();
        assert!(!row(vec![]));
        assert!(!row(vec![Note::HighSpread { spread: 0.2 }]));
        assert!(row(vec![
            Note::HighSpread { spread: 0.2 },
            Note::LowCpu { share: 0.5 }
        ]));
        assert!(empty_body().measured().is_some_and(marked));
    }
}
