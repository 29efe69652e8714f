//! Allocation counts: a global allocator that counts what passes through it.
//!
//! Opt in by installing [`CountingAlloc`] as the program's global allocator,
//! once, in the bench file:
//!
//! ```
//! # mod bench_harness { pub use bench_runtime::counter::alloc::CountingAlloc; }
//! #[global_allocator]
//! static ALLOC: bench_harness::CountingAlloc = bench_harness::CountingAlloc::new();
//! # fn main() {
//! # use bench_runtime::counter::alloc::{is_installed, snapshot};
//! # assert!(is_installed());
//! # let before = snapshot();
//! # let v = std::hint::black_box(vec![1u8; 100]);
//! # assert_eq!(snapshot().since(before).bytes_allocated, 100);
//! # drop(v);
//! # }
//! ```
//!
//! The harness then reads [`snapshot`] around each sample and reports the
//! allocations, deallocations, reallocations and bytes per iteration.
//! Without it nothing changes: the system allocator is called directly and
//! no counter is touched.
//!
//! The counts are totals over the whole process, all threads, kept in this
//! module's statics rather than in the user's `static`, so the harness reads
//! them without knowing where that is. They are attributable to one
//! benchmark because the harness runs benchmark code on one thread at a time
//! while every other thread it owns is blocked; allocations by threads a
//! benchmark starts are counted too, as are those of any thread the user
//! leaves running in the background.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Wraps the system allocator (or any `A: GlobalAlloc`) and counts every
/// successful allocation, deallocation and reallocation, with their bytes.
///
/// ```
/// # mod bench_harness { pub use bench_runtime::counter::alloc::CountingAlloc; }
/// #[global_allocator]
/// static ALLOC: bench_harness::CountingAlloc = bench_harness::CountingAlloc::new();
/// # fn main() {}
/// ```
///
/// Each call to the inner allocator that succeeds counts:
///
/// - `alloc`, `alloc_zeroed`: one allocation, its size in `bytes_allocated`;
/// - `dealloc`: one deallocation, its size in `bytes_deallocated`;
/// - `realloc`, growing or shrinking: one reallocation (no allocation nor
///   deallocation), the new size in `bytes_allocated` and the old size in
///   `bytes_deallocated`,
///
/// so `bytes_allocated - bytes_deallocated` is always the change in live
/// bytes. A call that fails (returns null) counts nothing. Zero-sized values
/// (`Box<()>`, `Vec<()>`) never reach a global allocator and count nothing.
///
/// Every `CountingAlloc` adds to the same process-wide counts, read with
/// [`snapshot`].
#[derive(Debug, Default)]
pub struct CountingAlloc<A = System> {
    inner: A,
}

impl CountingAlloc<System> {
    /// Counts the allocations of the system allocator.
    pub const fn new() -> Self {
        CountingAlloc { inner: System }
    }
}

impl<A> CountingAlloc<A> {
    /// Counts the allocations of `inner`, for a program that already uses
    /// another global allocator.
    pub const fn with(inner: A) -> Self {
        CountingAlloc { inner }
    }
}

// SAFETY: every method forwards to `inner` with the caller's own arguments
// and returns its result unchanged, so `inner`'s guarantees (a `GlobalAlloc`
// itself) are this allocator's. Counting only adds relaxed atomic additions
// to statics: it neither allocates, nor locks, nor unwinds, nor uses
// thread-locals (which could recurse into the allocator or be gone at thread
// teardown).
#[allow(unsafe_code)]
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAlloc<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: our caller upholds `alloc`'s contract (a non-zero size),
        // which is the inner allocator's too.
        let ptr = unsafe { self.inner.alloc(layout) };
        if !ptr.is_null() {
            COUNTS.allocated(layout.size());
        }
        ptr
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`: the caller's contract is the inner one.
        let ptr = unsafe { self.inner.alloc_zeroed(layout) };
        if !ptr.is_null() {
            COUNTS.allocated(layout.size());
        }
        ptr
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        COUNTS.deallocated(layout.size());
        // SAFETY: our caller guarantees `ptr` came from this allocator with
        // `layout`; every pointer this allocator returns is one `inner`
        // returned for the same layout.
        unsafe { self.inner.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`, `ptr` and `layout` are `inner`'s own, and
        // our caller guarantees `new_size` is valid for `layout`'s alignment.
        let new_ptr = unsafe { self.inner.realloc(ptr, layout, new_size) };
        if !new_ptr.is_null() {
            COUNTS.reallocated(layout.size(), new_size);
        }
        new_ptr
    }
}

