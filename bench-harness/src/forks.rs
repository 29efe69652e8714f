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
//! benchmark prints) is discarded; its stderr's last line explains a crash.
//!
//! Processes are taken in rounds (every benchmark's first process, then every
//! benchmark's second), so one noisy episode of the machine hits one process
//! of many benchmarks instead of every process of one.
//!
//! A child that dies (abort, segfault) fails its benchmark, with the signal,
//! and the run goes on. A child still running well past `--max-time` (an
//! iteration that hangs) is killed and fails its benchmark the same way.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use bench_runtime::clock::cpu::CpuTime;
use bench_runtime::counter::alloc::AllocCounts;
use bench_runtime::counter::{Counters, Event, Refusal};
use bench_runtime::Nanos;

use crate::analysis::Overhead;
use crate::document::{self, BenchRecord, MeasurementRecord, OutcomeKind, ThroughputUnit};
use crate::failure::Failure;
use crate::instruments::Extras;
use crate::results::{Context, Measured};
use crate::run::Job;

/// What the forked processes measured.
#[derive(Debug)]
pub(crate) struct Forked {
    /// One per job, in job order: the processes' samples pooled, the first
    /// failure, or `None` when no process finished (Ctrl-C).
    pub outcomes: Vec<Option<Result<Measured, Failure>>>,
    /// The children's loop overhead, averaged: what the header shows.
    pub overhead: Option<Overhead>,
}

/// A child may run this long past twice its `--max-time` before it is
/// killed: process start, clock calibration and its loop-overhead job.
const SLACK: Duration = Duration::from_secs(10);

/// After Ctrl-C, how long a child gets to stop at a sample boundary and
/// write its partial results before it is killed.
const GRACE: Duration = Duration::from_secs(5);

/// Set in a child's environment: it measures for a parent, so it does not
/// fork again (a `main` that adds `--forks` to every command line would
/// otherwise recurse) and it ends when its parent does.
pub(crate) const CHILD_ENV: &str = "BENCH_HARNESS_FORK_CHILD";

/// Whether this process is a child measuring for a parent's `--forks`.
pub(crate) fn is_child() -> bool {
    std::env::var_os(CHILD_ENV).is_some()
}

/// The command line of a child: it measures the benchmark named, with the
/// shuffles of the seed given, and writes its JSON document to the path.
pub(crate) type ChildArgs<'a> = dyn Fn(u64, &str, &Path) -> Vec<OsString> + 'a;

