//! The one place the profiler starts a process (`perf record`, `perf
//! script`): a process group of its own, standard output and error to
//! files (read back bounded), a time limit, and Ctrl-C honoured.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use bench_runtime::signal;

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
    command
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // A terminal's Ctrl-C reaches the tool through this process only,
        // and the tool with whatever it started can be killed as one.
        command.process_group(0);
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("could not start {shown}: {e}"))?;
    signal::set_child_group(Some(child.id()));
    let started = Instant::now();
    let ended = loop {
        let done = match signal::has_ended(child.id()) {
            Some(done) => done,
            None => matches!(child.try_wait(), Ok(Some(_))),
        };
        if done {
            break None;
        }
        if signal::interrupted() || signal::ending().is_some() {
            break Some(Ended::Interrupted);
        }
        if started.elapsed() > limit {
            break Some(Ended::TimedOut);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // Whatever it left running in its group ends with it.
    if !signal::kill_group(child.id()) && ended.is_some() {
        let _ = child.kill();
    }
    let status = child.wait();
    signal::set_child_group(None);
    match ended {
        Some(ended) => Ok(ended),
        None => status
            .map(Ended::Exited)
            .map_err(|e| format!("could not wait for {shown}: {e}")),
    }
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
