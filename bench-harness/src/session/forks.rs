//! `--forks N`: each benchmark measured in N fresh processes.
//!
//! A process measures one memory layout: where the stack, the heap and the
//! code land (ASLR, the environment's size, link order) can bias a
//! benchmark by several percent (Mytkowicz et al., cited in seed 004). JMH
//! answers with forks, and so does this module: several processes measure
//! several layouts, and the spread between them is reported next to the
//! spread within them.
//!
//! The parent starts its own binary as a worker (`super::worker`, the
//! same worker a paired comparison measures with) once per process, and
//! asks it to measure the run's benchmarks, interleaved, as a run in one
//! process would (with its own loop-overhead job in its schedule), each for
//! its share of the budgets; the worker sends back what it recorded, raw,
//! and the parent analyses and pools it. What a benchmark prints goes to
//! the worker's stderr, whose end explains a crash.
//!
//! The binary is the one running, not whatever is at its path now (held
//! open: a rebuild during the run cannot pool two programs). Workers are
//! started and ended by the run's supervisor (`crate::supervisor`, shared
//! with `--against` and the profiler): nothing a benchmark started in the
//! background outlives the run or holds its stderr open, and nothing is
//! left on disk.
//!
//! Processes are taken in rounds (every benchmark's first process, then every
//! benchmark's second), so one noisy episode of the machine hits one process
//! of many benchmarks instead of every process of one.
//!
//! A worker that dies (abort, segfault) fails its benchmark, with the
//! signal, and the run goes on. A worker still running well past
//! `--max-time` (an iteration that hangs) is killed and fails its benchmark
//! the same way.

use std::ffi::OsString;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bench_runtime::signal;

use super::worker::{Gone, Loop, Peer, Raw, Reply, Request};
use crate::analysis::Overhead;
use crate::failure::Failure;
use crate::instruments;
use crate::results::{Context, Measured};
use crate::run::{status, Job, Watch};
use crate::supervisor::{self, CtrlC, Program};

/// The processes a measured run spreads its benchmarks over when
/// `--forks` does not say: see docs/ARCHITECTURE.md for the coverage and
/// wall time it was chosen on. Where there are no POSIX descriptors a
/// worker cannot keep its replies apart from what benchmarks print or
/// read (`bench_runtime::stdio`): one process there.
pub(crate) const DEFAULT_PROCESSES: usize = if cfg!(unix) { 3 } else { 0 };

/// What the forked processes measured.
#[derive(Debug)]
pub(crate) struct Forked {
    /// One per job, in job order: the processes' samples pooled, the first
    /// failure, or `None` when no process finished (Ctrl-C).
    pub outcomes: Vec<Option<Result<Measured, Failure>>>,
    /// The workers' loop overhead, averaged: what the header shows.
    pub overhead: Option<Overhead>,
}

/// How many processes a benchmark whose planned ones disagree beyond its
/// precision target may get beyond them. One turns 3 processes' t(2) =
/// 4.30 into t(3) = 3.18; up to 3 more (t(5) = 2.57 at 6) made the example
/// suite's default run 1.35x the wall time of one process, against 1.26x
/// with one (docs/ARCHITECTURE.md).
const EXTRA_PROCESSES: usize = 1;

/// A worker may run this long past twice its share of `--max-time` (summed
/// over its benchmarks) before it is killed: process start, clock
/// calibration and its loop-overhead job.
const SLACK: Duration = Duration::from_secs(10);

/// After Ctrl-C, how long a worker gets to stop at a sample boundary and
/// send what it recorded before it is killed.
const GRACE: Duration = Duration::from_secs(5);

