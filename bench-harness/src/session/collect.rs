//! Collect and analyse: the plan's jobs measured (in this process on the
//! schedule, or in worker processes under `--forks`), the loop overhead taken
//! from its own job, and every measurement analysed into its row.

use bench_runtime::Measurement;

use super::plan::Plan;
use super::rows::{result_of, Selection};
use bench_runtime::Nanos;

use std::time::Instant;

use super::forks;
use super::worker::Loop;
use crate::analysis::{loop_overhead, Body, Overhead};
use crate::failure::Failure;
use crate::instruments::{self, Extras};
use crate::report::format;
use crate::report::progress::{self, Figure, Progress};
use crate::results::{differs_alone, BenchResult, Context, Measured, Outcome, RunInfo};
use crate::run;

/// What the measuring phase leaves besides the rows.
pub(super) struct Collected {
    /// The run's figures, with the loop overhead measured and `partial`
    /// set when Ctrl-C stopped the run.
    pub(super) info: RunInfo,
    /// One per selected benchmark that has a result, in report order.
    pub(super) results: Vec<BenchResult>,
    /// The harness's reference kernel, when the plan measured it.
    pub(super) machine_reference: Option<Measured>,
    /// The empty loop the overhead was taken from, analysed like a
    /// benchmark (its time is the loop's cost per iteration), so the
    /// document can show how the subtraction was measured.
    pub(super) loop_overhead: Option<Measured>,
    /// Per job, the rounds an A/B group member took part in.
    pub(super) round_logs: Vec<Option<run::RoundLog>>,
}

type Reported = Result<(Measurement, Extras), Failure>;

