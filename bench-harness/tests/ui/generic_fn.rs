use bench_harness::benchmark;

#[benchmark]
fn sort<T: Ord + Default>() -> Vec<T> {
    let mut v = vec![T::default()];
    v.sort();
    v
}

#[benchmark]
fn fill<const N: usize>() -> [u8; N] {
    [0; N]
}

fn main() {}