/// Measures the jobs in `processes` worker processes of this binary (and
/// up to [`EXTRA_PROCESSES`] more for a job whose processes disagree beyond
/// its precision target), one after another, each measuring every job
/// (interleaved, as a run in one process does) for its share of the
/// budgets; `seed` is the run's
/// (printed) seed, from which each process's is derived; `worker_args`
/// is a worker's command line (the run's measuring settings). `watch`
/// hears which process runs; `between` is called before each process
/// starts.
///
/// A worker that dies (abort, segfault, `exit`) or hangs takes down every
/// benchmark it was measuring, not only the one at fault: its benchmarks
/// are then measured again one process each, so that only the one at fault
/// fails and the others keep their figures.
pub(crate) fn measure(
    worker_args: &[OsString],
    jobs: &[Job],
    processes: usize,
    seed: u64,
    context: &Context,
    watch: &Arc<Watch>,
    between: &mut dyn FnMut(),
) -> Forked {
    let fail_all = |message: String| Forked {
        outcomes: jobs
            .iter()
            .map(|_| {
                Some(Err(Failure {
                    message: message.clone(),
                    location: None,
                }))
            })
            .collect(),
        overhead: None,
    };
    // Opened before anything else: the workers run this very file, even
    // if the path is rebuilt while they run.
    let program = match Program::open() {
        Ok(program) => program,
        Err(message) => return fail_all(format!("--forks: {message}")),
    };
    // From here a second Ctrl-C or a SIGTERM kills the worker in flight
    // and ends the process when the guard is dropped, below.
    let deferred = signal::defer_exit();
    // A worker is asked for its benchmarks by name: two of one name were
    // refused before anything ran (`registry::check_unique`).
    let names: Vec<String> = jobs.iter().map(|job| job.bench.full_name()).collect();
    let mut runs: Vec<Vec<Measured>> = jobs.iter().map(|_| Vec::new()).collect();
    let mut failures: Vec<Option<Failure>> = vec![None; jobs.len()];
    let mut overheads = Vec::new();
    let mut workers = Workers {
        program: &program,
        worker_args,
        jobs,
        names: &names,
        processes,
        context,
        watch,
    };
    // After the planned processes, more for the benchmarks whose pooled
    // interval is still wider than their precision target (one process
    // the machine disturbed throughout widens it: more processes dilute
    // it), at most `EXTRA_PROCESSES`, and each only while it fits in what
    // the benchmark's `--max-time` has left: that bound is the benchmark's,
    // over all its processes, as it is in one.
    for fork in 0..processes + EXTRA_PROCESSES {
        // What this process measures itself (the machine's reference
        // kernel) takes its turn before each process: its slices span the
        // run, not a moment after it. A signal during it starts no process.
        between();
        if signal::stopping() {
            break;
        }
        let live: Vec<usize> = (0..jobs.len())
            .filter(|&job| failures[job].is_none())
            .filter(|&job| {
                fork < processes
                    || (fits(&jobs[job], &runs[job], processes)
                        && imprecise(&jobs[job], &runs[job], context))
            })
            .collect();
        if live.is_empty() {
            break;
        }
        let seed = seed.wrapping_add(fork as u64);
        watch.round(fork + 1);
        watch.unit_started();
        let who = if fork < processes {
            format!("process {} of {processes}", fork + 1)
        } else {
            format!("process {} (for precision)", fork + 1)
        };
        let measured = match workers.run(seed, &live) {
            Ok(Some(measured)) => measured,
            // Stopped by Ctrl-C with nothing written.
            Ok(None) => Vec::new(),
            // One of them ended the process, or hung it: each alone, to
            // find which.
            Err(_) if live.len() > 1 => {
                let mut each = Vec::new();
                for &job in &live {
                    if signal::stopping() {
                        break;
                    }
                    match workers.run(seed, &[job]) {
                        Ok(Some(mut one)) => each.append(&mut one),
                        Ok(None) => {}
                        Err(why) => each.push((job, Err(ended(&who, why)))),
                    }
                }
                each
            }
            Err(why) => vec![(live[0], Err(ended(&who, why)))],
        };
        watch.unit_ended();
        let mut counted = false;
        for (job, result) in measured {
            match result {
                Ok(Some((measured, overhead))) => {
                    if !counted {
                        overheads.push(overhead);
                        counted = true;
                    }
                    runs[job].push(measured);
                }
                Ok(None) => {}
                Err(failure) => failures[job] = Some(failure),
            }
        }
    }
    // Ends the process here if a second Ctrl-C or a SIGTERM came.
    drop(deferred);
    align_rounds(jobs, &mut runs);
    let outcomes = runs
        .into_iter()
        .zip(failures)
        .zip(jobs)
        .map(|((runs, failure), job)| match failure {
            Some(failure) => Some(Err(failure)),
            None if runs.is_empty() => None,
            None => {
                // The run's settings, not one process's share of them: what
                // the notes quote.
                let runs = (runs.into_iter())
                    .map(|run| Measured {
                        config: job.config.clone(),
                        ..run
                    })
                    .collect();
                Some(Ok(Measured::pool(runs, context)))
            }
        })
        .collect();
    Forked {
        outcomes,
        overhead: Overhead::mean(overheads),
    }
}

