//! The lines outside the tables: errors, notes and status on stderr, and
//! what `--help`, `--list` and `--list-baselines` print on stdout.

use std::fmt::Display;
use std::io::{self, Write};

/// `error: MESSAGE` on stderr: one line that names the problem and the fix.
pub(crate) fn error(message: &dyn Display) {
    eprintln!("error: {message}");
}

/// `note: MESSAGE` on stderr.
pub(crate) fn note(message: &dyn Display) {
    eprintln!("note: {message}");
}

/// A line of status on stderr, as it is (`saved baseline ...`,
/// `interrupted: ...`).
pub(crate) fn status(message: &dyn Display) {
    eprintln!("{message}");
}

/// `--help`.
pub(crate) fn help(text: &str) {
    print!("{text}");
}

/// `--list`: libtest's `NAME: benchmark` lines, and with `count` the
/// closing count line.
pub(crate) fn list<'a>(
    names: impl ExactSizeIterator<Item = &'a str>,
    count: bool,
) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    let n = names.len();
    for name in names {
        writeln!(stdout, "{name}: benchmark")?;
    }
    if count {
        writeln!(stdout, "\n{n} benchmark{}", if n == 1 { "" } else { "s" })?;
    }
    Ok(())
}

/// One line of `--list-baselines`.
pub(crate) fn baseline_line(line: &dyn Display) {
    println!("{line}");
}
