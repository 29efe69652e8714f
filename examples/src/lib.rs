//! Code the example suite measures (`benches/suite.rs`). It lives in a
//! library so the benchmarks show the usual shape: a crate's own functions,
//! measured from its bench target.
#![forbid(unsafe_code)]

/// The n-th Fibonacci number, computed the slow recursive way on purpose.
pub fn fib(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

/// `len` pseudo-random numbers from a fixed seed (xorshift), so every run
/// sorts the same input.
pub fn make_data(len: usize) -> Vec<u32> {
    let mut state: u32 = 0x9E37_79B9;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        })
        .collect()
}

/// Sums a line of comma-separated unsigned integers; `None` on a bad field.
pub fn sum_csv_line(line: &str) -> Option<u64> {
    line.split(',')
        .map(|field| field.trim().parse::<u64>().ok())
        .sum()
}

/// FNV-1a, 64-bit: a small non-cryptographic hash.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Benchmarks of this library's private functions, compiled only with the
/// `bench` feature (bench-harness is then a dependency of the library
/// itself): `cargo bench -p bench-examples --features bench --bench library`.
///
/// Registration happens at link time: the linker keeps an object of this
/// library only if the bench target uses something in it, so the bench
/// target calls [`benches::link`] (see `benches/library.rs`); without that
/// call these benchmarks are silently missing (divan's issues #2 and #26).
#[cfg(feature = "bench")]
pub mod benches {
    use bench_harness::{benchmark, black_box, Bencher};

    /// Call this from the bench target's `main` so that the linker keeps
    /// the benchmarks in this module.
    #[inline(never)]
    pub fn link() {
        black_box(());
    }

    #[benchmark(args = [16, 256, 4096], complexity)]
    fn checksum_private(b: &mut Bencher, len: usize) {
        let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
        b.throughput(bench_harness::Throughput::Bytes(len as u64));
        b.iter(|| super::checksum(black_box(&data)));
    }
}

/// A private helper the `benches` module measures.
#[cfg_attr(not(feature = "bench"), allow(dead_code))]
fn checksum(data: &[u8]) -> u32 {
    data.iter()
        .fold(0u32, |sum, &byte| sum.rotate_left(5) ^ u32::from(byte))
}
