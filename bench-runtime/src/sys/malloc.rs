//! glibc's allocator.

/// Caps glibc's malloc at one arena, the main thread's: every thread that
/// allocates for the first time from now on uses it.
pub(crate) fn one_arena() {
    // SAFETY: mallopt takes two integers and changes only the allocator's
    // own settings; a refusal (it has none for this one) changes nothing.
    unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
}

/// The bytes glibc's malloc has handed out from its arenas and not taken
/// back (`mallinfo`'s `uordblks`; it wraps past 2 GiB, so compare two
/// readings' difference). `mallinfo`, not `mallinfo2`: a binary calling
/// the latter does not start under glibc before 2.33.
pub(crate) fn arena_bytes_in_use() -> u32 {
    // SAFETY: mallinfo takes nothing and returns a struct by value.
    let info = unsafe { libc::mallinfo() };
    info.uordblks as u32
}