/// Allocation counts, either totals since the process started
/// ([`snapshot`]) or the difference between two snapshots
/// ([`AllocCounts::since`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllocCounts {
    /// Successful `alloc` and `alloc_zeroed` calls.
    pub allocations: u64,
    /// `dealloc` calls.
    pub deallocations: u64,
    /// Successful `realloc` calls, growing or shrinking.
    pub reallocations: u64,
    /// Bytes handed out: allocation sizes, plus the new size of each
    /// reallocation.
    pub bytes_allocated: u64,
    /// Bytes given back: deallocation sizes, plus the old size of each
    /// reallocation.
    pub bytes_deallocated: u64,
}

impl AllocCounts {
    /// What happened between `earlier` and `self`, field by field; zero
    /// where `earlier` is larger (a snapshot taken out of order).
    pub fn since(self, earlier: AllocCounts) -> AllocCounts {
        AllocCounts {
            allocations: self.allocations.saturating_sub(earlier.allocations),
            deallocations: self.deallocations.saturating_sub(earlier.deallocations),
            reallocations: self.reallocations.saturating_sub(earlier.reallocations),
            bytes_allocated: self.bytes_allocated.saturating_sub(earlier.bytes_allocated),
            bytes_deallocated: self
                .bytes_deallocated
                .saturating_sub(earlier.bytes_deallocated),
        }
    }
}

/// The totals since the process started, over all threads. Each field is
/// read on its own: a snapshot is exact when no other thread is allocating,
/// which the harness ensures between samples.
pub fn snapshot() -> AllocCounts {
    AllocCounts {
        allocations: COUNTS.allocations.load(Relaxed),
        deallocations: COUNTS.deallocations.load(Relaxed),
        reallocations: COUNTS.reallocations.load(Relaxed),
        bytes_allocated: COUNTS.bytes_allocated.load(Relaxed),
        bytes_deallocated: COUNTS.bytes_deallocated.load(Relaxed),
    }
}

/// True once any allocation went through a [`CountingAlloc`]: whether the
/// user installed it. A Rust program allocates before the harness asks (the
/// command line alone is a `Vec`), so an installed allocator has counted
/// something by then.
// PERF: a count already there answers this; a separate flag would be one
// more store on every allocation.
pub fn is_installed() -> bool {
    COUNTS.allocations.load(Relaxed) != 0
}

/// The process-wide counts every [`CountingAlloc`] adds to.
static COUNTS: Counters = Counters::new();

// PERF: the five counters share one cache line, so an allocation touches one
// line; the alignment keeps other statics, possibly written by other
// threads, off it (128 bytes: some CPUs fetch lines in pairs). Relaxed
// `fetch_add`s are enough, since nothing is published through them, and
// keep counts exact when threads allocate concurrently.
#[repr(align(128))]
struct Counters {
    allocations: AtomicU64,
    deallocations: AtomicU64,
    reallocations: AtomicU64,
    bytes_allocated: AtomicU64,
    bytes_deallocated: AtomicU64,
}

impl Counters {
    const fn new() -> Counters {
        Counters {
            allocations: AtomicU64::new(0),
            deallocations: AtomicU64::new(0),
            reallocations: AtomicU64::new(0),
            bytes_allocated: AtomicU64::new(0),
            bytes_deallocated: AtomicU64::new(0),
        }
    }

    #[inline(always)]
    fn allocated(&self, size: usize) {
        self.allocations.fetch_add(1, Relaxed);
        self.bytes_allocated.fetch_add(size as u64, Relaxed);
    }

    #[inline(always)]
    fn deallocated(&self, size: usize) {
        self.deallocations.fetch_add(1, Relaxed);
        self.bytes_deallocated.fetch_add(size as u64, Relaxed);
    }

    #[inline(always)]
    fn reallocated(&self, old_size: usize, new_size: usize) {
        self.reallocations.fetch_add(1, Relaxed);
        self.bytes_allocated.fetch_add(new_size as u64, Relaxed);
        self.bytes_deallocated.fetch_add(old_size as u64, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // This crate's test binary uses the system allocator directly, and no
    // test here calls a `CountingAlloc`.
    #[test]
    fn without_installation_nothing_is_counted() {
        assert!(!is_installed());
        assert_eq!(snapshot(), AllocCounts::default());
    }

    #[test]
    fn since_subtracts_field_by_field_and_saturates() {
        let earlier = AllocCounts {
            allocations: 3,
            deallocations: 2,
            reallocations: 1,
            bytes_allocated: 100,
            bytes_deallocated: 60,
        };
        let later = AllocCounts {
            allocations: 5,
            deallocations: 2,
            reallocations: 0,
            bytes_allocated: 148,
            bytes_deallocated: 70,
        };
        assert_eq!(
            later.since(earlier),
            AllocCounts {
                allocations: 2,
                deallocations: 0,
                reallocations: 0,
                bytes_allocated: 48,
                bytes_deallocated: 10,
            }
        );
    }
}
