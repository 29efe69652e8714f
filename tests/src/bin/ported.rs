//! A criterion bench file ported as the README's "Coming from criterion /
//! divan" says. The criterion original:
//!
//! ```ignore
//! fn find_byte(c: &mut Criterion) {
//!     let mut group = c.benchmark_group("find_byte");
//!     group.sample_size(20);
//!     for len in [64, 1024] {
//!         let hay = haystack(len);
//!         group.throughput(Throughput::Bytes(len as u64));
//!         group.bench_with_input(BenchmarkId::new("naive", len), &hay, |b, h| {
//!             b.iter(|| naive(h))
//!         });
//!         group.bench_with_input(BenchmarkId::new("chunked", len), &hay, |b, h| {
//!             b.iter(|| chunked(h))
//!         });
//!     }
//!     group.finish();
//! }
//! fn threads(c: &mut Criterion) {
//!     c.bench_function("sum_on_2_threads", |b| b.iter_custom(|iters| { ... }));
//! }
//! criterion_group! {
//!     name = benches;
//!     config = Criterion::default().measurement_time(Duration::from_millis(200));
//!     targets = find_byte, threads
//! }
//! criterion_main!(benches);
//! ```
//!
//! Its ids (`find_byte/naive/1024`) are the names here too.

use std::time::{Duration, Instant};

use bench_harness::{benchmark, black_box, Bencher, Throughput};

fn haystack(len: usize) -> Vec<u8> {
    let mut hay = vec![0u8; len];
    hay[len - 1] = 1;
    hay
}

fn naive_find(hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&byte| byte == 1)
}

fn chunked_find(hay: &[u8]) -> Option<usize> {
    hay.chunks(8)
        .enumerate()
        .find_map(|(i, chunk)| chunk.iter().position(|&b| b == 1).map(|j| i * 8 + j))
}

// criterion's `group.sample_size(20)`: every member of the group.
bench_harness::group!(name = "find_byte", min_samples = 20, bytes_unit = "binary");

#[benchmark(group = "find_byte", args = [64, 1024])]
fn naive(b: &mut Bencher, len: usize) {
    let hay = haystack(len);
    b.throughput(Throughput::Bytes(len as u64));
    b.iter(|| naive_find(&hay))
}

#[benchmark(group = "find_byte", args = [64, 1024])]
fn chunked(b: &mut Bencher, len: usize) {
    let hay = haystack(len);
    b.throughput(Throughput::Bytes(len as u64));
    b.iter(|| chunked_find(&hay))
}

/// Work split over two threads, timed by the body itself: the threads'
/// start-up is part of the work, the haystack's set-up is not.
#[benchmark]
fn sum_on_2_threads(b: &mut Bencher) {
    let data: Vec<u64> = (0..4096).collect();
    b.iter_custom(|iters| {
        let start = Instant::now();
        for _ in 0..iters {
            let (left, right) = data.split_at(data.len() / 2);
            let total = std::thread::scope(|scope| {
                let left = scope.spawn(|| left.iter().sum::<u64>());
                let right = right.iter().sum::<u64>();
                left.join().expect("the summing thread returns") + right
            });
            black_box(total);
        }
        start.elapsed()
    })
}

/// A device that reports its own time: a fixed 50 µs per iteration, with
/// nothing measured by the harness's clock.
#[benchmark]
fn device_reported(b: &mut Bencher) {
    b.iter_custom(|iters| Duration::from_micros(50) * iters as u32)
}

/// A misuse: a body measures two routines. Ignored unless asked for; its
/// failure must point here, not into the harness.
#[benchmark(ignore)]
fn iterates_twice(b: &mut Bencher) {
    b.iter(|| black_box(1));
    b.iter(|| black_box(2));
}

// criterion's `config = Criterion::default().measurement_time(..)`.
bench_harness::main!(measure_time = 0.2, warm_up_time = 0.05);