/// Whether one more process, at its share of `job`'s `--max-time`, keeps
/// the time `runs` spent (set-up and warm-up included) within it.
fn fits(job: &Job, runs: &[Measured], processes: usize) -> bool {
    let spent: f64 = runs.iter().map(|run| run.measurement.total_time.0).sum();
    spent + job.config.max_time.0 / processes as f64 <= job.config.max_time.0
}

/// Whether `runs`, pooled, are further from `job`'s precision target
/// than it allows (a job without a target, or without runs, is not).
fn imprecise(job: &Job, runs: &[Measured], context: &Context) -> bool {
    let Some(target) = job.config.stop_rule.precision_target() else {
        return false;
    };
    if runs.is_empty() || target <= 0.0 || job.paired_group.is_some() {
        return false;
    }
    // Only where the processes disagree: more of them narrow the interval
    // over their estimates, not what each one's own few blocks leave.
    let pooled = Measured::pool(runs.to_vec(), context);
    let between = (pooled.forks.as_ref())
        .and_then(|f| f.interval)
        .map(|ci| (ci.upper - ci.lower) / 2.0 / pooled.reference);
    pooled.precision.is_none_or(|p| p > target) && between.is_none_or(|b| b > target)
}

/// The failure of a benchmark whose process `who` ended as `why` says.
fn ended(who: &str, why: String) -> Failure {
    Failure {
        message: format!("{who}{why}"),
        location: None,
    }
}

/// One job's result from one worker: its measurement with the worker's loop
/// overhead, `None` when it recorded no sample (Ctrl-C), or why it failed:
/// the benchmark's own failure (a panic), or what ended the worker (`Err`
/// of [`Workers::run`]).
type WorkerResult = Result<Option<(Measured, Overhead)>, Failure>;

/// What starting a worker needs.
struct Workers<'a> {
    program: &'a Program,
    worker_args: &'a [OsString],
    jobs: &'a [Job],
    names: &'a [String],
    processes: usize,
    context: &'a Context,
    watch: &'a Arc<Watch>,
}

impl Workers<'_> {
    /// Runs one worker measuring the jobs `live`: per job its result, or
    /// (`Err`) why the worker as a whole failed, to follow "process K of
    /// N"; `Ok(None)` when a second Ctrl-C or a SIGTERM is ending the run.
    fn run(
        &mut self,
        seed: u64,
        live: &[usize],
    ) -> Result<Option<Vec<(usize, WorkerResult)>>, String> {
        // The status lines it relays go to `watch`, not into the kept tail.
        let watch = self.watch.clone();
        let relay: supervisor::Relay = Box::new(move |line| match status::relayed(line) {
            Some(status) => {
                watch.child_status(status);
                true
            }
            None => false,
        });
        let ctrl_c = CtrlC::Forward(GRACE);
        let mut worker = match Peer::start(self.program, self.worker_args, Some(relay), ctrl_c) {
            Ok(worker) => worker,
            // Ctrl-C while it started: nothing measured, nothing failed.
            Err(_) if signal::stopping() => return Ok(None),
            Err(why) => return Err(format!(" could not be started: {why}")),
        };
        // Interleaved, its benchmarks share its time: its bound is theirs
        // added up, each at its share.
        let bound: f64 = live
            .iter()
            .map(|&job| self.jobs[job].config.max_time.0)
            .sum::<f64>()
            / self.processes as f64;
        let limit = Duration::from_secs_f64(bound * 2e-9) + SLACK;
        let benchmarks = live
            .iter()
            .map(|&job| {
                let ignore = self.jobs[job].bench.entry.options.ignore;
                (self.names[job].clone(), ignore)
            })
            .collect();
        let request = Request::Measure {
            benchmarks,
            seed,
            share: self.processes,
        };
        let deadline = Instant::now() + limit;
        if !worker.send(&request) {
            return Err(why_it_ended(&mut worker));
        }
        let mut raws = Vec::new();
        // A long measurement's samples come first, in lines of their own.
        let mut leading = Vec::new();
        let of_loop = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let gone = match worker.reply(left) {
                Ok(Reply::Samples(mut samples)) => {
                    leading.append(&mut samples);
                    continue;
                }
                Ok(Reply::Result { name, mut result }) => {
                    if let Ok(raw) = &mut result {
                        raw.put_back(std::mem::take(&mut leading));
                    }
                    leading.clear();
                    raws.push((name, result));
                    continue;
                }
                Ok(Reply::Measured(of_loop)) => break of_loop,
                Ok(Reply::Error { message }) => {
                    return Err(format!(" could not measure: {message}"))
                }
                Ok(other) => return Err(format!(" sent a '{}' reply out of step", other.kind())),
                Err(gone) => gone,
            };
            return match gone {
                Gone::Ending => Ok(None),
                Gone::Interrupted => Err(format!(
                    " was interrupted by Ctrl-C and did not stop within {} s, so it was \
                     killed: an iteration or the set-up may hang",
                    GRACE.as_secs()
                )),
                Gone::TimedOut => Err(format!(
                    " was still running after {:.0} s, twice its share of --max-time and {} \
                     s more, and was killed: an iteration or the set-up may hang; raise \
                     --max-time if it is only slow",
                    limit.as_secs_f64(),
                    SLACK.as_secs()
                )),
                Gone::Garbled(error) => {
                    Err(format!(" sent a reply this build cannot read: {error}"))
                }
                Gone::Closed => Err(why_it_ended(&mut worker)),
            };
        };
        Ok(Some(
            live.iter()
                .map(|&job| {
                    // Absent: stopped by Ctrl-C before its first sample.
                    let at = raws.iter().position(|(name, _)| *name == self.names[job]);
                    let result = match at.map(|at| raws.swap_remove(at).1) {
                        None => Ok(None),
                        Some(Ok(raw)) => Ok(Some((
                            analysed(
                                &self.jobs[job],
                                *raw,
                                &of_loop,
                                self.processes,
                                self.context,
                            ),
                            of_loop.overhead,
                        ))),
                        Some(Err(failure)) => Err(failure),
                    };
                    (job, result)
                })
                .collect(),
        ))
    }
}

