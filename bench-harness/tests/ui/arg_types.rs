use bench_harness::benchmark;

// Copied into every iteration: must be `Copy`.
#[benchmark(args = [vec![1u8]])]
fn not_copy(data: Vec<u8>) -> usize {
    data.len()
}

struct Opaque;

// Named by `Display` or `Debug`: must have one.
#[benchmark(args = [Opaque])]
fn unnamed(_value: &Opaque) {}

fn main() {}
