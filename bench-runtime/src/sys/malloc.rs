//! glibc's allocator.

/// Caps glibc's malloc at one arena, the main thread's: every thread that
/// allocates for the first time from now on uses it.
pub(crate) fn one_arena() {
    // SAFETY: mallopt takes two integers and changes only the allocator's
    // own settings; a refusal (it has none for this one) changes nothing.
    unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
}
