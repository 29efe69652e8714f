//! The parent's side of the worker protocol: a program started as a worker
//! process through the run's supervisor (its own process group, killed
//! with it whatever ends the run; bounded pipes; see `crate::supervisor`),
//! its replies read with a time limit, and Ctrl-C honoured while it is
//! waited for: the worker is stopped at once ([`CtrlC::Kill`], a paired
//! comparison), or told and given a grace to send what it has
//! ([`CtrlC::Forward`], a run's own processes).

use std::ffi::OsString;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::protocol::{Reply, Request, PROTOCOL_VERSION, WORKER_NAME};
use super::{PAD_ENV, TOKEN_FLAG, WORKER_ENV};
use crate::supervisor::{self, Child, CtrlC, Program, Relay, Sink};

/// How long a worker may take to start: load and list its benchmarks (a
/// build of an earlier bench-harness also picks its clock and measures its
/// loop overhead first).
const HELLO_LIMIT: Duration = Duration::from_secs(30);

/// The oldest protocol a worker may speak: a build of an earlier
/// bench-harness still serves `--against`.
const OLDEST_PROTOCOL: u32 = 1;

/// The lines of output a worker may print before its hello (what a bench
/// target's `main` prints before it hands over to the harness).
const PRELUDE_LINES: usize = 100;

/// How long after a line that is no hello the hello may still come: a
/// worker says it as soon as the harness starts, so a program that prints
/// something else and then nothing is refused at once, not after
/// [`HELLO_LIMIT`].
const PRELUDE_WAIT: Duration = Duration::from_secs(3);

/// How often a wait for a reply looks at Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// A running worker.
pub(crate) struct Peer {
    child: Child,
    /// What a first Ctrl-C does to it.
    ctrl_c: CtrlC,
    /// When Ctrl-C was passed on to it ([`CtrlC::Forward`]).
    told: Option<Instant>,
    /// The worker's benchmarks, from its hello.
    pub(crate) benchmarks: Vec<String>,
}

impl Peer {
    /// Starts `program` as a worker with `args` (its measuring settings)
    /// and waits for its hello. Its environment's size is random (the
    /// environment sits at the top of the stack: one of the layout effects
    /// a fresh process samples); `relay` takes the lines of its standard
    /// error it shows as progress; `ctrl_c` says what Ctrl-C does to it.
    pub(crate) fn start(
        program: &Program,
        args: &[OsString],
        relay: Option<Relay>,
        ctrl_c: CtrlC,
    ) -> Result<Peer, String> {
        program.check()?;
        let (run, exe) = program.paths();
        let shown = exe.display();
        let token = supervisor::token();
        let mut args = args.to_vec();
        args.extend([format!("--{TOKEN_FLAG}").into(), token.into()]);
        let mut command = supervisor::command(run, exe, &args);
        command
            .env(WORKER_ENV, token)
            .env(PAD_ENV, " ".repeat(fastrand::usize(..4096)))
            .env(crate::environment::NO_GIT_ENV, "1")
            .envs(bench_runtime::heap::worker_env().iter().copied());
        let child = Child::start(command, exe, true, Sink::Lines, Sink::Tail(relay))?;
        let mut peer = Peer {
            child,
            ctrl_c,
            told: None,
            benchmarks: Vec::new(),
        };
        let not_a_worker = |how: &str| {
            format!(
                "{shown} did not answer as a bench-harness worker ({how}): give a bench \
                 executable built with a bench-harness that has --against, from a bench \
                 target with harness = false"
            )
        };
        // What a bench target's own `main` printed before it handed over to
        // the harness comes first: the hello is the first line that is one.
        // A Ctrl-C before it ends the worker: it cannot stop at a sample
        // boundary yet.
        peer.ctrl_c = CtrlC::Kill;
        let started = Instant::now();
        let mut deadline = started + HELLO_LIMIT;
        for _ in 0..PRELUDE_LINES {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match peer.next_line(left) {
                Ok(line) => line,
                Err(Gone::Interrupted | Gone::Ending) => {
                    return Err(format!("interrupted while {shown} was starting"))
                }
                Err(Gone::TimedOut) if deadline < started + HELLO_LIMIT => {
                    return Err(not_a_worker(&format!(
                        "no hello within {:.0} s of its first line of output",
                        PRELUDE_WAIT.as_secs_f64()
                    )))
                }
                Err(Gone::TimedOut) => {
                    return Err(not_a_worker(&format!(
                        "no answer within {:.0} s",
                        HELLO_LIMIT.as_secs_f64()
                    )))
                }
                Err(Gone::Closed | Gone::Garbled(_)) => {
                    let (how, said) = peer.exit_status();
                    return Err(not_a_worker(&format!("it {how}{said}")));
                }
            };
            let (protocol, harness_version, benchmarks) = match crate::json::from_str(&line) {
                Ok(Reply::Hello {
                    worker,
                    protocol,
                    harness_version,
                    benchmarks,
                }) if worker == WORKER_NAME => (protocol, harness_version, benchmarks),
                _ => {
                    deadline = deadline.min(Instant::now() + PRELUDE_WAIT);
                    continue;
                }
            };
            // Version 1 is version 2 without `measure`, which only a run's
            // own processes (this very program) are asked.
            if !(OLDEST_PROTOCOL..=PROTOCOL_VERSION).contains(&protocol) {
                return Err(format!(
                    "{shown} speaks worker protocol {protocol} (bench-harness \
                     {harness_version}); this build speaks {OLDEST_PROTOCOL} to \
                     {PROTOCOL_VERSION}: build both with the same bench-harness version"
                ));
            }
            peer.benchmarks = benchmarks;
            peer.ctrl_c = ctrl_c;
            return Ok(peer);
        }
        Err(not_a_worker(&format!(
            "no hello in its first {PRELUDE_LINES} lines of output"
        )))
    }

