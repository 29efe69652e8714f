use bench_harness::benchmark;

#[benchmark(baseline)]
fn reference() -> u64 {
    1
}

#[benchmark(group = "two words")]
fn spaced() {}

#[benchmark(group = 3)]
fn numbered() {}

fn main() {}
