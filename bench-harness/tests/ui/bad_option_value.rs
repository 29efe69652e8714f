use bench_harness::benchmark;

#[benchmark(min_samples = 0)]
fn no_samples() {}

#[benchmark(warm_up_time = "1s", measure_time = -2, max_time = 0)]
fn times_not_numbers() {}

#[benchmark(min_samples = 2.5, name = "has space", ignore = true)]
fn wrong_kinds() {}

#[benchmark(name = "", crate = "bench_harness")]
fn empty_name() {}

#[benchmark(warm_up_time = 1, measure_time = 5, max_time = 3)]
fn max_time_too_short() {}

#[benchmark(measure_time)]
fn missing_value() {}

fn main() {}
