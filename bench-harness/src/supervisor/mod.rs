//! The one place the harness starts a process of its own and ends it: the
//! workers (a run's processes and both builds of `--against`), and the
//! profiler's tools. Every such process
//!
//! - runs in a process group of its own: a terminal's Ctrl-C reaches it
//!   through this process only, and the group, with whatever the process
//!   started in it, is killed as one;
//! - is killed by the kernel when this process ends, however it ends
//!   (SIGKILL too), set before the program runs, so also for a program
//!   that never reaches code of ours;
//! - has its group killed by a second Ctrl-C, a SIGTERM or a SIGHUP (the
//!   signal handler knows every live group);
//! - carries this run's mark in its environment, which whatever it starts
//!   inherits: when the last process of the run has ended, any process
//!   still carrying the mark (a daemon that left the group with `setsid`)
//!   is killed; one that cleared or wrote over its environment escapes;
//! - has its standard error kept to its last 64 KiB and its standard
//!   output read as bounded lines ([`pipes`]), so a flood costs little;
//! - is killed with its group, and reaped, when its [`Child`] is dropped,
//!   whatever path the code takes.

mod pipes;
mod program;

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use bench_runtime::signal;

pub(crate) use pipes::{last_words, Relay};
pub(crate) use program::{started_with_token, token, Program};

/// The variable that marks every process of this run: its value is the
/// run's [`token`]. Read by no one but the sweep ([`sweep_marked`]).
const MARK_ENV: &str = "BENCH_HARNESS_RUN_MARK";

/// How long a process whose output closed may take to end on its own
/// before it is killed; and how long a pipe a process that left the group
/// still holds is waited for.
pub(crate) const PIPE_GRACE: Duration = Duration::from_secs(1);

/// The run's processes alive now: the sweep waits for none to be left.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// Where a child's standard output or error goes.
pub(crate) enum Sink {
    Null,
    File(File),
    /// Standard output, read as lines ([`Child::line`]).
    Lines,
    /// Standard output, read whole up to this many bytes ([`output`]).
    Capture(usize),
    /// Standard error, its end kept ([`Child::stderr`]); the lines `Relay`
    /// takes are not kept.
    Tail(Option<Relay>),
}

impl Sink {
    fn stdio(&self) -> std::io::Result<Stdio> {
        Ok(match self {
            Sink::Null => Stdio::null(),
            Sink::File(file) => Stdio::from(file.try_clone()?),
            Sink::Lines | Sink::Capture(_) | Sink::Tail(_) => Stdio::piped(),
        })
    }
}

/// What a first Ctrl-C does to a worker waited on for a reply
/// (`session::worker::Peer`); [`Child::wait`] always kills.
#[derive(Debug, Clone, Copy)]
pub(crate) enum CtrlC {
    /// Its group is killed.
    Kill,
    /// It is sent SIGINT (it stops at its next sample boundary and writes
    /// what it has), and its group is killed if it has not ended within
    /// the grace given.
    Forward(Duration),
}

/// How a wait for a child ended ([`Child::wait`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// It ended on its own.
    Ended,
    /// It outran its time limit: its group was killed.
    TimedOut,
    /// Ctrl-C: its group was killed.
    Interrupted,
    /// A second Ctrl-C or a SIGTERM is ending this process: the signal
    /// handler killed the group.
    Ending,
}

/// A running process of this run; see the module's documentation.
pub(crate) struct Child {
    process: std::process::Child,
    /// What messages call it.
    shown: PathBuf,
    /// Lines for its standard input, written on a thread of their own: a
    /// child that does not read cannot block this process.
    stdin: Option<Sender<String>>,
    lines: Option<Receiver<String>>,
    capture: Option<pipes::SharedTail>,
    tail: Option<pipes::SharedTail>,
    /// Its status once reaped.
    reaped: Option<ExitStatus>,
}

