//! The example suite: `cargo bench --bench suite`.
//!
//! `primitives` reproduces the classic table of primitive-operation costs
//! from Lawlor's "Measuring Performance via the Scientific Method" (CS 301):
//! integer and float arithmetic, a call, an allocation, a timer read, opening
//! a file. Each value goes in and comes out through `black_box`, so the
//! compiler can neither fold the operation at compile time nor delete it; the
//! figures therefore include a load and a store around each operation, as
//! Lawlor's function-call table includes its call.
//!
//! `kernels` measures realistic work: sorting, hashing, formatting, parsing.
//!
//! `insert_10k` is an A/B group whose routines return large values: two
//! hash maps of 10,000 entries, about 256 KB each.
//!
//! `scaling` shows the authoring API: one benchmark per argument (`args`)
//! or type (`types`), inputs built outside the timed region
//! (`iter_batched_ref`), throughput, and the complexity fit over the sizes.

use bench_examples::{fib, fnv1a, make_data, sum_csv_line};
use bench_harness::{benchmark, black_box, Bencher, Throughput};

#[benchmark]
fn fib_20() -> u64 {
    fib(black_box(20))
}

mod primitives {
    use super::*;

    #[benchmark]
    fn int_add() -> u64 {
        black_box(10u64) + black_box(11u64)
    }

    #[benchmark]
    fn int_mul() -> u64 {
        black_box(10u64) * black_box(11u64)
    }

    #[benchmark]
    fn int_div() -> u64 {
        black_box(1_000_003u64) / black_box(11u64)
    }

    #[benchmark]
    fn float_add() -> f64 {
        black_box(2.3f64) + black_box(3.4f64)
    }

    #[benchmark]
    fn float_mul() -> f64 {
        black_box(2.3f64) * black_box(3.4f64)
    }

    #[benchmark]
    fn float_div() -> f64 {
        black_box(2.3f64) / black_box(3.4f64)
    }

    #[benchmark]
    fn float_sqrt() -> f64 {
        black_box(2.3f64).sqrt()
    }

    #[benchmark]
    fn float_cos() -> f64 {
        black_box(2.3f64).cos()
    }

    #[inline(never)]
    fn constant(x: u64) -> u64 {
        x
    }

    /// A call that cannot be inlined: Lawlor's `fn_call`.
    #[benchmark]
    fn function_call() -> u64 {
        constant(black_box(0))
    }

    /// Allocate 4 bytes and free them again (Lawlor's `malloc`/`free`).
    #[benchmark]
    fn malloc_free() {
        drop(black_box(Box::new(black_box(4u32))));
    }

    /// A vector of ten integers, allocated and filled, then freed.
    #[benchmark]
    fn vec_alloc() {
        drop(black_box(vec![3u32; black_box(10)]));
    }

    /// One read of the standard library's monotonic clock.
    #[benchmark]
    fn timer_read() -> std::time::Instant {
        std::time::Instant::now()
    }

    /// Open and close an existing file (Lawlor's `ofstream`).
    #[benchmark]
    fn file_open(b: &mut Bencher) {
        let path = std::env::temp_dir().join(format!("bench-harness-open-{}", std::process::id()));
        std::fs::write(&path, b"bench-harness").expect("the temp dir is writable");
        b.iter(|| drop(std::fs::File::open(black_box(&path)).expect("the file exists")));
        let _ = std::fs::remove_file(&path);
    }
}

mod kernels {
    use super::*;

    /// `sort_1k` and `sort_unstable_1k` form an in-run A/B group: they run
    /// round by round, one sample each, and the report gives the ratio of
    /// `sort_unstable_1k` to `sort_1k` with its confidence interval.
    #[benchmark(group = "sort", baseline)]
    fn sort_1k(b: &mut Bencher) {
        let data: Vec<u32> = make_data(1000); // set-up, not timed
        b.iter(|| {
            let mut v = data.clone();
            v.sort();
            v // dropped outside the timed region
        })
    }

