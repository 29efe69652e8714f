//! Verdicts: each benchmark against the saved baseline (with the machine's
//! own change of speed allowed for), each A/B group's members against its
//! baseline member, and the complexity fits.

mod headline;

use crate::analysis::compare::{self, Comparison, Verdict};
use crate::analysis::mean;
use crate::baseline::Store;
use crate::cli::BaselineOptions;
use crate::console;
use crate::document::{Document, ScheduleKind};
use crate::report::format::too_fast_to_compare;
use crate::results::comparison::BaselineReport;
use crate::results::{BenchResult, Compared, ComplexityReport, GroupReport, Measured};
use crate::run;
use crate::settings::Schedule;

use super::rows::Selection;

/// Reads baseline `name` to compare with, before anything is measured.
/// An older version's shared `NAME.json` gets a note (it may hold another
/// bench target's benchmarks). A baseline an interrupted run saved
/// (`"partial": true`) lacks benchmarks that would then pass as new: it is
/// refused for the gate (`gating`, `--fail-on-regression`) and warned
/// about otherwise.
pub(super) fn load_baseline(store: &Store, name: &str, gating: bool) -> Result<Document, String> {
    let loaded = store.load(name).map_err(|e| e.to_string())?;
    let path = loaded.path.display();
    if loaded.legacy {
        console::note(&format_args!(
            "baseline '{name}' ({path}) was saved before baselines were kept per bench \
             target: every bench target wrote it and the last one run won, so it may hold \
             another target's benchmarks; save it again with --save-baseline {name}"
        ));
    }
    let document = loaded.document;
    if document.partial {
        let measured = document
            .benchmarks
            .iter()
            .filter(|b| b.measurement.is_some())
            .count();
        let what = format!(
            "baseline '{name}' ({path}) was saved by an interrupted run (\"partial\": true; \
             {measured} benchmark{} measured), so a benchmark it lacks passes as new",
            if measured == 1 { "" } else { "s" }
        );
        if gating {
            return Err(format!(
                "{what}: it cannot gate --fail-on-regression; save it again with a whole run \
                 of --save-baseline {name}"
            ));
        }
        console::status(&format_args!(
            "warning: {what}; save it again with a whole run of --save-baseline {name}"
        ));
    }
    Ok(document)
}

/// A baseline saved before group names became part of their members'
/// names holds `naive/1024` where this binary has `find_byte/naive/1024`:
/// says so once, with the fix, rather than leaving those rows `new` without
/// a word. `renamed` pairs each group member's old name with its name.
pub(super) fn note_group_renames(
    name: &str,
    baseline: &Document,
    renamed: &[(String, String)],
    registered: &[String],
) {
    let old: Vec<&(String, String)> = renamed
        .iter()
        .filter(|(old, _)| !registered.contains(old))
        .filter(|(old, _)| baseline.benchmarks.iter().any(|b| &b.name == old))
        .collect();
    let Some((first_old, first_new)) = old.first() else {
        return;
    };
    console::note(&format_args!(
        "baseline '{name}' names {} group member{} without the group ('{first_old}', now \
         '{first_new}'): it was saved before group names became part of their members' \
         names, so these compare as new; save it again with --save-baseline {name}",
        old.len(),
        if old.len() == 1 { "" } else { "s" },
    ));
}

