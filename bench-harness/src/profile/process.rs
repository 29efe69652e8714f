//! The one place the profiler starts a process (`perf record`, `perf
//! script`), through the run's supervisor: standard output and error to
//! files (read back bounded), a time limit, and Ctrl-C honoured.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, ExitStatus};
use std::time::Duration;

use crate::supervisor::{Child, Sink, Stop};

/// How a tool's run ended.
#[derive(Debug)]
pub(crate) enum Ended {
    /// It exited, or a signal ended it.
    Exited(ExitStatus),
    /// Ctrl-C: its group was killed.
    Interrupted,
    /// It outran its time limit: its group was killed.
    TimedOut,
}

/// Runs `program` with `args` and `env` added, its output to `stdout` and
/// `stderr` (files, created or replaced), killed with its whole group
/// after `limit` or at Ctrl-C.
pub(crate) fn run_tool(
    program: &Path,
    args: &[&OsStr],
    env: &[(&str, &OsStr)],
    (stdout, stderr): (&Path, &Path),
    limit: Duration,
) -> Result<Ended, String> {
    let shown = program.display();
    let out = std::fs::File::create(stdout)
        .map_err(|e| format!("cannot create {}: {e}", stdout.display()))?;
    let err = std::fs::File::create(stderr)
        .map_err(|e| format!("cannot create {}: {e}", stderr.display()))?;
    let mut command = Command::new(program);
    command.args(args).envs(env.iter().copied());
    let mut child = Child::start(command, program, false, Sink::File(out), Sink::File(err))?;
    let stop = child
        .wait(limit)
        .map_err(|e| format!("could not wait for {shown}: {e}"))?;
    let status = child
        .finish()
        .map_err(|e| format!("could not wait for {shown}: {e}"))?;
    Ok(match stop {
        Stop::Ended => Ended::Exited(status),
        Stop::TimedOut => Ended::TimedOut,
        Stop::Interrupted | Stop::Ending => Ended::Interrupted,
    })
}

/// The last `limit` bytes of a file a tool wrote, from the first whole
/// line, as text ("" when it cannot be read).
pub(crate) fn tail(path: &Path, limit: u64) -> String {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return String::new();
    };
    let length = file.metadata().map_or(0, |m| m.len());
    let start = length.saturating_sub(limit);
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(start)).is_err()
        || file.take(limit).read_to_end(&mut bytes).is_err()
    {
        return String::new();
    }
    let mut text = &bytes[..];
    if start > 0 {
        if let Some(newline) = text.iter().position(|&b| b == b'\n') {
            text = &text[newline + 1..];
        }
    }
    String::from_utf8_lossy(text).into_owned()
}