impl Child {
    /// Starts `command` (its program, arguments and environment set; named
    /// `shown` in messages) with a pipe to its standard input if `stdin`,
    /// its output and error to `stdout` and `stderr`.
    pub(crate) fn start(
        mut command: Command,
        shown: &Path,
        stdin: bool,
        stdout: Sink,
        stderr: Sink,
    ) -> Result<Child, String> {
        let could_not = |e: std::io::Error| format!("could not start {}: {e}", shown.display());
        command
            .env(MARK_ENV, token())
            .stdin(if stdin { Stdio::piped() } else { Stdio::null() })
            .stdout(stdout.stdio().map_err(could_not)?)
            .stderr(stderr.stdio().map_err(could_not)?);
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        signal::die_with_parent(&mut command);
        // A SIGTERM or SIGHUP to this process kills the child's group too.
        signal::kill_children_on_termination();
        // Counted before it exists: another child's `finish` must not find
        // the run empty, and sweep, while this one starts with the mark.
        LIVE.fetch_add(1, Ordering::SeqCst);
        let mut process = match command.spawn() {
            Ok(process) => process,
            Err(error) => {
                if LIVE.fetch_sub(1, Ordering::SeqCst) == 1 {
                    sweep_marked();
                }
                return Err(could_not(error));
            }
        };
        signal::add_child_group(process.id());
        let (lines, capture) = match stdout {
            Sink::Lines => (process.stdout.take().map(pipes::read_lines), None),
            Sink::Capture(limit) => (
                None,
                process.stdout.take().map(|o| pipes::read_all(o, limit)),
            ),
            _ => (None, None),
        };
        let tail = match stderr {
            Sink::Tail(relay) => process.stderr.take().map(|e| pipes::read_tail(e, relay)),
            _ => None,
        };
        Ok(Child {
            stdin: process.stdin.take().map(pipes::write_lines),
            process,
            shown: shown.to_path_buf(),
            lines,
            capture,
            tail,
            reaped: None,
        })
    }

    /// What messages call it.
    pub(crate) fn shown(&self) -> &Path {
        &self.shown
    }

    /// Passes `line` on to its standard input; false if it can take no
    /// more (a write failed: it has ended), or there is no pipe.
    pub(crate) fn send(&mut self, line: &str) -> bool {
        self.stdin
            .as_ref()
            .is_some_and(|stdin| stdin.send(line.to_string()).is_ok())
    }

    /// Its next line of standard output, waiting at most `limit`.
    pub(crate) fn line(&self, limit: Duration) -> Result<String, RecvTimeoutError> {
        match &self.lines {
            Some(lines) => lines.recv_timeout(limit),
            None => Err(RecvTimeoutError::Disconnected),
        }
    }

    /// Whether it has ended, leaving it unreaped (so its process group can
    /// still be killed by its id).
    pub(crate) fn has_ended(&mut self) -> std::io::Result<bool> {
        if self.reaped.is_some() {
            return Ok(true);
        }
        match signal::has_ended(self.process.id()) {
            Some(ended) => Ok(ended),
            None => Ok(self.process.try_wait()?.is_some()),
        }
    }

    /// Kills its process group (it and whatever it started that stayed in
    /// it), falling back to it alone.
    pub(crate) fn kill_all(&mut self) {
        if self.reaped.is_none() && !signal::kill_group(self.process.id()) {
            let _ = self.process.kill();
        }
    }

    /// Sends it SIGINT: a worker stops at its next sample boundary.
    pub(crate) fn interrupt(&mut self) {
        if self.reaped.is_none() {
            signal::interrupt(self.process.id());
        }
    }

