//! Catching a process exit in the middle of a run.
//!
//! A benchmark (or a library it calls) may end the process with
//! `std::process::exit`: no panic, nothing to catch, and the run would end
//! with the benchmark's status (often 0) and no report. While a message is
//! armed here, such an exit prints the message to standard error instead
//! and ends the process with the armed status.

use std::sync::{Arc, Mutex, Once};

/// The message and status an exit now ends with; `None` while disarmed.
static ARMED: Mutex<Option<(Arc<str>, i32)>> = Mutex::new(None);

/// From now until [`disarm`], a call to `exit` (through
/// `std::process::exit`, from any thread) prints `message` and a line break
/// to standard error and ends the process with status `code`.
///
/// Does nothing where there is no `atexit`.
pub fn arm(message: Arc<str>, code: i32) {
    install();
    *ARMED.lock().unwrap_or_else(|e| e.into_inner()) = Some((message, code));
}

/// Lets an exit end the process as it asked again.
pub fn disarm() {
    *ARMED.lock().unwrap_or_else(|e| e.into_inner()) = None;
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

#[cfg(unix)]
extern "C" fn on_exit() {
    use std::sync::TryLockError;
    // `try_lock`: the thread that holds the lock may be the one exiting,
    // or be stopped for good by the exit; then the exit goes on as asked.
    let armed = match ARMED.try_lock() {
        Ok(armed) => armed.clone(),
        Err(TryLockError::Poisoned(armed)) => armed.into_inner().clone(),
        Err(TryLockError::WouldBlock) => None,
    };
    if let Some((message, code)) = armed {
        let mut line = message.as_bytes().to_vec();
        line.push(b'\n');
        crate::sys::exit::write_stderr(&line);
        crate::sys::exit::exit_now(code);
    }
}
