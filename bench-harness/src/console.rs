//! The lines outside the tables: errors, notes and status on stderr, and
//! what `--help`, `--list` and `--list-baselines` print on stdout.

use std::fmt::Display;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::results::Outcome;

/// `error: MESSAGE` on stderr: one line that names the problem and the fix.
/// (Each of these lines first moves the live progress line out of its way.)
pub(crate) fn error(message: &dyn Display) {
    let line = format!("error: {}", crate::text::escape(&message.to_string()));
    print_line(&line);
}

/// A line on stderr, through the progress display once it has started
/// ([`route_stderr`]): it erases its live line first.
fn print_line(line: &str) {
    STDERR
        .get()
        .map_or_else(|| eprintln!("{line}"), |print| print(line));
}

static STDERR: OnceLock<fn(&str)> = OnceLock::new();

/// From now on, stderr's lines go through `print`.
pub(crate) fn route_stderr(print: fn(&str)) {
    STDERR.get_or_init(|| print);
}

/// `-q`: from here on, notes and the lines that say where a file was
/// written are not printed; errors, warnings and the table still are.
pub(crate) fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

static QUIET: AtomicBool = AtomicBool::new(false);

fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// `note: MESSAGE` on stderr, unless `-q`.
pub(crate) fn note(message: &dyn Display) {
    if quiet() {
        return;
    }
    let line = format!("note: {}", crate::text::escape(&message.to_string()));
    print_line(&line);
}

/// A line of status on stderr, as it is (`saved baseline ...`,
/// `interrupted: ...`).
pub(crate) fn status(message: &dyn Display) {
    let line = crate::text::escape(&message.to_string()).into_owned();
    print_line(&line);
}

/// Where a file was written (`wrote the report to ...`, `saved baseline
/// ...`), unless `-q`.
pub(crate) fn written(message: &dyn Display) {
    if !quiet() {
        status(message);
    }
}

/// `--help`. A reader that stopped early (`| head`) is not an error.
pub(crate) fn help(text: &str) -> io::Result<()> {
    quiet_on_closed_pipe(io::stdout().lock().write_all(text.as_bytes()))
}

/// `--list`: libtest's `NAME: benchmark` lines, and with `count` the
/// closing count line. A reader that stopped early (`| head -1`) is not an
/// error.
pub(crate) fn list<'a>(
    names: impl ExactSizeIterator<Item = &'a str>,
    count: bool,
) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    let n = names.len();
    let written = (|| {
        for name in names {
            writeln!(stdout, "{}: benchmark", crate::text::escape(name))?;
        }
        if count {
            writeln!(stdout, "\n{n} benchmark{}", if n == 1 { "" } else { "s" })?;
        }
        stdout.flush()
    })();
    quiet_on_closed_pipe(written)
}

/// One line of `--list-baselines`. A failed write is kept for
/// [`take_stdout_error`] and the lines after it are dropped; a reader that
/// stopped early is not an error.
pub(crate) fn baseline_line(line: &dyn Display) {
    let mut failed = STDOUT_FAILED.lock().unwrap_or_else(PoisonError::into_inner);
    if failed.is_some() {
        return;
    }
    let mut stdout = io::stdout().lock();
    let written = writeln!(stdout, "{}", crate::text::escape(&line.to_string()))
        .and_then(|()| stdout.flush());
    if let Err(error) = written {
        *failed = Some(error);
    }
}

/// The error that stopped [`baseline_line`]'s lines, if any, but for a
/// closed pipe: the caller reports it and exits non-zero.
pub(crate) fn take_stdout_error() -> Option<io::Error> {
    let failed = STDOUT_FAILED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    quiet_on_closed_pipe(failed.map_or(Ok(()), Err)).err()
}

/// A terse smoke test's marks per line, as libtest's.
pub(crate) const TERSE_COLUMNS: usize = 88;

/// One benchmark of a terse smoke test (libtest's `--format terse`): `.`
/// passed, `F` failed, `i` ignored; after every [`TERSE_COLUMNS`] marks,
/// ` DONE/TOTAL` and a new line.
pub(crate) fn test_mark(outcome: &Outcome, done: usize, total: usize) -> io::Result<()> {
    let mark = match outcome {
        Outcome::Passed | Outcome::Measured(_) => '.',
        Outcome::Failed(_) => 'F',
        Outcome::Ignored => 'i',
    };
    let mut stdout = io::stdout().lock();
    write!(stdout, "{mark}")?;
    if done % TERSE_COLUMNS == TERSE_COLUMNS - 1 {
        writeln!(stdout, " {}/{total}", done + 1)?;
    }
    stdout.flush()
}

/// Ends a terse smoke test's last line of marks.
pub(crate) fn test_mark_end() -> io::Result<()> {
    writeln!(io::stdout().lock())
}

static STDOUT_FAILED: Mutex<Option<io::Error>> = Mutex::new(None);

fn quiet_on_closed_pipe(written: io::Result<()>) -> io::Result<()> {
    match written {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