    /// Waits for it to end, at most `limit` (then its group is killed); a
    /// Ctrl-C kills its group at once. Returns once it has ended; it is not
    /// reaped ([`Child::finish`] does).
    pub(crate) fn wait(&mut self, limit: Duration) -> std::io::Result<Stop> {
        let started = Instant::now();
        let mut interrupted = false;
        let mut timed_out = false;
        while !self.has_ended()? {
            if signal::ending().is_some() {
                // The signal handler killed the group; only the reaping is
                // left.
            } else if signal::interrupted() {
                if !interrupted {
                    interrupted = true;
                    self.kill_all();
                }
            } else if started.elapsed() > limit && !timed_out {
                timed_out = true;
                self.kill_all();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(if signal::ending().is_some() {
            Stop::Ending
        } else if interrupted {
            Stop::Interrupted
        } else if timed_out {
            Stop::TimedOut
        } else {
            Stop::Ended
        })
    }

    /// Kills what is left of its group, reaps it and returns its status.
    /// Once the run has no process left, any process still carrying the
    /// run's mark is killed ([`sweep_marked`]).
    pub(crate) fn finish(&mut self) -> std::io::Result<ExitStatus> {
        if let Some(status) = self.reaped {
            return Ok(status);
        }
        // What it left running in its group ends with it: it would outlive
        // the run, and hold its pipes open.
        self.kill_all();
        let status = self.process.wait()?;
        self.reaped = Some(status);
        signal::remove_child_group(self.process.id());
        if LIVE.fetch_sub(1, Ordering::SeqCst) == 1 {
            sweep_marked();
        }
        Ok(status)
    }

    /// [`Child::finish`] once it has ended on its own, or after `grace`
    /// (then killed): for a process whose output has closed.
    pub(crate) fn finish_within(&mut self, grace: Duration) -> std::io::Result<ExitStatus> {
        let deadline = Instant::now() + grace;
        while !self.has_ended()? && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.finish()
    }

    /// The end of its standard error: once its reader reached the end, or
    /// after `grace` with what was read by then (a process that left the
    /// group may hold the pipe).
    pub(crate) fn stderr(&self, grace: Duration) -> String {
        self.tail
            .as_ref()
            .map_or(String::new(), |tail| pipes::tail_text(tail, grace))
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// Runs `command` (named `shown`) to its end with nothing on its standard
/// input and its standard error discarded, as a child of the run
/// ([`Child::start`]): its status and standard output, or `None` if it
/// could not start, outran `limit` (then killed), was stopped by Ctrl-C,
/// or wrote more than `max` bytes.
pub(crate) fn output(
    command: Command,
    shown: &Path,
    limit: Duration,
    max: usize,
) -> Option<(ExitStatus, Vec<u8>)> {
    let mut child = Child::start(command, shown, false, Sink::Capture(max), Sink::Null).ok()?;
    let stop = child.wait(limit).ok()?;
    let status = child.finish().ok()?;
    let out = pipes::captured(child.capture.as_ref()?, PIPE_GRACE)?;
    (stop == Stop::Ended).then_some((status, out))
}

/// How a status reads in a message: `exited with code 2`, `was killed by
/// signal 6 (SIGABRT)`.
pub(crate) fn how_it_ended(status: ExitStatus) -> String {
    match (status.code(), killed_by(status)) {
        (Some(code), _) => format!("exited with code {code}"),
        (None, Some(death)) => format!("was killed by {death}"),
        (None, None) => "ended".to_string(),
    }
}

/// `signal 6 (SIGABRT)` when a signal ended the process.
#[cfg(unix)]
pub(crate) fn killed_by(status: ExitStatus) -> Option<String> {
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
pub(crate) fn killed_by(_status: ExitStatus) -> Option<String> {
    None
}

/// Kills every process that carries this run's mark (see the module's
/// documentation), but this one: what left its child's group. Linux only
/// (it reads `/proc`); a process that cleared its environment escapes.
fn sweep_marked() {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    let mark: Vec<u8> = format!("{MARK_ENV}={}", token()).into_bytes();
    let me = std::process::id();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if environ.split(|&b| b == 0).any(|var| var == mark.as_slice()) {
            signal::kill_process(pid);
        }
    }
}

/// The path of what a child runs, for `Command::new`, and its `argv[0]`.
pub(crate) fn command(run: &Path, shown: &Path, args: &[OsString]) -> Command {
    let mut command = Command::new(run);
    command.args(args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.arg0(shown);
    }
    command
}

#[cfg(test)]
mod tests {
    /// The library's source files outside this module, without their
    /// tests: none may start a process but through [`super::Child`].
    #[test]
    fn no_process_is_started_but_through_the_supervisor() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![src.clone()];
        let mut read = 0;
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            let name = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if !name.ends_with(".rs")
                || name.starts_with("supervisor")
                || name.ends_with("tests.rs")
            {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap();
            read += 1;
            for start in [".spawn()", ".output()"] {
                assert!(
                    !code.contains(start),
                    "{name} starts a process with {start}: use supervisor::Child (its group, \
                     time limit, bounded pipes and the run's mark)"
                );
            }
        }
        assert!(read > 50, "read only {read} files");
    }
}
