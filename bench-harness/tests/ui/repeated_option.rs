use bench_harness::benchmark;

#[benchmark(name = "fast", ignore, name = "slow")]
fn twice() {}

#[benchmark(ignore, ignore)]
fn ignored_twice() {}

fn main() {}
