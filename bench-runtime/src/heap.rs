//! The allocator the measuring threads see.
//!
//! glibc's malloc gives a thread that allocates for the first time an arena
//! of its own (up to 8 a core): heaps of at most 64 MiB, mapped and trimmed
//! apart from the main thread's, which grows with `brk`. A body that grows
//! and frees memory then costs another figure on a benchmark's thread than
//! in a plain loop in `main`, where criterion and divan run it: a map
//! replaced every 2^18 inserts read 0.60–0.68× its plain loop's cost here
//! (see docs/ARCHITECTURE.md, decisions).

use std::sync::atomic::{AtomicBool, Ordering};

/// Set, with `MALLOC_ARENA_MAX=1`, in the environment of the workers and
/// profiled builds a run starts when it put its threads on the main arena
/// (and taken out again by [`allocate_as_main_thread`] once glibc has read
/// it): glibc reads the
/// limit before their own code runs, so threads a bench target's `main`
/// starts before the harness's are on it too, and a worker of another
/// build (`--against`) measures as this one does.
const MARK: &str = "BENCH_HARNESS_ONE_ARENA";

/// Makes every thread that allocates for the first time from now on take
/// its memory from the main thread's arena, as a program's own code on its
/// main thread does, unless the user chose arenas themselves
/// (`MALLOC_ARENA_MAX`, or an `arena_max` in `GLIBC_TUNABLES`) or Rust's
/// allocations do not go through glibc's malloc (a `#[global_allocator]`
/// of its own, another C library). Call before the harness starts a
/// thread: threads that allocated before keep their arenas. In a process
/// started with [`worker_env`] it keeps the run's limit and takes
/// `MALLOC_ARENA_MAX` and the mark out of the environment, so programs a
/// body starts are not limited.
pub fn allocate_as_main_thread() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let limit = std::env::var_os("MALLOC_ARENA_MAX");
        let tunables = std::env::var_os("GLIBC_TUNABLES").unwrap_or_default();
        let chosen = limit.as_ref().is_some_and(|v| !v.is_empty())
            || tunables.to_string_lossy().contains("arena_max");
        // A worker of a run that set the limit: glibc has read it, and the
        // programs its bodies start are not the run's to limit.
        let marked =
            std::env::var_os(MARK).is_some() && limit.as_deref() == Some(std::ffi::OsStr::new("1"));
        if marked {
            std::env::remove_var(MARK);
            std::env::remove_var("MALLOC_ARENA_MAX");
        }
        if marked || (!chosen && allocations_use_malloc()) {
            crate::sys::malloc::one_arena();
            ONE_ARENA.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether an allocation of Rust's global allocator is one of glibc's: its
/// 4 KiB show in glibc's count of bytes in use (three tries, as another
/// thread's frees and allocations move the count too).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn allocations_use_malloc() -> bool {
    use crate::sys::malloc::arena_bytes_in_use;
    (0..3).any(|_| {
        let before = arena_bytes_in_use();
        let block = std::hint::black_box(vec![1u8; 4096]);
        let grew = arena_bytes_in_use().wrapping_sub(before);
        drop(block);
        (4096..4096 + 256).contains(&grew)
    })
}

/// Whether [`allocate_as_main_thread`] put every thread on the main arena:
/// then threads a body starts share it too, and contend for it where a
/// program's threads would each have their own.
pub fn one_arena() -> bool {
    ONE_ARENA.load(Ordering::Relaxed)
}

/// What to add to the environment of a process the run starts to measure
/// (a worker, or a build profiled under `--profile-time`/`--flamegraph`),
/// so that it measures on the arena this one does.
pub fn worker_env() -> &'static [(&'static str, &'static str)] {
    if one_arena() {
        &[("MALLOC_ARENA_MAX", "1"), (MARK, "1")]
    } else {
        &[]
    }
}

static ONE_ARENA: AtomicBool = AtomicBool::new(false);
