//! The parent's side of the worker protocol: a build started as a worker
//! process through the run's supervisor (its own process group, killed
//! with it whatever ends the comparison; bounded pipes; see
//! `crate::supervisor`), its replies read with a time limit, and Ctrl-C
//! honoured while it is waited for.

use std::ffi::OsString;
use std::path::Path;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::protocol::{Reply, Request, PROTOCOL_VERSION, TOKEN_FLAG, WORKER_ENV, WORKER_NAME};
use crate::supervisor::{self, Child, Sink};

/// How long a worker may take to start: load, pick its clock, measure its
/// loop overhead.
const HELLO_LIMIT: Duration = Duration::from_secs(30);

/// How often a wait for a reply looks at Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// A running worker.
pub(super) struct Peer {
    child: Child,
    /// The worker's benchmarks, from its hello.
    pub(super) benchmarks: Vec<String>,
    pub(super) harness_version: String,
}

impl Peer {
    /// Starts `run` (named `exe` in messages) as a worker with `args` (its
    /// measuring settings) and waits for its hello.
    pub(super) fn start(run: &Path, exe: &Path, args: &[OsString]) -> Result<Peer, String> {
        let shown = exe.display();
        let token = supervisor::token();
        let mut args = args.to_vec();
        args.extend([format!("--{TOKEN_FLAG}").into(), token.into()]);
        let mut command = supervisor::command(run, exe, &args);
        command
            .env(WORKER_ENV, token)
            .env_remove(crate::forks::CHILD_ENV);
        let child = Child::start(command, exe, true, Sink::Lines, Sink::Tail(None))?;
        let mut peer = Peer {
            child,
            benchmarks: Vec::new(),
            harness_version: String::new(),
        };
        let not_a_worker = |how: &str| {
            format!(
                "{shown} did not answer as a bench-harness worker ({how}): give a bench \
                 executable built with a bench-harness that has --against, from a bench \
                 target with harness = false"
            )
        };
        let hello = match peer.next_line(HELLO_LIMIT) {
            Ok(line) => line,
            Err(Waited::Interrupted) => {
                return Err(format!("interrupted while {shown} was starting"))
            }
            Err(Waited::TimedOut) => {
                return Err(not_a_worker(&format!(
                    "no answer within {:.0} s",
                    HELLO_LIMIT.as_secs_f64()
                )))
            }
            Err(Waited::Closed) => {
                let (how, said) = peer.exit_status();
                return Err(not_a_worker(&format!("it {how}{said}")));
            }
        };
        match crate::json::from_str::<Reply>(&hello) {
            Ok(Reply::Hello {
                worker,
                protocol,
                harness_version,
                benchmarks,
            }) if worker == WORKER_NAME => {
                if protocol != PROTOCOL_VERSION {
                    return Err(format!(
                        "{shown} speaks worker protocol {protocol} (bench-harness \
                         {harness_version}); this build speaks {PROTOCOL_VERSION}: build both \
                         with the same bench-harness version"
                    ));
                }
                peer.benchmarks = benchmarks;
                peer.harness_version = harness_version;
                Ok(peer)
            }
            _ => Err(not_a_worker("its first line was not a hello")),
        }
    }

    /// Sends `request` and waits up to `limit` for its reply; `doing` says
    /// what the worker was doing, for the error.
    pub(super) fn ask(
        &mut self,
        request: &Request,
        limit: Duration,
        doing: &str,
    ) -> Result<Reply, String> {
        if !self.child.send(&request.line()) {
            return Err(self.ended(doing));
        }
        let line = match self.next_line(limit) {
            Ok(line) => line,
            Err(Waited::Interrupted) => {
                return Err(format!("interrupted while the worker was {doing}"))
            }
            Err(Waited::TimedOut) => {
                return Err(format!(
                    "the worker ({}) did not answer within {:.0} s while {doing} (a hung \
                     iteration?): it was stopped",
                    self.child.shown().display(),
                    limit.as_secs_f64()
                ))
            }
            Err(Waited::Closed) => return Err(self.ended(doing)),
        };
        crate::json::from_str::<Reply>(&line).map_err(|error| {
            format!(
                "the worker ({}) sent a reply this build cannot read while {doing}: {error}",
                self.child.shown().display()
            )
        })
    }

    /// The worker's next line within `limit`, in short waits so that
    /// Ctrl-C stops a run waiting on a hung worker at once rather than at
    /// the limit. A worker that times out or is interrupted is stopped.
    fn next_line(&mut self, limit: Duration) -> Result<String, Waited> {
        let deadline = Instant::now() + limit;
        let mut ended_at: Option<Instant> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.child.line(left.min(POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Disconnected) => return Err(Waited::Closed),
                Err(RecvTimeoutError::Timeout) => {
                    // Ended, but something it started still holds its
                    // output open: what it wrote has arrived by now.
                    if self.child.has_ended().unwrap_or(false)
                        && ended_at.get_or_insert_with(Instant::now).elapsed()
                            > supervisor::PIPE_GRACE
                    {
                        return Err(Waited::Closed);
                    }
                    let interrupted = bench_runtime::signal::stopping();
                    if interrupted || left.is_zero() {
                        let _ = self.child.finish();
                        return Err(if interrupted {
                            Waited::Interrupted
                        } else {
                            Waited::TimedOut
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
        let how = match self.child.finish_within(supervisor::PIPE_GRACE) {
            Ok(status) => supervisor::how_it_ended(status),
            Err(_) => "ended".to_string(),
        };
        let stderr = self.child.stderr(supervisor::PIPE_GRACE);
        let said = supervisor::last_words(&stderr)
            .map_or(String::new(), |line| format!(" (its last words: {line})"));
        (how, said)
    }
}

/// Why no line came ([`Peer::next_line`]).
enum Waited {
    /// Its standard output closed.
    Closed,
    TimedOut,
    Interrupted,
}
