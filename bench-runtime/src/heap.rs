//! The allocator the measuring threads see.
//!
//! glibc's malloc gives a thread that allocates for the first time an arena
//! of its own (up to 8 a core): heaps of at most 64 MiB, mapped and trimmed
//! apart from the main thread's, which grows with `brk`. A body that grows
//! and frees memory then costs another figure on a benchmark's thread than
//! in a plain loop in `main`, where criterion and divan run it: a map
//! replaced every 2^18 inserts read 0.64–0.87× its plain loop's cost here
//! (see docs/ARCHITECTURE.md, decisions).

use std::sync::atomic::{AtomicBool, Ordering};

/// Makes every thread that allocates for the first time from now on take
/// its memory from the main thread's arena, as a program's own code on its
/// main thread does, unless the user chose arenas themselves
/// (`MALLOC_ARENA_MAX`, or an `arena_max` in `GLIBC_TUNABLES`). Call before
/// the harness starts a thread. Nothing changes under another C library,
/// and under a `#[global_allocator]`, which malloc's settings do not reach.
pub fn allocate_as_main_thread() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let tunables = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
        if std::env::var_os("MALLOC_ARENA_MAX").is_none() && !tunables.contains("arena_max") {
            crate::sys::malloc::one_arena();
            ONE_ARENA.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether [`allocate_as_main_thread`] put every thread on the main arena:
/// then threads a body starts share it too, and contend for it where a
/// program's threads would each have their own.
pub fn one_arena() -> bool {
    ONE_ARENA.load(Ordering::Relaxed)
}

static ONE_ARENA: AtomicBool = AtomicBool::new(false);
