//! POSIX signals: the SIGINT and SIGTERM handlers, sending signals to
//! another process or process group, asking whether a child has ended, and
//! Linux's parent-death signal.
//!
//! The handlers live here, not with the Ctrl-C logic in `crate::signal`,
//! because they run in signal context, where only async-signal-safe calls
//! are allowed: they touch atomics, send SIGKILL to a child's process
//! group (`kill`), and end the process (`_exit`, or `signal` and `raise`
//! to die of SIGTERM).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::Once;

use super::EXIT_INTERRUPTED;

pub(crate) const SIGTERM: i32 = libc::SIGTERM;
pub(crate) const SIGHUP: i32 = libc::SIGHUP;

/// How many SIGINTs arrived since [`count_sigints`].
static SIGINTS: AtomicUsize = AtomicUsize::new(0);

/// The process groups of the children running now (0: a free slot): a
/// signal that ends this process kills those groups first, so nothing they
/// started outlives the run. A fixed array: the handler may not allocate.
static CHILD_GROUPS: [AtomicI32; MAX_CHILD_GROUPS] =
    [const { AtomicI32::new(0) }; MAX_CHILD_GROUPS];

/// The most children at once whose groups a signal kills (the harness runs
/// two at most: a pair of `--against` workers).
const MAX_CHILD_GROUPS: usize = 8;

/// While true, a second SIGINT or a SIGTERM does not end the process in the
/// handler: it is recorded in [`ENDING`], and the code that set this ends
/// the process once it has cleaned up.
static DEFERRED: AtomicBool = AtomicBool::new(false);

/// The signal that asked the process to end while [`DEFERRED`] (0: none).
static ENDING: AtomicI32 = AtomicI32::new(0);

/// SIGKILL to the recorded children's process groups, if any.
fn kill_child_group() {
    for slot in &CHILD_GROUPS {
        let group = slot.load(Ordering::SeqCst);
        if group > 0 {
            // SAFETY: `kill` is async-signal-safe; a negative pid names the
            // process group, and a group that no longer exists is only an
            // error return.
            unsafe { libc::kill(-group, libc::SIGKILL) };
        }
    }
}

extern "C" fn on_sigint(_: libc::c_int) {
    let earlier = SIGINTS.fetch_add(1, Ordering::SeqCst);
    if earlier == 0 {
        return;
    }
    kill_child_group();
    if earlier == 1
        && DEFERRED.load(Ordering::SeqCst)
        && ENDING
            .compare_exchange(0, libc::SIGINT, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    {
        return;
    }
    // SAFETY: `_exit` is async-signal-safe and takes any status; it
    // ends the process without running anything else.
    unsafe { libc::_exit(EXIT_INTERRUPTED) }
}

/// The process group this process leads and kills whole when its parent
/// dies ([`kill_group_when_parent_exits`]); 0: none.
static OWN_GROUP: AtomicI32 = AtomicI32::new(0);

/// SIGTERM or SIGHUP (the terminal or the ssh session closed).
extern "C" fn on_terminate(signal: libc::c_int) {
    let own = OWN_GROUP.load(Ordering::SeqCst);
    if own > 0 {
        // A child whose parent died (or that was told to end): it and what
        // its benchmarks left in its group end together.
        // SAFETY: `kill` is async-signal-safe; -own names this process's
        // own group, which it leads (checked when it was recorded).
        unsafe { libc::kill(-own, libc::SIGKILL) };
    }
    kill_child_group();
    if DEFERRED.load(Ordering::SeqCst)
        && ENDING
            .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    {
        return;
    }
    die_of(signal);
}

/// Ends the process as `signal`'s default action would (for SIGTERM, the
/// status a shell reports as "Terminated"). Async-signal-safe.
fn die_of(signal: libc::c_int) {
    // SAFETY: `signal` and `raise` are async-signal-safe. The signal is
    // blocked while its handler runs, so the raised one is delivered, with
    // the default action, as the handler returns; outside the handler it is
    // delivered at once.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
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

/// Has the kernel send this process SIGTERM when its parent ends
/// (`PR_SET_PDEATHSIG`), which kills its process group, which it leads
/// (a child the run's supervisor started: `process_group(0)`), with
/// whatever its benchmarks left in it; false if refused, or if this
/// process leads no group of its own (then the SIGKILL the supervisor set
/// before exec stays).
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn kill_group_when_parent_exits() -> bool {
    // SAFETY: `getpid` and `getpgrp` have no preconditions.
    let (me, group) = unsafe { (libc::getpid(), libc::getpgrp()) };
    if me != group || !handle_termination() {
        return false;
    }
    OWN_GROUP.store(me, Ordering::SeqCst);
    // SAFETY: PR_SET_PDEATHSIG takes a signal number as its one
    // argument; the remaining variadic arguments are not read.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) == 0 }
}

/// Only Linux has a parent-death signal.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn kill_group_when_parent_exits() -> bool {
    false
}

/// Installs the SIGTERM and SIGHUP handler (once per process): outside
/// [`set_deferred`] it ends the process as the signal would, after killing
/// the recorded children's groups. False if the kernel refused.
pub(crate) fn handle_termination() -> bool {
    static INSTALL: Once = Once::new();
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    INSTALL.call_once(|| {
        let install = |signal| {
            // SAFETY: as in `count_sigints`, with `on_terminate`.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_terminate as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut()) == 0
            }
        };
        let installed = install(libc::SIGTERM) & install(libc::SIGHUP);
        INSTALLED.store(installed, Ordering::SeqCst);
    });
    INSTALLED.load(Ordering::SeqCst)
}