/// After a run compared with baseline `name`: did it compare enough of it
/// to mean anything? Nothing compared (every benchmark `new`: a baseline of
/// another binary or of renamed benchmarks), or fewer compared than the
/// baseline's benchmarks this binary no longer has, fails the gate
/// (`gating`: returns true, with an error line) and is a warning
/// otherwise. A run whose filter selected few of the baseline's benchmarks
/// is fine: those not selected are still in this binary.
pub(super) fn coverage(
    name: &str,
    baseline: &Document,
    results: &[BenchResult],
    registered: &[String],
    gating: bool,
) -> bool {
    let compared = results
        .iter()
        .filter(|r| matches!(r.comparison, Some(Compared::Against(_))))
        .count();
    let new = results
        .iter()
        .filter(|r| matches!(r.comparison, Some(Compared::New)))
        .count();
    let held: Vec<&str> = baseline
        .benchmarks
        .iter()
        .filter(|b| b.measurement.is_some())
        .map(|b| b.name.as_str())
        .collect();
    let gone: Vec<&str> = held
        .iter()
        .copied()
        .filter(|b| !registered.iter().any(|r| r == b))
        .collect();
    let problem =
        if compared == 0 && new > 0 {
            format!(
                "nothing was compared with baseline '{name}': {new} new · 0 compared (it holds {} \
             benchmark{}, {} of them in this binary)",
                held.len(),
                if held.len() == 1 { "" } else { "s" },
                held.len() - gone.len()
            )
        } else if gone.len() > compared {
            let shown: Vec<&str> = gone.iter().copied().take(3).collect();
            format!(
            "only {compared} of baseline '{name}''s {} benchmarks were compared: {} are not in \
             this binary ({}{})",
            held.len(),
            gone.len(),
            shown.join(", "),
            if gone.len() > shown.len() { ", …" } else { "" }
        )
        } else {
            return false;
        };
    let fix = format!(
        "it was saved by another bench target, or the benchmarks were renamed; save it again \
         with --save-baseline {name}"
    );
    if gating {
        console::error(&format_args!(
            "--fail-on-regression: {problem}, so the gate cannot pass; {fix}"
        ));
        true
    } else {
        console::status(&format_args!("warning: {problem}; {fix}"));
        false
    }
}

/// The run against a saved baseline: how much the machine itself changed
/// speed, and the threshold a change must clear.
pub(super) struct BaselineComparison {
    /// The reference kernel then and now; `None` when either side lacks it.
    pub(super) machine_change: Option<Comparison>,
    /// `--noise-threshold` widened by the machine's change.
    pub(super) threshold: f64,
}

/// How `baseline` and this run compare as machines: the reference kernel's
/// headline then and now, `clock` this run's clock resolution (ns).
pub(super) fn compare(
    baseline: &Document,
    machine_reference: Option<&Measured>,
    options: &BaselineOptions,
    clock: f64,
) -> BaselineComparison {
    let machine_change = machine_reference.and_then(|now| {
        let then = baseline.machine_reference.as_ref()?;
        Some(compare::compare(
            &headline::recorded(then, baseline),
            &now.comparable(clock),
            0.0,
        ))
    });
    let threshold = comparison_threshold(options.noise_threshold, machine_change.as_ref());
    BaselineComparison {
        machine_change,
        threshold,
    }
}

/// What the reports record of the run against `baseline`: its name and
/// date, the thresholds, the machine's change, and the benchmarks it
/// measured that this binary (`registered`) no longer has.
pub(super) fn report(
    options: &BaselineOptions,
    baseline: &Document,
    comparison: BaselineComparison,
    registered: &[String],
) -> BaselineReport {
    BaselineReport {
        name: options.compare.clone().unwrap_or_default(),
        saved: baseline.environment.timestamp.clone(),
        noise_threshold: options.noise_threshold,
        threshold: comparison.threshold,
        machine_change: comparison.machine_change,
        gone: baseline
            .benchmarks
            .iter()
            .filter(|b| b.measurement.is_some() && !registered.contains(&b.name))
            .map(|b| b.name.clone())
            .collect(),
    }
}

/// The practical threshold of the baseline verdicts: `--noise-threshold`
/// widened by how much the machine itself changed speed since the baseline
/// was saved (the farther end of the reference kernel's 95% interval), so
/// that a slower machine is not reported as slower code.
fn comparison_threshold(noise_threshold: f64, machine_change: Option<&Comparison>) -> f64 {
    // An unknown change (too few slices for an interval, or no ratio)
    // allows for any: no verdict of change can then be made.
    let machine = machine_change.map_or(0.0, |c| {
        let farther = c.ratio.as_ref().map_or(f64::NAN, |r| {
            let (low, high) = r.change_interval;
            low.abs().max(high.abs())
        });
        if farther.is_nan() {
            f64::INFINITY
        } else {
            farther
        }
    });
    noise_threshold + machine
}

/// How this run measured, where a baseline measured otherwise moves the
/// time: [`compare_with`] and [`note_methods_differ`] read it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Method<'a> {
    pub(super) schedule: Schedule,
    /// `--cold`.
    pub(super) cold: bool,
    /// The rows the run's A/B units paired round by round, whatever the
    /// schedule.
    pub(super) paired: &'a [String],
}