/// Why a worker whose output closed ended: its signal, or its exit code,
/// with the last line it wrote to stderr.
fn why_it_ended(worker: &mut Peer) -> String {
    let (status, stderr) = worker.end();
    let last_line = supervisor::last_words(&stderr)
        .map(|line| format!("; the last line it wrote to stderr: {line}"))
        .unwrap_or_default();
    if let Some(death) = status.and_then(supervisor::killed_by) {
        return format!(" was killed by {death}{last_line}");
    }
    format!(
        " exited with {} and sent no results{last_line}",
        status
            .and_then(|s| s.code())
            .map_or("no exit code".to_string(), |c| format!("code {c}"))
    )
}

/// One process's measurement of `job`, analysed at its share of the
/// budgets (one of `processes`) with the loop overhead its worker measured,
/// against its own speed probe's fast level (each process has its own
/// machine state), with the harness's own allocations taken out of its
/// totals.
fn analysed(job: &Job, raw: Raw, of_loop: &Loop, processes: usize, context: &Context) -> Measured {
    let Raw {
        measurement,
        mut extras,
    } = raw;
    extras.without_harness(of_loop.harness_allocations);
    let context = Context {
        overhead: if extras.self_timed {
            Overhead::NONE
        } else {
            of_loop.overhead
        },
        probe_level: instruments::probe_level(extras.slices.iter()),
        ..*context
    };
    // Each process has its own clock: the pooled timeline has none.
    extras.slice_clock = Vec::new();
    let mut config = job.config.clone();
    if processes > 1 {
        super::plan::share_budget(&mut config, processes);
    }
    let evidence = extras.evidence();
    let mut measured = Measured::analyse_as(job.body, measurement, config, &context, evidence);
    measured.extras = extras;
    measured
}

/// The processes' round logs of each A/B group made the same length within
/// each process (a member that finished early logged fewer rounds), so that
/// pooled one process after another, the rounds still pair up.
fn align_rounds(jobs: &[Job], runs: &mut [Vec<Measured>]) {
    let groups = jobs.iter().filter_map(|job| job.paired_group);
    for group in groups.collect::<std::collections::BTreeSet<_>>() {
        let members: Vec<usize> = (0..jobs.len())
            .filter(|&job| jobs[job].paired_group == Some(group))
            .collect();
        let processes = members.iter().map(|&m| runs[m].len()).min().unwrap_or(0);
        // (Indexes each member's runs, not one list.)
        #[allow(clippy::needless_range_loop)]
        for process in 0..processes {
            let longest = members
                .iter()
                .filter_map(|&m| runs[m][process].extras.rounds.as_ref().map(Vec::len))
                .max()
                .unwrap_or(0);
            for &m in &members {
                if let Some(rounds) = &mut runs[m][process].extras.rounds {
                    rounds.resize(longest, None);
                }
            }
        }
    }
}