    #[benchmark(group = "sort")]
    fn sort_unstable_1k(b: &mut Bencher) {
        let data: Vec<u32> = make_data(1000);
        b.iter(|| {
            let mut v = data.clone();
            v.sort_unstable();
            v
        })
    }

    /// The standard library's SipHash over 1 KiB.
    #[benchmark]
    fn hash_siphash_1k(b: &mut Bencher) {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let bytes = vec![0xA5u8; 1024];
        let build = BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default();
        b.iter(|| build.hash_one(black_box(&bytes)))
    }

    /// FNV-1a over 1 KiB: byte at a time, a multiply per byte.
    #[benchmark]
    fn hash_fnv1a_1k(b: &mut Bencher) {
        let bytes = vec![0xA5u8; 1024];
        b.iter(|| fnv1a(black_box(&bytes)))
    }

    #[benchmark]
    fn format_float(b: &mut Bencher) {
        b.iter(|| format!("{:>10.3} ms", black_box(1234.5678f64)))
    }

    #[benchmark]
    fn format_int(b: &mut Bencher) {
        b.iter(|| black_box(123_456_789u64).to_string())
    }

    /// Parse and sum a line of 100 comma-separated integers.
    #[benchmark]
    fn parse_csv_line(b: &mut Bencher) {
        let line: String = make_data(100)
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",");
        b.iter(|| sum_csv_line(black_box(&line)))
    }

    #[benchmark]
    fn parse_f64(b: &mut Bencher) {
        b.iter(|| black_box("12345.678e-3").parse::<f64>())
    }
}

/// The standard library's `HashMap` (SipHash) against `hashbrown`'s (the
/// same table, with foldhash), each inserting 10,000 `u64` keys into a new
/// map and returning it. A map is about 256 KB; the harness drops it outside
/// the timed region. The group should give the same ratio as the two
/// measured alone (`-- --exact insert_10k/maps::std` and
/// `insert_10k/maps::hashbrown`).
mod maps {
    use super::*;

    fn keys() -> Vec<u64> {
        make_data(10_000).into_iter().map(u64::from).collect()
    }

    #[benchmark(group = "insert_10k", baseline)]
    fn std(b: &mut Bencher) {
        let keys = keys();
        b.iter(|| {
            let mut map = std::collections::HashMap::new();
            for &key in &keys {
                map.insert(key, key);
            }
            map
        })
    }

    #[benchmark(group = "insert_10k")]
    fn hashbrown(b: &mut Bencher) {
        let keys = keys();
        b.iter(|| {
            let mut map = hashbrown::HashMap::new();
            for &key in &keys {
                map.insert(key, key);
            }
            map
        })
    }
}

mod scaling {
    use super::*;

    /// Sorting fresh, unsorted data of each size: the input is built before
    /// each sample, untimed, and sorted in place. The report fits a growth
    /// class over the sizes (expect O(n log n), which at these sizes is
    /// hard to tell from O(n)).
    #[benchmark(args = [100, 1_000, 10_000], complexity)]
    fn sort(b: &mut Bencher, len: usize) {
        b.throughput(Throughput::Items(len as u64));
        b.iter_batched_ref(|| make_data(len), |v| v.sort_unstable());
    }

    /// FNV-1a over buffers of each size, reported as bytes per second.
    #[benchmark(args = [64, 4096])]
    fn fnv1a_bytes(b: &mut Bencher, len: usize) {
        let bytes = vec![0xA5u8; len];
        b.throughput(Throughput::Bytes(len as u64));
        b.iter(|| fnv1a(black_box(&bytes)))
    }

    /// Parsing the same digits as each integer type.
    #[benchmark(types = [u32, u64, i128])]
    fn parse_int<T: std::str::FromStr>() -> Option<T> {
        black_box("123456789").parse::<T>().ok()
    }

    /// A future that is ready at once: the executor's own cost per await.
    #[benchmark]
    async fn ready_future() -> u64 {
        black_box(7)
    }
}

bench_harness::main!();
