use bench_harness::benchmark;

#[benchmark(bytes = 4096, bytes_unit = binary)]
fn copy_4k() {}

#[benchmark(bytes = 4096, bytes_unit = "GiB")]
fn copy_4k_again() {}

fn main() {}