/// `result` against the same benchmark in the baseline: the two rows'
/// headlines with their own intervals, compared by [`compare::compare`].
/// The baseline's samples are analysed again as this run's were, so that
/// both sides are the same estimator's. `clock` is this run's clock
/// resolution (ns). A row measured one way here and another in the
/// baseline ([`two_ways`]) is `Unclear` whatever its interval says: its
/// change holds the method's.
pub(super) fn compare_with(
    baseline: &Document,
    result: &BenchResult,
    noise_threshold: f64,
    clock: f64,
    method: Method<'_>,
) -> Option<Compared> {
    let new = result.measured()?;
    let old = baseline
        .benchmark(&result.name)
        .and_then(|record| record.measurement.as_ref())
        .and_then(|record| headline::rebuild(baseline, record));
    Some(match old {
        Some(old) => {
            let mut compared = compare::compare(
                &old.comparable(baseline.methodology.resolution_ns),
                &new.comparable(clock),
                noise_threshold,
            );
            compared.two_ways = !two_ways(baseline, result, method).is_empty();
            if let Some(ratio) = compared.ratio.as_mut().filter(|_| compared.two_ways) {
                ratio.verdict = Verdict::Unclear;
            }
            Compared::Against(compared)
        }
        None => Compared::New,
    })
}