    /// Sends `request` and waits up to `limit` for its reply; `doing` says
    /// what the worker was doing, for the error.
    pub(crate) fn ask(
        &mut self,
        request: &Request,
        limit: Duration,
        doing: &str,
    ) -> Result<Reply, String> {
        if !self.send(request) {
            return Err(self.ended(doing));
        }
        self.reply(limit).map_err(|gone| match gone {
            Gone::Interrupted => format!("interrupted while the worker was {doing}"),
            Gone::Ending => format!("ended while the worker was {doing}"),
            Gone::TimedOut => format!(
                "the worker ({}) did not answer within {:.0} s while {doing} (a hung \
                 iteration?): it was stopped",
                self.child.shown().display(),
                limit.as_secs_f64()
            ),
            Gone::Closed => self.ended(doing),
            Gone::Garbled(error) => format!(
                "the worker ({}) sent a reply this build cannot read while {doing}: {error}",
                self.child.shown().display()
            ),
        })
    }

    /// Passes `request` on to the worker; false if it can take no more.
    pub(crate) fn send(&mut self, request: &Request) -> bool {
        self.child.send(&request.line())
    }

    /// The worker's next reply within `limit` (a request may have several),
    /// or why none came.
    pub(crate) fn reply(&mut self, limit: Duration) -> Result<Reply, Gone> {
        let line = self.next_line(limit)?;
        crate::json::from_str::<Reply>(&line).map_err(Gone::Garbled)
    }

    /// How the worker ended (its status, once it has: it is killed if it
    /// has not within a moment) and the end of its standard error.
    pub(crate) fn end(&mut self) -> (Option<std::process::ExitStatus>, String) {
        let status = self.child.finish_within(supervisor::PIPE_GRACE).ok();
        (status, self.child.stderr(supervisor::PIPE_GRACE))
    }

    /// The worker's next line within `limit`, in short waits so that
    /// Ctrl-C stops a run waiting on a hung worker at once rather than at
    /// the limit (or, passed on, within its grace). A worker that times out
    /// or is interrupted is stopped.
    fn next_line(&mut self, limit: Duration) -> Result<String, Gone> {
        let deadline = Instant::now() + limit;
        let mut ended_at: Option<Instant> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.child.line(left.min(POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Disconnected) => return Err(Gone::Closed),
                Err(RecvTimeoutError::Timeout) => {
                    // Ended, but something it started still holds its
                    // output open: what it wrote has arrived by now.
                    if self.child.has_ended().unwrap_or(false)
                        && ended_at.get_or_insert_with(Instant::now).elapsed()
                            > supervisor::PIPE_GRACE
                    {
                        return Err(Gone::Closed);
                    }
                    if bench_runtime::signal::ending().is_some() {
                        let _ = self.child.finish();
                        return Err(Gone::Ending);
                    }
                    let interrupted = match (bench_runtime::signal::stopping(), self.ctrl_c) {
                        (false, _) => false,
                        (true, CtrlC::Kill) => true,
                        (true, CtrlC::Forward(grace)) => {
                            let told = *self.told.get_or_insert_with(|| {
                                self.child.interrupt();
                                Instant::now()
                            });
                            told.elapsed() >= grace
                        }
                    };
                    if interrupted || left.is_zero() {
                        let _ = self.child.finish();
                        return Err(if interrupted {
                            Gone::Interrupted
                        } else {
                            Gone::TimedOut
                        });
                    }
                }
            }
        }
    }

    /// Why the worker is gone: its exit status and the last line it wrote
    /// to standard error.
    fn ended(&mut self, doing: &str) -> String {
        let (how, said) = self.exit_status();
        format!(
            "the worker ({}) {how} while {doing}{said}",
            self.child.shown().display()
        )
    }

    /// How the worker ended (`exited with code 2`), and its last line on
    /// standard error, if any (` (its last words: …)`). Its output has
    /// closed: it has ended or is about to, and is killed if it has not
    /// within a moment.
    fn exit_status(&mut self) -> (String, String) {
        let (status, stderr) = self.end();
        let how = status.map_or("ended".to_string(), supervisor::how_it_ended);
        let said = supervisor::last_words(&stderr)
            .map_or(String::new(), |line| format!(" (its last words: {line})"));
        (how, said)
    }
}

/// Why no reply came ([`Peer::reply`]).
#[derive(Debug)]
pub(crate) enum Gone {
    /// Its standard output closed: it ended, or is about to.
    Closed,
    /// It did not answer within the limit, and was killed.
    TimedOut,
    /// Ctrl-C: it was killed at once ([`CtrlC::Kill`]), or did not
    /// answer within the grace after it was told ([`CtrlC::Forward`]).
    Interrupted,
    /// A second Ctrl-C or a SIGTERM is ending this process.
    Ending,
    /// Its reply does not read as one (the error).
    Garbled(String),
}
