//! The anchor suite: ten kernels whose headline should come out the same
//! run after run, used to measure the harness's repeatability
//! (`cargo bench --bench anchor`, several times, then compare the rows).
//!
//! - `empty`: an empty body, judged against the loop's own cost;
//! - `imul_N`: `N` dependent multiplies ([`imul_chain`]), from 100 to a
//!   million, compute-bound and of known relative cost;
//! - `sum_vec_1k`, `sort_1k`, `alloc_vec_64`: memory, branches and the
//!   allocator, whose times depend more on the machine's state.

use bench_harness::known_cost::imul_chain;
use bench_harness::{benchmark, black_box, Bencher};

#[benchmark]
fn empty() {}

#[benchmark]
fn imul_100() -> u64 {
    imul_chain::<100>(black_box(3))
}

#[benchmark]
fn imul_1000() -> u64 {
    imul_chain::<1000>(black_box(3))
}

#[benchmark]
fn imul_1020() -> u64 {
    imul_chain::<1020>(black_box(3))
}

#[benchmark]
fn imul_1050() -> u64 {
    imul_chain::<1050>(black_box(3))
}

#[benchmark]
fn imul_10000() -> u64 {
    imul_chain::<10000>(black_box(3))
}

#[benchmark]
fn imul_1000000() -> u64 {
    imul_chain::<1_000_000>(black_box(3))
}

/// The sum of 1000 integers.
#[benchmark]
fn sum_vec_1k(b: &mut Bencher) {
    let data: Vec<u64> = (0..1000).collect();
    b.iter(|| black_box(&data).iter().sum::<u64>())
}

/// A copy of 1000 pseudo-random integers, sorted.
#[benchmark]
fn sort_1k(b: &mut Bencher) {
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let data: Vec<u32> = (0..1000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        })
        .collect();
    b.iter(|| {
        let mut v = data.clone();
        v.sort();
        v
    })
}

/// A vector of 64 bytes, allocated and freed.
#[benchmark]
fn alloc_vec_64() {
    drop(black_box(vec![7u8; black_box(64)]));
}

bench_harness::main!();
