//! The counting allocator, installed as this test binary's global allocator.
//!
//! The counts are process-wide and libtest allocates on its own threads
//! while a test runs (seen under qemu: 48 bytes in the middle of a `drop`),
//! so this test is a plain program (`harness = false`): one thread, every
//! exact check one after the other, the counts read tightly around each
//! operation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;

use bench_runtime::counter::alloc::{is_installed, snapshot, AllocCounts, CountingAlloc};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc::new();

fn main() {
    assert!(is_installed());
    a_box_is_one_allocation_and_one_deallocation();
    a_vec_with_capacity_allocates_its_capacity();
    zeroed_memory_counts_as_an_allocation();
    a_string_allocates_its_length();
    zero_sized_values_count_nothing();
    a_growing_vec_reallocates_as_its_capacity_changes();
    a_shrinking_vec_reallocates_then_deallocates();
    a_wrapped_allocator_counts_direct_calls();
    failed_calls_count_nothing();
    other_threads_are_counted();
    println!("test known_allocations_are_counted_exactly ... ok");
}

/// Runs `f` and returns its value with the counts of what it did.
fn counted<T>(f: impl FnOnce() -> T) -> (T, AllocCounts) {
    let before = snapshot();
    let value = black_box(f());
    (value, snapshot().since(before))
}

fn allocated(allocations: u64, bytes: u64) -> AllocCounts {
    AllocCounts {
        allocations,
        bytes_allocated: bytes,
        ..AllocCounts::default()
    }
}

fn deallocated(deallocations: u64, bytes: u64) -> AllocCounts {
    AllocCounts {
        deallocations,
        bytes_deallocated: bytes,
        ..AllocCounts::default()
    }
}

fn a_box_is_one_allocation_and_one_deallocation() {
    let (boxed, counts) = counted(|| Box::new(5u64));
    assert_eq!(counts, allocated(1, 8));
    let ((), counts) = counted(|| drop(boxed));
    assert_eq!(counts, deallocated(1, 8));
}

fn a_vec_with_capacity_allocates_its_capacity() {
    let (v, counts) = counted(|| Vec::<u32>::with_capacity(100));
    assert_eq!(counts, allocated(1, 400));
    let ((), counts) = counted(|| drop(v));
    assert_eq!(counts, deallocated(1, 400));
}

fn zeroed_memory_counts_as_an_allocation() {
    let (v, counts) = counted(|| vec![0u8; 64]);
    assert_eq!(counts, allocated(1, 64));
    let ((), counts) = counted(|| drop(v));
    assert_eq!(counts, deallocated(1, 64));
}

fn a_string_allocates_its_length() {
    let text = black_box("seventeen bytes!!");
    let (s, counts) = counted(|| String::from(text));
    assert_eq!(counts, allocated(1, 17));
    let ((), counts) = counted(|| drop(s));
    assert_eq!(counts, deallocated(1, 17));
}

fn zero_sized_values_count_nothing() {
    let ((), counts) = counted(|| {
        drop(black_box(Vec::<()>::with_capacity(10)));
        drop(black_box(Box::new(())));
        drop(black_box(Vec::<u32>::new()));
        drop(black_box(String::new()));
    });
    assert_eq!(counts, AllocCounts::default());
}

fn a_growing_vec_reallocates_as_its_capacity_changes() {
    let mut capacities = [0; 6];
    let (v, counts) = counted(|| {
        let mut v: Vec<u32> = Vec::new();
        capacities[0] = v.capacity();
        for i in 0..5 {
            v.push(black_box(i as u32));
            capacities[i + 1] = v.capacity();
        }
        v
    });
    let expected = expected_from_capacities(&capacities, 4);
    assert!(
        expected.reallocations >= 1,
        "5 pushes should regrow at least once: capacities {capacities:?}"
    );
    assert_eq!(counts, expected, "capacities {capacities:?}");
    let bytes = 4 * v.capacity() as u64;
    let ((), counts) = counted(|| drop(v));
    assert_eq!(counts, deallocated(1, bytes));
}