/// Measures the plan's jobs and analyses them, showing progress in `mode`
/// from `started` on. Under `--forks N` the user's benchmarks run in `N`
/// worker processes each (`worker_args` is their command line), and only
/// the machine reference (with its loop) runs here, between them.
pub(super) fn collect(
    plan: &Plan,
    selected: &Selection,
    forks: usize,
    worker_args: &[std::ffi::OsString],
    (mode, started): (progress::Mode, Instant),
) -> Collected {
    let jobs = &plan.jobs;
    let mut info = plan.info.clone();
    let mut measured: Vec<Option<Reported>> = vec![None; jobs.len()];
    let mut round_logs: Vec<Option<run::RoundLog>> = vec![None; jobs.len()];
    // None: this process measures.
    let forked = (forks > 0).then_some(forks).map(|processes| {
        // The reference kernel (and the loop beside it) is measured here,
        // in rounds of its own slice: a share of its measuring time before
        // each process, the rest after the last, so that the drift line
        // reads the machine's speed over the run.
        let beside: Vec<usize> = plan
            .reference_job
            .map_or_else(Vec::new, |reference| vec![reference, plan.overhead_job]);
        let beside_jobs: Vec<run::Job> = beside.iter().map(|&j| jobs[j].clone()).collect();
        let longest = (beside_jobs.iter())
            .map(|job| job.config.measure_time)
            .fold(Nanos::ZERO, Nanos::max);
        let beside_plan = run::Plan {
            slice: longest / super::plan::MIN_ROUNDS as f64,
            ..plan.schedule.clone()
        };
        let names = beside.iter().map(|&j| job_name(plan, j)).collect();
        let beside_watch = run::Watch::scheduled(&beside_jobs, &beside_plan, names, 0, started);
        let mut rounds = run::Rounds::start(&beside_jobs, &beside_plan, Some(&beside_watch));
        let per_process = super::plan::MIN_ROUNDS.div_ceil(processes + 1);
        let mut record = |i: usize, mut result: Reported, round_log: Option<run::RoundLog>| {
            if let Ok((_, extras)) = &mut result {
                extras.rounds.clone_from(&round_log);
            }
            round_logs[beside[i]] = round_log;
            measured[beside[i]] = Some(result);
        };
        let user_jobs = &jobs[..plan.job_rows.len()];
        let watch = run::Watch::forked(user_jobs, processes, started);
        let display = Progress::start(mode, watch.clone());
        let context = context(&info);
        let forked = forks::measure(
            worker_args,
            user_jobs,
            processes,
            info.seed,
            &context,
            &watch,
            &mut || {
                for _ in 0..per_process {
                    if bench_runtime::signal::stopping()
                        || !rounds.step(Some(&beside_watch), &mut record)
                    {
                        break;
                    }
                }
            },
        );
        for (job, outcome) in forked.outcomes.iter().enumerate() {
            let Some(outcome) = outcome else { continue };
            let figure = || {
                Some(match outcome {
                    Ok(m) => Figure::Time(format::Headline::of(m)),
                    Err(_) => Figure::Failed,
                })
            };
            if let Some(done) = watch.finished(job) {
                let name = user_jobs[job].bench.full_name();
                display.finished(done, user_jobs.len(), &name, figure);
            }
        }
        display.end();
        // What is left of the kernel, shown as it was before the processes
        // took the display.
        let display = Progress::start(mode, beside_watch.clone());
        while rounds.step(Some(&beside_watch), &mut record) {}
        display.end();
        forked
    });
    if forked.is_none() {
        let here = measure_here(plan, mode, started);
        measured = here.measured;
        round_logs = here.round_logs;
    }

    let probe_level = probe_level(&measured);
    let (of_loop, recorded) = of_the_loop(plan, &mut measured, probe_level);
    info.overhead = of_loop.overhead;
    let harness_allocations = of_loop.harness_allocations;
    let mut take = |job: usize| measured[job].take();
    let context = Context {
        probe_level,
        ..context(&info)
    };
    // `iter_custom`'s durations are the body's own: nothing to subtract.
    let self_timed = Context {
        overhead: Overhead::NONE,
        ..context
    };
    let analyse = |job: usize, (m, extras): (_, Extras)| {
        let context = if extras.self_timed {
            &self_timed
        } else {
            &context
        };
        let (body, config) = (jobs[job].body, jobs[job].config.clone());
        let mut measured = Measured::analyse_as(body, m, config, context, extras.evidence());
        measured.attach(extras, harness_allocations);
        measured
    };
    // `None` for a job stopped by Ctrl-C before its first sample.
    let mut result = |job: usize| match take(job)? {
        Ok((m, _)) if m.samples.is_empty() => None,
        Ok(m) => Some(Ok(analyse(job, m))),
        Err(failure) => Some(Err(failure)),
    };
    let machine_reference = plan.reference_job.and_then(|job| result(job)?.ok());
    // Measured in this process only: workers run the user's jobs.
    let alone: Vec<(usize, Measured)> = plan
        .solo_probes
        .iter()
        .filter_map(|&(member, probe)| Some((member, result(probe)?.ok()?)))
        .collect();
    info.partial = bench_runtime::signal::interrupted();
    let loop_measured = match forked.as_ref().and_then(|forked| forked.overhead) {
        // The header shows what the workers subtracted; this process's
        // own measurement of the loop (beside the machine reference) is
        // not what was taken out, and is not analysed.
        Some(overhead) => {
            info.overhead = overhead;
            None
        }
        None => recorded.map(|empty| loop_analysed(plan, empty, of_loop.overhead, probe_level)),
    };
    let mut forked_outcomes = forked.map(|forked| forked.outcomes);
    let mut rows = plan.rows.clone();
    for (job, &row) in plan.job_rows.iter().enumerate() {
        let measured = match &mut forked_outcomes {
            Some(outcomes) => {
                let outcome = outcomes[job].take();
                if let Some(Ok(m)) = &outcome {
                    round_logs[job].clone_from(&m.extras.rounds);
                }
                outcome
            }
            None => result(job),
        };
        let outcome = match measured {
            // Left out: stopped by Ctrl-C before its first sample.
            None => continue,
            Some(Ok(mut m)) => {
                let probe = alone.iter().find(|(member, _)| *member == job);
                if let Some(note) = probe.and_then(|(_, alone)| differs_alone(&m, alone)) {
                    m.notes.push(note);
                }
                Outcome::Measured(Box::new(m))
            }
            Some(Err(failure)) => Outcome::Failed(failure),
        };
        rows[row] = Some(result_of(&selected[row], outcome));
    }
    Collected {
        info,
        results: rows.into_iter().flatten().collect(),
        machine_reference,
        loop_overhead: loop_measured,
        round_logs,
    }
}

/// What the plan's jobs recorded, measured in this process.
pub(super) struct Here {
    /// Per job, its measurement, `None` if it was never reached (Ctrl-C).
    pub(super) measured: Vec<Option<Reported>>,
    /// Per job, the rounds an A/B group member took part in.
    pub(super) round_logs: Vec<Option<run::RoundLog>>,
}

