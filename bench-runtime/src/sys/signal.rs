//! POSIX signals: the SIGINT handler, sending SIGINT to another process,
//! and Linux's parent-death signal.
//!
//! The handler lives here, not with the Ctrl-C logic in `crate::signal`,
//! because it runs in signal context, where only async-signal-safe calls
//! are allowed: it touches an atomic and, the second time, calls `_exit`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

use crate::signal::EXIT_INTERRUPTED;

/// How many SIGINTs arrived since [`count_sigints`].
static SIGINTS: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_sigint(_: libc::c_int) {
    if SIGINTS.fetch_add(1, Ordering::Relaxed) > 0 {
        // SAFETY: `_exit` is async-signal-safe and takes any status; it
        // ends the process without running anything else.
        unsafe { libc::_exit(EXIT_INTERRUPTED) }
    }
}

/// SIGINTs received so far.
pub(crate) fn sigints() -> usize {
    SIGINTS.load(Ordering::Relaxed)
}

/// Installs the SIGINT handler: from then on each SIGINT is counted, and the
/// second one ends the process at once with [`EXIT_INTERRUPTED`]. Installs
/// once per process; false if the kernel refused, and later calls return
/// true without trying again.
pub(crate) fn count_sigints() -> bool {
    static INSTALL: Once = Once::new();
    let mut installed = true;
    INSTALL.call_once(|| {
        // SAFETY: a zeroed `sigaction` is a valid value of the type (no
        // flags, an empty mask once `sigemptyset` has run on it), and
        // `on_sigint` has the `extern "C" fn(c_int)` signature the
        // kernel calls a plain (non-SA_SIGINFO) handler with; the old
        // action is not asked for (null).
        let result = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as usize;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut())
        };
        installed = result == 0;
    });
    installed
}

/// Sends SIGINT to process `pid`; false if `pid` names no single process
/// or the kernel refused.
pub(crate) fn send_sigint(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: `kill` takes any pid and signal number and only reports
    // an error for a bad one; a positive pid names one process.
    pid > 0 && unsafe { libc::kill(pid, libc::SIGINT) } == 0
}

/// Has the kernel send this process SIGKILL when its parent ends
/// (`PR_SET_PDEATHSIG`); false if refused.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn kill_when_parent_exits() -> bool {
    // SAFETY: PR_SET_PDEATHSIG takes a signal number as its one
    // argument; the remaining variadic arguments are not read.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == 0 }
}

/// Only Linux has a parent-death signal.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn kill_when_parent_exits() -> bool {
    false
}

/// The parent process's id: 1 (init) once the parent has ended.
pub(crate) fn parent_pid() -> Option<u32> {
    // SAFETY: `getppid` has no preconditions and always succeeds.
    let pid = unsafe { libc::getppid() };
    u32::try_from(pid).ok()
}
