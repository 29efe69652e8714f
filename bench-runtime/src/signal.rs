//! Ctrl-C: the first SIGINT asks the run to stop at the next sample
//! boundary ([`interrupted`] turns true, the harness finishes what it has
//! and writes it, marked partial); a second one ends the process at once
//! with exit code 130, as a shell reports a process killed by SIGINT.
//!
//! The handler only touches an atomic and, the second time, calls `_exit`:
//! both are async-signal-safe.

use std::sync::atomic::{AtomicUsize, Ordering};

/// How many SIGINTs arrived since [`install`].
static INTERRUPTS: AtomicUsize = AtomicUsize::new(0);

/// The exit code of a run stopped by Ctrl-C: 128 + SIGINT.
pub const EXIT_INTERRUPTED: i32 = 130;

/// Whether a SIGINT arrived: the run should stop at the next sample.
pub fn interrupted() -> bool {
    INTERRUPTS.load(Ordering::Relaxed) > 0
}

/// Installs the handler (once per process; later calls do nothing more).
/// Returns false where there are no POSIX signals, and Ctrl-C then ends the
/// process as usual.
pub fn install() -> bool {
    imp::install()
}

/// Sends SIGINT to process `pid` (a child measuring under `--forks`, which
/// runs in a process group of its own, so a terminal's Ctrl-C reaches it
/// only through its parent). False where that is not possible.
pub fn interrupt(pid: u32) -> bool {
    imp::interrupt(pid)
}

/// Has the kernel end this process (SIGKILL) when its parent ends: a child
/// measuring under `--forks` must not outlive a parent that a second
/// Ctrl-C ended. False where that is not possible (then the child runs to
/// its own end).
pub fn exit_with_parent() -> bool {
    imp::exit_with_parent()
}

#[cfg(unix)]
mod imp {
    use super::{EXIT_INTERRUPTED, INTERRUPTS};
    use std::sync::atomic::Ordering;
    use std::sync::Once;

    extern "C" fn on_sigint(_: libc::c_int) {
        if INTERRUPTS.fetch_add(1, Ordering::Relaxed) > 0 {
            // SAFETY: `_exit` is async-signal-safe and takes any status; it
            // ends the process without running anything else.
            unsafe { libc::_exit(EXIT_INTERRUPTED) }
        }
    }

    pub fn install() -> bool {
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

    pub fn interrupt(pid: u32) -> bool {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: `kill` takes any pid and signal number and only reports
        // an error for a bad one; a positive pid names one process.
        pid > 0 && unsafe { libc::kill(pid, libc::SIGINT) } == 0
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub fn exit_with_parent() -> bool {
        // SAFETY: PR_SET_PDEATHSIG takes a signal number as its one
        // argument; the remaining variadic arguments are not read.
        let set = unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) } == 0;
        // SAFETY: `getppid` has no preconditions. A parent that ended before
        // the call above leaves this process to init (pid 1), and no signal
        // will come: end now.
        if set && unsafe { libc::getppid() } == 1 {
            std::process::exit(EXIT_INTERRUPTED);
        }
        set
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub fn exit_with_parent() -> bool {
        false
    }
}

#[cfg(not(unix))]
mod imp {
    pub fn install() -> bool {
        false
    }

    pub fn interrupt(_pid: u32) -> bool {
        false
    }

    pub fn exit_with_parent() -> bool {
        false
    }
}