/// Measures each job in `processes` child processes of this binary; `seed`
/// is the run's (printed) seed, from which each process's is derived.
pub(crate) fn measure(
    child_args: &ChildArgs<'_>,
    jobs: &[Job],
    processes: usize,
    seed: u64,
    context: &Context,
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
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(error) => {
            return fail_all(format!(
                "--forks: cannot find this program's file to start it again: {error}"
            ))
        }
    };
    let dir = match scratch_dir() {
        Ok(dir) => dir,
        Err(error) => return fail_all(format!("--forks: {error}")),
    };
    let refusals = if jobs.iter().any(|job| job.counters) {
        Counters::open(&Event::ALL).1
    } else {
        Vec::new()
    };
    let names: Vec<String> = jobs.iter().map(|job| job.bench.full_name()).collect();
    let mut runs: Vec<Vec<Measured>> = jobs.iter().map(|_| Vec::new()).collect();
    // A child selects its benchmark by name: two of one name cannot be told
    // apart there.
    let mut failures: Vec<Option<Failure>> = names
        .iter()
        .map(|name| {
            let same = names.iter().filter(|n| *n == name).count();
            (same > 1).then(|| Failure {
                message: format!(
                    "{same} benchmarks are named '{name}', and --forks selects a benchmark by \
                     its name in each process: give their args distinct names (Display), or \
                     run without --forks"
                ),
                location: None,
            })
        })
        .collect();
    let mut overheads = Vec::new();
    'rounds: for fork in 0..processes {
        for (index, job) in jobs.iter().enumerate() {
            if bench_runtime::signal::interrupted() {
                break 'rounds;
            }
            if failures[index].is_some() {
                continue;
            }
            let name = &names[index];
            let output = dir.join(format!("{index}-{fork}.json"));
            let seed = seed.wrapping_add(fork as u64);
            let argv = child_args(seed, name, &output);
            let ran = run_child(&exe, &argv, &output, job);
            let _ = std::fs::remove_file(&output);
            let who = format!("process {} of {processes}", fork + 1);
            let document = match ran {
                Ok(Some(document)) => document,
                // Stopped by Ctrl-C with nothing written.
                Ok(None) => continue,
                Err(why) => {
                    failures[index] = Some(Failure {
                        message: format!("{who} {why}"),
                        location: None,
                    });
                    continue;
                }
            };
            let overhead = document.methodology.overhead.overhead();
            let Some(record) = document.benchmark(name) else {
                // Stopped by Ctrl-C before its first sample.
                continue;
            };
            match measured_of(record, overhead, context) {
                Ok(Some(measured)) => {
                    overheads.push(overhead);
                    runs[index].push(measured);
                }
                Ok(None) => {}
                Err(failure) => {
                    failures[index] = Some(Failure {
                        message: format!("{who}: {}", failure.message),
                        ..failure
                    })
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let outcomes = runs
        .into_iter()
        .zip(failures)
        .zip(jobs)
        .map(|((runs, failure), job)| match failure {
            Some(failure) => Some(Err(failure)),
            None if runs.is_empty() => None,
            None => {
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

/// A new directory for the children's documents, readable by this user
/// only, under a name no other process has taken.
fn scratch_dir() -> Result<PathBuf, String> {
    let base = std::env::temp_dir();
    let mut last_error = None;
    for _ in 0..16 {
        let dir = base.join(format!(
            "bench-harness-forks-{}-{:016x}",
            std::process::id(),
            fastrand::u64(..)
        ));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&dir) {
            Ok(()) => return Ok(dir),
            Err(error) => last_error = Some(error),
        }
    }
    Err(format!(
        "cannot create a scratch directory in {}: {}; set TMPDIR to a writable directory",
        base.display(),
        last_error.map_or_else(String::new, |e| e.to_string())
    ))
}

/// Runs one child to its end and reads its document: `Ok(None)` when
/// Ctrl-C stopped it before it wrote one, else what went wrong, to follow
/// "process K of N".
fn run_child(
    exe: &Path,
    argv: &[OsString],
    output: &Path,
    job: &Job,
) -> Result<Option<document::Document>, String> {
    let mut command = Command::new(exe);
    command
        .args(argv)
        .env(CHILD_ENV, "1")
        .env(crate::environment::NO_GIT_ENV, "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // A group of its own: a terminal's Ctrl-C reaches the child once,
    // through the parent, not twice (which would end it at once).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", exe.display()))?;
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let started = Instant::now();
    let limit = Duration::from_secs_f64(job.config.max_time.0 * 2e-9) + SLACK;
    let mut interrupted_at: Option<Instant> = None;
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) => {}
            Err(e) => break Err(format!("could not be waited for: {e}")),
        }
        if bench_runtime::signal::interrupted() {
            // The child stops at its next sample boundary and writes what it
            // has, as the parent does.
            let since = *interrupted_at.get_or_insert_with(|| {
                bench_runtime::signal::interrupt(child.id());
                Instant::now()
            });
            if since.elapsed() > GRACE {
                let _ = child.kill();
            }
        } else if started.elapsed() > limit && !timed_out {
            timed_out = true;
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = reader.join().unwrap_or_default();
    let status = status?;
    if interrupted_at.is_some() {
        // Whatever it wrote before it stopped; nothing is no failure.
        return Ok(document::load(output).ok());
    }
    if timed_out {
        return Err(format!(
            "was still running after {:.0} s, twice --max-time ({:.3} s) and {} s more, and \
             was killed: an iteration or the set-up may hang; raise --max-time if it is \
             only slow",
            limit.as_secs_f64(),
            job.config.max_time.0 * 1e-9,
            SLACK.as_secs()
        ));
    }
    let last_line = stderr
        .lines()
        .rev()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map(|line| format!("; the last line it wrote to stderr: {line}"))
        .unwrap_or_default();
    if let Some(death) = killed_by(status) {
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

/// `signal 6 (SIGABRT)` when a signal ended the process.
#[cfg(unix)]
fn killed_by(status: ExitStatus) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    let signal = status.signal()?;
    let name = match signal {
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGILL => " (SIGILL)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGTRAP => " (SIGTRAP)",
        libc::SIGINT => " (SIGINT)",
        _ => "",
    };
    Some(format!("signal {signal}{name}"))
}

#[cfg(not(unix))]
fn killed_by(_status: ExitStatus) -> Option<String> {
    None
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
            let context = Context {
                overhead,
                ..*context
            };
            let mut measured = Measured::analyse(m.raw(), m.sampler_config(), &context);
            measured.extras = extras_of(record, m);
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
    }
}
