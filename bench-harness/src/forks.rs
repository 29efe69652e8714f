//! `--forks N`: each benchmark measured in N fresh processes.
//!
//! A process measures one memory layout: where the stack, the heap and the
//! code land (ASLR, the environment's size, link order) can bias a
//! benchmark by several percent (Mytkowicz et al., cited in seed 004). JMH
//! answers with forks, and so does this module: several processes measure
//! several layouts, and the spread between them is reported next to the
//! spread within them.
//!
//! The parent re-executes its own binary once per benchmark and process,
//! with `--exact NAME` and `--format json --output FILE`: the child measures
//! that one benchmark as an ordinary run would (with its own loop-overhead
//! job in its schedule), and its JSON document, which holds the raw samples,
//! is the channel back. The child's stdout (its table, and anything the
//! benchmark prints) is discarded; the end of its stderr explains a crash.
//!
//! The binary is the one running, not whatever is at its path now (held
//! open: a rebuild during the run cannot pool two programs). A child knows
//! it is one by a per-run token, in its environment and on its command line
//! both. Children are started and ended by the run's supervisor
//! (`crate::supervisor`, shared with `--against` and the profiler): nothing
//! a benchmark started in the background outlives the run or holds its
//! stderr open. The scratch directory is removed when a child ends, times
//! out, or a second Ctrl-C or a SIGTERM ends the parent, and one left by a
//! run killed with SIGKILL is removed by the next.
//!
//! Processes are taken in rounds (every benchmark's first process, then every
//! benchmark's second), so one noisy episode of the machine hits one process
//! of many benchmarks instead of every process of one.
//!
//! A child that dies (abort, segfault) fails its benchmark, with the signal,
//! and the run goes on. A child still running well past `--max-time` (an
//! iteration that hangs) is killed and fails its benchmark the same way.

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use bench_runtime::clock::cpu::CpuTime;
use bench_runtime::counter::alloc::AllocCounts;
use bench_runtime::counter::{Counters, Event, Refusal};
use bench_runtime::signal;
use bench_runtime::Nanos;

use crate::analysis::Overhead;
use crate::cli::FORK_TOKEN_FLAG as TOKEN_FLAG;
use crate::document::{self, BenchRecord, MeasurementRecord, OutcomeKind, ThroughputUnit};
use crate::failure::Failure;
use crate::instruments::{self, Extras};
use crate::results::{Context, Measured};
use crate::run::{status, Job, Watch};
use crate::supervisor::{self, started_with_token, Program};

/// The processes a measured run spreads its benchmarks over when
/// `--forks` does not say: see docs/ARCHITECTURE.md for the coverage and
/// wall time it was chosen on.
pub(crate) const DEFAULT_PROCESSES: usize = 3;

/// What the forked processes measured.
#[derive(Debug)]
pub(crate) struct Forked {
    /// One per job, in job order: the processes' samples pooled, the first
    /// failure, or `None` when no process finished (Ctrl-C).
    pub outcomes: Vec<Option<Result<Measured, Failure>>>,
    /// The children's loop overhead, averaged: what the header shows.
    pub overhead: Option<Overhead>,
}

/// How many processes a benchmark whose planned ones disagree beyond its
/// precision target may get beyond them. One turns 3 processes' t(2) =
/// 4.30 into t(3) = 3.18; up to 3 more (t(5) = 2.57 at 6) made the example
/// suite's default run 1.35x the wall time of one process, against 1.26x
/// with one (docs/ARCHITECTURE.md).
const EXTRA_PROCESSES: usize = 1;

/// A child may run this long past twice its share of `--max-time` (summed
/// over its benchmarks) before it is killed: process start, clock
/// calibration and its loop-overhead job.
const SLACK: Duration = Duration::from_secs(10);

/// After Ctrl-C, how long a child gets to stop at a sample boundary and
/// write its partial results before it is killed.
const GRACE: Duration = Duration::from_secs(5);

/// Set in a child's environment, to the run's token: it measures for a
/// parent, so it does not fork again (a `main` that adds `--forks` to every
/// command line would otherwise recurse) and it ends when its parent does.
pub(crate) const CHILD_ENV: &str = "BENCH_HARNESS_FORK_CHILD";

