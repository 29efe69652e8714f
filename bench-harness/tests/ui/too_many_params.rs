use bench_harness::{benchmark, Bencher};

#[benchmark]
fn sort(b: &mut Bencher, len: usize) {
    b.iter(|| vec![0u8; len]);
}

#[benchmark]
fn fib(n: u64) -> u64 {
    n
}

#[benchmark]
fn sum(b: &mut Bencher) -> u64 {
    b.iter(|| 1 + 1);
    2
}

fn main() {}
