use bench_harness::benchmark;

// The command line takes at most a day of seconds, 10 million samples and
// 100 percent; so does the attribute.

#[benchmark(warm_up_time = 86401, measure_time = 1e6, max_time = 100000.5)]
fn longer_than_a_day() {}

#[benchmark(max_time = 1e400)]
fn too_large_for_a_float() {}

#[benchmark(min_samples = 10_000_001)]
fn too_many_samples() {}

#[benchmark(min_samples = 100000000000000000000000)]
fn too_large_for_a_usize() {}

#[benchmark(precision = 100.5)]
fn over_a_hundred_percent() {}

fn main() {}