/// Set in each child's environment, a run of spaces of a random length:
/// the environment sits at the top of the stack, so its size moves where
/// the stack begins, one of the layout effects the processes sample.
const PAD_ENV: &str = "BENCH_HARNESS_LAYOUT_PAD";

/// Whether this process is a child measuring for a parent's `--forks`:
/// [`CHILD_ENV`] in its environment and [`TOKEN_FLAG`] on its command line,
/// with the same token. The variable alone is ignored, with a note.
pub(crate) fn is_child() -> bool {
    started_with_token(CHILD_ENV, TOKEN_FLAG, "--forks")
}

/// The command line of a child: it measures the benchmarks named in the
/// file given (`cli::write_names`), with the shuffles of the seed given, as
/// one of the number of processes given, and writes its JSON document to
/// the path.
pub(crate) type ChildArgs<'a> = dyn Fn(u64, &Path, usize, &Path) -> Vec<OsString> + 'a;

/// Measures the jobs in `processes` child processes of this binary (and
/// up to [`EXTRA_PROCESSES`] more for a job whose processes disagree beyond
/// its precision target), one after another, each measuring every job
/// (interleaved, as a run in one process does) for its share of the
/// budgets; `seed` is the run's
/// (printed) seed, from which each process's is derived. `watch` hears
/// which process runs; `between` is called before each process starts.
///
/// A child that dies (abort, segfault, `exit`) or hangs takes down every
/// benchmark it was measuring, not only the one at fault: its benchmarks
/// are then measured again one process each, so that only the one at fault
/// fails and the others keep their figures.
pub(crate) fn measure(
    child_args: &ChildArgs<'_>,
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
    // Opened before anything else: the children run this very file, even
    // if the path is rebuilt while they run.
    let program = match Program::open() {
        Ok(program) => program,
        Err(message) => return fail_all(format!("--forks: {message}")),
    };
    let dir = match scratch_dir() {
        Ok(dir) => dir,
        Err(error) => return fail_all(format!("--forks: {error}")),
    };
    // From here a second Ctrl-C or a SIGTERM kills the child in flight and
    // lets this function remove the scratch directory before the process
    // ends (when the guard is dropped, below).
    let deferred = signal::defer_exit();
    let refusals = if jobs.iter().any(|job| job.counters) {
        Counters::open(&Event::ALL).1
    } else {
        Vec::new()
    };
    let names: Vec<String> = jobs.iter().map(|job| job.bench.full_name()).collect();
    let mut runs: Vec<Vec<Measured>> = jobs.iter().map(|_| Vec::new()).collect();
    // A child selects its benchmarks by name: two of one name cannot be
    // told apart there.
    let mut failures: Vec<Option<Failure>> = names
        .iter()
        .map(|name| {
            let same = names.iter().filter(|n| *n == name).count();
            (same > 1).then(|| Failure {
                message: format!(
                    "{same} benchmarks are named '{name}', and --forks selects a benchmark by \
                     its name in each process: give their args distinct names (Display), or \
                     run with --forks 1"
                ),
                location: None,
            })
        })
        .collect();
    let mut overheads = Vec::new();
    let mut children = Children {
        program: &program,
        dir: dir.path(),
        child_args,
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
        let measured = match children.run(seed, &live) {
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
                    match children.run(seed, &[job]) {
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
    drop(dir);
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
                let mut pooled = Measured::pool(runs, context);
                pooled.extras.refusals = if job.counters {
                    refusals.clone()
                } else {
                    Vec::new()
                };
                Some(Ok(pooled))
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

/// One job's result from one child: its measurement with the child's loop
/// overhead, `None` when it recorded no sample (Ctrl-C), or why it failed:
/// the benchmark's own failure (a panic), or what ended the child (`Err`
/// of [`Children::run`]).
type ChildResult = Result<Option<(Measured, Overhead)>, Failure>;

/// What starting a child needs.
struct Children<'a> {
    program: &'a Program,
    dir: &'a Path,
    child_args: &'a ChildArgs<'a>,
    jobs: &'a [Job],
    names: &'a [String],
    processes: usize,
    context: &'a Context,
    watch: &'a Arc<Watch>,
}

impl Children<'_> {
    /// Runs one child measuring the jobs `live`: per job its result, or
    /// (`Err`) why the child as a whole failed; `Ok(None)` when Ctrl-C
    /// stopped it before it wrote anything.
    fn run(
        &mut self,
        seed: u64,
        live: &[usize],
    ) -> Result<Option<Vec<(usize, ChildResult)>>, String> {
        let output = self.dir.join(format!("{seed:x}-{}.json", live.len()));
        let names: Vec<String> = live.iter().map(|&job| self.names[job].clone()).collect();
        let names_file = self.dir.join(format!("{seed:x}-{}.names", live.len()));
        crate::cli::write_names(&names_file, &names)
            .map_err(|error| format!(" could not be started: {error}"))?;
        let argv = (self.child_args)(seed, &names_file, self.processes, &output);
        // Interleaved, its benchmarks share its time: its bound is theirs
        // added up, each at its share.
        let bound: f64 = live
            .iter()
            .map(|&job| self.jobs[job].config.max_time.0)
            .sum::<f64>()
            / self.processes as f64;
        let limit = Duration::from_secs_f64(bound * 2e-9) + SLACK;
        let ran = run_child(self.program, &argv, &output, limit, self.watch);
        let _ = std::fs::remove_file(&output);
        let _ = std::fs::remove_file(&names_file);
        let Some(document) = ran.map_err(|why| format!(" {why}"))? else {
            return Ok(None);
        };
        let overhead = document.methodology.overhead.overhead();
        Ok(Some(
            live.iter()
                .map(|&job| {
                    // None: stopped by Ctrl-C before its first sample.
                    let Some(record) = document.benchmark(&self.names[job]) else {
                        return (job, Ok(None));
                    };
                    let result = match measured_of(record, overhead, self.context) {
                        Ok(measured) => Ok(measured.map(|m| (m, overhead))),
                        Err(failure) => Err(failure),
                    };
                    (job, result)
                })
                .collect(),
        ))
    }
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

/// The prefix of a scratch directory's name, before `PID-RANDOM`.
const SCRATCH_PREFIX: &str = "bench-harness-forks-";

/// A new directory for the children's documents, readable by this user
/// only, under a name no other process has taken; the ones of runs that
/// were killed before they could remove theirs are removed first.
fn scratch_dir() -> Result<crate::fs::Scratch, String> {
    crate::fs::Scratch::new(SCRATCH_PREFIX).map_err(|error| {
        format!(
            "cannot create a scratch directory in {}: {error}; set TMPDIR to a writable \
             directory",
            std::env::temp_dir().display()
        )
    })
}

/// Runs one child to its end and reads its document: `Ok(None)` when
/// Ctrl-C stopped it before it wrote one, else what went wrong, to follow
/// "process K of N".
fn run_child(
    program: &Program,
    argv: &[OsString],
    output: &Path,
    limit: Duration,
    watch: &Arc<Watch>,
) -> Result<Option<document::Document>, String> {
    program.check()?;
    let token = supervisor::token();
    let (run, path) = program.paths();
    let mut args = vec![OsString::from(format!("--{TOKEN_FLAG}")), token.into()];
    args.extend_from_slice(argv);
    let mut command = supervisor::command(run, path, &args);
    command
        .env(CHILD_ENV, token)
        .env(PAD_ENV, " ".repeat(fastrand::usize(..4096)))
        .env(crate::environment::NO_GIT_ENV, "1");
    // The status lines it relays go to `watch`, not into the kept tail.
    let watch = watch.clone();
    let relay: supervisor::Relay = Box::new(move |line| match status::relayed(line) {
        Some(status) => {
            watch.child_status(status);
            true
        }
        None => false,
    });
    let mut child = supervisor::Child::start(
        command,
        path,
        false,
        supervisor::Sink::Null,
        supervisor::Sink::Tail(Some(relay)),
    )?;
    let stop = child
        .wait(limit, supervisor::CtrlC::Forward(GRACE))
        .map_err(|e| format!("could not be waited for: {e}"))?;
    let status = child
        .finish()
        .map_err(|e| format!("could not be waited for: {e}"))?;
    let stderr = child.stderr(supervisor::PIPE_GRACE);
    match stop {
        supervisor::Stop::Ending => return Ok(None),
        supervisor::Stop::Interrupted { killed: true } => {
            return Err(format!(
                "was interrupted by Ctrl-C and did not stop within {} s, so it was killed: \
                 an iteration or the set-up may hang",
                GRACE.as_secs()
            ))
        }
        // Whatever it wrote before it stopped; nothing is no failure.
        supervisor::Stop::Interrupted { killed: false } => return Ok(document::load(output).ok()),
        supervisor::Stop::TimedOut => {
            return Err(format!(
                "was still running after {:.0} s, twice its share of --max-time and {} s \
                 more, and was killed: an iteration or the set-up may hang; raise \
                 --max-time if it is only slow",
                limit.as_secs_f64(),
                SLACK.as_secs()
            ))
        }
        supervisor::Stop::Ended => {}
    }
    let last_line = supervisor::last_words(&stderr)
        .map(|line| format!("; the last line it wrote to stderr: {line}"))
        .unwrap_or_default();
    if let Some(death) = supervisor::killed_by(status) {
        return Err(format!("was killed by {death}{last_line}"));
    }
    match document::load(output) {
        Ok(document) => Ok(Some(document)),
        Err(_) => Err(format!(
            "exited with {} and wrote no results{last_line}",
            status
                .code()
                .map_or("no exit code".to_string(), |c| format!("code {c}"))
        )),
    }
}

/// A child's record of its benchmark, analysed with the child's own loop
/// overhead: `Ok(None)` when it recorded no sample (Ctrl-C).
fn measured_of(
    record: &BenchRecord,
    overhead: Overhead,
    context: &Context,
) -> Result<Option<Measured>, Failure> {
    match (record.outcome, &record.measurement, &record.failure) {
        (OutcomeKind::Failed, _, Some(failure)) => Err(Failure {
            message: failure.message.clone(),
            location: failure.location.clone(),
        }),
        (OutcomeKind::Measured, Some(m), _) if !m.samples.is_empty() => {
            let extras = extras_of(record, m);
            let context = Context {
                overhead: m.overhead(overhead),
                // The child's own benchmark's fast level: each process has
                // its own machine state.
                probe_level: instruments::probe_level(extras.slices.iter()),
                ..*context
            };
            let mut measured =
                Measured::analyse(m.raw(), m.sampler_config(), &context, extras.evidence());
            measured.extras = extras;
            Ok(Some(measured))
        }
        (OutcomeKind::Measured, _, _) => Ok(None),
        (outcome, _, _) => Err(Failure {
            message: format!("the child reported {outcome:?} instead of a measurement"),
            location: None,
        }),
    }
}

/// The instruments' totals back from their per-iteration figures (the
/// harness's own allocations already taken out by the child).
fn extras_of(record: &BenchRecord, m: &MeasurementRecord) -> Extras {
    let iterations: u64 = m.samples.iter().map(|s| s.iters).sum();
    let total = |per_iteration: f64| per_iteration * iterations as f64;
    Extras {
        iterations,
        samples: m.samples.len() as u64,
        counters: m
            .counters
            .iter()
            .filter_map(|(name, &per_iteration)| {
                let event = Event::ALL.into_iter().find(|e| e.name() == name)?;
                Some((event, total(per_iteration)))
            })
            .collect(),
        refusals: Vec::<Refusal>::new(),
        multiplexed: false,
        allocations: m.allocations.as_ref().map(|a| AllocCounts {
            allocations: total(a.allocations).round() as u64,
            deallocations: total(a.deallocations).round() as u64,
            reallocations: total(a.reallocations).round() as u64,
            bytes_allocated: total(a.bytes_allocated).round() as u64,
            bytes_deallocated: 0,
        }),
        cpu: m.cpu.as_ref().map(|c| {
            let cpu = CpuTime {
                user: Nanos(c.user_ns),
                system: Nanos(c.system_ns),
            };
            (cpu, Nanos(c.wall_ns))
        }),
        cpus: m.cpus.clone(),
        throughput: record.throughput.map(|t| match t.unit {
            ThroughputUnit::Bytes => bench_runtime::Throughput::Bytes(t.per_iteration),
            ThroughputUnit::Items => bench_runtime::Throughput::Items(t.per_iteration),
        }),
        self_timed: m.self_timed,
        // Each process has its own clock: the pooled timeline has none.
        slice_clock: Vec::new(),
        slices: m.evidence(),
        preempted: m.preempted.clone(),
        rounds: (!m.rounds.is_empty()).then(|| {
            (m.rounds.iter())
                .map(|round| round.map(|(start, end)| start..end))
                .collect()
        }),
    }
}