fn a_shrinking_vec_reallocates_then_deallocates() {
    let mut v: Vec<u32> = black_box(Vec::with_capacity(8));
    v.extend([1, 2, 3, 4, 5]);
    let mut capacities = [v.capacity(), 0, 0];
    let ((), counts) = counted(|| {
        v.shrink_to_fit();
        capacities[1] = v.capacity();
        v.clear();
        v.shrink_to_fit();
        capacities[2] = v.capacity();
    });
    assert_eq!(capacities, [8, 5, 0]);
    assert_eq!(counts, expected_from_capacities(&capacities, 4));
    assert_eq!(
        counts,
        AllocCounts {
            deallocations: 1,
            reallocations: 1,
            bytes_allocated: 20,
            bytes_deallocated: 32 + 20,
            ..AllocCounts::default()
        }
    );
}

/// What a `Vec` whose capacity went through `capacities` asked the
/// allocator for, by the documented counting rules.
fn expected_from_capacities(capacities: &[usize], element_size: usize) -> AllocCounts {
    let bytes = |capacity: usize| (capacity * element_size) as u64;
    let mut expected = AllocCounts::default();
    for pair in capacities.windows(2) {
        let (old, new) = (bytes(pair[0]), bytes(pair[1]));
        match (old, new) {
            _ if old == new => {}
            (0, _) => {
                expected.allocations += 1;
                expected.bytes_allocated += new;
            }
            (_, 0) => {
                expected.deallocations += 1;
                expected.bytes_deallocated += old;
            }
            _ => {
                expected.reallocations += 1;
                expected.bytes_allocated += new;
                expected.bytes_deallocated += old;
            }
        }
    }
    expected
}

fn a_wrapped_allocator_counts_direct_calls() {
    let counting = CountingAlloc::with(System);
    let layout = Layout::from_size_align(24, 8).unwrap();
    let (ptr, counts) = counted(|| {
        // SAFETY: `layout` has a non-zero size.
        unsafe { counting.alloc(layout) }
    });
    assert!(!ptr.is_null());
    assert_eq!(counts, allocated(1, 24));
    let (ptr, counts) = counted(|| {
        // SAFETY: `ptr` came from `counting` with `layout`; 40 bytes at
        // alignment 8 is a valid layout.
        unsafe { counting.realloc(ptr, layout, 40) }
    });
    assert!(!ptr.is_null());
    assert_eq!(
        counts,
        AllocCounts {
            reallocations: 1,
            bytes_allocated: 40,
            bytes_deallocated: 24,
            ..AllocCounts::default()
        }
    );
    let grown = Layout::from_size_align(40, 8).unwrap();
    let ((), counts) = counted(|| {
        // SAFETY: `ptr` came from `counting`'s realloc to 40 bytes, which is
        // `grown`.
        unsafe { counting.dealloc(ptr, grown) }
    });
    assert_eq!(counts, deallocated(1, 40));
}

/// An allocator that has no memory to give.
struct Exhausted;

// SAFETY: it never returns memory, so it never breaks a promise about it;
// `dealloc` is never called since no allocation ever succeeded.
unsafe impl GlobalAlloc for Exhausted {
    unsafe fn alloc(&self, _: Layout) -> *mut u8 {
        std::ptr::null_mut()
    }

    unsafe fn dealloc(&self, _: *mut u8, _: Layout) {
        unreachable!("nothing was allocated")
    }
}

fn failed_calls_count_nothing() {
    let counting = CountingAlloc::with(Exhausted);
    let layout = Layout::new::<[u64; 4]>();
    let ((), counts) = counted(|| {
        // SAFETY: `layout` has a non-zero size.
        assert!(unsafe { counting.alloc(layout) }.is_null());
        // SAFETY: as above.
        assert!(unsafe { counting.alloc_zeroed(layout) }.is_null());
    });
    assert_eq!(counts, AllocCounts::default());
}

fn other_threads_are_counted() {
    const MIB: usize = 1 << 20;
    let ((), counts) = counted(|| {
        std::thread::spawn(|| drop(black_box(vec![1u8; MIB])))
            .join()
            .unwrap()
    });
    // Starting and ending a thread allocates too.
    assert!(counts.allocations >= 1, "{counts:?}");
    assert!(counts.bytes_allocated >= MIB as u64, "{counts:?}");
    assert!(counts.bytes_deallocated >= MIB as u64, "{counts:?}");
}