/// Turns the deferral of a second SIGINT and of SIGTERM on or off.
pub(crate) fn set_deferred(on: bool) {
    DEFERRED.store(on, Ordering::SeqCst);
}

/// The signal that asked the process to end while deferred (0: none).
pub(crate) fn ending() -> i32 {
    ENDING.load(Ordering::SeqCst)
}

/// Ends the process as `signal` would.
pub(crate) fn terminate(signal: i32) {
    die_of(signal);
}

/// Records process group `group`, killed when a signal ends this process;
/// false if every slot is taken.
pub(crate) fn add_child_group(group: i32) -> bool {
    group > 0
        && CHILD_GROUPS.iter().any(|slot| {
            slot.compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
}

/// Forgets process group `group` ([`add_child_group`]).
pub(crate) fn remove_child_group(group: i32) {
    for slot in &CHILD_GROUPS {
        let _ = slot.compare_exchange(group, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// Sends SIGKILL to process `pid`; false if there is none (or the kernel
/// refused).
pub(crate) fn kill_process(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: `kill` takes any pid and signal number; a positive pid names
    // one process.
    pid > 1 && unsafe { libc::kill(pid, libc::SIGKILL) } == 0
}

/// Has the process `command` starts get SIGKILL when this process (the
/// thread that starts it) ends: set between fork and exec, so it holds for
/// a program that never reaches code of its own that would ask.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn die_with_parent(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: `getpid` has no preconditions.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the child between fork and exec and calls
    // only `prctl`, `getppid` and `_exit`, which are async-signal-safe; it
    // allocates nothing and touches no lock.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent ended before the call above: no signal will come.
            if libc::getppid() != parent {
                libc::_exit(EXIT_INTERRUPTED);
            }
            Ok(())
        });
    }
}

/// Only Linux has a parent-death signal.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn die_with_parent(_command: &mut std::process::Command) {}

/// Sends SIGKILL to every process in process group `group`; false if
/// there is none (or the kernel refused).
pub(crate) fn kill_group(group: u32) -> bool {
    let Ok(group) = libc::pid_t::try_from(group) else {
        return false;
    };
    // SAFETY: `kill` takes any pid and signal number; a negative pid
    // below -1 names one process group.
    group > 1 && unsafe { libc::kill(-group, libc::SIGKILL) } == 0
}

/// Whether child `pid` of this process has ended, without reaping it:
/// while it is a zombie its pid, and so its process group's id, cannot be
/// taken by another process. `None` if it cannot be asked.
pub(crate) fn has_ended(pid: u32) -> Option<bool> {
    let pid = libc::id_t::try_from(pid).ok()?;
    // SAFETY: a zeroed `siginfo_t` is a valid value; `waitid` fills it for
    // a child that changed state and leaves `si_pid` 0 otherwise (WNOHANG);
    // WNOWAIT leaves the child waitable, so `Child::wait` still reaps it.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let result = libc::waitid(
            libc::P_PID,
            pid,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        (result == 0).then(|| info.si_pid() != 0)
    }
}

/// Takes an exclusive `flock` on `file` without waiting; false if another
/// open file holds one (or the kernel refused).
pub(crate) fn try_lock(file: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: `flock` takes any descriptor and operation and only reports
    // an error for a bad one; `file` keeps its descriptor open for the call.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}