/// How `result` was measured otherwise here than in `baseline`, in words
/// (none when alike):
/// - in one stretch against interleaved: the sequential schedule (not for
///   the rows an A/B unit paired round by round, under either schedule:
///   in the baseline, those its `groups` compared), or a second pass after
///   `cold_after_pause` (`session/warm.rs`); a pointer chase read
///   1.2-1.5x interleaved what it read in one stretch;
/// - `--cold` against not: the fixture's cooling body read 908 ns cold
///   against 112 ns warm. (A baseline from before `cold` was recorded
///   reads as not cold.)
/// - read by its page faults (`BlockEstimate::by_faults`) here, against a
///   baseline that did not count them: `insert_10k` read 315-368 µs so,
///   and 259-337 µs as the fast regime.
fn two_ways(baseline: &Document, result: &BenchResult, method: Method<'_>) -> Vec<&'static str> {
    let (Some(measured), Some(record)) = (
        result.measured(),
        (baseline.benchmark(&result.name)).and_then(|b| b.measurement.as_ref()),
    ) else {
        return Vec::new();
    };
    let sequential = method.schedule == Schedule::Sequential;
    let here =
        crate::history::one_stretch(sequential, method.paired.contains(&result.name), measured);
    let paired_there = baseline.groups.iter().any(|g| {
        g.baseline == result.name
            || (g.members.iter()).any(|m| m.name == result.name && m.status == "compared")
    });
    let there = (baseline.methodology.schedule == ScheduleKind::Sequential && !paired_there)
        || record.interleaved_ns.is_some();
    let mut ways = Vec::new();
    if here != there {
        ways.push("in one stretch in one run and interleaved in the other");
    }
    if method.cold != baseline.methodology.cold {
        ways.push("with the caches evicted (--cold) in one run and not in the other");
    }
    // A baseline with a slice not counted is rebuilt without the rule.
    let uncounted = record.slices.is_empty() || record.slices.iter().any(|s| s.faults.is_none());
    if measured.estimate.by_faults && uncounted {
        ways.push("with its page faults counted in one run and not in the other");
    }
    ways
}

/// Rows measured one way in this run and another in `baseline`
/// ([`two_ways`]): says so once for each way, naming them and baseline
/// `name`.
pub(super) fn note_methods_differ(
    name: &str,
    baseline: &Document,
    results: &[BenchResult],
    method: Method<'_>,
) {
    let differ: Vec<(&str, Vec<&str>)> = (results.iter())
        .map(|r| (r.name.as_str(), two_ways(baseline, r, method)))
        .filter(|(_, ways)| !ways.is_empty())
        .collect();
    let mut said: Vec<&str> = Vec::new();
    for (_, ways) in &differ {
        for way in ways {
            if said.contains(way) {
                continue;
            }
            said.push(way);
            let names: Vec<&str> = (differ.iter())
                .filter(|(_, w)| w.contains(way))
                .map(|(n, _)| *n)
                .collect();
            let more = match names.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            console::note(&format_args!(
                "{}{more} measured {way} (baseline '{name}'), so the change holds the \
                 method's and its verdict is unclear at most; compare runs measured alike",
                names[0]
            ));
        }
    }
}

/// Each A/B unit's members against its baseline, from the slices the
/// scheduler paired round by round: one report per group, or per argument
/// in a group with `args` (each against the baseline at that argument). A
/// member at an argument the baseline does not run at is listed, unpaired,
/// at the end of its group's last report. `clock` is the clock's
/// resolution (ns).
pub(super) fn group_reports(
    jobs: &[run::Job],
    job_rows: &[usize],
    round_logs: &[Option<run::RoundLog>],
    results: &[BenchResult],
    clock: f64,
) -> Vec<GroupReport> {
    let per_round = |job: usize| -> Option<Vec<Option<f64>>> {
        let measured = results[job_rows[job]].measured()?;
        let log = round_logs[job].as_ref()?;
        let needed = samples_needed(log);
        Some(
            log.iter()
                .map(|slice| {
                    slice
                        .clone()
                        .filter(|s| s.len() >= needed)
                        .and_then(|s| slice_median(measured, s))
                })
                .collect(),
        )
    };
    let name = |job: usize| &results[job_rows[job]].name;
    let measured = |job: usize| results[job_rows[job]].measured();
    let resolution = |job: usize| measured(job).map_or(0.0, |m| m.overhead.resolution().0);
    // The clock's resolution over a sample's iterations, in nanoseconds
    // per iteration: what a slice median cannot resolve.
    let quantum = |job: usize| measured(job).map_or(0.0, |m| clock / m.median_iters());
    let mut reports = Vec::new();
    let units = jobs
        .iter()
        .filter_map(|j| j.paired_group)
        .max()
        .map_or(0, |u| u + 1);
    for unit in 0..units {
        let members: Vec<usize> = (0..jobs.len())
            .filter(|&j| jobs[j].paired_group == Some(unit))
            .collect();
        let Some(&base) = members
            .iter()
            .find(|&&j| jobs[j].bench.entry.options.baseline)
        else {
            continue;
        };
        let base_rounds = per_round(base);
        let base_name = name(base);
        let compared = members
            .iter()
            .filter(|&&j| j != base)
            .map(|&j| {
                let paired = match (&base_rounds, per_round(j)) {
                    (None, _) => Err(format!("the baseline {base_name} failed")),
                    (_, None) => Err(format!("{} failed", name(j))),
                    (Some(b), Some(m)) => {
                        let (b, m): (Vec<f64>, Vec<f64>) =
                            b.iter().zip(&m).filter_map(|(b, m)| b.zip(*m)).unzip();
                        if b.len() < 2 {
                            Err("fewer than 2 rounds in common with the baseline: a sample \
                                 outlasts the budget; raise --measure-time"
                                .to_string())
                        } else {
                            // Each side's quantum relative to its time, the
                            // two independent: the least half-width of the
                            // mean log ratio.
                            let relative = |job: usize, values: &[f64]| {
                                quantum(job) / mean(values).abs().max(resolution(job))
                            };
                            let floor = relative(base, &b).hypot(relative(j, &m));
                            compare::compare_rounds(&b, &m, resolution(j), floor).ok_or_else(|| {
                                too_fast_to_compare(
                                    ("this member", mean(&m)),
                                    ("the baseline", mean(&b)),
                                )
                            })
                        }
                    }
                };
                (name(j).clone(), paired)
            })
            .collect();
        reports.push(GroupReport {
            group: jobs[base]
                .bench
                .entry
                .options
                .group
                .unwrap_or_default()
                .to_string(),
            baseline: base_name.clone(),
            members: compared,
        });
    }
    add_unpaired(&mut reports, jobs, job_rows, results);
    reports
}

/// The fewest samples a slice of this member needs to give its round a
/// value: [`MIN_ROUND_SAMPLES`], or as many as its slices usually hold
/// when that is fewer (a body slower than a third of a slice). A slice
/// that a preemption cut short holds one or two samples: too few to stand
/// for the body's time.
fn samples_needed(log: &run::RoundLog) -> usize {
    let mut counts: Vec<usize> = log.iter().flatten().map(|s| s.len()).collect();
    counts.sort_unstable();
    counts
        .get(counts.len() / 2)
        .map_or(1, |&typical| typical.clamp(1, MIN_ROUND_SAMPLES))
}

/// The samples a round's slice needs to give the round a value.
const MIN_ROUND_SAMPLES: usize = 3;

/// The median time per iteration of the samples `slice` (a range of
/// indices into `m`'s samples) recorded in one round, the samples during
/// which the thread was preempted left out: the round's value. `None` for
/// an empty slice, one beyond the samples, or one whose every sample was
/// preempted.
fn slice_median(m: &Measured, slice: std::ops::Range<usize>) -> Option<f64> {
    let values = m.per_iter.get(slice.clone())?;
    let preempted = &m.extras.preempted;
    let mut kept: Vec<f64> = (values.iter().zip(slice))
        .filter(|(_, i)| preempted.binary_search(i).is_err())
        .map(|(v, _)| *v)
        .collect();
    if kept.is_empty() {
        return None;
    }
    kept.sort_by(f64::total_cmp);
    Some(crate::analysis::percentile(&kept, 50.0))
}

/// Lists each member of a paired group that no unit took (no baseline runs
/// at its argument) at the end of its group's last report, after every
/// argument's comparisons.
fn add_unpaired(
    reports: &mut [GroupReport],
    jobs: &[run::Job],
    job_rows: &[usize],
    results: &[BenchResult],
) {
    // Only the user's jobs have rows; the hidden ones belong to no group.
    for (job, member) in jobs.iter().enumerate().take(job_rows.len()) {
        if member.paired_group.is_some() {
            continue;
        }
        let Some(group) = member.bench.entry.options.group else {
            continue;
        };
        // None: the group has no baseline that ran, and is not paired.
        let Some(report) = reports.iter_mut().rev().find(|r| r.group == group) else {
            continue;
        };
        let result = &results[job_rows[job]];
        let why = match result.measured() {
            None => format!("{} failed", result.name),
            Some(_) => unpaired(jobs, member),
        };
        report.members.push((result.name.clone(), Err(why)));
    }
}

/// Why `member` of a paired group has no unit: no baseline member runs at
/// its argument (or without one, for a member without `args`).
fn unpaired(jobs: &[run::Job], member: &run::Job) -> String {
    let baseline = jobs
        .iter()
        .find(|j| {
            j.paired_group.is_some()
                && j.bench.entry.options.baseline
                && j.bench.entry.options.group == member.bench.entry.options.group
        })
        .map_or_else(String::new, |j| j.bench.entry.full_name());
    match &member.bench.arg {
        Some(arg) => format!(
            "no baseline at this argument ({baseline}/{} did not run)",
            arg.name
        ),
        None => format!("no baseline without an argument ({baseline} runs with `args`)"),
    }
}

/// A growth class for each function marked `complexity` (every function
/// with at least three numeric arguments under `--complexity`), over its
/// measured benchmarks.
pub(super) fn complexity_reports(
    every_function: bool,
    selected: &Selection,
    results: &[BenchResult],
) -> Vec<ComplexityReport> {
    let mut functions: Vec<String> = Vec::new();
    for s in selected.iter().filter(|s| s.bench.arg.is_some()) {
        let function = s.bench.entry.full_name();
        let wanted = s.bench.entry.options.complexity
            || (every_function && numeric_args(selected, &function) >= 3);
        if wanted && !functions.contains(&function) {
            functions.push(function);
        }
    }
    functions
        .iter()
        .filter_map(|function| ComplexityReport::fit(function, results))
        .collect()
}

/// How many of `function`'s selected benchmarks have a numeric argument.
fn numeric_args(selected: &Selection, function: &str) -> usize {
    selected
        .iter()
        .filter(|s| s.bench.entry.full_name() == function && s.bench.numeric_arg().is_some())
        .count()
}

#[cfg(test)]
mod tests;
