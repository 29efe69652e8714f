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
        "with_lifetimes",
        "from_macro_rules",
        "renamed_crate",
        "loop",
        "bencher",
        "b",
        "in_a_function",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert!(!names.contains(&"compiled_out"));
    assert!(!names.contains(&"compiled_out_after"));
    assert_eq!(names.len(), 10);
    assert_eq!(value(), 2);
}
