use bench_harness::benchmark;

// Generic without `types`.
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

#[benchmark(types = [u8, u16])]
fn two<A: Default, B: Default>() -> (A, B) {
    Default::default()
}

// `types` without a type parameter.
#[benchmark(types = [u8])]
fn concrete() -> u8 {
    1
}

#[benchmark(types = [])]
fn empty<T: Default>() -> T {
    T::default()
}

#[benchmark(types = u8)]
fn not_a_list<T: Default>() -> T {
    T::default()
}

fn main() {}
