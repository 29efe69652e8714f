use bench_harness::{benchmark, Bencher};

// `args` without a parameter to receive the values.
#[benchmark(args = [1, 2])]
fn no_param() -> u32 {
    1
}

#[benchmark(args = [1, 2])]
fn only_bencher(b: &mut Bencher) {
    b.iter(|| 1);
}

// A parameter without `args`.
#[benchmark]
fn no_args(n: usize) -> usize {
    n
}

#[benchmark]
fn no_args_with_bencher(b: &mut Bencher, n: usize) {
    b.iter(|| n);
}

// The bencher after the argument.
#[benchmark(args = [1])]
fn bencher_second(n: usize, b: &mut Bencher) {
    b.iter(|| n);
}

#[benchmark(args = [])]
fn no_values(n: usize) -> usize {
    n
}

// `complexity` needs `args`.
#[benchmark(complexity)]
fn no_sizes() {}

fn main() {}
