//! Catching a process exit in the middle of a run.
//!
//! A benchmark (or a library it calls) may end the process with
//! `std::process::exit`: no panic, nothing to catch, and the run would end
//! with the benchmark's status (often 0) and no report. While a message is
//! armed here, such an exit prints the message to standard error instead
//! and ends the process with the armed status.
//!
//! A thread that a benchmark's code started and that is still running when
//! the benchmark pauses or returns keeps that benchmark's message: its
//! `exit`, however much later (while another benchmark, the harness's own
//! loop, or nothing is being measured), names the benchmark that started
//! it, not whichever one happens to be armed. Threads are told apart by the
//! kernel's thread ids (`/proc/self/task`), read when a message is armed
//! and disarmed, outside any timed region; where there is no such
//! directory, every exit gets the armed message.

use std::sync::{Arc, Mutex, MutexGuard, Once, TryLockError};

/// What an exit ends with: the message printed and the status.
type Verdict = (Arc<str>, i32);

/// The armed message, with the threads that ran when it was armed.
struct Armed {
    verdict: Verdict,
    threads_before: Vec<u32>,
}

/// The message and status an exit now ends with; `None` while disarmed.
static ARMED: Mutex<Option<Armed>> = Mutex::new(None);

/// Threads a benchmark's code started that outlived its window, each with
/// the message of the benchmark that started it.
static STARTED: Mutex<Vec<(u32, Verdict)>> = Mutex::new(Vec::new());

/// From now until [`disarm`], a call to `exit` (through
/// `std::process::exit`, from any thread) prints `message` and a line break
/// to standard error and ends the process with status `code`; and so, from
/// then on, does one from a thread started meanwhile.
///
/// Does nothing where there is no `atexit`.
pub fn arm(message: Arc<str>, code: i32) {
    install();
    let threads_before = threads();
    *lock(&ARMED) = Some(Armed {
        verdict: (message, code),
        threads_before,
    });
}

/// Lets an exit end the process as it asked again, except from a thread
/// started while armed, which keeps the armed message.
pub fn disarm() {
    let Some(armed) = lock(&ARMED).take() else {
        return;
    };
    let now = threads();
    let mut started = lock(&STARTED);
    // A thread id is reused once its thread has ended.
    started.retain(|(thread, _)| now.contains(thread));
    for thread in now {
        let new = !armed.threads_before.contains(&thread);
        if new && !started.iter().any(|(known, _)| *known == thread) {
            started.push((thread, armed.verdict.clone()));
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The ids of this process's threads; empty where they cannot be read.
fn threads() -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

fn install() {
    static INSTALL: Once = Once::new();
    #[cfg(unix)]
    INSTALL.call_once(|| {
        // A refusal (no slot left) leaves exits as they were.
        let _ = crate::sys::exit::at_exit(on_exit);
    });
    #[cfg(not(unix))]
    INSTALL.call_once(|| {});
}

/// `try_lock`: the thread that holds the lock may be the one exiting, or
/// be stopped for good by the exit; then `None`.
fn try_read<T, R>(mutex: &Mutex<T>, read: impl FnOnce(&T) -> R) -> Option<R> {
    match mutex.try_lock() {
        Ok(value) => Some(read(&value)),
        Err(TryLockError::Poisoned(value)) => Some(read(&value.into_inner())),
        Err(TryLockError::WouldBlock) => None,
    }
}

#[cfg(unix)]
extern "C" fn on_exit() {
    let exiting = crate::sys::exit::thread_id();
    let started_by = exiting.and_then(|thread| {
        try_read(&STARTED, |started| {
            started
                .iter()
                .find(|(known, _)| *known == thread)
                .map(|(_, verdict)| verdict.clone())
        })
        .flatten()
    });
    let armed = || try_read(&ARMED, |armed| armed.as_ref().map(|a| a.verdict.clone())).flatten();
    // Otherwise the exit goes on as asked.
    if let Some((message, code)) = started_by.or_else(armed) {
        let mut line = message.as_bytes().to_vec();
        line.push(b'\n');
        crate::sys::exit::write_stderr(&line);
        crate::sys::exit::exit_now(code);
    }
}
