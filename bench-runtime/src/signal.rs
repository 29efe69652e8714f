//! Ctrl-C: the first SIGINT asks the run to stop at the next sample
//! boundary ([`interrupted`] turns true, the harness finishes what it has
//! and writes it, marked partial); a second one ends the process at once
//! with exit code 130, as a shell reports a process killed by SIGINT.
//!
//! The handler itself is in `sys::signal`: it only counts, and calls
//! `_exit` the second time, both async-signal-safe.

/// The exit code of a run stopped by Ctrl-C: 128 + SIGINT.
pub const EXIT_INTERRUPTED: i32 = 130;

/// Whether a SIGINT arrived: the run should stop at the next sample.
pub fn interrupted() -> bool {
    imp::sigints() > 0
}

/// Installs the handler (once per process; later calls do nothing more).
/// Returns false where there are no POSIX signals, and Ctrl-C then ends the
/// process as usual.
pub fn install() -> bool {
    imp::count_sigints()
}

/// Sends SIGINT to process `pid` (a child measuring under `--forks`, which
/// runs in a process group of its own, so a terminal's Ctrl-C reaches it
/// only through its parent). False where that is not possible.
pub fn interrupt(pid: u32) -> bool {
    imp::send_sigint(pid)
}

/// Has the kernel end this process (SIGKILL) when its parent ends: a child
/// measuring under `--forks` must not outlive a parent that a second
/// Ctrl-C ended. False where that is not possible (then the child runs to
/// its own end).
pub fn exit_with_parent() -> bool {
    let set = imp::kill_when_parent_exits();
    // A parent that ended before the call above leaves this process to init
    // (pid 1), and no signal will come: end now.
    if set && imp::parent_pid() == Some(1) {
        std::process::exit(EXIT_INTERRUPTED);
    }
    set
}

#[cfg(unix)]
use crate::sys::signal as imp;

/// No POSIX signals: nothing to count, send or ask.
#[cfg(not(unix))]
mod imp {
    pub(super) fn sigints() -> usize {
        0
    }

    pub(super) fn count_sigints() -> bool {
        false
    }

    pub(super) fn send_sigint(_pid: u32) -> bool {
        false
    }

    pub(super) fn kill_when_parent_exits() -> bool {
        false
    }

    pub(super) fn parent_pid() -> Option<u32> {
        None
    }
}
