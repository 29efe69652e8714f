//! A criterion file's settings, ported: the file's in `main!`, a group's in
//! `group!`, a benchmark's own in its attribute.
use std::time::{Duration, Instant};

use bench_harness::{benchmark, black_box, Bencher};

bench_harness::group!(name = "find_byte", min_samples = 50, bytes_unit = "binary");

#[benchmark(group = "find_byte", args = [16, 1024], bytes = 1024)]
fn naive(n: usize) -> usize {
    black_box(n)
}

#[benchmark(measure_time = 0.5)]
fn self_timed(b: &mut Bencher) {
    b.iter_custom(|iters| {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(1 + 1);
        }
        start.elapsed() + Duration::ZERO
    })
}

bench_harness::main!(max_time = 2, min_samples = 20, bytes_unit = "decimal");
