use bench_harness::benchmark;

#[benchmark(sample_size = 10)]
fn from_criterion() {}

#[benchmark(iterations = 100)]
fn made_up() {}

fn main() {}