/// Measures every job of the plan in this process on its schedule, showing
/// progress in `mode` from `started` on: a run in one process, or one of a
/// run's worker processes.
pub(super) fn measure_here(plan: &Plan, mode: progress::Mode, started: Instant) -> Here {
    let jobs = &plan.jobs;
    let mut measured: Vec<Option<Reported>> = vec![None; jobs.len()];
    let mut round_logs: Vec<Option<run::RoundLog>> = vec![None; jobs.len()];
    let all: Vec<usize> = (0..jobs.len()).collect();
    let names = all.iter().map(|&j| job_name(plan, j)).collect();
    let shown = plan.job_rows.len();
    let watch = run::Watch::scheduled(jobs, &plan.schedule, names, shown, started);
    let display = Progress::start(mode, watch.clone());
    run::measure(
        jobs,
        &plan.schedule,
        Some(&watch),
        |i, mut result, round_log| {
            if let Ok((_, extras)) = &mut result {
                extras.rounds.clone_from(&round_log);
            }
            if let Some(done) = watch.finished(i) {
                let figure = || match &result {
                    Ok((m, extras)) => {
                        let overhead = *plan
                            .schedule
                            .overhead
                            .lock()
                            .unwrap_or_else(|e| e.into_inner());
                        run::estimate_now(
                            jobs[i].body,
                            &m.samples,
                            &m.slice_starts,
                            overhead,
                            extras.evidence(),
                        )
                        .map(|e| {
                            let interval = e.interval.map(|ci| (ci.lower, ci.upper));
                            Figure::Time(format::Headline::new(e.estimate, interval))
                        })
                    }
                    Err(_) => Some(Figure::Failed),
                };
                display.finished(done, shown, &jobs[i].bench.full_name(), figure);
            }
            round_logs[i] = round_log;
            measured[i] = Some(result);
        },
    );
    display.end();
    Here {
        measured,
        round_logs,
    }
}

/// The speed probe's fast level over every slice measured: what each
/// block's probe is judged against.
fn probe_level(measured: &[Option<Reported>]) -> Option<f64> {
    instruments::probe_level(
        measured
            .iter()
            .flatten()
            .filter_map(|reported| reported.as_ref().ok())
            .flat_map(|(_, extras)| &extras.slices),
    )
}

/// The loop's overhead and the harness's own allocations per sample, from
/// the plan's loop-overhead job (taken out of `measured`; the plan's
/// provisional overhead when it recorded nothing), and that job's
/// measurement when it has samples.
fn of_the_loop(
    plan: &Plan,
    measured: &mut [Option<Reported>],
    probe_level: Option<f64>,
) -> (Loop, Option<(Measurement, Extras)>) {
    let mut of_loop = Loop {
        overhead: plan.info.overhead,
        harness_allocations: Default::default(),
    };
    let Some(Ok((empty, extras))) = measured[plan.overhead_job].take() else {
        return (of_loop, None);
    };
    let evidence = extras.evidence();
    let judge = |start, end| evidence.block(probe_level, start, end);
    of_loop.overhead = loop_overhead(
        &empty,
        of_loop.overhead.per_sample,
        evidence.preempted,
        &judge,
    );
    of_loop.harness_allocations = extras.allocations_per_sample();
    let recorded = (!empty.samples.is_empty()).then_some((empty, extras));
    (of_loop, recorded)
}

/// The empty loop analysed like a benchmark, only the clock reads taken
/// out (what remains is the loop): how the report shows the subtraction
/// was measured.
fn loop_analysed(
    plan: &Plan,
    (empty, extras): (Measurement, Extras),
    overhead: Overhead,
    probe_level: Option<f64>,
) -> Measured {
    let reads_only = Context {
        overhead: Overhead {
            per_iter: Nanos::ZERO,
            per_iter_uncertainty: Nanos::ZERO,
            ..overhead
        },
        timer: plan.info.precision,
        probe_level,
    };
    let config = plan.jobs[plan.overhead_job].config.clone();
    Measured::analyse_as(
        Body::Stateless,
        empty,
        config,
        &reads_only,
        extras.evidence(),
    )
}

/// A worker's loop: what [`of_the_loop`] finds in what [`measure_here`]
/// recorded.
pub(super) fn the_loop(plan: &Plan, here: &mut Here) -> Loop {
    let probe_level = probe_level(&here.measured);
    of_the_loop(plan, &mut here.measured, probe_level).0
}

/// What the progress display calls job `job`: the user's benchmarks by
/// their names, the harness's own jobs by what they measure.
fn job_name(plan: &Plan, job: usize) -> String {
    let name = plan.jobs[job].bench.full_name();
    if job < plan.job_rows.len() {
        name
    } else if job == plan.overhead_job {
        "the loop's overhead".to_string()
    } else if Some(job) == plan.reference_job {
        "the machine's reference kernel".to_string()
    } else {
        let member = plan.solo_probes.iter().find(|(_, probe)| *probe == job);
        match member {
            Some(&(member, _)) => format!("{} alone", plan.jobs[member].bench.full_name()),
            None => name,
        }
    }
}

/// What the analysis of every benchmark in the run shares.
fn context(info: &RunInfo) -> Context {
    Context {
        overhead: info.overhead,
        timer: info.precision,
        probe_level: None,
    }
}
