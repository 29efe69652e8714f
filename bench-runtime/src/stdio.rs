//! Keeping the harness's own output apart from what benchmarks print, and
//! the width of the terminal it goes to.

use std::fs::File;
use std::io;

/// From now on, whatever this process writes to standard output (a
/// benchmark's `println!`) goes to standard error; the returned file
/// writes to where standard output went before. A process that speaks a
/// protocol on its standard output calls this first, so that nothing a
/// benchmark prints can corrupt it.
///
/// Fails where there are no POSIX descriptors (nothing is changed then).
pub fn divert_stdout() -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::io::Write;
        // Whatever Rust's stdout buffered goes out first, to the old place.
        io::stdout().flush()?;
        crate::sys::stdio::divert_stdout()
    }
    #[cfg(not(unix))]
    {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "standard output cannot be diverted on this platform",
        ))
    }
}

/// From now on, standard input is empty (a benchmark that reads it sees
/// its end at once, as with `/dev/null`); the returned file reads from
/// where standard input came from before. A process that takes requests
/// on its standard input calls this first, so that nothing a benchmark
/// reads (or a program it starts) can take them.
///
/// Fails where there are no POSIX descriptors (nothing is changed then).
pub fn take_stdin() -> io::Result<File> {
    #[cfg(unix)]
    {
        crate::sys::stdio::take_stdin()
    }
    #[cfg(not(unix))]
    {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "standard input cannot be taken over on this platform",
        ))
    }
}

/// The width, in columns, of the terminal standard output is, or `None`
/// when it is not a terminal (a pipe, a file) or the platform cannot say.
pub fn stdout_columns() -> Option<usize> {
    #[cfg(unix)]
    {
        crate::sys::stdio::terminal_columns(libc::STDOUT_FILENO).map(usize::from)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The width, in columns, of the terminal standard error is, or `None`
/// when it is not a terminal or the platform cannot say.
pub fn stderr_columns() -> Option<usize> {
    #[cfg(unix)]
    {
        crate::sys::stdio::terminal_columns(libc::STDERR_FILENO).map(usize::from)
    }
    #[cfg(not(unix))]
    {
        None
    }
}
