//! A bench binary for the authoring API: parameterised, generic, batched,
//! throughput and complexity benchmarks with known shapes.

use std::time::{Duration, Instant};

use bench_harness::{benchmark, black_box, Bencher, Throughput};

/// `n` dependent multiplies: cost proportional to `n`.
fn linear_work(n: u64) -> u64 {
    let mut x = black_box(3u64);
    for _ in 0..n {
        x = black_box(x.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
    x
}

#[benchmark(args = [250, 1000, 4000, 16000], complexity)]
fn linear(n: u64) -> u64 {
    linear_work(n)
}

#[benchmark(args = [8, 16, 32, 64, 128], complexity)]
fn quadratic(n: u64) -> u64 {
    (0..n).map(|_| linear_work(n)).fold(0, u64::wrapping_add)
}

// Names that sort differently as text and as numbers.
#[benchmark(args = [2, 10, 1])]
fn sizes(n: usize) -> usize {
    n
}

#[benchmark(types = [u8, u64, String])]
fn make<T: Default>() -> T {
    T::default()
}

#[benchmark(bytes = 4096)]
fn copy_page(b: &mut Bencher) {
    let source = vec![1u8; 4096];
    let mut target = vec![0u8; 4096];
    b.iter(|| target.copy_from_slice(black_box(&source)));
}

#[benchmark(args = [100, 1000])]
fn count_items(b: &mut Bencher, n: u64) {
    b.throughput(Throughput::Items(n));
    b.iter(|| (0..black_box(n)).sum::<u64>());
}

/// 50 µs of set-up for a routine of about a nanosecond: must finish within
/// its budget, not hang (divan's issue #80).
#[benchmark]
fn slow_setup(b: &mut Bencher) {
    b.iter_batched(
        || {
            let start = Instant::now();
            while start.elapsed() < Duration::from_micros(50) {}
            black_box(7u64)
        },
        |x| x.wrapping_add(1),
    );
}

#[benchmark]
async fn awaits() -> u64 {
    black_box(5)
}

bench_harness::main!();
