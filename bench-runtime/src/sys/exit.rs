//! Process exit: a handler that `exit` runs, writing to standard error
//! without Rust's buffers, and `_exit`.

/// Registers `handler` to run when the process calls `exit` (what
/// `std::process::exit` calls); false if the C library refused (it
/// guarantees 32 registrations).
pub(crate) fn at_exit(handler: extern "C" fn()) -> bool {
    // SAFETY: `atexit` only stores the function pointer, which is a plain
    // `extern "C" fn()` with no arguments, valid for the whole program.
    unsafe { libc::atexit(handler) == 0 }
}

/// Writes all of `bytes` to descriptor 2, ignoring errors: the process is
/// about to end and has nowhere else to say anything.
pub(crate) fn write_stderr(mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: the pointer and length describe `bytes`, which outlives
        // the call; `write` reads at most that many bytes.
        let written =
            unsafe { libc::write(libc::STDERR_FILENO, bytes.as_ptr().cast(), bytes.len()) };
        match usize::try_from(written) {
            Ok(n) if n > 0 => bytes = &bytes[n.min(bytes.len())..],
            _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
            _ => return,
        }
    }
}

/// Ends the process at once with `code`, running no further exit handlers.
pub(crate) fn exit_now(code: i32) -> ! {
    // SAFETY: `_exit` takes any status and ends the process without
    // running anything else.
    unsafe { libc::_exit(code) }
}

/// The calling thread's id as the kernel numbers it (`gettid`): the names
/// of `/proc/self/task`.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn thread_id() -> Option<u32> {
    // SAFETY: `gettid` takes no arguments, touches no memory and cannot
    // fail.
    let id = unsafe { libc::syscall(libc::SYS_gettid) };
    u32::try_from(id).ok()
}

/// No thread ids to tell threads apart by: every exit gets the armed
/// message.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn thread_id() -> Option<u32> {
    None
}
