//! The parent's side of the worker protocol: the other build started as a
//! worker process, its replies read with a time limit, and the process
//! stopped whatever happens.
//!
//! The worker runs in a process group of its own (a terminal's Ctrl-C
//! reaches the parent, which stops it), is killed by the kernel if the
//! parent dies (it asks for that itself, as `--forks` children do), and is
//! killed and reaped when the [`Peer`] is dropped.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::protocol::{Reply, Request, PROTOCOL_VERSION, TOKEN_FLAG, WORKER_ENV, WORKER_NAME};

/// How long a worker may take to start: load, pick its clock, measure its
/// loop overhead.
const HELLO_LIMIT: Duration = Duration::from_secs(30);

/// How often a wait for a reply looks at Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Lines of the worker's standard error kept to explain a crash.
const STDERR_LINES: usize = 5;

/// A running worker.
pub(super) struct Peer {
    exe: PathBuf,
    child: Child,
    requests: ChildStdin,
    replies: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_reader: Option<thread::JoinHandle<()>>,
    /// The worker's benchmarks, from its hello.
    pub(super) benchmarks: Vec<String>,
    pub(super) harness_version: String,
}

impl Peer {
    /// Starts `run` (named `exe` in messages) as a worker with `args` (its
    /// measuring settings) and waits for its hello.
    pub(super) fn start(run: &Path, exe: &Path, args: &[OsString]) -> Result<Peer, String> {
        let shown = exe.display();
        let token = crate::forks::token();
        let mut child = Command::new(run)
            .args(args)
            .arg(format!("--{TOKEN_FLAG}"))
            .arg(token)
            .env(WORKER_ENV, token)
            .env_remove(crate::forks::CHILD_ENV)
            .arg0(exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|error| format!("cannot start {shown}: {error}"))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let requests = child.stdin.take().expect("stdin is piped");
        let (lines, replies) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let kept = tail.clone();
        let stderr_reader = thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                if kept.len() == STDERR_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
        let mut peer = Peer {
            exe: exe.to_path_buf(),
            child,
            requests,
            replies,
            stderr: tail,
            stderr_reader: Some(stderr_reader),
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
        let hello = match peer.replies.recv_timeout(HELLO_LIMIT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                return Err(not_a_worker(&format!(
                    "no answer within {:.0} s",
                    HELLO_LIMIT.as_secs_f64()
                )))
            }
            Err(RecvTimeoutError::Disconnected) => {
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
        if self.requests.write_all(request.line().as_bytes()).is_err()
            || self.requests.flush().is_err()
        {
            return Err(self.ended(doing));
        }
        let line = self.receive(limit, doing)?;
        crate::json::from_str::<Reply>(&line).map_err(|error| {
            format!(
                "the worker ({}) sent a reply this build cannot read while {doing}: {error}",
                self.exe.display()
            )
        })
    }

    /// Whether the worker process is still running.
    pub(super) fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn receive(&mut self, limit: Duration, doing: &str) -> Result<String, String> {
        // In short waits, so that Ctrl-C stops a run waiting on a hung
        // worker at once rather than at the limit.
        let deadline = Instant::now() + limit;
        let reply = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.replies.recv_timeout(left.min(POLL)) {
                Err(RecvTimeoutError::Timeout) if !left.is_zero() => {
                    if bench_runtime::signal::interrupted() {
                        let _ = self.child.kill();
                        let _ = self.child.wait();
                        return Err(format!("interrupted while the worker was {doing}"));
                    }
                }
                other => break other,
            }
        };
        match reply {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                Err(format!(
                    "the worker ({}) did not answer within {:.0} s while {doing} (a hung \
                     iteration?): it was stopped",
                    self.exe.display(),
                    limit.as_secs_f64()
                ))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.ended(doing)),
        }
    }

    /// Why the worker is gone: its exit status and the last line it wrote
    /// to standard error.
    fn ended(&mut self, doing: &str) -> String {
        let (how, said) = self.exit_status();
        format!(
            "the worker ({}) {how} while {doing}{said}",
            self.exe.display()
        )
    }

    /// How the worker ended (`exited with code 2`), and its last line on
    /// standard error, if any (` (its last words: …)`).
    fn exit_status(&mut self) -> (String, String) {
        // Its output closed: it has ended or is about to.
        let status = self.child.wait();
        let how = match status {
            Ok(status) => match (
                status.code(),
                std::os::unix::process::ExitStatusExt::signal(&status),
            ) {
                (Some(code), _) => format!("exited with code {code}"),
                (None, Some(signal)) => format!("was killed by signal {signal}"),
                (None, None) => "ended".to_string(),
            },
            Err(_) => "ended".to_string(),
        };
        // Its standard error is closed too once it has ended: read to the end.
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        let last = self
            .stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .back()
            .cloned();
        let said = last.map_or(String::new(), |line| format!(" (its last words: {line})"));
        (how, said)
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
