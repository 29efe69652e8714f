//! Ctrl-C: the first SIGINT asks the run to stop at the next sample
//! boundary ([`interrupted`] turns true, the harness finishes what it has
//! and writes it, marked partial); a second one ends the process at once
//! with exit code 130, as a shell reports a process killed by SIGINT.
//!
//! The handler itself is in `sys::signal`: it only counts, and calls
//! `_exit` the second time, both async-signal-safe.
//!
//! A parent of worker processes has more to do before it ends: kill each
//! worker's process group (a benchmark's background processes are in it)
//! and report what it has. [`defer_exit`] lets it: while its
//! guard lives, a second Ctrl-C or a SIGTERM kills the children's groups
//! ([`add_child_group`]) and is recorded ([`ending`]) for the parent to end
//! with ([`end`]) once it has cleaned up. A third Ctrl-C, or a second
//! SIGTERM, ends the process at once.

pub use crate::sys::EXIT_INTERRUPTED;

/// Whether a SIGINT arrived: the run should stop at the next sample.
pub fn interrupted() -> bool {
    imp::sigints() > 0
}

/// Whether the run should stop: a SIGINT arrived ([`interrupted`]), or a
/// signal that ends the process is deferred until it has cleaned up
/// ([`ending`]).
pub fn stopping() -> bool {
    interrupted() || ending().is_some()
}

/// Installs the handler (once per process; later calls do nothing more).
/// Returns false where there are no POSIX signals, and Ctrl-C then ends the
/// process as usual.
pub fn install() -> bool {
    imp::count_sigints()
}

/// Sends SIGINT to process `pid` (a worker measuring for its parent, which
/// runs in a process group of its own, so a terminal's Ctrl-C reaches it
/// only through its parent). False where that is not possible.
pub fn interrupt(pid: u32) -> bool {
    imp::send_sigint(pid)
}

/// Has this process, and its process group with whatever its benchmarks
/// started in it, end when its parent ends: a worker measuring for a run
/// must not outlive a parent that a
/// second Ctrl-C, a SIGTERM or a SIGKILL ended. The parent's supervisor
/// already set a parent-death SIGKILL before exec (so a parent that died
/// before this call is covered); this widens it to the group. False where
/// that is not possible.
pub fn exit_with_parent() -> bool {
    imp::kill_group_when_parent_exits()
}

/// Has a SIGTERM or a SIGHUP (the terminal closed) kill the groups given to
/// [`add_child_group`] before it ends the process as the signal would: the
/// run's supervisor calls this before it starts a child.
pub fn kill_children_on_termination() -> bool {
    imp::handle_termination()
}

/// While the returned guard lives, a second SIGINT or a SIGTERM does not
/// end the process in its handler: it kills the process group given to
/// [`add_child_group`] and is recorded, [`ending`] says which, and the
/// caller ends the process with [`end`] after cleaning up. Dropping the
/// guard with a signal recorded ends the process.
pub fn defer_exit() -> DeferredExit {
    imp::handle_termination();
    imp::set_deferred(true);
    DeferredExit { _private: () }
}

/// See [`defer_exit`].
#[derive(Debug)]
pub struct DeferredExit {
    _private: (),
}

impl Drop for DeferredExit {
    fn drop(&mut self) {
        imp::set_deferred(false);
        if let Some(signal) = ending() {
            end(signal);
        }
    }
}

/// The signal (its number) that asked the process to end while an exit was
/// deferred: a second SIGINT or a SIGTERM.
pub fn ending() -> Option<i32> {
    match imp::ending() {
        0 => None,
        signal => Some(signal),
    }
}

/// Ends the process as signal `signal` would have: SIGTERM's own death,
/// else exit code 128 + the signal ([`EXIT_INTERRUPTED`] for SIGINT).
pub fn end(signal: i32) -> ! {
    if signal == imp::SIGTERM || signal == imp::SIGHUP {
        imp::terminate(signal);
    }
    std::process::exit(128 + signal)
}

/// Records a process group (a child's pid, as `process_group(0)` made it)
/// that a signal ending this process kills first, until
/// [`remove_child_group`]; false if it could not be recorded (eight are
/// at once).
pub fn add_child_group(group: u32) -> bool {
    i32::try_from(group).is_ok_and(imp::add_child_group)
}

/// Forgets a group recorded by [`add_child_group`].
pub fn remove_child_group(group: u32) {
    if let Ok(group) = i32::try_from(group) {
        imp::remove_child_group(group);
    }
}

/// Sends SIGKILL to process `pid`; false if there is none, or where that
/// is not possible.
pub fn kill_process(pid: u32) -> bool {
    imp::kill_process(pid)
}

/// Has the process `command` will start killed by the kernel when this
/// process ends, however it ends (SIGKILL included), before that process
/// runs any code of its own; nothing where that is not possible.
pub fn die_with_parent(command: &mut std::process::Command) {
    imp::die_with_parent(command);
}

/// Sends SIGKILL to every process of process group `group`; false if there
/// is none left, or where that is not possible.
pub fn kill_group(group: u32) -> bool {
    imp::kill_group(group)
}

/// Whether child `pid` of this process has ended, without reaping it (so
/// its process group's id stays its own until it is waited for). `None`
/// where that cannot be asked.
pub fn has_ended(pid: u32) -> Option<bool> {
    imp::has_ended(pid)
}

/// Takes an exclusive lock on `file` without waiting (`flock`), held until
/// every descriptor of that open file is closed, the process's end
/// included: how a run marks a directory as in use, in every PID
/// namespace alike. False if another holds it; true where there are no
/// such locks (nothing is shared then).
pub fn try_lock(file: &std::fs::File) -> bool {
    imp::try_lock(file)
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

    pub(super) fn kill_group_when_parent_exits() -> bool {
        false
    }

    pub(super) const SIGTERM: i32 = 15;
    pub(super) const SIGHUP: i32 = 1;

    pub(super) fn handle_termination() -> bool {
        false
    }

    pub(super) fn set_deferred(_on: bool) {}

    pub(super) fn ending() -> i32 {
        0
    }

    pub(super) fn terminate(_signal: i32) {}

    pub(super) fn add_child_group(_group: i32) -> bool {
        false
    }

    pub(super) fn remove_child_group(_group: i32) {}

    pub(super) fn kill_process(_pid: u32) -> bool {
        false
    }

    pub(super) fn die_with_parent(_command: &mut std::process::Command) {}

    pub(super) fn try_lock(_file: &std::fs::File) -> bool {
        true
    }

    pub(super) fn kill_group(_group: u32) -> bool {
        false
    }

    pub(super) fn has_ended(_pid: u32) -> Option<bool> {
        None
    }
}
