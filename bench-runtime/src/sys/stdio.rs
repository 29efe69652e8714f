//! File descriptors of the standard streams.

use std::fs::File;
use std::io;
use std::os::fd::FromRawFd;

/// Duplicates standard output to a new descriptor (close-on-exec) and
/// points descriptor 1 at standard error; returns the new descriptor as a
/// file.
pub(crate) fn divert_stdout() -> io::Result<File> {
    // SAFETY: fcntl(F_DUPFD_CLOEXEC) and dup2 take and return plain
    // descriptors and touch no memory of ours; each result is checked.
    unsafe {
        let kept = libc::fcntl(libc::STDOUT_FILENO, libc::F_DUPFD_CLOEXEC, 3);
        if kept < 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::dup2(libc::STDERR_FILENO, libc::STDOUT_FILENO) < 0 {
            let error = io::Error::last_os_error();
            libc::close(kept);
            return Err(error);
        }
        // SAFETY: `kept` is a descriptor we just opened and nothing else
        // owns; the file takes it over.
        Ok(File::from_raw_fd(kept))
    }
}

/// Duplicates standard input to a new descriptor (close-on-exec) and
/// points descriptor 0 at an empty pipe (its write end closed: reads see
/// the end at once); returns the new descriptor as a file.
pub(crate) fn take_stdin() -> io::Result<File> {
    let mut ends = [0; 2];
    // SAFETY: pipe, fcntl(F_DUPFD_CLOEXEC), dup2 and close take and return
    // plain descriptors (pipe writes two into `ends`, an array of two);
    // each result is checked, and every descriptor opened here is closed
    // on each path but the one returned.
    unsafe {
        // Both ends are closed below before anything else runs here.
        if libc::pipe(ends.as_mut_ptr()) < 0 {
            return Err(io::Error::last_os_error());
        }
        libc::close(ends[1]);
        let kept = libc::fcntl(libc::STDIN_FILENO, libc::F_DUPFD_CLOEXEC, 3);
        if kept < 0 {
            let error = io::Error::last_os_error();
            libc::close(ends[0]);
            return Err(error);
        }
        let moved = libc::dup2(ends[0], libc::STDIN_FILENO);
        let error = io::Error::last_os_error();
        libc::close(ends[0]);
        if moved < 0 {
            libc::close(kept);
            return Err(error);
        }
        // SAFETY: `kept` is a descriptor we just opened and nothing else
        // owns; the file takes it over.
        Ok(File::from_raw_fd(kept))
    }
}

/// The columns of the terminal descriptor `fd` is, or `None` when it is
/// not a terminal (or reports no size).
pub(crate) fn terminal_columns(fd: std::os::fd::RawFd) -> Option<u16> {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ writes one `winsize` through the pointer, which
    // points at `size`, alive and writable for the whole call; a descriptor
    // that is not a terminal only makes the call fail, which is checked.
    let result = unsafe { libc::ioctl(fd, libc::TIOCGWINSZ, &mut size as *mut libc::winsize) };
    (result == 0 && size.ws_col > 0).then_some(size.ws_col)
}
