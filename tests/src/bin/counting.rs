//! A bench binary that counts its allocations: `CountingAlloc` is its
//! global allocator, and each benchmark allocates a known amount.

use bench_harness::{benchmark, black_box, CountingAlloc};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc::new();

/// Three allocations of 8 bytes, freed within the iteration.
#[benchmark]
fn three_boxes() -> u64 {
    let a = black_box(Box::new(1u64));
    let b = black_box(Box::new(2u64));
    let c = black_box(Box::new(3u64));
    *a + *b + *c
}

/// Nothing allocated.
#[benchmark]
fn no_allocation() -> u64 {
    black_box(7u64) * 6
}

bench_harness::main!();
