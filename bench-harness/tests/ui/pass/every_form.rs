//! The expansion is lint-clean under strict user lints, and works from a
//! renamed crate and inside a function body.
#![deny(warnings, rust_2018_idioms, unused_qualifications, unreachable_pub)]

extern crate bench_harness as renamed;

use bench_harness::__private::{inventory, BenchEntry};
use bench_harness::{benchmark, black_box, Bencher};

#[benchmark]
fn returns_nothing() {}

#[benchmark(name = "returns_a_value", ignore)]
fn value() -> u64 {
    black_box(1) + 1
}

#[benchmark(warm_up_time = 0.1, measure_time = 1, max_time = 2, min_samples = 5)]
fn with_options(bencher: &mut Bencher<'_>) {
    bencher.iter(|| black_box(2) * 2);
}

// The largest values the command line accepts too.
#[benchmark(
    warm_up_time = 86400,
    max_time = 86400.0,
    min_samples = 10_000_000,
    precision = 100
)]
fn at_the_bounds() {}

// The smallest: no warm-up, no precision rule (as `--warm-up-time 0
// --precision 0`).
#[benchmark(warm_up_time = 0, precision = 0)]
fn at_the_lower_bounds() {}

#[benchmark]
fn with_lifetimes<'a, 'b>(b: &'a mut Bencher<'b>) {
    b.iter(|| ());
}

macro_rules! bench_with {
    ($name:ident, $bencher:ty) => {
        #[benchmark]
        fn $name(b: $bencher) {
            b.iter(|| ());
        }
    };
}

bench_with!(from_macro_rules, &mut Bencher<'_>);

mod through_renamed {
    #[renamed::benchmark(crate = renamed)]
    fn renamed_crate(b: &mut renamed::Bencher<'_>) {
        b.iter(|| ());
    }
}

#[benchmark]
fn r#loop() {}

// Names the generated code also uses.
#[benchmark]
fn bencher() {}

#[benchmark]
fn b(b: &mut Bencher<'_>) {
    b.iter(|| ());
}

#[benchmark(args = [1, 2], complexity, precision = 2)]
fn with_args(n: u32) -> u32 {
    n
}

#[benchmark(args = ["a", "b"], bytes = 64)]
fn with_args_and_bencher(b: &mut Bencher<'_>, text: &str) {
    b.iter(|| text.len());
}

#[benchmark(types = [u8, Vec<u8>], items = 8)]
fn with_types<T: Default>() -> T {
    T::default()
}

#[benchmark]
async fn asynchronous() -> u8 {
    1
}

#[benchmark(args = [3])]
async fn asynchronous_with_args(n: u8) -> u8 {
    n
}

#[cfg(any())]
#[benchmark]
fn compiled_out() {}

// rustc applies the `#[cfg]` before the attribute sees the function.
#[benchmark]
#[cfg(any())]
fn compiled_out_after() {}

fn main() {
    #[benchmark]
    fn in_a_function() -> u8 {
        3
    }

    let names: Vec<&str> = inventory::iter::<BenchEntry>
        .into_iter()
        .map(|entry| entry.name)
        .collect();
    for name in [
        "returns_nothing",
        "returns_a_value",
        "with_options",
        "at_the_bounds",
        "at_the_lower_bounds",
        "with_lifetimes",
        "from_macro_rules",
        "renamed_crate",
        "loop",
        "bencher",
        "b",
        "in_a_function",
        "with_args",
        "with_args_and_bencher",
        "with_types",
        "asynchronous",
        "asynchronous_with_args",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert!(!names.contains(&"compiled_out"));
    assert!(!names.contains(&"compiled_out_after"));
    // One entry per type.
    assert_eq!(names.len(), 18);
    assert_eq!(value(), 2);
}
